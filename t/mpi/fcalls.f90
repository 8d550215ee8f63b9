! fcalls.f90 - the Fortran calls libtrc-mpi wraps, on 2 ranks, with
! known peers, tags and sizes (checked by t/4004-mpi-fortran.t); then
! communicators made in Fortran (a split, a 2 x 1 cart and its rows,
! MPI_COMM_SELF) and sendrecv, scan, iallreduce, waitany.
program fcalls
  use mpi
  implicit none
  integer :: ierr, rank, req, reqs(2), st(MPI_STATUS_SIZE), n, idx
  integer :: a(10), b(10), half, cart, row, dims(2)
  logical :: periods(2), remain(2)
  double precision :: x(4)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  a = rank
  if (rank == 0) then
    call MPI_Send(a, 10, MPI_INTEGER, 1, 41, MPI_COMM_WORLD, ierr)
    call MPI_Isend(a, 5, MPI_INTEGER, 1, 42, MPI_COMM_WORLD, req, ierr)
    call MPI_Wait(req, st, ierr)
  else
    call MPI_Recv(b, 10, MPI_INTEGER, MPI_ANY_SOURCE, 41, MPI_COMM_WORLD, st, ierr)
    call MPI_Irecv(b, 10, MPI_INTEGER, 0, 42, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Waitall(1, reqs, MPI_STATUSES_IGNORE, ierr)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  x = 1.0d0
  call MPI_Bcast(x, 4, MPI_DOUBLE_PRECISION, 1, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, x, 3, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  n = int(x(1))
  if (rank == 0) print '(a,i0)', 'allreduce ', n
  ! issue 11: communicators made in Fortran, and calls added
  call MPI_Comm_split(MPI_COMM_WORLD, 0, rank, half, ierr)
  call MPI_Barrier(half, ierr)
  dims = (/ 2, 1 /)
  periods = (/ .true., .false. /)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  remain = (/ .false., .true. /)
  call MPI_Cart_sub(cart, remain, row, ierr)
  call MPI_Allreduce(a, b, 2, MPI_INTEGER, MPI_SUM, cart, ierr)
  call MPI_Allreduce(a, b, 3, MPI_INTEGER, MPI_SUM, row, ierr)
  call MPI_Barrier(MPI_COMM_SELF, ierr)
  call MPI_Sendrecv(a, 4, MPI_INTEGER, 1 - rank, 43, b, 4, MPI_INTEGER, 1 - rank, 43, &
       MPI_COMM_WORLD, st, ierr)
  call MPI_Scan(a, b, 5, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Iallreduce(a, b, 6, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, st, ierr)
  call MPI_Irecv(b, 1, MPI_INTEGER, 1 - rank, 44, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send(a, 1, MPI_INTEGER, 1 - rank, 44, MPI_COMM_WORLD, ierr)
  call MPI_Waitany(1, reqs, idx, st, ierr)
  if (rank == 0) print '(a,i0)', 'waitany ', idx
  call MPI_Comm_free(row, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Comm_free(half, ierr)
  call MPI_Finalize(ierr)
end program fcalls

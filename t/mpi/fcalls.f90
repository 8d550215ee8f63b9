! fcalls.f90 - the Fortran calls libtrc-mpi wraps, on 2 ranks, with
! known peers, tags and sizes (checked by t/4004-mpi-fortran.t).
program fcalls
  use mpi
  implicit none
  integer :: ierr, rank, req, reqs(2), st(MPI_STATUS_SIZE), n
  integer :: a(10), b(10)
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
  call MPI_Finalize(ierr)
end program fcalls

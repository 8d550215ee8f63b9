/*
 * self - MPI_Barrier(MPI_COMM_SELF) and nothing else, the smallest
 * program whose trace every tool refused (issue 11), for t/4009.
 */
#include <mpi.h>

int
main(int argc, char *argv[])
{
	MPI_Init(&argc, &argv);
	MPI_Barrier(MPI_COMM_SELF);
	MPI_Finalize();
	return 0;
}

/*
 * behind.c - a receive behind the sender's next message: rank 0 sends
 * A (3856 bytes, heat's halo row at 480) to rank 1, computes 200 us and
 * sends B (4 bytes); rank 1 computes meanwhile and begins its receive
 * of A, long arrived, delta from -20 to +20 us after B's send began,
 * then receives B.  Per 4-us bin of delta: the receives, the median and
 * mean of A's receive and the median of B's.  Over Open MPI's TCP on
 * this host (2026-11-30, 2000 repetitions), A's receive begun before
 * B's send took 2.8 to 2.9 us (median), and B's receive then waited
 * for B; begun 4 us or more after it, 5.9 to 6.1 us, and B's receive
 * took 0.07 us: A's receive takes B as well, waiting for it while it
 * is on its way (0 to +4 us: 4.7 us), and the call that receives B is
 * the shorter.  So in make validate's heat over TCP
 * a halo receive begun after the peer entered the allreduce took 5 to
 * 9 us against 3.0 (the recv row, shm -> tcp).  Over shared memory
 * (vader) A's receive takes 0.18 us wherever it begins.  The argument:
 * repetitions (2000).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "micro.h"

#define BINS	10

static void
until(double t)
{
	while (now() < t)
		;
}

int
main(int argc, char **argv)
{
	static char a[3856], b[4];
	double t0, delta, rb, re, re2, *dur[BINS], *durb[BINS], sum[BINS];
	int rank, size, reps = 2000, i, k, n[BINS];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if ((argc > 1 && (reps = atoi(argv[1])) < 1) || size != 2) {
		if (rank == 0)
			fprintf(stderr, "usage: behind [repetitions] (2 ranks)\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (k = 0; k < BINS; k++) {
		if ((dur[k] = calloc((size_t)reps, sizeof(double))) == NULL ||
		    (durb[k] = calloc((size_t)reps, sizeof(double))) == NULL)
			MPI_Abort(MPI_COMM_WORLD, 2);
		n[k] = 0;
		sum[k] = 0;
	}
	srand(7);
	for (i = 0; i < reps; i++) {
		/* -20 to +20 us, in steps of 10 ns */
		delta = (double)(rand() % 4000 - 2000) * 1e-8;
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = now();
		MPI_Bcast(&t0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		t0 += 100e-6;
		if (rank == 0) {
			until(t0);
			MPI_Send(a, sizeof(a), MPI_BYTE, 1, 1, MPI_COMM_WORLD);
			until(t0 + 200e-6);
			MPI_Send(b, sizeof(b), MPI_BYTE, 1, 2, MPI_COMM_WORLD);
			continue;
		}
		until(t0 + 200e-6 + delta);
		rb = now();
		MPI_Recv(a, sizeof(a), MPI_BYTE, 0, 1, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
		re = now();
		MPI_Recv(b, sizeof(b), MPI_BYTE, 0, 2, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
		re2 = now();
		k = (int)((delta + 20e-6) / 4e-6);
		k = k < 0 ? 0 : k >= BINS ? BINS - 1 : k;
		durb[k][n[k]] = re2 - re;
		dur[k][n[k]++] = re - rb;
		sum[k] += re - rb;
	}
	if (rank == 1) {
		printf("delta (us)      receives  A median (us)  A mean (us)  B median (us)\n");
		for (k = 0; k < BINS; k++) {
			qsort(dur[k], (size_t)n[k], sizeof(double), cmp);
			qsort(durb[k], (size_t)n[k], sizeof(double), cmp);
			printf("%+4d to %+4d  %8d  %13.2f  %11.2f  %13.2f\n",
			    4 * k - 20, 4 * k - 16, n[k],
			    n[k] ? dur[k][n[k] / 2] * 1e6 : 0.0,
			    n[k] ? sum[k] / n[k] * 1e6 : 0.0,
			    n[k] ? durb[k][n[k] / 2] * 1e6 : 0.0);
		}
	}
	for (k = 0; k < BINS; k++) {
		free(dur[k]);
		free(durb[k]);
	}
	MPI_Finalize();
	return 0;
}

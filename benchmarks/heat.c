/*
 * trc-heat - the iterative 2-D heat solver of Mendes' section 5.
 *
 * An N x N plate with fixed boundary temperatures (the top edge hot,
 * the others cold) is relaxed by Jacobi steps until no point changes
 * by more than the tolerance.  The rows are split in blocks over the
 * ranks.  Each step runs the paper's three procedures, marked as
 * regions for the tracer with MPI_Pcontrol:
 *
 *	IterEdge	new values of the first and last owned rows, then
 *			sent to the neighbours: MPI_Isend upwards and a
 *			blocking MPI_Send downwards, as in the paper's
 *			Figure 7 (isend, csend, crecv)
 *	Iterate		new values of the interior rows, overlapping the
 *			messages in flight
 *	Converged	the local test, stopping at the first point that
 *			still moves by more than the tolerance, so its
 *			time grows as the plate settles
 *
 * The halo rows are then received, naming their source, and a global
 * MPI_Allreduce decides whether every rank has converged.
 */
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"

#define HOT	100.0
#define TAG_UP	1	/* a row travelling to the rank above */
#define TAG_DOWN 2	/* a row travelling to the rank below */

#define PROG	"trc-heat"

static const char usage_line[] =
    "trc-heat [-i iterations] [-n size] [--tolerance tolerance]";

/* Long options without a letter. */
enum { OPT_TOLERANCE = 256 };

#include "mpiprog.h"

/* New value of row i of the local block (1-based, halos at 0, n+1). */
static void
relax_row(const double *u, double *v, int i, int ncol)
{
	const double *up = u + (size_t)(i - 1) * ncol;
	const double *me = u + (size_t)i * ncol;
	const double *dn = u + (size_t)(i + 1) * ncol;
	double *out = v + (size_t)i * ncol;
	int j;

	for (j = 1; j < ncol - 1; j++)
		out[j] = 0.25 * (up[j] + dn[j] + me[j - 1] + me[j + 1]);
}

static int
converged(const double *u, const double *v, int nrow, int ncol, double tol)
{
	int i, j;

	for (i = 1; i <= nrow; i++)
		for (j = 1; j < ncol - 1; j++) {
			size_t k = (size_t)i * ncol + j;
			if (fabs(v[k] - u[k]) > tol)
				return 0;
		}
	return 1;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
		{ NULL, 0, NULL, 0 }
	};
	long maxit = 1000, n = 64;
	double tol = 1e-4, t0, t1, el, sum, gsum, *u, *v, *w;
	int c, up, down, nrow, ncol, it, done, i, j;
	MPI_Request req;

	early_options(argc, argv);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:n:", longopts, NULL)) != -1)
		switch (c) {
		case 'i':
			maxit = number(optarg, 1, 100000000, "iterations");
			break;
		case 'n':
			n = number(optarg, 1, 1000000, "size");
			break;
		case OPT_TOLERANCE:
			tol = decimal(optarg, DBL_MAX, "tolerance");
			break;
		default:
			usage(stderr, 2);
		}
	if (optind != argc)
		usage(stderr, 2);
	if (n < nranks) {
		if (rank == 0)
			fprintf(stderr, "trc-heat: size %ld smaller than %d ranks\n",
			    n, nranks);
		MPI_Finalize();
		return 2;
	}

	/* Block rows: the first n % nranks ranks hold one row more. */
	nrow = n / nranks + (rank < n % nranks);
	ncol = n + 2;
	up = rank - 1;
	down = rank + 1 < nranks ? rank + 1 : -1;
	u = calloc((size_t)(nrow + 2) * ncol, sizeof(*u));
	v = calloc((size_t)(nrow + 2) * ncol, sizeof(*v));
	if (u == NULL || v == NULL) {
		fprintf(stderr, "trc-heat: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (rank == 0)
		for (j = 0; j < ncol; j++)
			u[j] = v[j] = HOT;

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	done = 0;
	for (it = 0; it < maxit && !done; it++) {
		MPI_Pcontrol(1, "IterEdge");
		relax_row(u, v, 1, ncol);
		if (nrow > 1)
			relax_row(u, v, nrow, ncol);
		MPI_Pcontrol(-1, "IterEdge");
		if (up >= 0)
			MPI_Isend(v + ncol, ncol, MPI_DOUBLE, up, TAG_UP,
			    MPI_COMM_WORLD, &req);
		if (down >= 0)
			MPI_Send(v + (size_t)nrow * ncol, ncol, MPI_DOUBLE,
			    down, TAG_DOWN, MPI_COMM_WORLD);

		MPI_Pcontrol(1, "Iterate");
		for (i = 2; i < nrow; i++)
			relax_row(u, v, i, ncol);
		MPI_Pcontrol(-1, "Iterate");

		if (up >= 0)
			MPI_Recv(v, ncol, MPI_DOUBLE, up, TAG_DOWN,
			    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (down >= 0)
			MPI_Recv(v + (size_t)(nrow + 1) * ncol, ncol,
			    MPI_DOUBLE, down, TAG_UP, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
		if (up >= 0)
			MPI_Wait(&req, MPI_STATUS_IGNORE);

		MPI_Pcontrol(1, "Converged");
		done = converged(u, v, nrow, ncol, tol);
		MPI_Pcontrol(-1, "Converged");
		MPI_Allreduce(MPI_IN_PLACE, &done, 1, MPI_INT, MPI_MIN,
		    MPI_COMM_WORLD);
		w = u, u = v, v = w;
	}
	t1 = MPI_Wtime();
	el = t1 - t0;
	MPI_Reduce(rank == 0 ? MPI_IN_PLACE : &el, &el, 1, MPI_DOUBLE,
	    MPI_MAX, 0, MPI_COMM_WORLD);

	/* A checksum of the owned points, for tests against a serial run. */
	sum = 0;
	for (i = 1; i <= nrow; i++)
		for (j = 1; j < ncol - 1; j++)
			sum += u[(size_t)i * ncol + j];
	MPI_Reduce(&sum, &gsum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		printf("ranks %d\nsize %ld\niterations %d\nconverged %s\n"
		    "time %.6f\nchecksum %.6f\n", nranks, n, it,
		    done ? "yes" : "no", el, gsum);
		if (fflush(stdout) == EOF || ferror(stdout)) {
			fprintf(stderr, "trc-heat: stdout: %s\n", strerror(errno));
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
	}
	free(u);
	free(v);
	MPI_Finalize();
	return 0;
}

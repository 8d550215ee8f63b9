/*
 * cg - a plain MPI program, as a newcomer brings one: conjugate
 * gradients on the 5-point Laplacian of an n x n grid, rows split over
 * the ranks, a halo row exchanged with each neighbour (MPI_Sendrecv)
 * and two dot products (MPI_Allreduce) per iteration.  No regions, no
 * MPI_Pcontrol: its computation is all outside every region, the
 * empty label of trc-ratios(5).  The README's "Predict your own
 * program" runs on it (t/4023).
 *
 * usage: cg [n [iterations]]	(200, 100); prints the residual
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int n, rows, rank, size;

/* y = A x on this rank's rows; x has a halo row above and below. */
static void
matvec(double *x, double *y)
{
	int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
	int i, j;

	MPI_Sendrecv(x + n, n, MPI_DOUBLE, up, 1, x + (rows + 1) * n, n,
	    MPI_DOUBLE, down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Sendrecv(x + rows * n, n, MPI_DOUBLE, down, 2, x, n, MPI_DOUBLE,
	    up, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	for (i = 1; i <= rows; i++)
		for (j = 0; j < n; j++)
			y[i * n + j] = 4 * x[i * n + j] - x[(i - 1) * n + j] -
			    x[(i + 1) * n + j] - (j > 0 ? x[i * n + j - 1] : 0) -
			    (j < n - 1 ? x[i * n + j + 1] : 0);
}

static double
dot(const double *a, const double *b)
{
	double s = 0, all;
	int i;

	for (i = n; i < (rows + 1) * n; i++)
		s += a[i] * b[i];
	MPI_Allreduce(&s, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	return all;
}

int
main(int argc, char *argv[])
{
	double *x, *r, *p, *q, rr, rr1, alpha;
	int it, iters, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	n = argc > 1 ? atoi(argv[1]) : 200;
	iters = argc > 2 ? atoi(argv[2]) : 100;
	if (n < size || iters < 1) {
		if (rank == 0)
			fprintf(stderr, "usage: cg [n [iterations]]\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	rows = n / size + (rank < n % size);
	x = calloc((size_t)(rows + 2) * n, sizeof(*x));
	r = calloc((size_t)(rows + 2) * n, sizeof(*r));
	p = calloc((size_t)(rows + 2) * n, sizeof(*p));
	q = calloc((size_t)(rows + 2) * n, sizeof(*q));
	if (x == NULL || r == NULL || p == NULL || q == NULL)
		MPI_Abort(MPI_COMM_WORLD, 2);
	/* A x = b with b = 1 everywhere, from x = 0: r = p = b. */
	for (i = n; i < (rows + 1) * n; i++)
		r[i] = p[i] = 1;
	rr = dot(r, r);
	for (it = 0; it < iters; it++) {
		matvec(p, q);
		alpha = rr / dot(p, q);
		for (i = n; i < (rows + 1) * n; i++) {
			x[i] += alpha * p[i];
			r[i] -= alpha * q[i];
		}
		rr1 = dot(r, r);
		for (i = n; i < (rows + 1) * n; i++)
			p[i] = r[i] + rr1 / rr * p[i];
		rr = rr1;
	}
	if (rank == 0)
		printf("residual %g after %d iterations\n", sqrt(rr), iters);
	free(x);
	free(r);
	free(p);
	free(q);
	MPI_Finalize();
	return 0;
}

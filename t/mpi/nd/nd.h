/*
 * nd.h - what the programs of t/mpi/nd share.  Each program is one
 * source of nondeterminism (a point where MPI chooses by timing), in
 * two forms chosen by its first argument:
 *
 *	unstable  rank 0 lets every sender go at once (a token each),
 *		  then makes its choices: the senders race, and which
 *		  message a choice takes depends on timing;
 *	stable    rank 0 lets one sender go after each choice: the same
 *		  calls, but only one message can ever match a choice, as
 *		  every other send happens after it.
 *
 * Ranks 1..N-1 are the senders: each waits for its token, sleeps
 * rank x STEP microseconds (the second argument, default 2000), then
 * sends.  Undisturbed, the messages come in rank order; a delay of
 * more than STEP on one sender changes the order in the unstable form
 * and changes nothing in the stable form.  Rank 0 prints the sources
 * in the order it took them.  Run on 3 to 64 ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ND_TOKEN	99	/* the tag of the tokens */
#define ND_TAG		7	/* the tag of the messages */
#define ND_MAX		64	/* the most ranks */

static int nd_rank, nd_size, nd_stable;
static long nd_step = 2000;

static void
nd_init(int *argc, char ***argv, const char *name)
{
	char *end;

	MPI_Init(argc, argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &nd_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nd_size);
	if (*argc < 2 || (strcmp((*argv)[1], "stable") != 0 &&
	    strcmp((*argv)[1], "unstable") != 0) || nd_size < 3 ||
	    nd_size > ND_MAX) {
		if (nd_rank == 0)
			fprintf(stderr, "usage: mpirun -np N %s stable|unstable "
			    "[step-us], 3 <= N <= 64\n", name);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	nd_stable = strcmp((*argv)[1], "stable") == 0;
	if (*argc > 2) {
		nd_step = strtol((*argv)[2], &end, 10);
		if (*end != '\0' || nd_step < 0 || nd_step > 1000000) {
			if (nd_rank == 0)
				fprintf(stderr, "%s: bad step '%s'\n", name,
				    (*argv)[2]);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
	}
}

static void
nd_sleep(long us)
{
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* Rank 0 lets sender k go. */
static void
nd_go(int k)
{
	int token = k;

	MPI_Send(&token, 1, MPI_INT, k, ND_TOKEN, MPI_COMM_WORLD);
}

/* Rank 0, before its choices: every sender goes at once (unstable). */
static void
nd_go_all(void)
{
	int k;

	if (!nd_stable)
		for (k = 1; k < nd_size; k++)
			nd_go(k);
}

/* Rank 0, before its choice number i (0, 1, ...): one sender goes (stable). */
static void
nd_go_next(int i)
{
	if (nd_stable)
		nd_go(i + 1);
}

/* A sender: wait for the token, then for its turn. */
static void
nd_wait_turn(void)
{
	int token;

	MPI_Recv(&token, 1, MPI_INT, 0, ND_TOKEN, MPI_COMM_WORLD,
	    MPI_STATUS_IGNORE);
	nd_sleep(nd_rank * nd_step);
}

/* A sender: its message, its rank, to rank 0. */
static void
nd_send(int tag)
{
	MPI_Send(&nd_rank, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
}

static void
nd_print(const char *name, const int *order, int n)
{
	int i;

	printf("%s:", name);
	for (i = 0; i < n; i++)
		printf(" %d", order[i]);
	printf("\n");
	fflush(stdout);
}

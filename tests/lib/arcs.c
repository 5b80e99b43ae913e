/*
 * arcs.c -- h_arcs, a cc -p program that makes many distinct arcs from
 * many threads at once and knows how many calls each arc had, so that
 * arcs_test can hold the profile to every one of them.  Its functions
 * (f, g, d) are written by mkarcs into arcs.gen.c (see there).
 *
 * usage: h_arcs [-f] [-s] [-v] [-m MB] L S R
 *
 *	L long threads, started together, go R rounds each over every
 *	arc: longrun -> gi (one call site, NG callees), gi -> its leaves
 *	(a call site each), longrun -> dk (one call site, ND callees) and
 *	dk -> fj for every k and j (one call site, NF callees), each
 *	thread and round in an order of its own.  Meanwhile main runs S
 *	short threads, 4 at a time: short thread q calls g(q % NG) and
 *	d(q % ND) on W leaves.
 *
 *	-s	every long thread has a timer that sends it SIGUSR1
 *		every PERIOD of real time, wherever the thread runs or
 *		was preempted; the handler, onsig, calls a d and a g as
 *		the threads do, through the same call sites: mcount is
 *		entered again on the thread it interrupted, maybe on the
 *		very cell it was counting.
 *	-f	main forks halfway through the short threads, while the
 *		long threads run; the child runs 4 long threads of R
 *		rounds and exits.  Set PROFDIR so that it writes a
 *		profile of its own.
 *	-v	each long thread's first counted call is made by a vfork
 *		child, on the thread, before the thread has counted
 *		anything: the child calls g0 from vfirst, which is not
 *		instrumented, and exits; its calls are the parent's,
 *		whose memory it ran in.
 *	-m MB	once every thread has ended, write MB MiB of memory of
 *		main's own, twice over: in a memory cgroup of less, with
 *		swap, the kernel swaps out pages of libmon's counts
 *		before the profile is written at exit.
 *
 * Each process writes the arcs it made to exp.PID, "CALLER CALLEE
 * COUNT" a line (arcs of no calls left out), and "pid P signals N" to
 * stdout.  The counts are worked out from L, S, R and the number of
 * handler runs, the way the threads chose their calls, never from the
 * profile.
 */
#define _GNU_SOURCE	/* SIGEV_THREAD_ID, sigevent's _tid */
#include <sys/syscall.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NF	arcs_nf
#define NG	arcs_ng
#define ND	arcs_nd
#define W	250		/* leaves of a short thread */
#define WAVE	4		/* short threads at once */
#define MAXL	256
#define PERIOD	100000		/* ns of each thread's timer (-s) */

extern const int arcs_nf, arcs_ng, arcs_nd;
extern long (*const arcs_f[])(long);
extern long (*const arcs_g[])(long);
extern long (*const arcs_d[])(int, long);

/* The callers of g and d, as nm names them. */
enum { LONG, SHORT, SIG, VFIRST, NCALLER };
static const char *const caller[NCALLER] = { "longrun", "shortrun", "onsig",
    "vfirst" };

volatile long sink;
static pthread_t tid[MAXL];
static pthread_barrier_t start;
static int rounds, sig, vf;
static atomic_long nsig;		/* handler runs */

/* The leaf of short thread q's w-th call through d. */
static int
shortleaf(long q, int w)
{
	return (int)((q * 577 + w) % NF);
}

/* The leaf of long thread t's j-th call through the d-th d of round r. */
static int
longleaf(long t, int r, int d, int j)
{
	/* 7 is prime to NF: a round calls every leaf from every d once. */
	return (int)((j * 7L + t * 101 + r * 13L + d) % NF);
}

/* A timer that sends the calling thread SIGUSR1 every PERIOD. */
static timer_t
arm(void)
{
	const struct itimerspec every = { { 0, PERIOD }, { 0, PERIOD } };
	struct sigevent ev;
	timer_t tm;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGUSR1;
	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_MONOTONIC, &ev, &tm) != 0 ||
	    timer_settime(tm, 0, &every, NULL) != 0)
		err(1, "timer");
	return tm;
}

void *
longrun(void *arg)
{
	long t = (long)arg, s = 0;
	int r, i, d, j;
	timer_t tm;

	pthread_barrier_wait(&start);
	tm = sig ? arm() : NULL;
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < NG; i++)
			s += arcs_g[(i + t + r) % NG](i);
		for (d = 0; d < ND; d++)
			for (j = 0; j < NF; j++)
				s += arcs_d[(d + t) % ND](longleaf(t, r, d, j),
				    j);
	}
	sink = s;
	if (sig && timer_delete(tm) != 0)
		err(1, "timer_delete");
	return NULL;
}

/*
 * -v: a long thread whose first counted call is a vfork child's (the
 * thread is not set up to count yet), then its rounds.  Not
 * instrumented, so that nothing before the vfork counts a call.
 */
__attribute__((no_instrument_function)) void *
vfirst(void *arg)
{
	pid_t p;
	int st;

	if ((p = vfork()) == 0) {
		sink = arcs_g[0]((long)arg);
		_exit(0);
	}
	if (p == -1 || waitpid(p, &st, 0) != p || st != 0)
		errx(1, "vfork child: status %#x", st);
	return longrun(arg);
}

void *
shortrun(void *arg)
{
	long q = (long)arg, s;
	int w;

	s = arcs_g[q % NG](q);
	for (w = 0; w < W; w++)
		s += arcs_d[q % ND](shortleaf(q, w), w);
	sink = s;
	return NULL;
}

/* Handler run n calls d(n % ND) on leaf n * 7919 % NF and g(n / ND % NG). */
void
onsig(int signo)
{
	long n;

	n = atomic_fetch_add(&nsig, 1);
	sink = arcs_d[n % ND]((int)(n * 7919 % NF), signo) +
	    arcs_g[n / ND % NG](signo);
}

/* Write the arcs this process made to exp.PID. */
static void
expect(long l, long s, long r, long nsig)
{
	long (*eg)[NG], (*ed)[ND], *edf, n, q, c;
	char path[64];
	FILE *f;
	int i, d, j, w;

	eg = calloc(NCALLER, sizeof(*eg));
	ed = calloc(NCALLER, sizeof(*ed));
	edf = calloc((size_t)ND * NF, sizeof(*edf));
	if (eg == NULL || ed == NULL || edf == NULL)
		err(1, "calloc");
	for (i = 0; i < NG; i++)
		eg[LONG][i] = l * r;
	eg[VFIRST][0] = vf ? l : 0;
	for (d = 0; d < ND; d++) {
		ed[LONG][d] = l * r * NF;
		for (j = 0; j < NF; j++)
			edf[d * NF + j] = l * r;
	}
	for (q = 0; q < s; q++) {
		eg[SHORT][q % NG]++;
		ed[SHORT][q % ND] += W;
		for (w = 0; w < W; w++)
			edf[q % ND * NF + shortleaf(q, w)]++;
	}
	for (n = 0; n < nsig; n++) {
		ed[SIG][n % ND]++;
		edf[n % ND * NF + n * 7919 % NF]++;
		eg[SIG][n / ND % NG]++;
	}
	snprintf(path, sizeof(path), "exp.%ld", (long)getpid());
	if ((f = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	for (c = 0; c < NCALLER; c++) {
		for (i = 0; i < NG; i++)
			if (eg[c][i] != 0)
				fprintf(f, "%s g%d %ld\n", caller[c], i,
				    eg[c][i]);
		for (d = 0; d < ND; d++)
			if (ed[c][d] != 0)
				fprintf(f, "%s d%d %ld\n", caller[c], d,
				    ed[c][d]);
	}
	for (i = 0; i < NG; i++)
		for (j = i * (NF / NG); j < (i + 1) * (NF / NG); j++)
			fprintf(f, "g%d f%d %ld\n", i, j,
			    eg[LONG][i] + eg[SHORT][i] + eg[SIG][i] +
			    eg[VFIRST][i]);
	for (d = 0; d < ND; d++)
		for (j = 0; j < NF; j++)
			if (edf[d * NF + j] != 0)
				fprintf(f, "d%d f%d %ld\n", d, j,
				    edf[d * NF + j]);
	if (ferror(f) || fclose(f) != 0)
		errx(1, "%s: cannot write", path);
	printf("pid %ld signals %ld\n", (long)getpid(), nsig);
	free(eg);
	free(ed);
	free(edf);
}

static void run(long, long, long, long);

/* The fork child: 4 long threads of R rounds of its own, then exit. */
static void
child(long r)
{
	atomic_store(&nsig, 0);
	sig = vf = 0;
	run(4, 0, r, -1);
	expect(4, 0, r, 0);
	fflush(stdout);
	exit(0);
}

/*
 * L long threads of R rounds, S short threads meanwhile, and a fork
 * before short thread forkat (-1: none).
 */
static void
run(long l, long s, long r, long forkat)
{
	pthread_t sh[WAVE];
	long t, q, k;
	pid_t p;
	int st;

	rounds = (int)r;
	if ((errno = pthread_barrier_init(&start, NULL, (unsigned)l + 1)) != 0)
		err(1, "pthread_barrier_init");
	for (t = 0; t < l; t++)
		if ((errno = pthread_create(&tid[t], NULL,
		    vf ? vfirst : longrun, (void *)t)) != 0)
			err(1, "pthread_create");
	pthread_barrier_wait(&start);
	p = -1;
	for (q = 0; q < s; q += k) {
		if (q == forkat) {
			if ((p = fork()) == -1)
				err(1, "fork");
			if (p == 0)
				child(r);
		}
		for (k = 0; k < WAVE && q + k < s; k++)
			if ((errno = pthread_create(&sh[k], NULL, shortrun,
			    (void *)(q + k))) != 0)
				err(1, "pthread_create");
		for (k = 0; k < WAVE && q + k < s; k++)
			pthread_join(sh[k], NULL);
	}
	for (t = 0; t < l; t++)
		pthread_join(tid[t], NULL);
	pthread_barrier_destroy(&start);
	if (p > 0 && (waitpid(p, &st, 0) != p || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0))
		errx(1, "child %ld: status %#x", (long)p, st);
}

int
main(int argc, char *argv[])
{
	struct sigaction sa;
	long l, s, r;
	size_t mb, i;
	char *big;
	int c, fk;

	fk = 0;
	mb = 0;
	while ((c = getopt(argc, argv, "fm:sv")) != -1)
		switch (c) {
		case 'm':
			mb = (size_t)atol(optarg);
			break;
		case 'f':
			fk = 1;
			break;
		case 's':
			sig = 1;
			break;
		case 'v':
			vf = 1;
			break;
		default:
			goto usage;
		}
	if (argc - optind != 3)
		goto usage;
	l = atol(argv[optind]);
	s = atol(argv[optind + 1]);
	r = atol(argv[optind + 2]);
	if (l < 1 || l > MAXL || s < 0 || r < 1)
		goto usage;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onsig;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		err(1, "sigaction");
	run(l, s, r, fk ? s / WAVE / 2 * WAVE : -1);
	expect(l, s, r, atomic_load(&nsig));
	if (mb > 0) {
		if ((big = malloc(mb << 20)) == NULL)
			err(1, "malloc");
		for (c = 1; c <= 2; c++)
			for (i = 0; i < mb << 20; i += 4096)
				big[i] = (char)c;
		sink += big[mb << 19];
		free(big);
	}
	return 0;
usage:
	fprintf(stderr, "usage: h_arcs [-f] [-s] [-v] [-m MB] L S R\n");
	return 2;
}

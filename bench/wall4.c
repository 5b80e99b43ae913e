/*
 * wall4.c -- threads whose wall time the program measures itself, for
 * PROFMODE=wall: the bench's row 29 (bench/rows/29-wall.sh).
 *
 *	wall4 parts			four threads, about 1 s each
 *	wall4 busy nthreads miter	nthreads threads on the CPU
 *	wall4 idle nthreads chunks	nthreads idle threads and a worker
 *
 * parts: burn() spins on the CPU for 1 s of wall time, nap() sleeps 1 s
 * in nanosleep, wait_pipe() reads a pipe that a writer thread writes
 * after 1 s, wait_lock() waits for a mutex that a holder thread keeps
 * for 1 s.  Each part is timed with CLOCK_MONOTONIC around its call and
 * each thread, the main one too, around its life: that is the truth a
 * wall-clock profile is held to, a part's share being its seconds over
 * the sum of the lives.  It prints
 *
 *	parts burn S nap S wait_pipe S wait_lock S threads S
 *
 * busy: each thread runs miter million rounds of arithmetic, a fixed
 * amount of work, so that the CPU time of two builds compares.
 *
 * idle: nthreads threads wait on a condition variable while a worker
 * does chunks of about 1 ms of work, each followed by a 9 ms sleep;
 * once the worker is done they are let go.  From when the last idle
 * thread has started to when the worker is done, the process's CPU
 * clock (every thread's, a profiler's own among them) and the
 * monotonic clock are read; and again from when the worker has done
 * three fifths of its chunks, by when a profiler has seen the idle
 * threads idle for long.  It prints
 *
 *	idle cpu S wall S settled cpu S wall S
 *
 * In every mode the values that system calls and locks returned, and
 * what the work computed (never how long it took), are hashed into one
 * line, "checksum H", which must not change when the program is
 * profiled: a call cut short by a signal would show there.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE	__attribute__((noinline))
#define ROUNDS		100000		/* a busy thread's rounds a call */
#define CHUNK		500000		/* the worker's rounds a chunk */

enum { P_BURN, P_NAP, P_PIPE, P_LOCK, NPARTS };

static const char *partname[NPARTS] = {
	"burn", "nap", "wait_pipe", "wait_lock"
};

static pthread_mutex_t	 lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t	 lifelock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t	 idlelock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 idlecv = PTHREAD_COND_INITIALIZER;
static sem_t		 held;
static int		 fds[2];
static int		 letgo;		/* under idlelock */
static double		 lives;		/* under lifelock */
static double		 took[NPARTS];
static long		 rv[16];	/* what calls returned, by slot */
static volatile double	 sink;

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double
cpunow(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void
lived(double t0)
{
	pthread_mutex_lock(&lifelock);
	lives += now() - t0;
	pthread_mutex_unlock(&lifelock);
}

/* FNV-1a over the slots: what the run returned, not how long it took. */
static uint64_t
hash(const long *v, int n)
{
	uint64_t h = 14695981039346656037u;
	int i;

	for (i = 0; i < n; i++) {
		h ^= (uint64_t)v[i];
		h *= 1099511628211u;
	}
	return h;
}

/* n rounds of a multiply-add chain: work whose result is fixed. */
static NOINLINE uint64_t
spin(uint64_t x, long n)
{
	long i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	return x;
}

/*
 * On the CPU for 1 s of wall time.  The clock is read between long
 * stretches of work so that the time is burn()'s own, not now()'s.
 */
static NOINLINE void
burn(void)
{
	double t0, s;
	long i;

	t0 = now();
	for (s = 0; now() - t0 < 1; )
		for (i = 0; i < 100000; i++)
			s += (double)i * 0.25;
	sink = s;
}

static NOINLINE void
nap(void)
{
	struct timespec ts = { 1, 0 };

	rv[0] = nanosleep(&ts, NULL);
	rv[1] = rv[0] == 0 ? 0 : errno;
}

static NOINLINE void
wait_pipe(void)
{
	char c = 0;

	rv[2] = read(fds[0], &c, 1);
	rv[3] = rv[2] == 1 ? c : errno;
}

static NOINLINE void
wait_lock(void)
{
	rv[4] = pthread_mutex_lock(&lock);
	rv[5] = pthread_mutex_unlock(&lock);
}

static void *
part(void *arg)
{
	void (*fn[NPARTS])(void) = { burn, nap, wait_pipe, wait_lock };
	int p = (int)(intptr_t)arg;
	double t0, t1;

	t0 = now();
	fn[p]();
	t1 = now();
	took[p] = t1 - t0;
	lived(t0);
	return NULL;
}

/* Writes the pipe after 1 s. */
static void *
writer(void *unused)
{
	struct timespec ts = { 1, 0 };
	double t0 = now();

	(void)unused;
	rv[6] = nanosleep(&ts, NULL);
	rv[7] = write(fds[1], "w", 1);
	lived(t0);
	return NULL;
}

/* Holds the lock for 1 s, taken before wait_lock() starts. */
static void *
holder(void *unused)
{
	struct timespec ts = { 1, 0 };
	double t0 = now();

	(void)unused;
	rv[8] = pthread_mutex_lock(&lock);
	sem_post(&held);
	rv[9] = nanosleep(&ts, NULL);
	rv[10] = pthread_mutex_unlock(&lock);
	lived(t0);
	return NULL;
}

static int
parts(double t0)
{
	pthread_t t[NPARTS + 2];
	int i, r;

	if (pipe(fds) != 0 || sem_init(&held, 0, 0) != 0)
		return 1;
	if (pthread_create(&t[NPARTS], NULL, holder, NULL) != 0)
		return 1;
	while ((r = sem_wait(&held)) != 0 && errno == EINTR)
		rv[11]++;
	if (r != 0 || pthread_create(&t[NPARTS + 1], NULL, writer, NULL) != 0)
		return 1;
	for (i = 0; i < NPARTS; i++)
		if (pthread_create(&t[i], NULL, part, (void *)(intptr_t)i) != 0)
			return 1;
	for (i = 0; i < NPARTS + 2; i++)
		if (pthread_join(t[i], NULL) != 0)
			return 1;
	lived(t0);
	printf("parts");
	for (i = 0; i < NPARTS; i++)
		printf(" %s %.6f", partname[i], took[i]);
	printf(" threads %.6f\n", lives);
	printf("checksum %016jx\n", (uintmax_t)hash(rv, 12));
	return 0;
}

static long	 miter;		/* busy: million rounds a thread */
static uint64_t	 busysum;	/* under lifelock */

static void *
busy(void *arg)
{
	uint64_t x = (uint64_t)(intptr_t)arg;
	long i;

	for (i = 0; i < miter * 1000000 / ROUNDS; i++)
		x = spin(x, ROUNDS);
	pthread_mutex_lock(&lifelock);
	busysum ^= x;
	pthread_mutex_unlock(&lifelock);
	return NULL;
}

static int
busymode(int n)
{
	pthread_t *t;
	int i;

	if ((t = calloc((size_t)n, sizeof(*t))) == NULL)
		return 1;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, busy, (void *)(intptr_t)(i + 1))
		    != 0)
			return 1;
	for (i = 0; i < n; i++)
		if (pthread_join(t[i], NULL) != 0)
			return 1;
	free(t);
	printf("busy %d threads checksum %016jx\n", n, (uintmax_t)busysum);
	return 0;
}

static long	 chunks;	/* idle: the worker's */
static double	 settlecpu, settlewall;	/* when 3/5 of them were done */
static long	 woken;		/* idle threads let go, under idlelock */

static void *
idler(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&idlelock);
	while (!letgo)
		pthread_cond_wait(&idlecv, &idlelock);
	woken++;
	pthread_mutex_unlock(&idlelock);
	return NULL;
}

static void *
worker(void *unused)
{
	struct timespec ts = { 0, 9000000 };
	uint64_t x = 1;
	long i;

	(void)unused;
	for (i = 0; i < chunks; i++) {
		if (i == chunks * 3 / 5) {
			settlecpu = cpunow();
			settlewall = now();
		}
		x = spin(x, CHUNK);
		if (nanosleep(&ts, NULL) != 0)
			rv[12]++;
	}
	rv[13] = (long)(x >> 1);
	return NULL;
}

static int
idlemode(int n)
{
	pthread_attr_t a;
	pthread_t *t, w;
	double c0, c1, w0, w1;
	int i;

	if ((t = calloc((size_t)n, sizeof(*t))) == NULL)
		return 1;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 << 10);
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], &a, idler, NULL) != 0)
			return 1;
	c0 = cpunow();
	w0 = now();
	if (pthread_create(&w, NULL, worker, NULL) != 0 ||
	    pthread_join(w, NULL) != 0)
		return 1;
	c1 = cpunow();
	w1 = now();
	printf("idle cpu %.6f wall %.6f settled cpu %.6f wall %.6f\n",
	    c1 - c0, w1 - w0, c1 - settlecpu, w1 - settlewall);
	pthread_mutex_lock(&idlelock);
	letgo = 1;
	pthread_cond_broadcast(&idlecv);
	pthread_mutex_unlock(&idlelock);
	for (i = 0; i < n; i++)
		if (pthread_join(t[i], NULL) != 0)
			return 1;
	free(t);
	rv[14] = woken;
	printf("checksum %016jx\n", (uintmax_t)hash(rv + 12, 3));
	return 0;
}

static _Noreturn void
usage(void)
{
	fprintf(stderr, "usage: wall4 parts | busy nthreads miter |"
	    " idle nthreads chunks\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	double t0 = now();
	int r;

	if (argc == 2 && strcmp(argv[1], "parts") == 0)
		r = parts(t0);
	else if (argc == 4 && strcmp(argv[1], "busy") == 0) {
		miter = atol(argv[3]);
		r = busymode(atoi(argv[2]));
	} else if (argc == 4 && strcmp(argv[1], "idle") == 0) {
		chunks = atol(argv[3]);
		r = idlemode(atoi(argv[2]));
	} else
		usage();
	if (r != 0)
		fprintf(stderr, "wall4: cannot make a thread\n");
	return r != 0 || fflush(stdout) != 0;
}

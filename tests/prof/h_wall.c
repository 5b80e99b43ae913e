/*
 * h_wall.c -- a profiled program whose threads spend their wall time in
 * known ways, for PROFMODE=wall and prof -w.
 *
 * usage: h_wall [parts]		four threads, about 1 s each:
 *					burn() on the CPU, nap() in
 *					nanosleep, wait_pipe() reading a pipe
 *					another thread writes after 1 s,
 *					wait_lock() on a mutex another thread
 *					holds for 1 s
 *	  h_wall mixed			the same for 1, 0.5, 1.5 and 0.7 s
 *	  h_wall idle n secs		n threads named "idler" blocked on a
 *					condition variable for secs seconds
 *	  h_wall busy n secs		n threads named "busy" on the CPU
 *					for secs seconds
 *	  h_wall pulse n secs		n idle threads (as idle) and pulser(),
 *					which for secs seconds works 1 ms
 *					of CPU time (pulse_work()) at the
 *					start of every 10 ms of the monotonic
 *					clock and sleeps in clock_nanosleep
 *					to the next: a program whose period
 *					is the wall sampler's default
 *	  h_wall sleeper		sleeper(): twice doze() 1.5 s in
 *					nanosleep, then toil() 0.3 s on the
 *					CPU: a thread idle long enough for the
 *					sampler to look at it seldom, that
 *					wakes to work
 *	  h_wall libcspin n secs	n threads whose start routine,
 *					libcspin(), calls clock_gettime()
 *					for secs seconds: a thread's time in
 *					code that keeps no frame pointer
 *					(the C library's, the vDSO's), whose
 *					walk by frame pointers misses the
 *					caller and finds libmon's thread
 *					start under it
 *	  h_wall wakeexit		four sleeper()s, the i-th's doze()
 *					1.5 + 0.1 i s, once, then toil()
 *					0.05 s, and ends: threads that wake
 *					and end before they are looked at
 *					again, at four phases of the look
 *	  h_wall linger			lingerer(): nap() 0.5 s, then ends
 *					into its thread-specific data's
 *					destructor, linger_dtor(), which
 *					sleeps 1.5 s in nanosleep: a thread
 *					that told libmon its end and is still
 *					there, listed in /proc/self/task,
 *					across the sampler's next listing
 *	  h_wall mainexit		outliver() sleeps 1.5 s in nanosleep;
 *					main naps 0.5 s and calls
 *					pthread_exit(): a zombie main thread,
 *					listed until the process ends
 *	  h_wall churn n		n threads, eight at a time, each
 *					naps 1 ms and ends: threads that
 *					start and end between two rounds,
 *					some while a task listing runs
 *
 * What the program does and every return value it sees go to stdout,
 * the same with and without profiling (a system call cut short by a
 * signal would show).  The times, measured with CLOCK_MONOTONIC around
 * each part and each thread, go to stderr as "time NAME SECONDS" lines,
 * with "time threads SECONDS", every thread's life summed, the main
 * thread's from main() to its return.  pulse adds "time pulser", its
 * life, "time pulser_cpu", its CPU time on its own thread CPU clock,
 * "time pulse_work", its wall time from the start of each period, when
 * it is due to wake, to the end of pulse_work() (running, or ready to
 * run on a busy machine), and "time idlers", the idle threads' lives
 * summed.  sleeper adds "time doze" and "time toil", each summed over
 * its calls.  linger adds "time lingerer", the thread's life to the end
 * of its start routine, and "time linger_dtor", the destructor's.
 * mainexit: "time main", main's life to its pthread_exit(), and "time
 * outliver".
 */
#define _GNU_SOURCE		/* pthread_setname_np */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PART_NS		1000000000L

static pthread_mutex_t	 lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t	 sumlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t	 idlelock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 idlecv = PTHREAD_COND_INITIALIZER;
static int		 idledone;
static sem_t		 taken;
static int		 fds[2];
static double		 lives;		/* seconds, every thread's */
static double		 idlives;	/* the idle threads' */
static double		 secs = 1;
static struct timespec	 napfor = { 1, 0 };	/* nap() */
static struct timespec	 writeat = { 1, 0 };	/* the pipe's writer */
static struct timespec	 holdfor = { 1, 0 };	/* the lock's holder */
static volatile double	 sink;

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void
lived(double t0)
{
	pthread_mutex_lock(&sumlock);
	lives += now() - t0;
	pthread_mutex_unlock(&sumlock);
}

static double
thread_cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void
report(const char *name, double t0)
{
	fprintf(stderr, "time %s %.6f\n", name, now() - t0);
}

/*
 * On the CPU for d seconds of wall time; inlined, so that its samples
 * are its caller's, whose name the tests look for.
 */
static inline __attribute__((always_inline)) void
spin_for(double d)
{
	double t0, s;
	long i;

	t0 = now();
	for (s = 0; now() - t0 < d; )
		for (i = 0; i < 100000; i++)
			s += (double)i * 0.5;
	sink = s;
}

/* On the CPU until secs of wall time have passed. */
static void
burn(void)
{
	spin_for(secs);
}

static void
nap(void)
{
	printf("nanosleep %d\n", nanosleep(&napfor, NULL));
}

static void
wait_pipe(void)
{
	char c;
	ssize_t n;

	n = read(fds[0], &c, 1);
	printf("read %zd %c\n", n, n == 1 ? c : '-');
}

static void
wait_lock(void)
{
	printf("lock %d\n", pthread_mutex_lock(&lock));
	printf("unlock %d\n", pthread_mutex_unlock(&lock));
}

static void *
run_burn(void *unused)
{
	double t0 = now();

	(void)unused;
	burn();
	report("burn", t0);
	lived(t0);
	return NULL;
}

static void *
run_nap(void *unused)
{
	double t0 = now();

	(void)unused;
	nap();
	report("nap", t0);
	lived(t0);
	return NULL;
}

static void *
run_pipe(void *unused)
{
	double t0 = now();

	(void)unused;
	wait_pipe();
	report("wait_pipe", t0);
	lived(t0);
	return NULL;
}

static void *
run_lock(void *unused)
{
	double t0 = now();

	(void)unused;
	wait_lock();
	report("wait_lock", t0);
	lived(t0);
	return NULL;
}

/* The writer of the pipe and the holder of the lock: 1 s each. */
static void *
writer(void *unused)
{
	double t0 = now();

	(void)unused;
	printf("writer nanosleep %d\n", nanosleep(&writeat, NULL));
	printf("write %zd\n", write(fds[1], "x", 1));
	report("writer", t0);
	lived(t0);
	return NULL;
}

static void *
holder(void *unused)
{
	double t0 = now();

	(void)unused;
	printf("holder lock %d\n", pthread_mutex_lock(&lock));
	sem_post(&taken);
	printf("holder nanosleep %d\n", nanosleep(&holdfor, NULL));
	printf("holder unlock %d\n", pthread_mutex_unlock(&lock));
	lived(t0);
	return NULL;
}

static int
parts(void)
{
	void *(*fn[])(void *) = { run_burn, run_nap, run_pipe, writer };
	pthread_t t[6];
	int i;

	if (pipe(fds) != 0 || sem_init(&taken, 0, 0) != 0)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The holder takes the lock before wait_lock() starts. */
	if (pthread_create(&t[4], NULL, holder, NULL) != 0)
		return 1;
	while (sem_wait(&taken) != 0)
		if (errno != EINTR)
			return 1;
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, fn[i], NULL) != 0)
			return 1;
	if (pthread_create(&t[5], NULL, run_lock, NULL) != 0)
		return 1;
	for (i = 0; i < 6; i++)
		if (pthread_join(t[i], NULL) != 0)
			return 1;
	return 0;
}

static void *
idler(void *unused)
{
	double t0 = now();

	(void)unused;
	pthread_mutex_lock(&idlelock);
	while (!idledone)
		pthread_cond_wait(&idlecv, &idlelock);
	pthread_mutex_unlock(&idlelock);
	/* Its life ends here: one lock more, taken by 1000 at once. */
	pthread_mutex_lock(&sumlock);
	t0 = now() - t0;
	idlives += t0;
	lives += t0;
	pthread_mutex_unlock(&sumlock);
	return NULL;
}

/*
 * 1 ms of this thread's CPU time, nearly all in this function's own
 * loop: the thread clock is read through the vDSO, whose code keeps no
 * frame pointer -- a signal clock's sample there has no caller -- so it
 * is read once every 20,000 rounds, some tens of microseconds.
 */
static void
pulse_work(void)
{
	double c0, s;
	long i;

	c0 = thread_cpu();
	for (s = 0; thread_cpu() - c0 < 0.001; )
		for (i = 0; i < 20000; i++)
			s += (double)i * 0.5;
	sink = s;
}

/* pulse_work() at the start of every 10 ms, for secs seconds. */
static void *
pulser(void *unused)
{
	struct timespec at;
	double t0 = now(), w0, inwork;
	long n, i;

	(void)unused;
	clock_gettime(CLOCK_MONOTONIC, &at);
	at.tv_nsec -= at.tv_nsec % 10000000;
	n = (long)(secs * 100);
	/* From when it is due, the period's start, it is ready to run. */
	w0 = now();
	for (i = 0, inwork = 0; i < n; i++) {
		pulse_work();
		inwork += now() - w0;
		w0 = (double)at.tv_sec + (double)at.tv_nsec / 1e9 + 0.01;
		if ((at.tv_nsec += 10000000) >= 1000000000) {
			at.tv_sec++;
			at.tv_nsec -= 1000000000;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at,
		    NULL) != 0)
			continue;
	}
	fprintf(stderr, "time pulser_cpu %.6f\n", thread_cpu());
	fprintf(stderr, "time pulse_work %.6f\n", inwork);
	report("pulser", t0);
	lived(t0);
	printf("pulser %ld periods\n", n);
	return NULL;
}

static void
doze(long extra_ms)
{
	struct timespec ts = { 1, 500000000 + extra_ms * 1000000 };

	printf("doze %d\n", nanosleep(&ts, NULL));
}

static double	 toilfor = 0.3;	/* toil()'s seconds */
static int	 dozes = 2;	/* sleeper()'s doze() and toil() */

/* On the CPU for toilfor seconds of wall time. */
static void
toil(void)
{
	spin_for(toilfor);
}

static void *
sleeper(void *extra)
{
	double t0 = now(), t, dozed, toiled;
	int i;

	for (i = 0, dozed = toiled = 0; i < dozes; i++) {
		t = now();
		doze((long)(intptr_t)extra);
		dozed += now() - t;
		t = now();
		toil();
		toiled += now() - t;
	}
	fprintf(stderr, "time doze %.6f\ntime toil %.6f\n", dozed, toiled);
	lived(t0);
	return NULL;
}

static void *
busy(void *unused)
{
	double t0 = now();

	(void)unused;
	burn();
	lived(t0);
	return NULL;
}

/* clock_gettime() for secs seconds, called from here alone. */
static void *
libcspin(void *unused)
{
	struct timespec t0, t;

	(void)unused;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((double)(t.tv_sec - t0.tv_sec) +
	    (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	lived((double)t0.tv_sec + (double)t0.tv_nsec / 1e9);
	return NULL;
}

static pthread_key_t	 lingerkey;
static struct timespec	 lingerfor = { 1, 500000000 };

/* After the thread's start routine, and libmon's end of it. */
static __attribute__((noinline)) void
linger_dtor(void *unused)
{
	double t0 = now();

	(void)unused;
	printf("linger nanosleep %d\n", nanosleep(&lingerfor, NULL));
	report("linger_dtor", t0);
}

static void *
lingerer(void *unused)
{
	double t0 = now();

	(void)unused;
	if (pthread_setspecific(lingerkey, &lingerkey) != 0) {
		printf("pthread_setspecific failed\n");
		return NULL;
	}
	nap();
	report("lingerer", t0);
	lived(t0);
	return NULL;
}

static struct timespec	 outlivefor = { 1, 500000000 };

static void *
outliver(void *unused)
{
	double t0 = now();

	(void)unused;
	printf("outliver nanosleep %d\n", nanosleep(&outlivefor, NULL));
	report("outliver", t0);
	return NULL;
}

static void *
churner(void *unused)
{
	(void)unused;
	nap();
	return NULL;
}

static int
many(void *(*fn)(void *), int n)
{
	struct timespec ts;
	pthread_attr_t a;
	pthread_t *t, pt;
	int i;

	if ((t = calloc((size_t)n, sizeof(*t))) == NULL)
		return 1;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 << 10);
	/*
	 * prof -w -N groups the threads by name: they are born with it,
	 * the creator's, which the main thread then takes back.
	 */
	(void)pthread_setname_np(pthread_self(), fn == busy ? "busy" :
	    fn == libcspin ? "libcspin" : "idler");
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], &a, fn == pulser ? idler : fn,
		    NULL) != 0)
			return 1;
	(void)pthread_setname_np(pthread_self(), "h_wall");
	/* The idle threads wait for secs, or for the pulser's end. */
	if (fn == pulser && (pthread_create(&pt, NULL, pulser, NULL) != 0 ||
	    pthread_join(pt, NULL) != 0))
		return 1;
	if (fn == idler) {
		ts.tv_sec = (time_t)secs;
		ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
		(void)nanosleep(&ts, NULL);
	}
	if (fn != busy && fn != libcspin) {
		pthread_mutex_lock(&idlelock);
		idledone = 1;
		pthread_cond_broadcast(&idlecv);
		pthread_mutex_unlock(&idlelock);
	}
	for (i = 0; i < n; i++)
		if (pthread_join(t[i], NULL) != 0)
			return 1;
	free(t);
	printf("%d threads\n", n);
	if (fn == pulser)
		fprintf(stderr, "time idlers %.6f\n", idlives);
	return 0;
}

int
main(int argc, char **argv)
{
	double t0 = now();
	int r;

	if (argc > 3)
		secs = atof(argv[3]);
	if (argc < 2 || strcmp(argv[1], "parts") == 0)
		r = parts();
	else if (strcmp(argv[1], "mixed") == 0) {
		napfor.tv_sec = 0;
		napfor.tv_nsec = 500000000;
		writeat.tv_nsec = 500000000;
		holdfor.tv_sec = 0;
		holdfor.tv_nsec = 700000000;
		r = parts();
	}
	else if (strcmp(argv[1], "idle") == 0 && argc > 2)
		r = many(idler, atoi(argv[2]));
	else if (strcmp(argv[1], "busy") == 0 && argc > 2)
		r = many(busy, atoi(argv[2]));
	else if (strcmp(argv[1], "libcspin") == 0 && argc > 2)
		r = many(libcspin, atoi(argv[2]));
	else if (strcmp(argv[1], "pulse") == 0 && argc > 2)
		r = many(pulser, atoi(argv[2]));
	else if (strcmp(argv[1], "sleeper") == 0) {
		pthread_t t;

		r = pthread_create(&t, NULL, sleeper, NULL) != 0 ||
		    pthread_join(t, NULL) != 0;
	} else if (strcmp(argv[1], "wakeexit") == 0) {
		pthread_t t[4];
		int i;

		toilfor = 0.05;
		dozes = 1;
		for (i = 0, r = 0; i < 4; i++)
			r |= pthread_create(&t[i], NULL, sleeper,
			    (void *)(intptr_t)(100 * i)) != 0;
		for (i = 0; i < 4; i++)
			r |= pthread_join(t[i], NULL) != 0;
	} else if (strcmp(argv[1], "linger") == 0) {
		pthread_t t;

		napfor.tv_sec = 0;
		napfor.tv_nsec = 500000000;
		r = pthread_key_create(&lingerkey, linger_dtor) != 0 ||
		    pthread_create(&t, NULL, lingerer, NULL) != 0 ||
		    pthread_join(t, NULL) != 0;
	} else if (strcmp(argv[1], "mainexit") == 0) {
		pthread_t t;

		napfor.tv_sec = 0;
		napfor.tv_nsec = 500000000;
		if (pthread_create(&t, NULL, outliver, NULL) != 0)
			return 1;
		nap();
		report("main", t0);
		fflush(stdout);
		pthread_exit(NULL);
	} else if (strcmp(argv[1], "churn") == 0 && argc == 3) {
		pthread_t t[8];
		int n = atoi(argv[2]), i, j;

		napfor.tv_sec = 0;
		napfor.tv_nsec = 1000000;
		r = 0;
		for (i = 0; i < n; i += 8) {
			for (j = 0; j < 8; j++)
				r |= pthread_create(&t[j], NULL, churner,
				    NULL) != 0;
			for (j = 0; j < 8; j++)
				r |= pthread_join(t[j], NULL) != 0;
		}
	} else {
		fprintf(stderr, "usage: h_wall [parts | mixed | idle n secs | "
		    "busy n secs | libcspin n secs | pulse n secs | sleeper |\n"
		    "    wakeexit | linger | mainexit | churn n]\n");
		return 2;
	}
	lived(t0);
	fprintf(stderr, "time threads %.6f\n", lives);
	return r;
}

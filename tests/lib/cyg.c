/*
 * cyg.c -- the program calls_test measures: built with
 * -finstrument-functions and linked with libmon (h_cyg, h_cyg_p with -p
 * as well, h_cyg_clang), it calls its parts in known ways and says what
 * it knows of them on stdout, for the test to hold against the TIMED
 * record of its mon.out:
 *
 *	fn NAME 0xADDR		a function's run-time address
 *	wall NAME NS		its wall time, measured here around each
 *				call with CLOCK_MONOTONIC, summed
 *	calls NAME N		the calls it made to it
 *	handled N		signal: handler calls made
 *	errno kept		parts: the hooks of a function's first
 *				call (a new entry) left errno as it was
 *	ctxwall NAME NS		contexts: the wall time of the calls of
 *				a function along one stack, measured
 *				around them
 *
 * Usage: h_cyg parts | fib N | longjmp | threads | fork | exit | signal |
 *	deep | voids | contexts | wide D | widethreads
 */
#include <sys/time.h>
#include <sys/wait.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE	__attribute__((noinline))
#define MS		1000000ULL

static uint64_t
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Wall time passes: d ns of it, spent here. */
static NOINLINE void
spin(uint64_t d)
{
	uint64_t end;

	end = now() + d;
	while (now() < end)
		;
}

static NOINLINE void part_a(void) { spin(100 * MS); }
static NOINLINE void part_b(void) { spin(200 * MS); }
static NOINLINE void part_c(void) { spin(2 * MS); }
static NOINLINE void
outer(void)
{
	part_a();
	part_b();
}

/* A measured call of fn, named name: its time added to wall[k]. */
static uint64_t wall[8];
static NOINLINE void
timed(void (*fn)(void), int k)
{
	uint64_t t;

	t = now();
	fn();
	wall[k] += now() - t;
}

static void
fn(const char *name, void (*f)(void))
{
	printf("fn %s %p\n", name, (void *)f);
}

static void
report(const char *name, int k, unsigned long calls)
{
	printf("wall %s %" PRIu64 "\ncalls %s %lu\n", name, wall[k], name,
	    calls);
}

/* errno as this function found it on entry. */
static NOINLINE int
seen_errno(void)
{
	return errno;
}

static void
parts(void)
{
	int i, e;

	errno = EXDEV;
	e = seen_errno();
	if (e == EXDEV && errno == EXDEV)
		printf("errno kept\n");
	timed(outer, 0);
	for (i = 0; i < 50; i++)
		timed(part_c, 1);
	fn("outer", outer);
	fn("part_a", part_a);
	fn("part_b", part_b);
	fn("part_c", part_c);
	report("outer", 0, 1);
	report("part_c", 1, 50);
}

static volatile int fibn = 27;
static NOINLINE long
fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
static NOINLINE void
fibtop(void)
{
	(void)fib(fibn);
}

/* Calls of fib(n): 2 F(n+1) - 1. */
static unsigned long
fibcalls(int n)
{
	unsigned long a = 0, b = 1, t;
	int i;

	for (i = 0; i < n + 1; i++) {
		t = a + b;
		a = b;
		b = t;
	}
	return 2 * a - 1;
}

static void
fibs(int n)
{
	fibn = n;
	timed(fibtop, 0);
	fn("fib", (void (*)(void))fib);
	report("fib", 0, fibcalls(n));
}

/*
 * One function, leafwork, called along two stacks (via_x's twice, 30 ms
 * each; middle's under via_y once, 50 ms), each measured around its
 * calls there; and a recursion four deep, 10 ms in each frame.
 */
static uint64_t ctxwall[3];
static NOINLINE void leafwork(uint64_t d) { spin(d); }
static NOINLINE void
via_x(void)
{
	uint64_t t;

	t = now();
	leafwork(30 * MS);
	ctxwall[0] += now() - t;
}
static NOINLINE void
middle(void)
{
	uint64_t t;

	t = now();
	leafwork(50 * MS);
	ctxwall[1] += now() - t;
}
static NOINLINE void via_y(void) { middle(); }
static NOINLINE void
recur(int n)
{
	spin(10 * MS);
	if (n > 1)
		recur(n - 1);
}

static NOINLINE void
contexts(void)
{
	uint64_t t;

	via_x();
	via_y();
	via_x();
	t = now();
	recur(4);
	ctxwall[2] += now() - t;
	printf("ctxwall via_x;leafwork %" PRIu64 "\n", ctxwall[0]);
	printf("ctxwall middle;leafwork %" PRIu64 "\n", ctxwall[1]);
	printf("ctxwall contexts;recur %" PRIu64 "\n", ctxwall[2]);
}

/*
 * A binary tree of calls D deep, each of wl and wr calling both: every
 * call made along a stack of its own, 2^(D+1) - 1 of them, wl's 2^D and
 * wr's 2^D - 1.
 */
static NOINLINE void wr(int);
static NOINLINE void
wl(int d)
{
	if (d > 0) {
		wl(d - 1);
		wr(d - 1);
	}
}
static NOINLINE void
wr(int d)
{
	if (d > 0) {
		wl(d - 1);
		wr(d - 1);
	}
}
static NOINLINE void
wltop(void)
{
	wl(fibn);
}

static void
wide(int d)
{
	fibn = d;
	timed(wltop, 0);
	fn("wltop", wltop);
	fn("wl", (void (*)(void))wl);
	fn("wr", (void (*)(void))wr);
	report("wltop", 0, 1);
	printf("calls wl %lu\ncalls wr %lu\n", 1UL << d, (1UL << d) - 1);
}

/* Four threads one after the other, each a tree 16 deep of its own. */
static NOINLINE void wroot0(void) { wl(16); }
static NOINLINE void wroot1(void) { wl(16); }
static NOINLINE void wroot2(void) { wl(16); }
static NOINLINE void wroot3(void) { wl(16); }
static void (*const wroots[])(void) = { wroot0, wroot1, wroot2, wroot3 };

static void *
wthread(void *arg)
{
	wroots[(intptr_t)arg]();
	return NULL;
}

static void
widethreads(void)
{
	pthread_t t;
	intptr_t i;

	for (i = 0; i < 4; i++) {
		if (pthread_create(&t, NULL, wthread, (void *)i) != 0)
			exit(1);
		pthread_join(t, NULL);
	}
	fn("wl", (void (*)(void))wl);
	fn("wr", (void (*)(void))wr);
	printf("calls wl %lu\ncalls wr %lu\n", 4UL << 16,
	    4 * ((1UL << 16) - 1));
}

static jmp_buf jb;
static NOINLINE void deep3(void) { spin(MS / 10); longjmp(jb, 1); }
static NOINLINE void deep2(void) { deep3(); }
static NOINLINE void deep1(void) { deep2(); }

static void
jumps(void)
{
	volatile int i;

	for (i = 0; i < 100; i++)
		if (setjmp(jb) == 0)
			deep1();
	timed(part_a, 0);
	fn("deep1", deep1);
	fn("deep3", deep3);
	fn("part_a", part_a);
	fn("jumps", jumps);
	report("part_a", 0, 1);
}

/* Each thread its own part, measured by itself. */
static uint64_t thrwall[4];
static NOINLINE void
work(void)
{
	spin(60 * MS);
}
static void *
worker(void *arg)
{
	int k = (int)(intptr_t)arg, i;
	uint64_t t;

	for (i = 0; i <= k; i++) {
		t = now();
		work();
		thrwall[k] += now() - t;
	}
	return NULL;
}

static void
threads(void)
{
	pthread_t t[4];
	int k;

	for (k = 0; k < 4; k++)
		if (pthread_create(&t[k], NULL, worker, (void *)(intptr_t)k))
			exit(2);
	for (k = 0; k < 4; k++)
		pthread_join(t[k], NULL);
	for (k = 0; k < 4; k++)
		wall[0] += thrwall[k];
	fn("work", work);
	report("work", 0, 1 + 2 + 3 + 4);
}

static void
forks(void)
{
	pid_t pid;
	int st;

	timed(part_a, 0);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		timed(part_c, 1);
		timed(part_c, 1);
		printf("child %" PRIu64 "\n", wall[1]);
		fflush(stdout);
		exit(0);
	}
	waitpid(pid, &st, 0);
	timed(part_b, 2);
	fn("part_a", part_a);
	fn("part_b", part_b);
	fn("part_c", part_c);
	report("part_a", 0, 1);
	report("part_b", 2, 1);
}

static NOINLINE void leave2(void) { spin(10 * MS); pthread_exit(NULL); }
static NOINLINE void leave1(void) { leave2(); }
static void *
leaver(void *arg)
{
	(void)arg;
	leave1();
	return NULL;
}

static void
exits(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, leaver, NULL) != 0)
		exit(2);
	pthread_join(t, NULL);
	timed(part_a, 0);
	fn("leave1", leave1);
	fn("leave2", leave2);
	fn("part_a", part_a);
	report("part_a", 0, 1);
}

static volatile sig_atomic_t handled;
static NOINLINE void
on_alarm(void)
{
	handled++;
}
static void
alarmed(int sig)
{
	(void)sig;
	on_alarm();
}

static void
signals(void)
{
	struct itimerval it = { { 0, 500 }, { 0, 500 } };
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alarmed;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	timed(part_b, 0);
	setitimer(ITIMER_REAL, &off, NULL);
	timed(part_a, 1);
	fn("on_alarm", on_alarm);
	fn("part_a", part_a);
	fn("part_b", part_b);
	report("part_b", 0, 1);
	report("part_a", 1, 1);
	printf("handled %d\n", (int)handled);
}

/* Deeper than a thread's shadow stack: 5000 frames of rec. */
static NOINLINE int
rec(int n)
{
	return n == 0 ? 0 : 1 + rec(n - 1);
}
static volatile int depth = 4999;

static void
deeps(void)
{
	if (rec(depth) != depth)
		exit(2);
	timed(part_a, 0);
	fn("rec", (void (*)(void))rec);
	fn("part_a", part_a);
	fn("deeps", deeps);
	report("part_a", 0, 1);
	printf("calls rec %d\n", depth + 1);
}

/*
 * A void function of nothing, called many times: at -O2 gcc and clang
 * end it with a jump to the exit hook, not a call.
 */
static volatile int sink;

static NOINLINE void
empty_leaf(void)
{
	sink++;
}

static void
voids(void)
{
	uint64_t t0;
	int i;

	t0 = now();
	for (i = 0; i < 100000; i++)
		empty_leaf();
	fn("empty_leaf", empty_leaf);
	printf("calls empty_leaf %d\nwall voids %" PRIu64 "\n", i,
	    now() - t0);
}

int
main(int argc, char *argv[])
{
	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "parts") == 0)
		parts();
	else if (strcmp(argv[1], "fib") == 0)
		fibs(argc > 2 ? atoi(argv[2]) : 27);
	else if (strcmp(argv[1], "longjmp") == 0)
		jumps();
	else if (strcmp(argv[1], "threads") == 0)
		threads();
	else if (strcmp(argv[1], "fork") == 0)
		forks();
	else if (strcmp(argv[1], "exit") == 0)
		exits();
	else if (strcmp(argv[1], "signal") == 0)
		signals();
	else if (strcmp(argv[1], "deep") == 0)
		deeps();
	else if (strcmp(argv[1], "voids") == 0)
		voids();
	else if (strcmp(argv[1], "contexts") == 0)
		contexts();
	else if (strcmp(argv[1], "wide") == 0)
		wide(argc > 2 ? atoi(argv[2]) : 19);
	else if (strcmp(argv[1], "widethreads") == 0)
		widethreads();
	else
		return 2;
	fn("main", (void (*)(void))main);
	fn("timed", (void (*)(void))timed);
	return fflush(stdout) != 0;
}

/*
 * knobs.c -- the program knobs_test runs under PROFCALLS, PROFDEPTH and
 * PROFSLOW: built with -finstrument-functions and linked with libmon
 * (h_knobs), it calls its functions in known ways and says on stdout
 * what it knows of them, for the test to hold against its mon.out:
 *
 *	fn NAME 0xADDR		a function's run-time address
 *	calls NAME N		the calls it made to it
 *	matched N		functions libmon matched against PROFCALLS
 *				(its own count, read at the end)
 *	wall NAME NS		its wall time, CLOCK_MONOTONIC, summed
 *	call NAME TID START DUR	one call: its thread, CLOCK_MONOTONIC
 *				start and length in ns, measured inside it
 *
 * Usage: h_knobs filter CALLS THREADS | depth LEVELS | slow
 * H_KNOBS_UNLINK=1 removes the program's file before main.
 */
#define _GNU_SOURCE	/* gettid */
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE	__attribute__((noinline))
#define NOHOOK		__attribute__((no_instrument_function))
#define MS		1000000ULL

/* libmon's count of the functions it matched against PROFCALLS. */
extern uint64_t _mon_callspec_matched;

static NOHOOK uint64_t
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* d ns of wall time, spent here, in no timed function. */
static NOHOOK void
spin(uint64_t d)
{
	uint64_t end;

	end = now() + d;
	while (now() < end)
		;
}

static NOHOOK void
fn(const char *name, void (*f)(void))
{
	printf("fn %s %p\n", name, (void *)f);
}

/* filter: functions chosen by name, one of them static. */
static volatile int sink;

NOINLINE void parse_big(void) { sink++; }
NOINLINE void parse_small(void) { sink++; }
static NOINLINE void parse_local(void) { sink++; }
NOINLINE void helper(void) { sink++; }

static unsigned long ncalls;

static NOINLINE void
around(void)
{
	parse_big();
	parse_small();
	parse_local();
	helper();
}

static NOINLINE void *
worker(void *arg)
{
	unsigned long i;

	(void)arg;
	for (i = 0; i < ncalls; i++)
		around();
	return NULL;
}

/*
 * With H_KNOBS_UNLINK set, the program's file is removed before main,
 * before libmon reads any name from it.
 */
static NOHOOK __attribute__((constructor)) void
gone(void)
{
	char path[4096];
	ssize_t k;

	if (getenv("H_KNOBS_UNLINK") == NULL)
		return;
	if ((k = readlink("/proc/self/exe", path, sizeof(path) - 1)) <= 0)
		exit(2);
	path[k] = '\0';
	if (unlink(path) != 0)
		exit(2);
}

static void
filter(int argc, char *argv[])
{
	pthread_t t[16];
	int i, n;

	ncalls = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000;
	n = argc > 3 ? atoi(argv[3]) : 1;
	if (n < 1 || n > 16)
		exit(2);
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			exit(2);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	fn("parse_big", parse_big);
	fn("parse_small", parse_small);
	fn("parse_local", parse_local);
	fn("helper", helper);
	fn("around", around);
	fn("worker", (void (*)(void))worker);
	printf("calls parse_big %lu\n", ncalls * (unsigned long)n);
	printf("matched %" PRIu64 "\n", _mon_callspec_matched);
}

/* depth: a recursion of known depth, the innermost spinning. */
static uint64_t spun;

static NOINLINE int
rec(int k)
{
	uint64_t t;

	if (k > 0)
		return 1 + rec(k - 1);
	t = now();
	spin(50 * MS);
	spun += now() - t;
	return 0;
}

static NOINLINE void
depth(int levels)
{
	if (rec(levels - 1) != levels - 1)
		exit(2);
	fn("rec", (void (*)(void))rec);
	fn("depth", (void (*)(void))depth);
	printf("calls rec %d\nwall spin %" PRIu64 "\n", levels, spun);
}

/* slow: calls of known lengths, some over the threshold. */
static NOHOOK void
said(const char *name, uint64_t t0)
{
	printf("call %s %ld %" PRIu64 " %" PRIu64 "\n", name, (long)gettid(),
	    t0, now() - t0);
}

static NOINLINE void
nap(unsigned int ms)
{
	struct timespec ts = { 0, (long)ms * 1000000L };
	uint64_t t0;

	t0 = now();
	while (nanosleep(&ts, &ts) != 0)
		;
	said("nap", t0);
}

static NOINLINE void
mid(unsigned int ms)
{
	uint64_t t0;

	t0 = now();
	nap(ms);
	said("mid", t0);
}

static NOINLINE void *
sleeper(void *arg)
{
	uint64_t t0;

	(void)arg;
	t0 = now();
	nap(25);
	said("sleeper", t0);
	return NULL;
}

static NOINLINE void
slow(void)
{
	pthread_t t;
	uint64_t t0;

	t0 = now();
	nap(2);
	nap(30);
	mid(5);
	mid(45);
	nap(12);
	if (pthread_create(&t, NULL, sleeper, NULL) != 0)
		exit(2);
	pthread_join(t, NULL);
	said("slow", t0);
	fn("nap", (void (*)(void))nap);
	fn("mid", (void (*)(void))mid);
	fn("slow", slow);
	fn("sleeper", (void (*)(void))sleeper);
}

int
main(int argc, char *argv[])
{
	uint64_t t0;

	t0 = now();
	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "filter") == 0)
		filter(argc, argv);
	else if (strcmp(argv[1], "depth") == 0)
		depth(argc > 2 ? atoi(argv[2]) : 50);
	else if (strcmp(argv[1], "slow") == 0)
		slow();
	else
		return 2;
	fn("main", (void (*)(void))main);
	said("main", t0);
	return fflush(stdout) != 0;
}

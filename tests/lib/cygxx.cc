/*
 * cygxx.cc -- the C++ program calls_test measures where control leaves
 * functions without returning from them: built with
 * -finstrument-functions and linked with libmon (h_cygxx by g++,
 * h_cygxx_clang by clang++).  It says what it knows on stdout, as cyg.c
 * does:
 *
 *	fn NAME 0xADDR		a function's run-time address
 *	wall NAME NS		its wall time, measured here around each
 *				call with CLOCK_MONOTONIC, summed
 *	calls NAME N		the calls it made to it
 *	caught N		throw: the exceptions caught
 *	switches N		swap: the switches between the contexts
 *
 * throw: deep1() calls deep2() calls deep3(), which throws an exception
 * that throws() catches, 100 times; then part_a() is timed.
 * swap: main's stack and a coroutine's (a stack of its own, from
 * malloc) take turns by swapcontext(), each in functions of its own,
 * 100 times; then part_a() is timed.  Either way the hooks see frames
 * left without their exit, and part_a's time must still be exact.
 *
 * Usage: h_cygxx throw | swap
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#define NOINLINE	__attribute__((noinline))
#define MS		1000000ULL

static uint64_t
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static NOINLINE void
spin(uint64_t d)
{
	uint64_t end;

	end = now() + d;
	while (now() < end)
		;
}

static NOINLINE void part_a(void) { spin(100 * MS); }

static uint64_t wall_a;

/* part_a, timed around its call. */
static NOINLINE void
timed(void)
{
	uint64_t t;

	t = now();
	part_a();
	wall_a += now() - t;
}

static void
fn(const char *name, void (*f)(void))
{
	printf("fn %s %p\n", name, (void *)f);
}

struct boom {
	int	n;
};

static NOINLINE void
deep3(int i)
{
	spin(MS / 10);
	throw boom{ i };
}
static NOINLINE void deep2(int i) { deep3(i); }
static NOINLINE void deep1(int i) { deep2(i); }

static NOINLINE void
throws(void)
{
	int i, caught = 0;

	for (i = 0; i < 100; i++) {
		try {
			deep1(i);
		} catch (const boom &b) {
			caught += b.n == i;
		}
	}
	printf("caught %d\n", caught);
}

static ucontext_t	 mainctx, coctx;
static volatile int	 switches;

static NOINLINE void
co_leaf(void)
{
	spin(MS / 10);
	switches++;
	if (swapcontext(&coctx, &mainctx) != 0)
		abort();
}

/* The coroutine: 100 rounds of a call that gives the CPU back. */
static NOINLINE void
co_body(void)
{
	int i;

	for (i = 0; i < 100; i++)
		co_leaf();
}

static NOINLINE void
main_leaf(void)
{
	spin(MS / 10);
	switches++;
	if (swapcontext(&mainctx, &coctx) != 0)
		abort();
}

static NOINLINE void
swaps(void)
{
	static char stack[256 * 1024];
	int i;

	if (getcontext(&coctx) != 0)
		abort();
	coctx.uc_stack.ss_sp = stack;
	coctx.uc_stack.ss_size = sizeof(stack);
	coctx.uc_link = &mainctx;
	makecontext(&coctx, co_body, 0);
	for (i = 0; i < 100; i++)
		main_leaf();
	printf("switches %d\n", switches);
}

int
main(int argc, char *argv[])
{
	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "throw") == 0) {
		throws();
		fn("deep1", (void (*)(void))deep1);
		fn("deep3", (void (*)(void))deep3);
		fn("throws", throws);
	} else if (strcmp(argv[1], "swap") == 0) {
		swaps();
		fn("co_leaf", co_leaf);
		fn("main_leaf", main_leaf);
		fn("swaps", swaps);
	} else
		return 2;
	timed();
	fn("part_a", part_a);
	fn("timed", timed);
	fn("main", (void (*)(void))main);
	printf("wall part_a %" PRIu64 "\ncalls part_a 1\n", wall_a);
	return fflush(stdout) != 0;
}

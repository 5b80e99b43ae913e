/*
 * pgnest.c -- profiler_test's GNU C nested function built with -pg
 * (gcc only; clang has none), called through a pointer: its address is
 * taken, so -fcf-protection puts an endbr64 at its start -- after the
 * push of r10, the static chain, that gcc puts before __fentry__'s call.
 * Built -no-pie, so that the addresses it prints are nm's.  It calls
 * inner N times from outer and says, on stdout:
 *
 *	did inner N
 *	enter inner N		enters given for inner's address
 *	fn 0xADDR		the address the hooks gave for it
 *	sites bad N		calls whose site was not the caller's
 *	others N		enters given for other addresses
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <mon.h>

#define NOINLINE	__attribute__((noinline))

static uintptr_t lastsite, gotfn;
static long enters, badsites, others;
static long outer(int);

/*
 * Every call given but outer's is inner's (main's came before the hook
 * was set): the first gives its address, the rest must give the same.
 */
static void
enter(void *data, void *fn, void *site, uintptr_t id)
{
	(void)data;
	(void)id;
	if (fn == (void *)outer)
		return;
	if (gotfn == 0)
		gotfn = (uintptr_t)fn;
	if ((uintptr_t)fn != gotfn) {
		others++;
		return;
	}
	enters++;
	lastsite = (uintptr_t)site;
}

NOINLINE static long
outer(int n)
{
	long sum = 0;
	int i;

	NOINLINE void inner(int k)
	{
		if ((uintptr_t)__builtin_return_address(0) != lastsite)
			badsites++;
		sum += k;
	}
	void (*volatile p)(int) = inner;

	for (i = 0; i < n; i++)
		p(i);
	return sum;
}

int
main(int argc, char **argv)
{
	mon_profiler_t h;
	int n;

	n = argc > 1 ? atoi(argv[1]) : 1000;
	if ((h = mon_profiler_create("pgnest", NULL)) == NULL ||
	    mon_profiler_set_enter_leave(h, enter, NULL) != 0) {
		perror("pgnest");
		return 1;
	}
	if (outer(n) != (long)n * (n - 1) / 2)
		return 1;
	printf("did inner %d\n", n);
	printf("enter inner %ld\n", enters);
	printf("fn %#lx\n", (unsigned long)gotfn);
	printf("sites bad %ld\n", badsites);
	printf("others %ld\n", others);
	return 0;
}

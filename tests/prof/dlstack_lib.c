/*
 * dlstack_lib.c -- the library h_dlstack dlopens after profiling has
 * started: lib_outer() calls lib_inner(), a leaf that burns CPU and, as
 * gcc builds a leaf, sets up no frame; lib_nap() sleeps in nanosleep(),
 * whose C library wrapper has none either.  Each caller is found only
 * among the words at the stack pointer (the leaf's at it, the
 * wrapper's a few words up when it made a frame of its own: stacks.c),
 * a return address into this library, which a stack walk keeps only if
 * it knows the library's text.
 */
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
lib_inner(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void
lib_outer(unsigned long n)
{
	lib_inner(n);
	sink++;
}

__attribute__((noinline)) void
lib_nap(void)
{
	struct timespec t = { 0, 300000000 };

	nanosleep(&t, NULL);
	sink++;
}

/*
 * solib.c -- the shared library of h_solib, compiled with -p: its
 * lib_burn() counts its calls into the program's libmon and burns its
 * time outside the program's histogram, where prof must still find it.
 * lib_thread() is a thread's start routine of the library's own, which
 * never calls back into the program: its thread's time is the
 * library's, never libmon's, whose code starts every thread.
 */
#include <stdint.h>
#include <time.h>

#include "h_burn.h"

void	lib_burn(unsigned long);
void	*lib_thread(void *);

double	lib_thread_cpu;		/* lib_thread's CPU seconds, its clock's */

void
lib_burn(unsigned long units)
{
	BURN(units);
}

void *
lib_thread(void *units)
{
	struct timespec ts;

	BURN((uintptr_t)units);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	lib_thread_cpu = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	return NULL;
}

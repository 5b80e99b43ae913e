/*
 * h_snapself.c -- a program that writes snapshots of its profile from
 * its own thread, between rounds of work, and says how long each took.
 *
 * usage: h_snapself [rounds]
 *
 * Each round, work() spins, then main() calls monsnapshot(), whose
 * system calls and C library code run on main's thread.  The CPU time
 * of work() and of the monsnapshot() calls, each measured on the
 * thread's CPU clock around it, is printed on stdout as "name seconds":
 * the snapshots' time is libmon's, and prof is held to it.
 */
#include <err.h>
#include <mon.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "h_burn.h"

static void
work(void)
{
	BURN(400000);
}

int
main(int argc, char **argv)
{
	double t, w = 0, s = 0;
	int i, rounds = argc > 1 ? atoi(argv[1]) : 200;

	for (i = 0; i < rounds; i++) {
		t = thread_cpu();
		work();
		w += thread_cpu() - t;
		t = thread_cpu();
		if (monsnapshot() != 0)
			err(1, "monsnapshot");
		s += thread_cpu() - t;
	}
	printf("work %.6f\nsnapshots %.6f\n", w, s);
	return 0;
}

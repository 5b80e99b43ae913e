/*
 * t_spin -- an unprofiled, CPU-bound program for faults_test: it spins
 * for MS milliseconds of its own CPU time and exits 0.  A profiled
 * program that execs it must not get it killed by SIGPROF.
 *
 * usage: t_spin MS
 */
#include <stdio.h>
#include <stdlib.h>

#include "h_spin.h"

static void
spin(uint64_t ns)
{
	SPIN(ns);
}

int
main(int argc, char *argv[])
{
	if (argc != 2) {
		fprintf(stderr, "usage: t_spin MS\n");
		return 2;
	}
	spin(strtoull(argv[1], NULL, 10) * MS);
	return 0;
}

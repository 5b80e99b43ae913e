/*
 * slibmain.c -- h_slib, a cc -p program linked with h_slib.so (slib.c):
 *
 *	h_slib N	slib_run() once, which calls slib_leaf() N times
 */
#include <err.h>
#include <stdlib.h>

long	slib_run(long);

volatile long sink;

int
main(int argc, char *argv[])
{
	if (argc != 2)
		errx(2, "usage: h_slib calls");
	sink = slib_run(atol(argv[1]));
	return 0;
}

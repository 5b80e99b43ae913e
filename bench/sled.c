/*
 * sled.c -- a long run in a big library: nearly every sample at a pc
 * of its own.
 *
 *	sled [calls]
 *
 * Calls sled() in libsled.so (sled_lib.c, built without -p/-pg) calls
 * times (default 40000): 262144 distinct instruction addresses a call.
 * The bench runs libmon's build at a high sampling rate, so that the
 * run puts 100k and more distinct library pcs in libmon's outside table.
 *
 *	checksum ...
 */
#include <stdio.h>
#include <stdlib.h>

unsigned long	sled(unsigned long);

__attribute__((noinline)) static unsigned long
run(unsigned long x, long calls)
{
	for (long i = 0; i < calls; i++)
		x = sled(x) * 3;
	return x;
}

int
main(int argc, char *argv[])
{
	long calls;

	calls = argc > 1 ? atol(argv[1]) : 40000;
	printf("checksum %lx\n", run(1, calls));
	return 0;
}

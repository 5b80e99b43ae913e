/*
 * sysburn.c -- CPU split between user code and system calls.
 *
 *	sysburn [units [reads]]
 *
 * user_part() runs spin.h's inlined loop, arithmetic alone, units
 * iterations in all (default 300000000); sys_part() reads 64 KiB from
 * /dev/zero reads times in all (default 120000), where nearly all the
 * CPU is the kernel's clearing of the buffer (perf puts some 98% of
 * it in the kernel; with small reads the system call's entry and exit
 * dominate and perf's samples skid into the C library's wrapper).  The
 * two alternate over 20 rounds, each call timed on the thread's CPU
 * clock, user and system time alike, which no profiler touches.  The
 * measured split is printed as the truth a profiler's shares should
 * match, with the seconds behind it:
 *
 *	truth 51.20 48.80 cpu 0.612 0.583 checksum 1f...
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "spin.h"

#define ROUNDS	20
#define CHUNK	65536

static char buf[CHUNK];

__attribute__((noinline)) unsigned long
user_part(unsigned long x, long n)
{
	return spin(x, n);
}

__attribute__((noinline)) unsigned long
sys_part(int fd, unsigned long x, long n)
{
	for (long i = 0; i < n; i++) {
		if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			perror("sysburn: read /dev/zero");
			exit(1);
		}
		x += (unsigned char)buf[i % CHUNK] + 1;
	}
	return x;
}

int
main(int argc, char *argv[])
{
	long units = argc > 1 ? atol(argv[1]) : 300000000;
	long reads = argc > 2 ? atol(argv[2]) : 120000;
	double tu = 0, ts = 0, t0, t1, t2;
	unsigned long x = 1;
	int fd, r;

	if (units < ROUNDS || reads < ROUNDS) {
		fprintf(stderr, "usage: sysburn [units [reads]]\n");
		return 2;
	}
	if ((fd = open("/dev/zero", O_RDONLY)) == -1) {
		perror("sysburn: /dev/zero");
		return 1;
	}
	for (r = 0; r < ROUNDS; r++) {
		t0 = tcpu();
		x = user_part(x, units / ROUNDS);
		t1 = tcpu();
		x = sys_part(fd, x, reads / ROUNDS);
		t2 = tcpu();
		tu += t1 - t0;
		ts += t2 - t1;
	}
	close(fd);
	printf("truth %.2f %.2f cpu %.3f %.3f checksum %lx\n",
	    100 * tu / (tu + ts), 100 * ts / (tu + ts), tu, ts, x);
	return 0;
}

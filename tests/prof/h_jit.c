/*
 * h_jit.c -- a profiled program with a JIT of one function, for prof's
 * end-to-end test of perf maps.
 *
 * usage: h_jit [jit-ms [c-ms]]
 *
 * It writes x86-64 code for a countdown loop into an anonymous page,
 * makes the page executable, and names it jit_spin in
 * /tmp/perf-PID.map, as a JIT does for perf.  Then it runs jit_spin for
 * jit-ms milliseconds of CPU (default 300) and c_spin, a C function, for
 * c-ms (default 200), and prints "PID PAGE PCT": its pid, the page's
 * address in hexadecimal, and the share of the process's CPU time that
 * jit_spin took, measured by the thread's CPU clock around its calls.
 * The map is left for prof to read; the test removes it.
 */
#include <sys/mman.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "h_burn.h"

#define ROUNDS	10000000ULL	/* one call of jit_spin: a few ms */

/* mov rax, imm64; 1: dec rax; jnz 1b; ret */
static const unsigned char code[] = {
	0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0,
	0x48, 0xff, 0xc8,
	0x75, 0xfb,
	0xc3,
};

static double
cpu_ms(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) != 0)
		err(1, "clock_gettime");
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The page with the loop in it, executable and not writable. */
static void *
jit(void)
{
	unsigned long long n = ROUNDS;
	unsigned char *p;
	long pg;

	pg = sysconf(_SC_PAGESIZE);
	p = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		err(1, "mmap");
	memcpy(p, code, sizeof(code));
	memcpy(p + 2, &n, sizeof(n));
	if (mprotect(p, (size_t)pg, PROT_READ | PROT_EXEC) != 0)
		err(1, "mprotect");
	return p;
}

/* Name the code in this process's perf map, replacing a stale one. */
static void
name(const void *p)
{
	char path[64];
	FILE *fp;
	int fd;

	(void)snprintf(path, sizeof(path), "/tmp/perf-%ld.map",
	    (long)getpid());
	while ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
	    0644)) < 0) {
		if (errno != EEXIST || unlink(path) != 0)
			err(1, "%s", path);
	}
	if ((fp = fdopen(fd, "w")) == NULL)
		err(1, "%s", path);
	fprintf(fp, "%" PRIxPTR " %zx jit_spin\n", (uintptr_t)p,
	    sizeof(code));
	if (fclose(fp) != 0)
		err(1, "%s", path);
}

void
c_spin(void)
{
	BURN(1000000);
}

int
main(int argc, char *argv[])
{
	void (*spin)(void);
	double want_jit = 300, want_c = 200, in_jit = 0, t0, t1;
	void *p;

	if (argc > 1)
		want_jit = strtod(argv[1], NULL);
	if (argc > 2)
		want_c = strtod(argv[2], NULL);
	p = jit();
	name(p);
	/* An object pointer to a function pointer: POSIX allows it. */
	memcpy(&spin, &p, sizeof(spin));
	while (in_jit < want_jit) {
		t0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
		spin();
		t1 = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
		in_jit += t1 - t0;
	}
	t0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
	while (cpu_ms(CLOCK_THREAD_CPUTIME_ID) - t0 < want_c)
		c_spin();
	printf("%ld %" PRIxPTR " %.1f\n", (long)getpid(), (uintptr_t)p,
	    100 * in_jit / cpu_ms(CLOCK_PROCESS_CPUTIME_ID));
	return 0;
}

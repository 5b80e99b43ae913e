/*
 * h_monitor -- a cc -p program for monitor_test: its functions are
 * called known numbers of times, and it prints where they are so that
 * the test can find their cells.
 *
 *	h_monitor fork		count, burn, fork; the child counts and
 *				burns elsewhere; both exit through exit()
 *	h_monitor buffers	stop the start-up profile, then profile
 *				into two buffers of its own (2 cells, then
 *				4) and dump them to buf1.img and buf2.img
 *
 * Output lines: "pid NAME PID" and "fn NAME ADDRESS".
 */
#include <sys/wait.h>

#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mon.h>

#include "h_burn.h"

#define MS	1000000ULL

volatile long sink;

int main(int, char *[]);

long pre(long x) { return x + 1; }
long kid(long x) { return x + 2; }
long both(long x) { return x + 3; }
long f1(long x) { return x + 11; }
long f2(long x) { return x + 12; }
long f3(long x) { return x + 13; }
long f4(long x) { return x + 14; }
long f5(long x) { return x + 15; }
long f6(long x) { return x + 16; }

static void
call(long (*fn)(long), int n)
{
	while (n-- > 0)
		sink += fn(n);
}

static void
show(const char *name, const void *addr)
{
	printf("fn %s %p\n", name, addr);
}

static int
do_fork(void)
{
	pid_t pid;
	int status;

	show("pre", (void *)pre);
	show("kid", (void *)kid);
	show("both", (void *)both);
	show("main", (void *)main);
	show("burn_a", (void *)burn_a);
	show("burn_a_end", (void *)burn_a_end);
	show("burn_b", (void *)burn_b);
	show("burn_b_end", (void *)burn_b_end);
	call(pre, 3);
	burn_for(burn_a, 200 * MS);
	fflush(stdout);
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		call(kid, 5);
		call(both, 7);
		burn_for(burn_b, 200 * MS);
		exit(0);
	}
	printf("pid parent %ld\npid child %ld\n", (long)getpid(), (long)pid);
	if (waitpid(pid, &status, 0) != pid || status != 0)
		errx(1, "child: status %#x", status);
	call(both, 11);
	return 0;
}

static void
save(const char *path, const void *p, size_t n)
{
	int fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0 ||
	    write(fd, p, n) != (ssize_t)n || close(fd) != 0)
		err(1, "%s", path);
}

extern char __executable_start[], etext[];

static int
do_buffers(void)
{
	static WORD b1[4096], b2[4096];

	show("f1", (void *)f1);
	show("f2", (void *)f2);
	show("f3", (void *)f3);
	show("f4", (void *)f4);
	show("f5", (void *)f5);
	show("f6", (void *)f6);
	monitor(NULL, NULL, NULL, 0, 0);
	if (unlink(MON_OUT) != 0)
		err(1, "the start-up profile left no %s", MON_OUT);
	monitor((int (*)(void))__executable_start, (int (*)(void))etext,
	    b1, sizeof(b1) / sizeof(WORD), 2);
	call(f1, 1);
	call(f2, 2);
	call(f3, 3);
	monitor((int (*)(void))__executable_start, (int (*)(void))etext,
	    b2, sizeof(b2) / sizeof(WORD), 4);
	call(f4, 4);
	call(f5, 5);
	call(f6, 6);
	monitor(NULL, NULL, NULL, 0, 0);
	save("buf1.img", b1, sizeof(b1));
	save("buf2.img", b2, sizeof(b2));
	return 0;
}

int
main(int argc, char *argv[])
{
	int r;

	if (argc != 2)
		errx(2, "usage: h_monitor fork | buffers");
	if (strcmp(argv[1], "fork") == 0)
		r = do_fork();
	else if (strcmp(argv[1], "buffers") == 0)
		r = do_buffers();
	else
		errx(2, "%s: unknown mode", argv[1]);
	if (fflush(stdout) != 0)
		err(1, "stdout");
	return r;
}

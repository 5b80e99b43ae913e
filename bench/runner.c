/*
 * runner.c -- run one command and say what it cost.
 *
 *	runner [-d dir] [-o out] [-e err] [-u VAR]... -- prog [arg ...]
 *	runner -t
 *
 * The bench times every workload through this helper rather than
 * time(1): it forks, optionally changes into dir, sends the child's
 * stdout to out and its stderr to err (default /dev/null for both),
 * unsets each VAR, execs prog and reaps it with wait4(), whose rusage
 * covers every thread of the child.  One line goes to stdout:
 *
 *	wall=S user=S sys=S cpu=S rss=K end=T status=N
 *
 * with seconds as decimals, rss the child's peak resident set in KiB
 * (ru_maxrss), end the CLOCK_MONOTONIC seconds at which it was reaped
 * (for a program that notes on the same clock when main returns, so
 * that what its exit took can be told), and status the exit code, or
 * 128 + the signal that killed the child.  runner exits 0 whenever it could run
 * the child at all, so the caller decides what a failure means.  out
 * and err are opened before the change of directory.
 *
 * -t measures the rate at which the kernel delivers ITIMER_PROF signals
 * to a CPU-bound process asking for 10000 Hz: CPU-time timers are
 * checked at the scheduler tick, so this is CONFIG_HZ when the kernel
 * does not say.
 */
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t ticks;

static void
usage(void)
{
	fprintf(stderr, "usage: runner [-d dir] [-o out] [-e err] [-u var]..."
	    " -- prog [arg ...]\n       runner -t\n");
	exit(2);
}

static double
tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
onprof(int sig)
{
	(void)sig;
	ticks++;
}

/* Signals per CPU-second when 10000 Hz is asked of ITIMER_PROF. */
static int
tickrate(void)
{
	struct itimerval it;
	struct rusage ru;
	volatile unsigned long x = 1;
	double cpu;

	if (signal(SIGPROF, onprof) == SIG_ERR)
		err(1, "signal");
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 100;
	it.it_value = it.it_interval;
	if (setitimer(ITIMER_PROF, &it, NULL) != 0)
		err(1, "setitimer");
	do {
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005UL + 1;
		if (getrusage(RUSAGE_SELF, &ru) != 0)
			err(1, "getrusage");
		cpu = tv(ru.ru_utime) + tv(ru.ru_stime);
	} while (cpu < 0.4);
	memset(&it, 0, sizeof(it));
	(void)setitimer(ITIMER_PROF, &it, NULL);
	printf("%.0f\n", ticks / cpu);
	return fflush(stdout) == 0 ? 0 : 1;
}

static void
redirect(const char *path, int fd, int flags)
{
	int f;

	if ((f = open(path, flags, 0666)) == -1)
		err(127, "%s", path);
	if (f != fd) {
		if (dup2(f, fd) == -1)
			err(127, "dup2");
		close(f);
	}
}

int
main(int argc, char *argv[])
{
	const char *dir = NULL, *out = "/dev/null", *errf = "/dev/null";
	struct rusage ru;
	double t0, t1;
	pid_t pid;
	int ch, st, code;

	while ((ch = getopt(argc, argv, "d:e:o:tu:")) != -1) {
		switch (ch) {
		case 'd':
			dir = optarg;
			break;
		case 'e':
			errf = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 't':
			return tickrate();
		case 'u':
			if (unsetenv(optarg) != 0)
				err(2, "unsetenv %s", optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();

	t0 = now();
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		redirect(out, 1, O_WRONLY | O_CREAT | O_TRUNC);
		redirect(errf, 2, O_WRONLY | O_CREAT | O_TRUNC);
		if (dir != NULL && chdir(dir) != 0)
			err(127, "%s", dir);
		execvp(argv[0], argv);
		err(127, "%s", argv[0]);
	}
	while (wait4(pid, &st, 0, &ru) == -1)
		if (errno != EINTR)
			err(1, "wait4");
	t1 = now();
	code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	printf("wall=%.6f user=%.6f sys=%.6f cpu=%.6f rss=%ld end=%.6f "
	    "status=%d\n", t1 - t0, tv(ru.ru_utime), tv(ru.ru_stime),
	    tv(ru.ru_utime) + tv(ru.ru_stime), ru.ru_maxrss, t1, code);
	return fflush(stdout) == 0 ? 0 : 1;
}

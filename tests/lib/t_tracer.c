/*
 * t_tracer.c -- run a program under ptrace, as strace -f or a debugger
 * does, holding each SIGPROF it is about to be handed for a while.
 *
 * usage: t_tracer MS PROGRAM [ARG ...]
 *
 * Every thread of PROGRAM is traced.  A signal the kernel is about to
 * deliver stops the thread and is reported to the tracer first, which
 * hands it on as it resumes the thread -- under the action in place by
 * then, not the one in place when the signal was sent.  A tracer that
 * is slow to resume makes that gap wide: here each SIGPROF is held MS
 * milliseconds; every other signal goes on at once.  A signal handed
 * on unchanged keeps its siginfo, so the program can still tell what
 * sent it.  How PROGRAM ended goes to stdout, "exit N" or "signal N",
 * and how many SIGPROFs were held to stderr, "held N"; the tracer exits
 * 0, or 2 if it could not trace (ptrace refused: Yama, seccomp, or a
 * tracer of its own).  It knows only the stops of a program that does
 * not stop itself: a SIGSTOP the program sent would be lost.
 */
#define _GNU_SOURCE
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAXHELD	64

struct held {
	pid_t		tid;
	struct timespec	until;
};

static struct held held[MAXHELD];
static int nheld;
static long nsigprof;		/* held in all */

static int
passed(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > t->tv_sec ||
	    (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

/* Resume the held threads whose time is up, with their SIGPROF. */
static void
release(void)
{
	int i;

	for (i = 0; i < nheld; )
		if (passed(&held[i].until)) {
			(void)ptrace(PTRACE_CONT, held[i].tid, NULL,
			    (void *)(long)SIGPROF);
			held[i] = held[--nheld];
		} else
			i++;
}

static void
hold(pid_t tid, long ms)
{
	struct timespec *t;

	nsigprof++;
	if (nheld == MAXHELD) {
		(void)ptrace(PTRACE_CONT, tid, NULL, (void *)(long)SIGPROF);
		return;
	}
	held[nheld].tid = tid;
	t = &held[nheld++].until;
	clock_gettime(CLOCK_MONOTONIC, t);
	t->tv_nsec += (ms % 1000) * 1000000;
	t->tv_sec += ms / 1000 + t->tv_nsec / 1000000000;
	t->tv_nsec %= 1000000000;
}

int
main(int argc, char **argv)
{
	struct timespec ms1 = { 0, 1000000 };
	pid_t child, tid;
	char *end;
	long ms;
	int st, sig;

	if (argc < 3 || (ms = strtol(argv[1], &end, 10)) < 0 || *end != '\0' ||
	    end == argv[1])
		errx(2, "usage: t_tracer MS PROGRAM [ARG ...]");
	if ((child = fork()) < 0)
		err(2, "fork");
	if (child == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
			err(127, "PTRACE_TRACEME");
		(void)raise(SIGSTOP);
		execvp(argv[2], argv + 2);
		err(127, "%s", argv[2]);
	}
	if (waitpid(child, &st, 0) != child || !WIFSTOPPED(st))
		errx(2, "the child did not stop");
	if (ptrace(PTRACE_SETOPTIONS, child, NULL, (void *)(long)
	    (PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
	    PTRACE_O_EXITKILL)) != 0)
		err(2, "PTRACE_SETOPTIONS");
	(void)ptrace(PTRACE_CONT, child, NULL, NULL);
	for (;;) {
		release();
		/* Nothing held: nothing to do but wait. */
		tid = waitpid(-1, &st, __WALL | (nheld > 0 ? WNOHANG : 0));
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			errx(2, "the program's end was not seen");
		}
		if (tid == 0) {
			(void)nanosleep(&ms1, NULL);
			continue;
		}
		if (tid == child && (WIFEXITED(st) || WIFSIGNALED(st))) {
			if (WIFEXITED(st))
				printf("exit %d\n", WEXITSTATUS(st));
			else
				printf("signal %d\n", WTERMSIG(st));
			fprintf(stderr, "held %ld\n", nsigprof);
			return 0;
		}
		if (!WIFSTOPPED(st))
			continue;	/* a thread that ended */
		sig = WSTOPSIG(st);
		/* Events (clone, exec) and a new thread's first stop. */
		if ((st >> 16) != 0 || sig == SIGSTOP) {
			(void)ptrace(PTRACE_CONT, tid, NULL, NULL);
			continue;
		}
		if (sig == SIGPROF && ms > 0)
			hold(tid, ms);
		else
			(void)ptrace(PTRACE_CONT, tid, NULL, (void *)(long)sig);
	}
}

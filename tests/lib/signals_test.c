/*
 * signals_test -- what a program that uses SIGPROF itself sees while a
 * clock of libmon's samples by that signal: its action delivered with
 * the flags it asked for, its action kept safely while handlers run,
 * its timers and actions left to it, and nothing of libmon's handed on
 * across exec.
 *
 * The clocks under test are the signal ones: "timer" (monitor() under
 * PROFCLOCK=timer, the program's action set after the start) and
 * "profil" (the program's action set first, then profil(), which runs
 * ITIMER_PROF).  Each case runs in a forked child (run_child) that
 * reports through shared memory; the parent judges.  This program is
 * linked with libmon, so its sigaction(), signal() and exec calls are
 * libmon's.
 */
#define _GNU_SOURCE	/* pthread_sigqueue, execveat */
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <atf-c.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <mon.h>

#include "h_monread.h"
#include "h_support.h"

#define BUFW		4096		/* WORDs in a child's profile buffer */
#define EXIT_CODE	7
#define ALTSTACK	65536
#ifndef SA_RESTORER
#define SA_RESTORER	0x04000000	/* glibc sets it in what it reads */
#endif

static const char *const clocks[] = { "timer", "profil" };
#define NCLOCKS	(sizeof(clocks) / sizeof(clocks[0]))

/* What a child does, and what its handler saw. */
struct sig {
	/* set by the parent */
	const char	*clock;
	int		flags;		/* the program's sa_flags */
	int		raises;		/* SIGPROFs it raises */
	/* set by the child */
	int		started;	/* the clock runs */
	int		adopted;	/* libmon's handler stayed installed */
	volatile int	calls;
	int		prof_blocked, usr1_blocked, usr2_blocked;
	int		on_altstack;
	int		read_back;	/* reads back its action */
	int		dfl_after;	/* reads back SIG_DFL after one */
	char		prog[PATH_MAX];	/* a program to exec */
	long		interval_us;	/* ITIMER_PROF's, as found */
	ssize_t		nread;		/* read() of a pipe: result */
	int		read_errno;
	WORD		buf[BUFW];
};

static struct sig *cur;
static char altstack[ALTSTACK];

static void
seen(int sig)
{
	sigset_t m;
	char here;

	(void)sig;
	if (pthread_sigmask(SIG_BLOCK, NULL, &m) == 0) {
		cur->prof_blocked = sigismember(&m, SIGPROF);
		cur->usr1_blocked = sigismember(&m, SIGUSR1);
		cur->usr2_blocked = sigismember(&m, SIGUSR2);
	}
	cur->on_altstack = &here >= altstack && &here < altstack + ALTSTACK;
	cur->calls++;
}

/*
 * The program's action: seen(), SIGUSR1 in its mask, s->flags; none if
 * the flags are -1.
 */
static int
set_action(struct sig *s)
{
	struct sigaction sa;
	stack_t ss;

	if (s->flags == -1)
		return 0;
	if (s->flags & SA_ONSTACK) {
		ss.ss_sp = altstack;
		ss.ss_size = sizeof(altstack);
		ss.ss_flags = 0;
		if (sigaltstack(&ss, NULL) != 0)
			return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = seen;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR1);
	sa.sa_flags = s->flags;
	return sigaction(SIGPROF, &sa, NULL);
}

/*
 * Start the clock s->clock names -- monitor() under that PROFCLOCK, the
 * program's action set after; or the action, then profil() -- and say
 * in s->started and s->adopted what came of it.
 */
static int
start(struct sig *s)
{
	int r;

	cur = s;
	if (strcmp(s->clock, "profil") != 0) {
		setenv("PROFCLOCK", s->clock, 1);
		monitor((int (*)(void))(uintptr_t)burn_a,
		    (int (*)(void))(uintptr_t)burn_c_end, s->buf, BUFW, 4);
		s->started = kernel_handler(SIGPROF) != NULL;
		r = set_action(s);
	} else {
		r = set_action(s);
		s->started = profil(s->buf, sizeof(s->buf),
		    (uintptr_t)burn_a, 0x10000) == 0;
	}
	s->adopted = kernel_handler(SIGPROF) != (void *)seen;
	return r;
}

static void
stop(struct sig *s)
{
	if (strcmp(s->clock, "profil") != 0)
		monitor(NULL, NULL, NULL, 0, 0);
	else
		(void)profil(s->buf, 0, 0, 0);
}

static struct sig *
newsig(const char *clock, int flags)
{
	struct sig *s;

	s = shared(sizeof(*s));
	s->clock = clock;
	s->flags = flags;
	s->raises = 1;
	return s;
}

/* Raise s->raises SIGPROFs of the program's own. */
static int
child_raise(void *arg)
{
	struct sig *s = arg;
	struct sigaction cur_act;
	int i;

	if (start(s) != 0)
		return 100;
	if (sigaction(SIGPROF, NULL, &cur_act) != 0)
		return 101;
	s->read_back = cur_act.sa_handler == seen &&
	    (cur_act.sa_flags & ~SA_RESTORER) == s->flags &&
	    sigismember(&cur_act.sa_mask, SIGUSR1);
	for (i = 0; i < s->raises; i++) {
		(void)raise(SIGPROF);
		if (sigaction(SIGPROF, NULL, &cur_act) != 0)
			return 101;
		s->dfl_after = cur_act.sa_handler == SIG_DFL;
	}
	stop(s);
	return EXIT_CODE;
}

/* Run fn for s and require that the clock was one that signals. */
static void
run_sig(int (*fn)(void *), struct sig *s, struct child *c)
{
	run_child(fn, s, c);
	ATF_REQUIRE_MSG(s->started, "%s: the clock did not start", s->clock);
	if (!s->adopted)
		atf_tc_skip("%s: the program's action replaced libmon's "
		    "(no per-thread clock here)", s->clock);
}

/*
 * One SIGPROF of the program's own, raised under clock with an action
 * of these flags: what its handler saw, having run once.
 */
static struct sig *
raise_once(const char *clock, int flags)
{
	struct child c;
	struct sig *s;

	s = newsig(clock, flags);
	run_sig(child_raise, s, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_REQUIRE_MSG(s->calls == 1, "%s: the handler ran %d times",
	    clock, s->calls);
	return s;
}

ATF_TC(action_mask_as_asked);
ATF_TC_HEAD(action_mask_as_asked, tc)
{
	atf_tc_set_md_var(tc, "descr", "The program's SIGPROF handler runs "
	    "with the mask its action asks for -- the interrupted mask, its "
	    "sa_mask and SIGPROF itself -- and no other signal blocked, as "
	    "without libmon; the action reads back as set");
}
ATF_TC_BODY(action_mask_as_asked, tc)
{
	struct sig *s;
	size_t i;

	for (i = 0; i < NCLOCKS; i++) {
		s = raise_once(clocks[i], 0);
		ATF_CHECK_MSG(s->prof_blocked, "%s: SIGPROF not blocked in "
		    "its handler", s->clock);
		ATF_CHECK_MSG(s->usr1_blocked, "%s: SIGUSR1, in sa_mask, not "
		    "blocked in the handler", s->clock);
		ATF_CHECK_MSG(!s->usr2_blocked, "%s: SIGUSR2, in no mask, "
		    "blocked in the handler", s->clock);
		ATF_CHECK_MSG(s->read_back, "%s: sigaction() does not read "
		    "back the action set", s->clock);
	}
}

ATF_TC(action_nodefer);
ATF_TC_HEAD(action_nodefer, tc)
{
	atf_tc_set_md_var(tc, "descr", "With SA_NODEFER the program's "
	    "SIGPROF handler runs with SIGPROF unblocked (Open POSIX "
	    "sigaction/22-20)");
}
ATF_TC_BODY(action_nodefer, tc)
{
	struct sig *s;
	size_t i;

	for (i = 0; i < NCLOCKS; i++) {
		s = raise_once(clocks[i], SA_NODEFER);
		ATF_CHECK_MSG(!s->prof_blocked, "%s: SIGPROF blocked in a "
		    "handler installed with SA_NODEFER", s->clock);
		ATF_CHECK_MSG(s->usr1_blocked, "%s: SIGUSR1, in sa_mask, not "
		    "blocked in the handler", s->clock);
	}
}

ATF_TC(action_resethand);
ATF_TC_HEAD(action_resethand, tc)
{
	atf_tc_set_md_var(tc, "descr", "With SA_RESETHAND the program's "
	    "SIGPROF handler runs once: the action reads back SIG_DFL after, "
	    "and the next SIGPROF ends the program as SIG_DFL does");
}
ATF_TC_BODY(action_resethand, tc)
{
	struct child c;
	struct sig *s;
	size_t i;

	for (i = 0; i < NCLOCKS; i++) {
		s = newsig(clocks[i], SA_RESETHAND);
		s->raises = 2;
		run_sig(child_raise, s, &c);
		ATF_CHECK_MSG(WIFSIGNALED(c.status) &&
		    WTERMSIG(c.status) == SIGPROF, "%s: status %#x, not the "
		    "end by SIGPROF", s->clock, c.status);
		ATF_CHECK_MSG(s->calls == 1, "%s: the handler ran %d times",
		    s->clock, s->calls);
		ATF_CHECK_MSG(s->dfl_after, "%s: the action does not read "
		    "back SIG_DFL after the first signal", s->clock);
	}
}

ATF_TC(action_onstack);
ATF_TC_HEAD(action_onstack, tc)
{
	atf_tc_set_md_var(tc, "descr", "With SA_ONSTACK the program's "
	    "SIGPROF handler runs on the alternate signal stack it set");
}
ATF_TC_BODY(action_onstack, tc)
{
	struct sig *s;
	size_t i;

	for (i = 0; i < NCLOCKS; i++) {
		s = raise_once(clocks[i], SA_ONSTACK);
		ATF_CHECK_MSG(s->on_altstack, "%s: the handler did not run "
		    "on the alternate stack", s->clock);
	}
}

/*
 * Is thread tid asleep in read()?  /proc gives the system call a thread
 * is blocked in; read is 0 on x86_64.
 */
static int
in_read(pid_t tid)
{
	char path[64], line[64];
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	r = fgets(line, sizeof(line), f) != NULL && strncmp(line, "0 ", 2) == 0;
	fclose(f);
	return r;
}

struct reader {
	pthread_t	main;
	pid_t		tid;
	int		wfd;
};

/*
 * Once the main thread sleeps in read(), send it a SIGPROF of the
 * program's own; a while later, give read() a byte, so that a call the
 * signal restarted ends too.
 */
static void *
interrupter(void *arg)
{
	struct reader *r = arg;
	struct timespec ts = { 0, 1000000 };
	int i;

	for (i = 0; i < 5000 && !in_read(r->tid); i++)
		nanosleep(&ts, NULL);
	(void)pthread_kill(r->main, SIGPROF);
	ts.tv_nsec = 200000000;
	nanosleep(&ts, NULL);
	(void)write(r->wfd, "x", 1);
	return NULL;
}

static int
child_read(void *arg)
{
	struct sig *s = arg;
	struct reader r;
	pthread_t t;
	int fds[2];
	char b;

	if (start(s) != 0 || pipe(fds) != 0)
		return 100;
	r.main = pthread_self();
	r.tid = (pid_t)syscall(SYS_gettid);
	r.wfd = fds[1];
	if (pthread_create(&t, NULL, interrupter, &r) != 0)
		return 101;
	s->nread = read(fds[0], &b, 1);
	s->read_errno = errno;
	pthread_join(t, NULL);
	stop(s);
	return EXIT_CODE;
}

ATF_TC(action_restart_or_not);
ATF_TC_HEAD(action_restart_or_not, tc)
{
	atf_tc_set_md_var(tc, "descr", "Under the per-thread clock, a read() "
	    "that the program's own SIGPROF interrupts fails with EINTR when "
	    "its action lacks SA_RESTART, and is restarted when it has it");
}
ATF_TC_BODY(action_restart_or_not, tc)
{
	struct child c;
	struct sig *s;

	s = newsig("timer", 0);
	run_sig(child_read, s, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_REQUIRE_MSG(s->calls == 1, "the handler ran %d times", s->calls);
	ATF_CHECK_MSG(s->nread == -1 && s->read_errno == EINTR, "without "
	    "SA_RESTART: read() gave %zd (%s), not EINTR", s->nread,
	    strerror(s->read_errno));

	s = newsig("timer", SA_RESTART);
	run_sig(child_read, s, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_REQUIRE_MSG(s->calls == 1, "the handler ran %d times", s->calls);
	ATF_CHECK_MSG(s->nread == 1, "with SA_RESTART: read() gave %zd (%s), "
	    "not the byte", s->nread, strerror(s->read_errno));
}

/*
 * Two actions a thread switches between while another takes SIGPROFs
 * of its own: each handler checks that it runs under its own action's
 * mask and flags, not a mix of the two.
 */
#define NRAISE		50000

struct race {
	struct sig	s;
	volatile int	done;
	volatile int	mixed;		/* a handler under the other's mask */
	volatile int	a_calls, b_calls;
};

static struct race *race;

static int
blocked(int sig)
{
	sigset_t m;

	return pthread_sigmask(SIG_BLOCK, NULL, &m) == 0 &&
	    sigismember(&m, sig);
}

/* Action A: SIGUSR1 in its mask, SIGPROF deferred. */
static void
seen_a(int sig)
{
	(void)sig;
	race->a_calls++;
	if (!blocked(SIGUSR1) || blocked(SIGUSR2) || !blocked(SIGPROF))
		race->mixed++;
}

/* Action B: SIGUSR2 in its mask, SA_NODEFER. */
static void
seen_b(int sig)
{
	(void)sig;
	race->b_calls++;
	if (blocked(SIGUSR1) || !blocked(SIGUSR2) || blocked(SIGPROF))
		race->mixed++;
}

static void *
switcher(void *arg)
{
	struct sigaction a, b;

	(void)arg;
	memset(&a, 0, sizeof(a));
	a.sa_handler = seen_a;
	sigemptyset(&a.sa_mask);
	sigaddset(&a.sa_mask, SIGUSR1);
	b = a;
	b.sa_handler = seen_b;
	sigemptyset(&b.sa_mask);
	sigaddset(&b.sa_mask, SIGUSR2);
	b.sa_flags = SA_NODEFER;
	while (!race->done) {
		(void)sigaction(SIGPROF, &a, NULL);
		(void)sigaction(SIGPROF, &b, NULL);
	}
	return NULL;
}

static int
child_race(void *arg)
{
	pthread_t t;
	int i;

	race = arg;
	if (start(&race->s) != 0)
		return 100;
	if (pthread_create(&t, NULL, switcher, NULL) != 0)
		return 101;
	for (i = 0; i < NRAISE; i++)
		(void)raise(SIGPROF);
	race->done = 1;
	pthread_join(t, NULL);
	stop(&race->s);
	return EXIT_CODE;
}

ATF_TC(action_update_not_torn);
ATF_TC_HEAD(action_update_not_torn, tc)
{
	atf_tc_set_md_var(tc, "descr", "While one thread switches the "
	    "SIGPROF action back and forth, every signal another thread "
	    "takes runs one action's handler under that action's own mask "
	    "and flags, never a mix of the two");
}
ATF_TC_BODY(action_update_not_torn, tc)
{
	struct race *r;
	struct child c;

	r = shared(sizeof(*r));
	r->s.clock = "timer";
	run_sig(child_race, &r->s, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_REQUIRE_MSG(r->a_calls > 0 && r->b_calls > 0, "calls: %d of A, "
	    "%d of B", r->a_calls, r->b_calls);
	ATF_CHECK_EQ_MSG(r->mixed, 0, "%d of %d signals ran under a mix of "
	    "the two actions", r->mixed, r->a_calls + r->b_calls);
}

/*
 * Run argv[0] with PROFCLOCK=clock (unless NULL) in the working
 * directory, its stdout to out (unless NULL); its status.
 */
static int
spawn(char *const argv[], const char *clock, const char *out)
{
	int fd, status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	ATF_REQUIRE_MSG(pid != -1, "fork: %s", strerror(errno));
	if (pid == 0) {
		if (clock != NULL)
			setenv("PROFCLOCK", clock, 1);
		unsetenv("PROFDIR");
		if (out != NULL && ((fd = open(out, O_WRONLY | O_CREAT |
		    O_TRUNC, 0644)) < 0 || dup2(fd, STDOUT_FILENO) < 0))
			_exit(120);
		execv(argv[0], argv);
		_exit(121);
	}
	while (waitpid(pid, &status, 0) < 0)
		ATF_REQUIRE_MSG(errno == EINTR, "waitpid: %s", strerror(errno));
	return status;
}

/* The helper name in the test's source directory. */
static void
helper(const atf_tc_t *tc, const char *name, char *path, size_t size)
{
	ATF_REQUIRE((size_t)snprintf(path, size, "%s/%s",
	    atf_tc_get_config_var(tc, "srcdir"), name) < size);
}

/* Does file hold the line? */
static int
has_line(const char *file, const char *line)
{
	char buf[256];
	FILE *f;
	int found;

	if ((f = fopen(file, "r")) == NULL)
		return 0;
	found = 0;
	while (!found && fgets(buf, sizeof(buf), f) != NULL) {
		buf[strcspn(buf, "\n")] = '\0';
		found = strcmp(buf, line) == 0;
	}
	fclose(f);
	return found;
}

/* mon.out is there, well formed, and prof -s reads it for prog. */
static void
check_profile(const atf_tc_t *tc, const char *prog, struct mon_file *m)
{
	char why[256], prof[PATH_MAX];
	char *argv[] = { prof, "-s", (char *)prog, MON_OUT, NULL };
	int st;

	ATF_REQUIRE_MSG(mon_read(MON_OUT, m, why, sizeof(why)) == 0, "%s: %s",
	    MON_OUT, why);
	helper(tc, "../../prof/prof", prof, sizeof(prof));
	st = spawn(argv, NULL, "prof.out");
	ATF_CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "prof -s: "
	    "status %#x", st);
}

ATF_TC(itimer_sig_dfl_not_killed);
ATF_TC_HEAD(itimer_sig_dfl_not_killed, tc)
{
	atf_tc_set_md_var(tc, "descr", "With PROFCLOCK=itimer, a program "
	    "that sets SIGPROF back to SIG_DFL is not killed by libmon's "
	    "timer: it keeps its exit status, mon.out is written and prof -s "
	    "reads it");
}
ATF_TC_BODY(itimer_sig_dfl_not_killed, tc)
{
	char prog[PATH_MAX];
	char *argv[] = { prog, "dfl", "300", NULL };
	struct mon_file m;
	int st;

	helper(tc, "h_sigprog", prog, sizeof(prog));
	st = spawn(argv, "itimer", "out");
	ATF_REQUIRE_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 3, "status %#x%s",
	    st, WIFSIGNALED(st) && WTERMSIG(st) == SIGPROF ? " (SIGPROF)" : "");
	ATF_CHECK_MSG(has_line("out", "read back: own"), "SIG_DFL does not "
	    "read back");
	check_profile(tc, prog, &m);
	ATF_CHECK_MSG(m.has_run && m.run.clock == MONX_CLK_ITIMER, "not the "
	    "itimer clock");
	mon_free(&m);
}

/*
 * Burn, SIGPROF blocked, until a sample is pending or cap ns of CPU
 * have gone; 1 if one is.
 */
static int
burn_to_pending(uint64_t cap)
{
	sigset_t pend;
	uint64_t t0;

	t0 = thread_ns();
	do {
		burn_a(BURN_CHUNK);
		if (sigpending(&pend) != 0)
			return 0;
	} while (!sigismember(&pend, SIGPROF) && thread_ns() - t0 < cap);
	return sigismember(&pend, SIGPROF);
}

/* Set SIG_DFL while SIGPROF is blocked and a sample is pending. */
static int
child_dfl_pending(void *arg)
{
	struct sig *s = arg;
	struct sigaction dfl;
	sigset_t set;

	if (start(s) != 0)
		return 101;
	sigemptyset(&set);
	sigaddset(&set, SIGPROF);
	(void)sigprocmask(SIG_BLOCK, &set, NULL);
	s->adopted = burn_to_pending(CPU_CAP_NS);	/* a sample pends */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	if (sigaction(SIGPROF, &dfl, NULL) != 0)
		return 100;
	(void)sigprocmask(SIG_UNBLOCK, &set, NULL);
	burn_for(burn_a, 50 * MS);
	monitor(NULL, NULL, NULL, 0, 0);
	return EXIT_CODE;
}

ATF_TC(itimer_sig_dfl_sample_pending);
ATF_TC_HEAD(itimer_sig_dfl_sample_pending, tc)
{
	atf_tc_set_md_var(tc, "descr", "With PROFCLOCK=itimer, a program "
	    "that sets SIGPROF to SIG_DFL while it blocks the signal and a "
	    "sample is pending is not killed when it unblocks it");
}
ATF_TC_BODY(itimer_sig_dfl_sample_pending, tc)
{
	struct child c;
	struct sig *s;

	s = newsig("itimer", -1);
	run_child(child_dfl_pending, s, &c);
	ATF_REQUIRE_MSG(s->started && s->adopted, "no sample came pending");
	ATF_CHECK_MSG(WIFEXITED(c.status) && WEXITSTATUS(c.status) ==
	    EXIT_CODE, "status %#x%s", c.status, WIFSIGNALED(c.status) &&
	    WTERMSIG(c.status) == SIGPROF ? " (SIGPROF)" : "");
}

enum { OWN_STOP, OWN_EXEC_FAILS, OWN_EXEC };

/*
 * Under ITIMER_PROF, the program takes SIGPROF and ITIMER_PROF (7 ms)
 * for itself, then stops profiling, or execs s->prog and fails, or
 * execs t_exec count.
 */
static int
child_own_itimer(void *arg)
{
	struct sig *s = arg;
	struct itimerval it;

	if (start(s) != 0)
		return 100;
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 7000;
	it.it_value = it.it_interval;
	if (setitimer(ITIMER_PROF, &it, NULL) != 0)
		return 101;
	burn_for(burn_a, 30 * MS);
	if (s->raises == OWN_STOP)
		stop(s);
	else if (s->raises == OWN_EXEC_FAILS)
		(void)execl("/nonexistent/t_exec", "t_exec", (char *)NULL);
	else {
		/* Time for t_exec to set its handler before the first. */
		it.it_value.tv_usec = 30000;
		(void)setitimer(ITIMER_PROF, &it, NULL);
		(void)execl(s->prog, "t_exec", "count", "100", (char *)NULL);
		return 102;
	}
	if (getitimer(ITIMER_PROF, &it) != 0)
		return 103;
	s->interval_us = it.it_interval.tv_sec * 1000000 +
	    it.it_interval.tv_usec;
	s->read_back = kernel_handler(SIGPROF) == (void *)seen;
	return EXIT_CODE;
}

static struct sig *
own_itimer(int what, struct child *c)
{
	struct sig *s;

	s = newsig("itimer", SA_RESTART);
	s->raises = what;
	run_child(child_own_itimer, s, c);
	ATF_REQUIRE_MSG(s->started, "the clock did not start");
	return s;
}

ATF_TC(itimer_stop_keeps_program_timer);
ATF_TC_HEAD(itimer_stop_keeps_program_timer, tc)
{
	atf_tc_set_md_var(tc, "descr", "With PROFCLOCK=itimer, an "
	    "ITIMER_PROF the program set while profiled is still its own "
	    "after the stop, with its action: the timer of before the start "
	    "is not put back over it");
}
ATF_TC_BODY(itimer_stop_keeps_program_timer, tc)
{
	struct child c;
	struct sig *s;

	s = own_itimer(OWN_STOP, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_CHECK_MSG(s->calls > 0, "the program's handler got no signal");
	ATF_CHECK_EQ_MSG(s->interval_us, 7000, "ITIMER_PROF's interval is "
	    "%ld us after the stop, not the program's 7000", s->interval_us);
	ATF_CHECK_MSG(s->read_back, "the program's action is not in place");
}

ATF_TC(itimer_failed_exec_keeps_program_timer);
ATF_TC_HEAD(itimer_failed_exec_keeps_program_timer, tc)
{
	atf_tc_set_md_var(tc, "descr", "With PROFCLOCK=itimer, an exec that "
	    "fails leaves the ITIMER_PROF the program set as it was: libmon's "
	    "timer, which had yielded, does not come back over it");
}
ATF_TC_BODY(itimer_failed_exec_keeps_program_timer, tc)
{
	struct child c;
	struct sig *s;

	s = own_itimer(OWN_EXEC_FAILS, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_CHECK_EQ_MSG(s->interval_us, 7000, "ITIMER_PROF's interval is "
	    "%ld us after the failed exec, not the program's 7000",
	    s->interval_us);
}

ATF_TC(itimer_exec_hands_on_program_timer);
ATF_TC_HEAD(itimer_exec_hands_on_program_timer, tc)
{
	atf_tc_set_md_var(tc, "descr", "With PROFCLOCK=itimer, an "
	    "ITIMER_PROF the program set goes on into the program it execs, "
	    "as it does without libmon");
}
ATF_TC_BODY(itimer_exec_hands_on_program_timer, tc)
{
	struct child c;
	struct sig *s;

	s = newsig("itimer", SA_RESTART);
	s->raises = OWN_EXEC;
	helper(tc, "t_exec", s->prog, sizeof(s->prog));
	run_child(child_own_itimer, s, &c);
	ATF_CHECK_MSG(WIFEXITED(c.status) && WEXITSTATUS(c.status) > 0 &&
	    WEXITSTATUS(c.status) < 100, "t_exec count: status %#x, no "
	    "SIGPROF of the inherited timer", c.status);
}

/*
 * Every signal blocked, as a launcher holds them before it execs: burn
 * until a sample is pending (after raising one SIGPROF of the program's
 * own if s->raises), then exec t_exec, which unblocks everything.
 */
static int
child_exec_pending(void *arg)
{
	struct sig *s = arg;
	sigset_t all;

	if (start(s) != 0)
		return 100;
	sigfillset(&all);
	(void)sigprocmask(SIG_BLOCK, &all, NULL);
	if (s->raises) {
		(void)raise(SIGPROF);
		burn_for(burn_a, 50 * MS);	/* a sample pends too */
		s->adopted = 1;
	} else
		s->adopted = burn_to_pending(CPU_CAP_NS);
	(void)execl(s->prog, "t_exec", s->raises ? "count" : "burn", "200",
	    (char *)NULL);
	return 102;
}

ATF_TC(exec_pending_sample_not_handed_on);
ATF_TC_HEAD(exec_pending_sample_not_handed_on, tc)
{
	atf_tc_set_md_var(tc, "descr", "A program exec'd with every signal "
	    "blocked while a sample of libmon's was pending (PROFCLOCK=timer, "
	    "itimer, profil()) does not die of it when it unblocks SIGPROF: "
	    "it runs to its own exit status");
}
ATF_TC_BODY(exec_pending_sample_not_handed_on, tc)
{
	static const char *const with[] = { "timer", "itimer", "profil" };
	struct child c;
	struct sig *s;
	size_t i;

	for (i = 0; i < sizeof(with) / sizeof(with[0]); i++) {
		s = newsig(with[i], -1);
		s->raises = 0;
		helper(tc, "t_exec", s->prog, sizeof(s->prog));
		run_child(child_exec_pending, s, &c);
		ATF_REQUIRE_MSG(s->started && s->adopted, "%s: no sample came "
		    "pending", s->clock);
		ATF_CHECK_MSG(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		    "%s: t_exec burn: status %#x%s", s->clock, c.status,
		    WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGPROF ?
		    " (SIGPROF)" : "");
	}
}

ATF_TC(exec_hands_on_own_pending_sigprof);
ATF_TC_HEAD(exec_hands_on_own_pending_sigprof, tc)
{
	atf_tc_set_md_var(tc, "descr", "A SIGPROF the program raised itself "
	    "and left pending when it execs reaches the new image, as without "
	    "libmon, while libmon's own pending sample does not");
}
ATF_TC_BODY(exec_hands_on_own_pending_sigprof, tc)
{
	static const char *const with[] = { "timer", "itimer", "profil" };
	struct child c;
	struct sig *s;
	size_t i;

	for (i = 0; i < sizeof(with) / sizeof(with[0]); i++) {
		s = newsig(with[i], -1);
		helper(tc, "t_exec", s->prog, sizeof(s->prog));
		run_child(child_exec_pending, s, &c);
		ATF_CHECK_MSG(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 1,
		    "%s: t_exec count: status %#x, not one SIGPROF", s->clock,
		    c.status);
	}
}

ATF_TC(sysv_signal_program_kept_apart);
ATF_TC_HEAD(sysv_signal_program_kept_apart, tc)
{
	atf_tc_set_md_var(tc, "descr", "Under PROFCLOCK=timer, a strict ISO "
	    "C program whose signal() is __sysv_signal reads back its SIGPROF "
	    "handler, gets its own ITIMER_PROF's signals at its own rate, "
	    "re-arming the handler each time, and libmon samples on");
}
ATF_TC_BODY(sysv_signal_program_kept_apart, tc)
{
	char prog[PATH_MAX], line[64];
	char *argv[] = { prog, "sysv", "500", NULL };
	struct mon_file m;
	uint64_t n;
	FILE *f;
	int st, own;

	helper(tc, "h_sigprog", prog, sizeof(prog));
	st = spawn(argv, "timer", "out");
	ATF_REQUIRE_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 3, "status %#x",
	    st);
	ATF_CHECK_MSG(has_line("out", "read back: own"), "the handler does "
	    "not read back");
	own = -1;
	ATF_REQUIRE((f = fopen("out", "r")) != NULL);
	while (fgets(line, sizeof(line), f) != NULL)
		(void)sscanf(line, "own %d", &own);
	fclose(f);
	/* 100 Hz over 0.5 s of CPU: 50; libmon's 1000 Hz would be 500. */
	ATF_CHECK_MSG(own >= 15 && own <= 100, "the handler got %d signals, "
	    "not about 50", own);
	check_profile(tc, prog, &m);
	if (m.has_run && m.run.clock == MONX_CLK_ITIMER) {
		mon_free(&m);
		atf_tc_skip("no per-thread clock here");
	}
	n = m.has_run ? m.run.samples_in + m.run.samples_out : 0;
	ATF_CHECK_MSG(n >= 100, "libmon took %ju samples in 0.5 s of CPU",
	    (uintmax_t)n);
	mon_free(&m);
}

/* What sigset() and sysv_signal() did, as the program sees it. */
struct family {
	struct sig	s;
	int		set_prev_dfl;	/* sigset returned SIG_DFL */
	int		set_read_back;	/* handler, flags 0, empty mask */
	int		set_calls;
	int		hold_prev;	/* SIG_HOLD returned the handler */
	int		hold_blocks;
	int		unhold;		/* sigset after SIG_HOLD: SIG_HOLD */
	int		unblocked;
	int		sysv_read_back;	/* SA_RESETHAND | SA_NODEFER */
	int		sysv_calls;
	int		sysv_reset;	/* SIG_DFL after one */
};

static int
blocked_now(int sig)
{
	sigset_t m;

	return sigprocmask(SIG_BLOCK, NULL, &m) == 0 && sigismember(&m, sig);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static int
child_family(void *arg)
{
	struct family *f = arg;
	struct sigaction a;
	int sysvf;

	if (start(&f->s) != 0)
		return 100;
	f->set_prev_dfl = sigset(SIGPROF, seen) == SIG_DFL;
	if (sigaction(SIGPROF, NULL, &a) != 0)
		return 101;
	f->set_read_back = a.sa_handler == seen &&
	    (a.sa_flags & ~SA_RESTORER) == 0 && !sigismember(&a.sa_mask, SIGPROF);
	(void)raise(SIGPROF);
	f->set_calls = f->s.calls;
	f->hold_prev = sigset(SIGPROF, SIG_HOLD) == seen;
	f->hold_blocks = blocked_now(SIGPROF);
	f->unhold = sigset(SIGPROF, seen) == SIG_HOLD;
	f->unblocked = !blocked_now(SIGPROF);

	f->s.calls = 0;
	(void)sysv_signal(SIGPROF, seen);
	if (sigaction(SIGPROF, NULL, &a) != 0)
		return 102;
	sysvf = SA_RESETHAND | SA_NODEFER;
	f->sysv_read_back = a.sa_handler == seen &&
	    (a.sa_flags & sysvf) == sysvf;
	(void)raise(SIGPROF);
	f->sysv_calls = f->s.calls;
	if (sigaction(SIGPROF, NULL, &a) != 0)
		return 103;
	f->sysv_reset = a.sa_handler == SIG_DFL;
	stop(&f->s);
	return EXIT_CODE;
}
#pragma GCC diagnostic pop

ATF_TC(sigset_and_sysv_signal);
ATF_TC_HEAD(sigset_and_sysv_signal, tc)
{
	atf_tc_set_md_var(tc, "descr", "While a signal clock samples, "
	    "sigset() and sysv_signal() on SIGPROF behave as the C library's: "
	    "sigset's action reads back with no flags and an empty mask, "
	    "SIG_HOLD blocks the signal and the next sigset() reports and "
	    "lifts it; sysv_signal's handler runs once and leaves SIG_DFL");
}
ATF_TC_BODY(sigset_and_sysv_signal, tc)
{
	struct family *f;
	struct child c;
	size_t i;

	for (i = 0; i < NCLOCKS; i++) {
		f = shared(sizeof(*f));
		f->s.clock = clocks[i];
		f->s.flags = -1;
		run_child(child_family, f, &c);
		REQUIRE_EXIT(&c, EXIT_CODE);
		ATF_REQUIRE_MSG(f->s.started, "%s: no clock", f->s.clock);
		ATF_CHECK_MSG(f->set_prev_dfl, "%s: sigset did not return "
		    "SIG_DFL", f->s.clock);
		ATF_CHECK_MSG(f->set_read_back, "%s: sigset's action reads back "
		    "otherwise", f->s.clock);
		ATF_CHECK_EQ_MSG(f->set_calls, 1, "%s: sigset's handler ran %d "
		    "times", f->s.clock, f->set_calls);
		ATF_CHECK_MSG(f->hold_prev && f->hold_blocks, "%s: SIG_HOLD",
		    f->s.clock);
		ATF_CHECK_MSG(f->unhold && f->unblocked, "%s: sigset after "
		    "SIG_HOLD", f->s.clock);
		ATF_CHECK_MSG(f->sysv_read_back, "%s: sysv_signal's action "
		    "reads back otherwise", f->s.clock);
		ATF_CHECK_EQ_MSG(f->sysv_calls, 1, "%s: sysv_signal's handler "
		    "ran %d times", f->s.clock, f->sysv_calls);
		ATF_CHECK_MSG(f->sysv_reset, "%s: no SIG_DFL after "
		    "sysv_signal's handler ran", f->s.clock);
	}
}

static int
child_execle(void *arg)
{
	struct sig *s = arg;
	char *env[] = { "MONTEST=passed", NULL };

	setenv("MONTEST", "environ", 1);
	if (start(s) != 0)
		return 100;
	(void)execle(s->prog, "t_exec", "env", "MONTEST", "passed",
	    (char *)NULL, env);
	return 101;
}

ATF_TC(execle_environment_reaches_program);
ATF_TC_HEAD(execle_environment_reaches_program, tc)
{
	atf_tc_set_md_var(tc, "descr", "execle() from a profiled process "
	    "gives the new program the environment passed after the "
	    "arguments, not the caller's environ");
}
ATF_TC_BODY(execle_environment_reaches_program, tc)
{
	struct child c;
	struct sig *s;

	s = newsig("timer", -1);
	helper(tc, "t_exec", s->prog, sizeof(s->prog));
	run_child(child_execle, s, &c);
	ATF_CHECK_MSG(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
	    "t_exec env: status %#x", c.status);
}

/* "a0000" .. "a4999", as literal arguments of one call. */
#define STR(x)		#x
#define ARG(x)		"a" STR(x)
#define T10(p)		ARG(p##0), ARG(p##1), ARG(p##2), ARG(p##3),	\
			ARG(p##4), ARG(p##5), ARG(p##6), ARG(p##7),	\
			ARG(p##8), ARG(p##9)
#define H100(p)		T10(p##0), T10(p##1), T10(p##2), T10(p##3),	\
			T10(p##4), T10(p##5), T10(p##6), T10(p##7),	\
			T10(p##8), T10(p##9)
#define K1000(p)	H100(p##0), H100(p##1), H100(p##2), H100(p##3),	\
			H100(p##4), H100(p##5), H100(p##6), H100(p##7),	\
			H100(p##8), H100(p##9)

static int
child_execl_long(void *arg)
{
	struct sig *s = arg;

	if (start(s) != 0)
		return 100;
	(void)execl(s->prog, "t_exec", "args", "5000", K1000(0), K1000(1),
	    K1000(2), K1000(3), K1000(4), (char *)NULL);
	return 101;
}

ATF_TC(execl_5000_arguments);
ATF_TC_HEAD(execl_5000_arguments, tc)
{
	atf_tc_set_md_var(tc, "descr", "execl() from a profiled process "
	    "passes 5000 arguments, in order, as the C library's does: "
	    "libmon sets no limit of its own");
}
ATF_TC_BODY(execl_5000_arguments, tc)
{
	struct child c;
	struct sig *s;

	s = newsig("timer", -1);
	helper(tc, "t_exec", s->prog, sizeof(s->prog));
	run_child(child_execl_long, s, &c);
	ATF_CHECK_MSG(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
	    "t_exec args: status %#x", c.status);
}

static int
child_execveat(void *arg)
{
	struct sig *s = arg;
	char *argv[] = { "t_exec", "burn", "300", NULL };
	int fd;

	if (start(s) != 0)
		return 100;
	burn_for(burn_a, 20 * MS);
	if ((fd = open(s->prog, O_RDONLY)) < 0)
		return 101;
	(void)execveat(fd, "", argv, environ, AT_EMPTY_PATH);
	return 102;
}

ATF_TC(execveat_busy_program_completes);
ATF_TC_HEAD(execveat_busy_program_completes, tc)
{
	atf_tc_set_md_var(tc, "descr", "A CPU-bound program started by "
	    "execveat(fd, \"\", ..., AT_EMPTY_PATH) from a process profiled "
	    "with PROFCLOCK=itimer runs to completion: ITIMER_PROF does not "
	    "follow it");
}
ATF_TC_BODY(execveat_busy_program_completes, tc)
{
	struct child c;
	struct sig *s;

	s = newsig("itimer", -1);
	helper(tc, "t_exec", s->prog, sizeof(s->prog));
	run_child(child_execveat, s, &c);
	ATF_REQUIRE_MSG(s->started, "the clock did not start");
	ATF_CHECK_MSG(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
	    "t_exec burn: status %#x%s", c.status, WIFSIGNALED(c.status) &&
	    WTERMSIG(c.status) == SIGPROF ? " (SIGPROF)" : "");
}

enum { LATE_DFL, LATE_SIGWAIT, LATE_ARM_FIRST };

/*
 * The profile ended by monitor(0) with the program's action SIG_DFL --
 * libmon's lingers (_mon_sigprof_linger()) -- the program arms an
 * ITIMER_PROF of its own, as it would without libmon:
 *	LATE_DFL	and leaves SIG_DFL: it must die of its first signal;
 *	LATE_SIGWAIT	with SIGPROF blocked, and waits for it: it must
 *			get it, from the kernel;
 *	LATE_ARM_FIRST	at libmon's own period (1 ms), and only then sets
 *			its handler: the handler must run.
 */
static int
child_late_itimer(void *arg)
{
	struct sig *s = arg;
	struct itimerval it;
	struct timespec to = { 5, 0 };
	siginfo_t si;
	sigset_t set;

	unsetenv("PROFHZ");
	if (start(s) != 0)
		return 100;
	burn_for(burn_a, 30 * MS);
	stop(s);
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = s->raises == LATE_ARM_FIRST ? 1000 : 5000;
	it.it_value = it.it_interval;
	sigemptyset(&set);
	sigaddset(&set, SIGPROF);
	if (s->raises == LATE_SIGWAIT)
		(void)sigprocmask(SIG_BLOCK, &set, NULL);
	if (setitimer(ITIMER_PROF, &it, NULL) != 0)
		return 101;
	switch (s->raises) {
	case LATE_DFL:
		burn_for(burn_a, 2000 * MS);
		return EXIT_CODE;	/* lived on: wrong */
	case LATE_SIGWAIT:
		burn_for(burn_a, 20 * MS);
		if (sigtimedwait(&set, &si, &to) != SIGPROF)
			return 102;
		return si.si_code == SI_KERNEL ? EXIT_CODE : 103;
	default:
		s->flags = SA_RESTART;
		if (set_action(s) != 0)
			return 104;
		burn_for(burn_a, 100 * MS);
		return EXIT_CODE;
	}
}

static struct sig *
late_itimer(const char *clock, int what, struct child *c)
{
	struct sig *s;

	s = newsig(clock, -1);
	s->raises = what;
	run_child(child_late_itimer, s, c);
	ATF_REQUIRE_MSG(s->started, "%s: the clock did not start", clock);
	return s;
}

ATF_TC(stopped_program_itimer_sig_dfl);
ATF_TC_HEAD(stopped_program_itimer_sig_dfl, tc)
{
	atf_tc_set_md_var(tc, "descr", "After monitor(0), SIGPROF's action "
	    "SIG_DFL, an ITIMER_PROF the program arms ends it by SIGPROF, "
	    "as without libmon: libmon's lingering handler does not take "
	    "its signals for late samples");
}
ATF_TC_BODY(stopped_program_itimer_sig_dfl, tc)
{
	static const char *const cl[] = { "timer", "itimer" };
	struct child c;
	size_t i;

	for (i = 0; i < 2; i++) {
		(void)late_itimer(cl[i], LATE_DFL, &c);
		ATF_CHECK_MSG(WIFSIGNALED(c.status) &&
		    WTERMSIG(c.status) == SIGPROF, "%s: status %#x, not "
		    "SIGPROF", cl[i], c.status);
	}
}

ATF_TC(stopped_program_itimer_sigwait);
ATF_TC_HEAD(stopped_program_itimer_sigwait, tc)
{
	atf_tc_set_md_var(tc, "descr", "After monitor(0), SIGPROF's action "
	    "SIG_DFL, sigtimedwait() returns the SIGPROF of an ITIMER_PROF "
	    "the program arms: it is not passed over as a late sample");
}
ATF_TC_BODY(stopped_program_itimer_sigwait, tc)
{
	static const char *const cl[] = { "timer", "itimer" };
	struct child c;
	size_t i;

	for (i = 0; i < 2; i++) {
		(void)late_itimer(cl[i], LATE_SIGWAIT, &c);
		ATF_CHECK_MSG(WIFEXITED(c.status) &&
		    WEXITSTATUS(c.status) == EXIT_CODE, "%s: status %#x "
		    "(102: no SIGPROF waited for)", cl[i], c.status);
	}
}

ATF_TC(stopped_program_itimer_then_action);
ATF_TC_HEAD(stopped_program_itimer_then_action, tc)
{
	atf_tc_set_md_var(tc, "descr", "After monitor(0), an ITIMER_PROF the "
	    "program arms at libmon's period, then its handler, is not taken "
	    "for libmon's timer and stopped: the handler runs");
}
ATF_TC_BODY(stopped_program_itimer_then_action, tc)
{
	static const char *const cl[] = { "timer", "itimer" };
	struct child c;
	struct sig *s;
	size_t i;

	for (i = 0; i < 2; i++) {
		s = late_itimer(cl[i], LATE_ARM_FIRST, &c);
		ATF_CHECK_MSG(WIFEXITED(c.status) &&
		    WEXITSTATUS(c.status) == EXIT_CODE, "%s: status %#x",
		    cl[i], c.status);
		ATF_CHECK_MSG(s->calls > 0, "%s: the program's handler ran "
		    "%d times", cl[i], s->calls);
	}
}

/*
 * After monitor(0), the program's action SIG_DFL, it sets SIG_IGN: the
 * kernel's action must be SIG_IGN, the one an exec, posix_spawn() or
 * system() hands on (a handler of libmon's would go as SIG_DFL); read
 * back SIG_IGN; and SIG_DFL set again with a SIGPROF raised ends it.
 */
static int
child_ignore_after_stop(void *arg)
{
	struct sig *s = arg;
	struct sigaction sa;

	if (start(s) != 0)
		return 100;
	burn_for(burn_a, 30 * MS);
	stop(s);
	if (signal(SIGPROF, SIG_IGN) == SIG_ERR)
		return 101;
	s->adopted = kernel_handler(SIGPROF) == (void *)SIG_IGN;
	if (sigaction(SIGPROF, NULL, &sa) != 0)
		return 102;
	s->read_back = sa.sa_handler == SIG_IGN;
	(void)raise(SIGPROF);
	(void)signal(SIGPROF, SIG_DFL);
	(void)raise(SIGPROF);
	return EXIT_CODE;
}

ATF_TC(stopped_program_ignores);
ATF_TC_HEAD(stopped_program_ignores, tc)
{
	atf_tc_set_md_var(tc, "descr", "After monitor(0), SIG_IGN the "
	    "program sets for SIGPROF is the kernel's action, as an exec "
	    "hands it on, and reads back; SIG_DFL set again then dies of "
	    "a SIGPROF it raises");
}
ATF_TC_BODY(stopped_program_ignores, tc)
{
	static const char *const cl[] = { "timer", "itimer" };
	struct child c;
	struct sig *s;
	size_t i;

	for (i = 0; i < 2; i++) {
		s = newsig(cl[i], -1);
		run_child(child_ignore_after_stop, s, &c);
		ATF_REQUIRE_MSG(s->started, "%s: the clock did not start",
		    cl[i]);
		ATF_CHECK_MSG(s->adopted, "%s: SIG_IGN is not the kernel's "
		    "action: an exec would hand on SIG_DFL", cl[i]);
		ATF_CHECK_MSG(s->read_back, "%s: SIG_IGN does not read back",
		    cl[i]);
		ATF_CHECK_MSG(WIFSIGNALED(c.status) &&
		    WTERMSIG(c.status) == SIGPROF, "%s: status %#x, not "
		    "SIGPROF", cl[i], c.status);
	}
}

/*
 * The program ignores SIGPROF while the clock runs, or inherited SIG_IGN
 * (s->raises 1: set before the start), then execs: first a path that
 * fails, after which libmon's handler must be back in place where it was
 * (s->read_back), then t_exec ignored, which must find SIG_IGN.
 */
static int
child_exec_ignored(void *arg)
{
	struct sig *s = arg;
	void *before;

	if (s->raises && signal(SIGPROF, SIG_IGN) == SIG_ERR)
		return 100;
	if (start(s) != 0)
		return 101;
	if (!s->raises && signal(SIGPROF, SIG_IGN) == SIG_ERR)
		return 102;
	burn_for(burn_a, 20 * MS);
	before = kernel_handler(SIGPROF);
	(void)execl("/nonexistent/t_exec", "t_exec", "ignored", (char *)NULL);
	s->read_back = kernel_handler(SIGPROF) == before;
	(void)execl(s->prog, "t_exec", "ignored", (char *)NULL);
	return 103;
}

ATF_TC(exec_hands_on_sig_ign);
ATF_TC_HEAD(exec_hands_on_sig_ign, tc)
{
	atf_tc_set_md_var(tc, "descr", "SIG_IGN for SIGPROF, set while "
	    "the clock runs or inherited before it started, reaches a "
	    "program exec'd as without libmon -- not SIG_DFL, what the kernel "
	    "makes of libmon's handler -- and a failed exec leaves the "
	    "action in place as it was");
}
ATF_TC_BODY(exec_hands_on_sig_ign, tc)
{
	static const char *const with[] = { "timer", "itimer", "profil" };
	struct child c;
	struct sig *s;
	size_t i;
	int inherited;

	for (inherited = 0; inherited < 2; inherited++)
		for (i = 0; i < sizeof(with) / sizeof(with[0]); i++) {
			s = newsig(with[i], -1);
			s->raises = inherited;
			helper(tc, "t_exec", s->prog, sizeof(s->prog));
			run_child(child_exec_ignored, s, &c);
			ATF_REQUIRE_MSG(s->started, "%s: the clock did not "
			    "start", with[i]);
			ATF_CHECK_MSG(WIFEXITED(c.status) &&
			    WEXITSTATUS(c.status) == 0, "%s%s: t_exec "
			    "ignored: status %#x (exit 1: SIG_DFL)", with[i],
			    inherited ? ", inherited" : "", c.status);
			ATF_CHECK_MSG(s->read_back, "%s%s: the action changed "
			    "across a failed exec", with[i],
			    inherited ? ", inherited" : "");
		}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, action_mask_as_asked);
	ATF_TP_ADD_TC(tp, action_nodefer);
	ATF_TP_ADD_TC(tp, action_resethand);
	ATF_TP_ADD_TC(tp, action_onstack);
	ATF_TP_ADD_TC(tp, action_restart_or_not);
	ATF_TP_ADD_TC(tp, action_update_not_torn);
	ATF_TP_ADD_TC(tp, itimer_sig_dfl_not_killed);
	ATF_TP_ADD_TC(tp, itimer_sig_dfl_sample_pending);
	ATF_TP_ADD_TC(tp, itimer_stop_keeps_program_timer);
	ATF_TP_ADD_TC(tp, itimer_failed_exec_keeps_program_timer);
	ATF_TP_ADD_TC(tp, itimer_exec_hands_on_program_timer);
	ATF_TP_ADD_TC(tp, exec_pending_sample_not_handed_on);
	ATF_TP_ADD_TC(tp, exec_hands_on_own_pending_sigprof);
	ATF_TP_ADD_TC(tp, sysv_signal_program_kept_apart);
	ATF_TP_ADD_TC(tp, sigset_and_sysv_signal);
	ATF_TP_ADD_TC(tp, execle_environment_reaches_program);
	ATF_TP_ADD_TC(tp, execl_5000_arguments);
	ATF_TP_ADD_TC(tp, execveat_busy_program_completes);
	ATF_TP_ADD_TC(tp, stopped_program_itimer_sig_dfl);
	ATF_TP_ADD_TC(tp, stopped_program_itimer_sigwait);
	ATF_TP_ADD_TC(tp, stopped_program_itimer_then_action);
	ATF_TP_ADD_TC(tp, stopped_program_ignores);
	ATF_TP_ADD_TC(tp, exec_hands_on_sig_ign);
	return atf_no_error();
}

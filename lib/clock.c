/*
 * clock.c -- the sampling clock behind the histogram.
 *
 * Three clocks, best first; PROFCLOCK=perf|timer|itimer forces one:
 *
 *  perf	a perf_event task-clock per thread (hrtimer based, user space
 *		only, as perf_event_paranoid 2 allows a process on itself),
 *		its overflow delivered as SIGPROF to that very thread.  It
 *		really runs at the rate asked for (PROFHZ, default 1000).
 *  timer	timer_create() on each thread's CPU-time clock, SIGPROF to
 *		that thread; checked at the kernel tick, so missed
 *		expirations come back as si_overrun and are counted.
 *  itimer	setitimer(ITIMER_PROF): all threads' CPU time, the signal to
 *		whichever thread runs; capped at the kernel tick (~250 Hz
 *		here).  profil() called by the program itself always uses
 *		this one, as the classic interface did.
 *
 * The per-thread clocks cover the threads there are when profiling
 * starts (from /proc/self/task) and, through thread.c, those created
 * later.  Whatever the clock delivers, the writer records the CPU time
 * covered, so prof's seconds stay honest.
 *
 * Starting saves the SIGPROF action and ITIMER_PROF timer that were
 * there; stopping puts both back.  fork(): the child's own thread is
 * armed again (no timer is inherited; perf descriptors are, but they
 * watch the parent's threads and are closed).  execve(): perf
 * descriptors are close-on-exec and per-thread timers die with the
 * image; only ITIMER_PROF survives, so exec.c pauses it around the call.
 */
#define _GNU_SOURCE	/* F_SETSIG, F_SETOWN_EX, SIGEV_THREAD_ID */
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/time.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mon_private.h"

#define DEFAULT_HZ	1000
#define MAX_HZ		100000
#define MAXTHREADS	4096

/* One armed thread: its clock is fd (perf) or timer (timer). */
struct slot {
	_Atomic pid_t	tid;
	int		fd;
	timer_t		timer;
};

/*
 * thread.c, sigaction.c and exec.c take the place of libc functions.  A
 * static archive member is only linked when something needs it, and a
 * program's own references may already be satisfied by a shared library
 * ahead of libmon (a sanitizer runtime does this): naming them here
 * brings them in whenever the clock is, and a definition in the program
 * then wins over any shared one.
 */
extern const char _mon_link_thread, _mon_link_sigaction, _mon_link_exec;
__attribute__((used)) static const char *const pull[] = {
	&_mon_link_thread, &_mon_link_sigaction, &_mon_link_exec,
};

static struct sigaction	oldact;
static void		(*ours)(int, siginfo_t *, void *);
static struct itimerval	oldtimer;
static struct itimerval	ourtimer;
static volatile sig_atomic_t running;
static int		mode;		/* MONX_CLK_* */
static uint64_t		period;		/* ns */
static struct slot	slots[MAXTHREADS];

/* The period asked for, from PROFHZ when it is a sane number. */
static uint64_t
period_ns(void)
{
	const char *s;
	char *end;
	long hz;

	hz = DEFAULT_HZ;
	if ((s = getenv("PROFHZ")) != NULL && *s != '\0') {
		errno = 0;
		hz = strtol(s, &end, 10);
		if (errno != 0 || *end != '\0' || hz < 1 || hz > MAX_HZ) {
			_mon_warn("PROFHZ", "not a rate from 1 to 100000 Hz;"
			    " using 1000", 0);
			hz = DEFAULT_HZ;
		}
	}
	return 1000000000u / (uint64_t)hz;
}

static int
open_perf(pid_t tid)
{
	struct perf_event_attr a;
	struct f_owner_ex own;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = period;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.wakeup_events = 1;
	a.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, tid, -1, -1,
	    PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	own.type = F_OWNER_TID;
	own.pid = tid;
	if (fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) != 0 ||
	    fcntl(fd, F_SETSIG, SIGPROF) != 0 ||
	    fcntl(fd, F_SETOWN_EX, &own) != 0 ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int
open_timer(pid_t tid, timer_t *tp)
{
	struct itimerspec its;
	struct sigevent ev;
	clockid_t clk;

	/* The CPU-time clock of thread tid (the kernel's encoding). */
	clk = (clockid_t)((~(unsigned int)tid << 3) | 4 | 2);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGPROF;
	ev.sigev_value.sival_ptr = slots;	/* marks the signal as ours */
	ev._sigev_un._tid = tid;
	if (timer_create(clk, &ev, tp) != 0)
		return -1;
	its.it_interval.tv_sec = period / 1000000000u;
	its.it_interval.tv_nsec = period % 1000000000u;
	its.it_value = its.it_interval;
	if (timer_settime(*tp, 0, &its, NULL) != 0) {
		timer_delete(*tp);
		return -1;
	}
	return 0;
}

/* Give thread tid a clock of the current mode; 0 or -1. */
static int
arm(pid_t tid)
{
	struct slot *s;
	pid_t none;
	size_t i;

	for (i = 0; i < MAXTHREADS; i++)
		if (atomic_load(&slots[i].tid) == tid)
			return 0;		/* armed already */
	for (i = 0; i < MAXTHREADS; i++) {
		s = &slots[i];
		none = 0;
		if (atomic_load(&s->tid) != 0 ||
		    !atomic_compare_exchange_strong(&s->tid, &none, -1))
			continue;
		if (mode == MONX_CLK_PERF)
			s->fd = open_perf(tid);
		else
			s->fd = open_timer(tid, &s->timer);
		atomic_store(&s->tid, s->fd < 0 ? 0 : tid);
		return s->fd < 0 ? -1 : 0;
	}
	return -1;
}

static void
disarm_slot(struct slot *s, pid_t tid)
{
	if (tid <= 0 || !atomic_compare_exchange_strong(&s->tid, &tid, -1))
		return;
	if (mode == MONX_CLK_PERF)
		close(s->fd);
	else
		timer_delete(s->timer);
	atomic_store(&s->tid, 0);
}

static void
disarm_all(void)
{
	size_t i;

	for (i = 0; i < MAXTHREADS; i++)
		disarm_slot(&slots[i], atomic_load(&slots[i].tid));
}

/* Arm every other thread of the process that exists now. */
static void
arm_others(void)
{
	struct dirent *e;
	pid_t me, t;
	DIR *d;

	if ((d = opendir("/proc/self/task")) == NULL)
		return;
	me = _mon_gettid();
	while ((e = readdir(d)) != NULL) {
		t = (pid_t)atoi(e->d_name);
		if (t > 0 && t != me)
			(void)arm(t);
	}
	closedir(d);
}

static int
start_itimer(void)
{
	ourtimer.it_interval.tv_sec = period / 1000000000u;
	ourtimer.it_interval.tv_usec = (period % 1000000000u) / 1000u;
	if (ourtimer.it_interval.tv_sec == 0 &&
	    ourtimer.it_interval.tv_usec == 0)
		ourtimer.it_interval.tv_usec = 1;
	ourtimer.it_value = ourtimer.it_interval;
	return setitimer(ITIMER_PROF, &ourtimer, &oldtimer);
}

/* The clocks to try, best first, as PROFCLOCK allows. */
static int
choose(int classic, int *list)
{
	const char *s;

	if (classic) {
		list[0] = MONX_CLK_ITIMER;
		return 1;
	}
	s = getenv("PROFCLOCK");
	if (s != NULL && strcmp(s, "itimer") == 0) {
		list[0] = MONX_CLK_ITIMER;
		return 1;
	}
	if (s != NULL && strcmp(s, "timer") == 0) {
		list[0] = MONX_CLK_TIMER;
		list[1] = MONX_CLK_ITIMER;
		return 2;
	}
	if (s != NULL && *s != '\0' && strcmp(s, "perf") != 0)
		_mon_warn("PROFCLOCK", "not perf, timer or itimer; using the"
		    " best available", 0);
	list[0] = MONX_CLK_PERF;
	list[1] = MONX_CLK_TIMER;
	list[2] = MONX_CLK_ITIMER;
	return 3;
}

/*
 * Did si come from our clock?  With a per-thread clock, a SIGPROF from
 * anything else -- the program's own ITIMER_PROF or timer -- is not a
 * sample of ours and goes to the handler the program had.  Signal
 * context.
 */
int
_mon_clock_ours(const siginfo_t *si)
{
	switch (mode) {
	case MONX_CLK_PERF:
		return si->si_code == POLL_IN || si->si_code == POLL_HUP;
	case MONX_CLK_TIMER:
		return si->si_code == SI_TIMER && si->si_value.sival_ptr == slots;
	default:
		return 1;
	}
}

/*
 * Pass a signal that is not ours to the action the program had.  Its
 * default action is to terminate, and so it does, as it would have
 * without libmon.
 */
void
_mon_clock_chain(int sig, siginfo_t *si, void *uc)
{
	sigset_t set;

	if (oldact.sa_flags & SA_SIGINFO) {
		if (oldact.sa_sigaction != NULL)
			oldact.sa_sigaction(sig, si, uc);
	} else if (oldact.sa_handler == SIG_DFL) {
		(void)__sigaction(sig, &oldact, NULL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		(void)pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		(void)raise(sig);
	} else if (oldact.sa_handler != SIG_IGN)
		oldact.sa_handler(sig);
}

/*
 * The program sets or reads its SIGPROF action (sigaction.c).  While a
 * per-thread clock samples, the action is kept aside for chaining and
 * put in place at stop; 1 if so handled.
 */
int
_mon_clock_adopt(const struct sigaction *act, struct sigaction *oact)
{
	if (!running || mode == MONX_CLK_ITIMER)
		return 0;
	if (oact != NULL)
		*oact = oldact;
	if (act != NULL)
		oldact = *act;
	return 1;
}

int
_mon_clock_running(void)
{
	return running;
}

/*
 * Install handler on SIGPROF and start the best clock that works
 * (classic: ITIMER_PROF only).  On failure nothing is left changed.
 */
int
_mon_clock_start(void (*handler)(int, siginfo_t *, void *), int classic)
{
	struct sigaction sa;
	int list[3], n, i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	if (__sigaction(SIGPROF, &sa, &oldact) != 0)
		return -1;
	ours = handler;
	period = period_ns();
	n = choose(classic, list);
	for (i = 0; i < n; i++) {
		mode = list[i];
		if (mode == MONX_CLK_ITIMER ? start_itimer() == 0 :
		    arm(_mon_gettid()) == 0)
			break;
	}
	if (i == n) {
		(void)__sigaction(SIGPROF, &oldact, NULL);
		return -1;
	}
	_mon_stats.period_ns = period;
	_mon_stats.clock = mode;
	running = 1;
	if (mode != MONX_CLK_ITIMER)
		arm_others();
	return 0;
}

/*
 * Stop every clock and put back what was there before -- unless the
 * program has since installed a SIGPROF action of its own over ours
 * (possible with ITIMER_PROF, where its signals and ours are one), which
 * is then left in place.
 */
void
_mon_clock_stop(void)
{
	struct sigaction cur;
	int saved;

	if (!running)
		return;
	saved = errno;
	running = 0;
	if (mode == MONX_CLK_ITIMER)
		(void)setitimer(ITIMER_PROF, &oldtimer, NULL);
	else
		disarm_all();
	if (__sigaction(SIGPROF, NULL, &cur) == 0 &&
	    (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == ours)
		(void)__sigaction(SIGPROF, &oldact, NULL);
	errno = saved;
}

/*
 * In a fork child only the calling thread exists, and no clock of the
 * parent's serves it: drop them all and arm this thread.
 */
void
_mon_clock_fork(void)
{
	size_t i;

	if (!running)
		return;
	if (mode == MONX_CLK_ITIMER) {
		(void)setitimer(ITIMER_PROF, &ourtimer, NULL);
		return;
	}
	for (i = 0; i < MAXTHREADS; i++) {
		if (atomic_load(&slots[i].tid) > 0 && mode == MONX_CLK_PERF)
			close(slots[i].fd);
		atomic_store(&slots[i].tid, 0);
	}
	(void)arm(_mon_gettid());
}

/* A new thread starts (thread.c): give it its clock. */
void
_mon_clock_thread_start(void)
{
	if (running && mode != MONX_CLK_ITIMER)
		(void)arm(_mon_gettid());
}

/* A thread ends (thread.c): its clock goes with it. */
void
_mon_clock_thread_end(void)
{
	pid_t me;
	size_t i;

	if (!running || mode == MONX_CLK_ITIMER)
		return;
	me = _mon_gettid();
	for (i = 0; i < MAXTHREADS; i++)
		if (atomic_load(&slots[i].tid) == me)
			disarm_slot(&slots[i], me);
}

/*
 * Around an exec: ITIMER_PROF would outlive the image and kill the new
 * program with SIGPROF.  Pause before, resume if the exec failed.  The
 * per-thread clocks need nothing: exec closes or deletes them.
 */
void
_mon_clock_pause(void)
{
	static const struct itimerval zero;

	if (running && mode == MONX_CLK_ITIMER)
		(void)setitimer(ITIMER_PROF, &zero, NULL);
}

void
_mon_clock_resume(void)
{
	if (running && mode == MONX_CLK_ITIMER)
		(void)setitimer(ITIMER_PROF, &ourtimer, NULL);
}

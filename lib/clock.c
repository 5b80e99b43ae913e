/*
 * clock.c -- choosing the sampling clock and driving whichever runs.
 *
 * Three clocks, best first; PROFCLOCK=perf|timer|itimer forces one,
 * PROFHZ sets the rate (default 1000 Hz), and PROFSTACK the frames of
 * each sample's call stack kept (default 64, 0 for none):
 *
 *  perf	per-CPU perf_event task-clocks inherited by every thread,
 *		drained by a thread of libmon's own (ring.c): no signal,
 *		no descriptor and no stack frame in the program's threads.
 *  timer	a CPU-time timer per thread, SIGPROF to it (timer.c).
 *  itimer	setitimer(ITIMER_PROF), SIGPROF to whichever thread runs.
 *
 * PROFMODE=wall adds the wall sampler (wall.c): every thread, running
 * or blocked, sampled on the wall clock, at PROFHZ when it is set (1000
 * Hz at most) and 100 Hz when it is not, beside the CPU clock, which
 * runs as ever.
 *
 * The signal clocks sample in libmon's SIGPROF handler (sigprof.c).  A
 * clock is started and stopped only from lifecycle.c, which also tells
 * it of forks, execs and threads.
 */
#define _GNU_SOURCE	/* secure_getenv */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mon_private.h"

#define DEFAULT_HZ	1000
#define MAX_HZ		100000
#define DEFAULT_STACK	64
#define WALL_HZ		100
#define WALL_MAXHZ	1000	/* a round reads every thread: no faster */

static int		mode = -1;	/* MONX_CLK_*, -1 when stopped */
static uint64_t		period;		/* ns */

/* A variable of the environment, unless the program is set-id. */
static const char *
env(const char *name)
{
	return secure_getenv(name);
}

/* The period asked for, from PROFHZ when it is a sane number. */
static uint64_t
period_ns(void)
{
	return 1000000000u / (uint64_t)_mon_env_number("PROFHZ", 1, MAX_HZ,
	    DEFAULT_HZ, "not a rate from 1 to 100000 Hz; using 1000");
}

/*
 * The wall sampler's period when PROFMODE=wall asks for one, else 0.
 * Before the CPU clock starts: neither its events nor its timers may
 * come to the sampler's thread.
 */
static uint64_t
wall_ns(void)
{
	const char *s;
	long hz;

	s = env("PROFMODE");
	if (s == NULL || *s == '\0' || strcmp(s, "cpu") == 0)
		return 0;
	if (strcmp(s, "wall") != 0) {
		_mon_warn("PROFMODE", "not cpu or wall; using cpu", 0);
		return 0;
	}
	hz = _mon_env_number("PROFHZ", 1, MAX_HZ, WALL_HZ,
	    "not a rate from 1 to 100000 Hz; the wall sampler uses 100");
	return 1000000000u / (uint64_t)(hz < WALL_MAXHZ ? hz : WALL_MAXHZ);
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
	s = env("PROFCLOCK");
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
		_mon_warn("PROFCLOCK", "not perf, timer or itimer;"
		    " using the best available", 0);
	list[0] = MONX_CLK_PERF;
	list[1] = MONX_CLK_TIMER;
	list[2] = MONX_CLK_ITIMER;
	return 3;
}

/*
 * The clocks of list[0..n) but ITIMER_PROF, for PROFMODE=wall: the
 * kernel sends that clock's signal to a thread of the process that
 * does not block it, and the wall sampler, which blocks every signal,
 * spends CPU time too -- the signal for it would wake a program thread
 * asleep in nanosleep() or poll() with EINTR.  PROFCLOCK=itimer gets
 * the timer clock instead, with a warning.  How many are left.
 */
static int
no_itimer(int *list, int n)
{
	int i, k;

	for (i = k = 0; i < n; i++)
		if (list[i] != MONX_CLK_ITIMER)
			list[k++] = list[i];
	if (k == 0) {
		_mon_warn("PROFCLOCK", "itimer would interrupt sleeping"
		    " threads for the wall sampler; using timer", 0);
		list[k++] = MONX_CLK_TIMER;
	}
	return k;
}

static int
try(int m)
{
	switch (m) {
	case MONX_CLK_PERF:
		return _mon_ring_start(period);
	case MONX_CLK_TIMER:
		if (_mon_sigprof_install(0) != 0)
			return -1;
		if (_mon_timer_start(period) == 0)
			return 0;
		break;
	default:
		if (_mon_sigprof_install(1) != 0)
			return -1;
		if (_mon_itimer_start(period) == 0)
			return 0;
		break;
	}
	_mon_sigprof_restore();
	return -1;
}

/*
 * The CPU time one sample stands for: the period, which perf counts in
 * the kernel and the timer by its overruns (timer.c).  ITIMER_PROF is
 * checked only at the kernel's tick and, asked for less, fires at most
 * once a tick for a CPU, counting nothing it missed: each of its
 * samples is then a tick of CPU time.
 */
static uint64_t
sample_ns(int m)
{
	uint64_t tick;

	tick = _mon_tick_ns();
	if (m != MONX_CLK_ITIMER || tick <= period)
		return period;
	return tick;
}

/*
 * MONX_RUN_KERNEL where the perf clock samples kernel mode too, and how
 * fine its kernel's period was (MONX_RUN_COARSE, MONX_RUN_REFINED); for
 * the timer clock, whether a stopped timer was armed again
 * (MONX_RUN_REVIVED).
 */
static uint32_t
runflags(void)
{
	if (mode == MONX_CLK_TIMER)
		return _mon_timer_revived() != 0 ? MONX_RUN_REVIVED : 0;
	if (mode != MONX_CLK_PERF)
		return 0;
	return (_mon_ring_kernel() ? MONX_RUN_KERNEL : 0) | _mon_ring_rate();
}

/*
 * Start the best clock that works (classic: ITIMER_PROF only); 0, or -1
 * with nothing left changed.  The clock's name and period go to stats.
 */
int
_mon_clock_start(int classic)
{
	uint64_t wall;
	int list[3], n, i;

	if (mode >= 0)
		return 0;
	period = period_ns();
	_mon_stack_limit = (uint32_t)_mon_env_number("PROFSTACK", 0, _MON_STACKMAX,
	    DEFAULT_STACK, "not a number of frames from 0 to 127; using 64");
	n = choose(classic, list);
	wall = classic ? 0 : wall_ns();
	if (wall != 0)
		n = no_itimer(list, n);
	if (wall != 0 && _mon_wall_start(wall) != 0)
		_mon_warn("PROFMODE", "cannot start the wall sampler", errno);
	for (i = 0; i < n; i++)
		if (try(list[i]) == 0)
			break;
	if (i == n) {
		_mon_wall_stop();
		return -1;
	}
	mode = list[i];
	_mon_stats.period_ns = period;
	_mon_stats.sample_ns = sample_ns(mode);
	_mon_stats.clock = mode;
	_mon_stats.runflags = runflags();
	return 0;
}

/*
 * Stop the clock; every sample it took is in the histogram after, and
 * one a tracer still holds is dropped when it comes
 * (_mon_sigprof_done()).
 */
void
_mon_clock_stop(void)
{
	int err;

	err = errno;
	_mon_wall_stop();
	switch (mode) {
	case MONX_CLK_PERF:
		_mon_ring_stop();
		break;
	case MONX_CLK_TIMER:
		_mon_timer_stop();
		_mon_sigprof_done();
		_mon_stats.runflags = runflags();
		break;
	case MONX_CLK_ITIMER:
		_mon_itimer_stop();
		_mon_sigprof_done();
		break;
	}
	mode = -1;
	errno = err;
}

int
_mon_clock_running(void)
{
	return mode >= 0;
}

/*
 * Samples still on their way go to the current histogram.  A fork
 * child's drainer may have found kernel mode refused since the fork.
 */
void
_mon_clock_drain(void)
{
	if (mode == MONX_CLK_PERF) {
		_mon_ring_drain();
		_mon_stats.runflags = runflags();
	}
}

/*
 * The calling thread writes the profile with the clock running (on 1),
 * or has written it (0): a snapshot, or the last part at a polite
 * termination.  Its samples meanwhile are libmon's own, wherever they
 * find it -- in the C library's code that writes, in its system calls
 * -- under every clock; what it ran before is drained first, as the
 * program's.
 */
void
_mon_clock_writing(int on)
{
	if (mode == MONX_CLK_PERF) {
		_mon_ring_writing(on);
		_mon_stats.runflags = runflags();
	} else if (mode == MONX_CLK_TIMER || mode == MONX_CLK_ITIMER) {
		_mon_sigprof_writing(on);
		_mon_stats.runflags = runflags();
	}
}

/* Threads the clock could not sample. */
uint32_t
_mon_clock_unsampled(void)
{
	if (mode == MONX_CLK_PERF)
		return _mon_ring_unsampled();
	if (mode == MONX_CLK_TIMER)
		return _mon_timer_unarmed();
	return 0;
}

void
_mon_clock_fork_prepare(void)
{
	_mon_wall_fork_prepare();
	if (mode == MONX_CLK_PERF)
		_mon_ring_fork_prepare();
	else if (mode == MONX_CLK_TIMER)
		_mon_timer_fork_prepare();
}

void
_mon_clock_fork_parent(void)
{
	if (mode == MONX_CLK_PERF)
		_mon_ring_fork_parent();
	else if (mode == MONX_CLK_TIMER)
		_mon_timer_fork_parent();
	_mon_wall_fork_parent();
}

/* The child's locks, before anything of its own may take them. */
void
_mon_clock_fork_locks(void)
{
	if (mode == MONX_CLK_PERF)
		_mon_ring_fork_locks();
}

/* The child's one thread gets a clock of the same kind; ITIMER_PROF too. */
void
_mon_clock_fork_child(void)
{
	/* Its sampler first, as at start: before the clock. */
	_mon_wall_fork_child();
	switch (mode) {
	case MONX_CLK_PERF:
		if (_mon_ring_fork_child() != 0)
			mode = -1;
		/* The child may sample user mode alone (ring.c). */
		_mon_stats.runflags = runflags();
		break;
	case MONX_CLK_TIMER:
		_mon_timer_fork_child();
		break;
	case MONX_CLK_ITIMER:
		_mon_itimer_resume();
		break;
	}
}

/*
 * A thread is about to be created by the calling one; 1 if the perf
 * clock holds it until the thread is made.
 */
int
_mon_clock_thread_create(void)
{
	return mode == MONX_CLK_PERF ? _mon_ring_thread_create() : 0;
}

/* The thread is made, or could not be: held, what the above returned. */
void
_mon_clock_thread_made(int held)
{
	if (held)
		_mon_ring_thread_made();
}

void
_mon_clock_thread_start(void)
{
	if (atomic_load_explicit(&_mon_wall_on, memory_order_relaxed))
		_mon_wall_thread(_mon_gettid());
	if (mode == MONX_CLK_TIMER)
		_mon_timer_thread_start();
}

void
_mon_clock_thread_end(void)
{
	if (atomic_load_explicit(&_mon_wall_on, memory_order_relaxed))
		_mon_wall_thread_end(_mon_gettid());
	if (mode == MONX_CLK_TIMER)
		_mon_timer_thread_end();
	else if (mode == MONX_CLK_PERF)
		_mon_ring_thread_end();
}

/*
 * The main thread calls pthread_exit(): it stays listed, a zombie, to
 * the end of the process, where the wall sampler would find it ended
 * only when it next looked, up to many periods after a long sleep, and
 * had to guess when.  The sampling clocks need no word of it: the
 * zombie runs nothing.
 */
void
_mon_clock_main_exit(void)
{
	if (atomic_load_explicit(&_mon_wall_on, memory_order_relaxed))
		_mon_wall_thread_end(_mon_gettid());
}

/*
 * Before an exec: ITIMER_PROF would outlive the image, and a SIGPROF of
 * ours still pending would be handed to it.  perf events end at exec by
 * themselves (remove_on_exec), per-thread timers with the image; a fork
 * child's events not opened yet are not opened (ring.c).
 */
void
_mon_clock_exec_before(void)
{
	if (mode == MONX_CLK_ITIMER)
		_mon_itimer_pause();
	else if (mode == MONX_CLK_TIMER)
		_mon_timer_thread_end();
	else if (mode == MONX_CLK_PERF)
		_mon_ring_exec_before();
	_mon_sigprof_discard();
}

void
_mon_clock_exec_failed(void)
{
	if (mode == MONX_CLK_ITIMER)
		_mon_itimer_resume();
	else if (mode == MONX_CLK_TIMER)
		_mon_timer_thread_start();
	else if (mode == MONX_CLK_PERF)
		_mon_ring_exec_failed();
}

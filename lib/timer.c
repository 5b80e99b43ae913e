/*
 * timer.c -- the clocks that sample by signal, for where perf_event_open
 * is refused (perf_event_paranoid 3, container seccomp profiles):
 *
 *  timer	timer_create() on each thread's CPU-time clock, SIGPROF to
 *		that thread.  The kernel checks it only at its tick, so
 *		expirations missed come back as si_overrun and are
 *		counted.  A thread shorter than a tick would nearly never
 *		be sampled that way, and every thread would lose what it
 *		ran before its first tick: so the timer first expires at
 *		once, to fire at the first tick that finds the thread
 *		running, and that first signal stands for a tick of CPU
 *		time, whatever ran before it (see _mon_timer_count()).
 *		A tick falls in a thread's CPU time at a phase the thread
 *		does not choose, so a thread of any length gets in
 *		expectation what it ran; after the first, the expirations
 *		count what it ran since the last, as exactly as before.
 *		A timer the kernel stopped is found and armed again by
 *		the other threads' handlers (revive()).
 *  itimer	setitimer(ITIMER_PROF): all threads' CPU time, the signal to
 *		whichever thread runs; capped at the kernel tick.  profil()
 *		called by the program itself always uses this one, as the
 *		classic interface did.
 *
 * The per-thread timers live in a table of slots, one per armed thread,
 * chained by thread id from NHASH heads, the free ones on a list of
 * their own: a thread that starts or ends finds its slot in a step or
 * two, never by a walk over the table.  Arming (a thread starting) and
 * stopping exclude each other through one mutex, so no thread is left
 * with a live timer after stop returns.  A slot whose thread ended
 * without passing through thread.c (a thread libc made, one that the
 * program killed) is found stale when its thread id comes back, and
 * taken over.
 */
#define _GNU_SOURCE	/* SIGEV_THREAD_ID */
#include <sys/time.h>

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mon_private.h"

#define MAXTHREADS	4096
#define NHASH		1024	/* chains of slots by thread id */
#define SWEEPEVERY	16	/* a thread's periods between its sweeps */
#define SWEEPSLOTS	8	/* slots a sweep looks at */
#define TICKGUESS	10000000	/* ns, a tick when the kernel's is unknown */

/*
 * Links are slot numbers plus one: 0 ends a chain.  hold: 0 free to
 * look at, 1 a sweep looks at it, 2 armlock's holder changes it.
 */
struct tslot {
	pid_t		tid;		/* 0: no timer */
	timer_t		timer;
	clockid_t	clk;		/* its thread's CPU-time clock */
	volatile sig_atomic_t fresh;	/* its first signal is to come */
	unsigned int	next;		/* in its chain or the free list */
	uint64_t	rnd;		/* its handler's random numbers */
	uint64_t	base;		/* the thread's CPU time when armed */
	_Atomic uint64_t counted;	/* periods its signals stood for */
	_Atomic uint64_t debt;		/* periods its next signal owes */
	_Atomic int	hold;
	uint64_t	seencount;	/* a sweep saw it stopped, with */
	uint64_t	seencpu;	/* counted and its CPU clock so */
};

static pthread_mutex_t	armlock = PTHREAD_MUTEX_INITIALIZER;
static struct tslot	tslots[MAXTHREADS];
static unsigned int	heads[NHASH];	/* the chains; under armlock */
static unsigned int	freed;		/* slots given back */
static _Atomic unsigned int used;	/* slots ever taken: the rest are new */
static int		timers_on;	/* under armlock */
static uint64_t		period;
static uint64_t		tick;		/* the kernel's, ns; 0: unknown */
static uint64_t		rng;		/* slots' seeds; under armlock */
static uint32_t		unarmed;	/* threads that got no timer */
static struct itimerval	oldtimer, ourtimer;
static int		paused;		/* exec: 1 ours stopped, -1 not ours */
static int		yielded;	/* ours gave way to the program's */
static _Atomic int	sweeping;	/* a handler sweeps */
static _Atomic unsigned int cursor;	/* the next slot a sweep looks at */
static _Atomic uint32_t	revived;	/* timers re-armed by sweeps */

/* Slot s is armlock's holder's to change, once no sweep looks at it. */
static void
claim(struct tslot *s)
{
	static const struct timespec pause = { 0, 10000 };
	int z, k;

	/* A real-time caller would starve the sweep it waits for. */
	for (z = 0, k = 0; !atomic_compare_exchange_weak(&s->hold, &z, 2);
	    z = 0, k++)
		if (k < 64)
			sched_yield();
		else
			(void)nanosleep(&pause, NULL);
}

static void
release(struct tslot *s)
{
	atomic_store(&s->hold, 0);
}

/* Delete slot s's timer, once no sweep looks at it.  armlock. */
static void
close_slot(struct tslot *s)
{
	claim(s);
	timer_delete(s->timer);
	s->tid = 0;
	release(s);
}

static int
open_timer(pid_t tid, struct tslot *s)
{
	struct itimerspec its;
	struct sigevent ev;
	clockid_t clk;

	/* The CPU-time clock of thread tid (the kernel's encoding). */
	clk = (clockid_t)((~(unsigned int)tid << 3) | 4 | 2);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGPROF;
	ev.sigev_value.sival_ptr = s;		/* marks the signal as ours */
	ev._sigev_un._tid = tid;
	if (timer_create(clk, &ev, &s->timer) != 0)
		return -1;
	its.it_interval.tv_sec = period / 1000000000u;
	its.it_interval.tv_nsec = period % 1000000000u;
	/* Expired at the first tick that finds the thread running. */
	its.it_value.tv_sec = 0;
	its.it_value.tv_nsec = 1000;
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	s->rnd = rng | 1;
	s->fresh = 1;
	s->clk = clk;
	s->base = _mon_clock_ns(clk);
	atomic_store(&s->counted, 0);
	atomic_store(&s->debt, 0);
	s->seencpu = 0;
	if (timer_settime(s->timer, 0, &its, NULL) != 0) {
		timer_delete(s->timer);
		return -1;
	}
	s->tid = tid;
	return 0;
}

/* The chain of thread tid's slot. */
static unsigned int *
head(pid_t tid)
{
	return &heads[((uint32_t)tid * 2654435761u >> 16) % NHASH];
}

/* Delete thread tid's timer, if it has one, and free its slot.  armlock. */
static void
disarm(pid_t tid)
{
	unsigned int *p, i;

	for (p = head(tid); (i = *p) != 0; p = &tslots[i - 1].next)
		if (tslots[i - 1].tid == tid) {
			close_slot(&tslots[i - 1]);
			*p = tslots[i - 1].next;
			tslots[i - 1].next = freed;
			freed = i;
			return;
		}
}

/* Give thread tid a timer; a slot it held before is stale.  armlock. */
static int
arm(pid_t tid)
{
	unsigned int i;

	disarm(tid);
	if ((i = freed) == 0 && used < MAXTHREADS)
		i = used + 1;
	if (i != 0) {
		claim(&tslots[i - 1]);
		if (open_timer(tid, &tslots[i - 1]) != 0)
			tslots[i - 1].tid = 0;
		release(&tslots[i - 1]);
	}
	if (i == 0 || tslots[i - 1].tid == 0) {
		if (_mon_alive(tid))
			unarmed++;
		return -1;
	}
	if (i == freed)
		freed = tslots[i - 1].next;
	else
		used = i;
	tslots[i - 1].next = *head(tid);
	*head(tid) = i;
	return 0;
}

/* No slot armed, every one free (no timer deleted: the caller's part). */
static void
forget(void)
{
	memset(heads, 0, sizeof(heads));
	freed = 0;
	used = 0;
}

static void
disarm_all(void)
{
	unsigned int h, i;

	for (h = 0; h < NHASH; h++)
		for (i = heads[h]; i != 0; i = tslots[i - 1].next)
			close_slot(&tslots[i - 1]);
	forget();
}

/* Did si come from one of our timers?  Signal context. */
int
_mon_timer_ours(const siginfo_t *si)
{
	const struct tslot *tag;

	if (si->si_code != SI_TIMER)
		return 0;
	tag = si->si_value.sival_ptr;
	return tag >= tslots && tag < tslots + MAXTHREADS;
}

static void
arm_other(pid_t t, void *unused)
{
	(void)unused;
	(void)arm(t);
}

/* Arm the calling thread and every other that exists now; 0 or -1. */
int
_mon_timer_start(uint64_t ns)
{
	pid_t me;

	pthread_mutex_lock(&armlock);
	period = ns;
	tick = _mon_tick_ns();
	rng ^= _mon_cputime() ^ (uint64_t)getpid() << 20;
	unarmed = 0;
	atomic_store(&revived, 0);
	me = _mon_gettid();
	if (arm(me) != 0) {
		unarmed = 0;
		pthread_mutex_unlock(&armlock);
		return -1;
	}
	timers_on = 1;
	(void)_mon_threads(arm_other, NULL);
	pthread_mutex_unlock(&armlock);
	return 0;
}

void
_mon_timer_stop(void)
{
	pthread_mutex_lock(&armlock);
	timers_on = 0;
	disarm_all();
	pthread_mutex_unlock(&armlock);
}

/* A new thread starts (thread.c): its timer, unless stopped. */
void
_mon_timer_thread_start(void)
{
	pthread_mutex_lock(&armlock);
	if (timers_on)
		(void)arm(_mon_gettid());
	pthread_mutex_unlock(&armlock);
}

/* A thread ends (thread.c): its timer goes with it. */
void
_mon_timer_thread_end(void)
{
	pid_t me;

	me = _mon_gettid();
	pthread_mutex_lock(&armlock);
	disarm(me);
	pthread_mutex_unlock(&armlock);
}

void
_mon_timer_fork_prepare(void)
{
	pthread_mutex_lock(&armlock);
}

void
_mon_timer_fork_parent(void)
{
	pthread_mutex_unlock(&armlock);
}

/*
 * In a fork child no timer of the parent's exists (timers are not
 * inherited): forget the slots and arm the one thread there is.
 */
void
_mon_timer_fork_child(void)
{
	unsigned int i;

	_mon_renew_mutex(&armlock);
	/* The parent's sweeps, if one was caught by the fork, are not here. */
	for (i = 0; i < used; i++) {
		tslots[i].tid = 0;
		atomic_store(&tslots[i].hold, 0);
	}
	atomic_store(&sweeping, 0);
	atomic_store(&revived, 0);
	forget();
	unarmed = 0;
	if (timers_on)
		(void)arm(_mon_gettid());
}

uint32_t
_mon_timer_unarmed(void)
{
	return unarmed;
}

/*
 * A thread whose timers stopped: on some kernels (seen on 6.18, with
 * several threads that read their CPU clocks often) a thread's CPU
 * timers all stop firing once in a while -- a second timer on the same
 * thread stops with the first -- and the thread goes unsampled to its
 * end, while timer_gettime() says its timer expires in 1 ns, for ever.
 * Arming the timer again, from another thread, starts it again.  So a
 * thread whose samples pass a multiple of SWEEPEVERY periods sweeps
 * SWEEPSLOTS slots, in turn.  A slot is revived when its timer says it
 * expires in 1 ns at two sweeps a tick of its thread's CPU time apart,
 * with no signal of its taken between (a signal merely on its way says
 * 1 ns too), and its thread's CPU clock is more than two ticks' worth
 * of periods past what its signals stood for: it is armed again, and
 * the periods it missed are owed to its next signal -- carried to where
 * the thread is sampled again, as a blocked signal's are.  A thread
 * whose timer stops while no other takes samples stays stopped until
 * one does; if it ends first, the rest of its time goes unsampled, and
 * prof says how much.  (The same kernel also delays a thread's signals,
 * by up to hundreds of milliseconds of its CPU time, when it makes
 * system calls often on busy CPUs, with no libmon at all; those come
 * with their overruns, though a sweep may take one for stopped and arm
 * it again: libmon(7).)  Signal context.
 */
static void
revive(struct tslot *s)
{
	struct itimerspec its;
	uint64_t cpu, due, had, tk;
	int z;

	z = 0;
	if (!atomic_compare_exchange_strong(&s->hold, &z, 1))
		return;
	if (s->tid == 0 || timer_gettime(s->timer, &its) != 0 ||
	    its.it_value.tv_sec != 0 || its.it_value.tv_nsec > 1 ||
	    (cpu = _mon_clock_ns(s->clk)) < s->base) {
		s->seencpu = 0;
		goto out;
	}
	/*
	 * debt before counted: _mon_timer_count() adds a paid debt to
	 * counted before it takes it off debt, so that it is seen in one or
	 * both, never in neither -- had may come out high, never low, and
	 * no period is owed twice.
	 */
	had = atomic_load(&s->debt);
	had += atomic_load(&s->counted);
	due = (cpu - s->base) / period;
	tk = tick != 0 ? tick : TICKGUESS;
	if (due <= had + 2 * (tk / period + 1)) {
		s->seencpu = 0;
		goto out;
	}
	/*
	 * A signal merely on its way says 1 ns too: stopped is seen so
	 * twice, a tick of the thread's CPU time apart, with no signal of
	 * its taken between.
	 */
	if (s->seencpu == 0 || s->seencount != had) {
		s->seencpu = cpu;
		s->seencount = had;
		goto out;
	}
	if (cpu - s->seencpu < tk)
		goto out;
	s->seencpu = 0;
	atomic_fetch_add(&s->debt, due - had);
	s->fresh = 0;
	its.it_interval.tv_sec = period / 1000000000u;
	its.it_interval.tv_nsec = period % 1000000000u;
	its.it_value.tv_sec = 0;
	its.it_value.tv_nsec = 1000;
	if (timer_settime(s->timer, 0, &its, NULL) == 0)
		atomic_fetch_add(&revived, 1);
out:
	release(s);
}

static void
sweep(void)
{
	unsigned int k, n;

	if (atomic_exchange(&sweeping, 1))
		return;
	n = used;
	for (k = 0; k < SWEEPSLOTS && k < n; k++)
		revive(&tslots[atomic_fetch_add(&cursor, 1) % n]);
	atomic_store(&sweeping, 0);
}

/* Timers that sweeps found stopped and armed again. */
uint32_t
_mon_timer_revived(void)
{
	return atomic_load(&revived);
}

/*
 * The periods one of our signals si stands for, on the thread its slot
 * is for.  The first a thread gets stands for a tick -- a whole number
 * of periods and, at random, one more for the fraction -- not for what
 * the thread ran before it: a tick falls anywhere in a thread's CPU
 * time, so the first is met with the chance of a thread's CPU time in
 * ticks, and the signals after it count what the thread ran since the
 * first, up to its last tick.  The rest count their expirations, and
 * what a sweep found the thread owed.  May be 0.  Signal context.
 */
uint64_t
_mon_timer_count(const siginfo_t *si)
{
	struct tslot *s = si->si_value.sival_ptr;
	uint64_t n, had, debt;

	debt = 0;
	if (!s->fresh || tick == 0) {
		debt = atomic_load(&s->debt);
		n = 1 + debt;
		if (si->si_overrun > 0) {
			_mon_stats_overrun((uint64_t)si->si_overrun);
			n += (uint64_t)si->si_overrun;
		}
	} else {
		s->fresh = 0;
		n = tick / period;
		if ((_mon_random(&s->rnd) >> 11) % period < tick % period)
			n++;
	}
	/* counted first, then debt: see revive(). */
	had = atomic_fetch_add(&s->counted, n);
	if (debt != 0)
		atomic_fetch_sub(&s->debt, debt);
	if ((had + n) / SWEEPEVERY != had / SWEEPEVERY)
		sweep();
	return n;
}

/*
 * One of our signals si was taken and dropped unsampled -- by the
 * program's sigwait() among its own (sigwait.c): what it stood for is
 * counted as had all the same, so that no sweep takes the thread's
 * timer for stopped.  Signal-safe.
 */
void
_mon_timer_dropped(const siginfo_t *si)
{
	struct tslot *s = si->si_value.sival_ptr;
	uint64_t n, debt;

	if (!_mon_timer_ours(si))
		return;
	s->fresh = 0;
	debt = atomic_load(&s->debt);
	n = 1 + debt + (si->si_overrun > 0 ? (uint64_t)si->si_overrun : 0);
	atomic_fetch_add(&s->counted, n);
	if (debt != 0)
		atomic_fetch_sub(&s->debt, debt);
}

/* ITIMER_PROF at period ns, the old timer kept; 0 or -1. */
int
_mon_itimer_start(uint64_t ns)
{
	ourtimer.it_interval.tv_sec = ns / 1000000000u;
	ourtimer.it_interval.tv_usec = (ns % 1000000000u) / 1000u;
	if (ourtimer.it_interval.tv_sec == 0 &&
	    ourtimer.it_interval.tv_usec == 0)
		ourtimer.it_interval.tv_usec = 1;
	ourtimer.it_value = ourtimer.it_interval;
	yielded = 0;
	paused = 0;
	return setitimer(ITIMER_PROF, &ourtimer, &oldtimer);
}

/* Is ITIMER_PROF still the one we set? */
static int
itimer_ours(void)
{
	struct itimerval cur;

	return getitimer(ITIMER_PROF, &cur) == 0 &&
	    cur.it_interval.tv_sec == ourtimer.it_interval.tv_sec &&
	    cur.it_interval.tv_usec == ourtimer.it_interval.tv_usec;
}

/*
 * Stop: the old timer comes back only if ours is still the one set; a
 * program that set its own since keeps it.
 */
void
_mon_itimer_stop(void)
{
	if (itimer_ours())
		(void)setitimer(ITIMER_PROF, &oldtimer, NULL);
}

/*
 * Does an ITIMER_PROF run?  Once ours has stopped (_mon_itimer_stop(),
 * which puts back a timer the program had set before), it is the
 * program's own.  Signal-safe.
 */
int
_mon_itimer_running(void)
{
	struct itimerval cur;

	return getitimer(ITIMER_PROF, &cur) == 0 &&
	    (cur.it_value.tv_sec != 0 || cur.it_value.tv_usec != 0);
}

/*
 * The program sets its own SIGPROF action while ITIMER_PROF samples:
 * its action takes over, and our timer must not fire into it.
 */
void
_mon_itimer_yield(void)
{
	static const struct itimerval zero;

	if (itimer_ours()) {
		(void)setitimer(ITIMER_PROF, &zero, NULL);
		yielded = 1;
	}
}

/*
 * Around an exec: ITIMER_PROF would outlive the image.  A timer the
 * program set in place of ours is its own, and goes on into the new
 * image as it would without libmon.
 */
void
_mon_itimer_pause(void)
{
	static const struct itimerval zero;

	paused = itimer_ours() ? 1 : -1;
	if (paused > 0)
		(void)setitimer(ITIMER_PROF, &zero, NULL);
}

/*
 * The exec failed: our timer comes back if it was paused.  Or a fork
 * child starts, where no ITIMER_PROF is inherited: ours starts, unless
 * it had yielded to the program's action.
 */
void
_mon_itimer_resume(void)
{
	if (paused > 0 || (paused == 0 && !yielded))
		(void)setitimer(ITIMER_PROF, &ourtimer, NULL);
	paused = 0;
}

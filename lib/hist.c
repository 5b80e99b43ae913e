/*
 * hist.c -- the PC histogram and what is counted beside it: a leaf that
 * every clock calls down into, and that calls nothing of libmon's.
 *
 * A histogram as profil() describes it adds one to
 * buf[((pc - offset) * scale) >> 17] for every sample, scale being a
 * 16.16 fixed-point fraction of a 2-byte-per-counter map.  It is
 * published as an immutable descriptor through one atomic pointer, so a
 * sampler on another thread never sees half of an update:
 *
 *	_mon_hist ---> desc[k] { buf, nwords, off, scale, users }
 *
 * Descriptors rotate through a small array.  A sampler marks the one it
 * uses (users) and checks it is still the published one before reading
 * it; one is rewritten only when it is neither published nor in use, so
 * a sampler held up for any time never reads a mix of two.
 *
 * Counters saturate at 0xffff instead of wrapping; samples that would
 * have passed it are counted as lost.  Samples outside the histogram go
 * to a table of addresses, so that time spent elsewhere (shared
 * libraries, other code) is not lost: see outside_add().
 *
 * Everything here may run in a signal handler: no lock, no malloc, and
 * errno is never changed.
 */
#define _GNU_SOURCE	/* RUSAGE_THREAD */
#include <sys/resource.h>

#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "mon_private.h"

#define NDESC	8

_Atomic(struct _mon_hist *) _mon_hist;
struct _mon_stats _mon_stats;

static struct _mon_hist desc[NDESC];
static unsigned int ndesc;

/*
 * libmon's own threads that no clock samples (the drainer, the snapper)
 * still use the process's CPU time: each adds what it used since it
 * last told, and the histogram's CPU time leaves it out.
 */
struct ownlast {
	pid_t		 tid;
	uint64_t	 use[3];	/* CPU, user, system, ns */
};
static struct ownlast	ownlast[3];	/* each written by its thread */
static _Atomic uint64_t	ownsum[3];

uint64_t
_mon_cputime(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}


/*
 * The kernel's tick, in ns: the resolution of the coarse clocks, and
 * the only times at which it checks the CPU-time timers.  0 if unknown.
 */
uint64_t
_mon_tick_ns(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) != 0 ||
	    res.tv_sec != 0)
		return 0;
	return (uint64_t)res.tv_nsec;
}

/* The process's user and system CPU time so far, in ns. */
static void
split(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	*user = *sys = 0;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return;
	*user = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
	    (uint64_t)ru.ru_utime.tv_usec * 1000u;
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
	    (uint64_t)ru.ru_stime.tv_usec * 1000u;
}

/*
 * The calling thread, tid, libmon's own thread who (_MON_OWN_*), tells
 * the CPU time it used since it last told: all of it, the first time.
 */
void
_mon_stats_own(int who, pid_t tid)
{
	struct ownlast *o = &ownlast[who];
	struct timespec ts;
	struct rusage ru;
	uint64_t now[3];
	int i;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0 ||
	    getrusage(RUSAGE_THREAD, &ru) != 0)
		return;
	now[0] = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	now[1] = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
	    (uint64_t)ru.ru_utime.tv_usec * 1000u;
	now[2] = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
	    (uint64_t)ru.ru_stime.tv_usec * 1000u;
	if (o->tid != tid)
		memset(o->use, 0, sizeof(o->use));
	o->tid = tid;
	for (i = 0; i < 3; i++) {
		if (now[i] > o->use[i])
			atomic_fetch_add(&ownsum[i], now[i] - o->use[i]);
		o->use[i] = now[i];
	}
}

/* What libmon's own threads used since the histogram started, of i. */
static uint64_t
own(int i)
{
	uint64_t s;

	s = atomic_load(&ownsum[i]);
	return s > _mon_stats.own0[i] ? s - _mon_stats.own0[i] : 0;
}

/* a less b, or 0. */
static uint64_t
less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * Samples are not taken from now until _mon_stats_resume(): that CPU
 * time is left out of what the histogram covers.
 */
void
_mon_stats_pause(void)
{
	_mon_stats.pause0_ns = _mon_cputime();
}

void
_mon_stats_resume(void)
{
	uint64_t now;

	now = _mon_cputime();
	if (_mon_stats.pause0_ns != 0 && now > _mon_stats.pause0_ns)
		_mon_stats.paused_ns += now - _mon_stats.pause0_ns;
	_mon_stats.pause0_ns = 0;
}

/*
 * The CPU time the current histogram has covered so far, pauses and
 * libmon's own threads left out (a pause going on too), and how it
 * divides between user and system time, into cpu_ns, user_ns and
 * sys_ns; nothing else changes, so a snapshot may read it while
 * profiling goes on.
 */
void
_mon_stats_cut(void)
{
	uint64_t now, used, user, sys, paused;

	split(&user, &sys);
	_mon_stats.user_ns = less(less(user, _mon_stats.user0_ns), own(1));
	_mon_stats.sys_ns = less(less(sys, _mon_stats.sys0_ns), own(2));
	now = _mon_cputime();
	paused = _mon_stats.paused_ns;
	if (_mon_stats.pause0_ns != 0 && now > _mon_stats.pause0_ns)
		paused += now - _mon_stats.pause0_ns;
	used = now > _mon_stats.cpu0_ns ? now - _mon_stats.cpu0_ns : 0;
	_mon_stats.own_ns = own(0);
	_mon_stats.cpu_ns = less(less(used, paused), _mon_stats.own_ns);
	/* Wall time from the monotonic clock: the real one may be set. */
	_mon_stats.wall_ns = _mon_stats.mono0_ns != 0 ?
	    less(_mon_clock_ns(CLOCK_MONOTONIC), _mon_stats.mono0_ns) : 0;
}

/*
 * Fix the CPU time the current histogram covers, pauses left out, and
 * how it divides between user and system time.
 */
void
_mon_stats_stop(void)
{
	if (_mon_stats.pause0_ns != 0)
		_mon_stats_resume();
	_mon_stats_cut();
}

/* n samples the kernel could not deliver.  Signal context. */
void
_mon_stats_dropped(uint64_t n)
{
	atomic_fetch_add_explicit(&_mon_stats.dropped, n,
	    memory_order_relaxed);
}

/* n samples whose clock missed expirations.  Signal context. */
void
_mon_stats_overrun(uint64_t n)
{
	atomic_fetch_add_explicit(&_mon_stats.overruns, n,
	    memory_order_relaxed);
}

/*
 * The outside table: samples whose pc is outside the histogram, counted
 * by address (table.c: it grows, a probe is bounded), 2^13 slots to
 * start with, up to 2^20 in the last of 8 hashes: about a million
 * places.  When it has no room for a pc -- past its largest size, or
 * without memory -- the sample is counted by its 4 KiB page in a table
 * of their own (up to 2^17 slots), keyed by the page's address with its
 * low bit set (exact keys have it clear); only when that finds no place
 * either is it counted in outlost.
 */
static struct _mon_tab outside = { .bits0 = 13, .nhash = 8 };
static struct _mon_tab pages = { .bits0 = 8, .nhash = 10 };

static int
outside_add(struct _mon_tab *t, uintptr_t key, uint64_t n)
{
	struct _mon_slot *s;

	if ((s = _mon_tab_slot(t, key, 0)) == NULL)
		return 0;
	atomic_fetch_add_explicit(&s->count, n, memory_order_relaxed);
	return 1;
}

static void
count_outside(uintptr_t pc, uint64_t n)
{
	atomic_fetch_add_explicit(&_mon_stats.out, n, memory_order_relaxed);
	if (pc == 0)
		return;
	if (!outside_add(&outside, pc & ~(uintptr_t)1, n) &&
	    !outside_add(&pages, (pc & ~(uintptr_t)0xfff) | 1, n))
		atomic_fetch_add_explicit(&_mon_stats.outlost, n,
		    memory_order_relaxed);
}

/* Copy t's places to p from place n on, as _mon_outside_copy() says. */
static size_t
outside_copy(struct _mon_tab *t, unsigned char *p, size_t n, size_t max)
{
	struct _mon_slot *s;
	struct monx_pc pc;
	unsigned int k;
	size_t i, ns;

	for (k = 0; k < _MON_TABMAX; k++) {
		s = _mon_tab_hash(t, k, &ns);
		for (i = 0; s != NULL && i < ns; i++) {
			pc.count = atomic_load(&s[i].count);
			pc.pc = atomic_load(&s[i].key);
			if (pc.count == 0 || pc.pc == 0)
				continue;
			if (p != NULL) {
				if (n == max)
					return n;
				memcpy(p + n * sizeof(pc), &pc, sizeof(pc));
			}
			n++;
		}
	}
	return n;
}

/*
 * Copy the outside places with samples, as struct monx_pc, to p (room
 * for max of them; p NULL to only count them).  Returns how many.
 */
size_t
_mon_outside_copy(unsigned char *p, size_t max)
{
	return outside_copy(&pages, p, outside_copy(&outside, p, 0, max),
	    max);
}

/* How many places _mon_outside_copy() would give. */
size_t
_mon_outside_count(void)
{
	return _mon_outside_copy(NULL, 0);
}

/* Empty the statistics and the outside table for a new histogram. */
void
_mon_stats_reset(void)
{
	int i;

	atomic_store(&_mon_stats.in, 0);
	atomic_store(&_mon_stats.out, 0);
	atomic_store(&_mon_stats.lost, 0);
	atomic_store(&_mon_stats.saturated, 0);
	atomic_store(&_mon_stats.overruns, 0);
	atomic_store(&_mon_stats.dropped, 0);
	atomic_store(&_mon_stats.outlost, 0);
	atomic_store(&_mon_stats.kernel, 0);
	_mon_stats.cpu_ns = 0;
	_mon_stats.own_ns = 0;
	_mon_stats.paused_ns = 0;
	_mon_stats.pause0_ns = 0;
	_mon_stats.cpu0_ns = _mon_cputime();
	_mon_stats.real0_ns = _mon_clock_ns(CLOCK_REALTIME);
	_mon_stats.mono0_ns = _mon_clock_ns(CLOCK_MONOTONIC);
	_mon_stats.wall_ns = 0;
	split(&_mon_stats.user0_ns, &_mon_stats.sys0_ns);
	for (i = 0; i < 3; i++)
		_mon_stats.own0[i] = atomic_load(&ownsum[i]);
	_mon_tab_reset(&outside);
	_mon_tab_reset(&pages);
}

/* The published histogram, marked in use; NULL if none.  Signal context. */
static struct _mon_hist *
hold(void)
{
	struct _mon_hist *h;

	for (;;) {
		h = atomic_load_explicit(&_mon_hist, memory_order_acquire);
		if (h == NULL)
			return NULL;
		atomic_fetch_add(&h->users, 1);
		if (atomic_load(&_mon_hist) == h)
			return h;
		atomic_fetch_sub(&h->users, 1);
	}
}

/* Add n samples to counter w, saturating at 0xffff.  Signal context. */
static void
bump(_Atomic WORD *w, uint64_t n)
{
	uint64_t room;
	WORD v, nv;

	v = atomic_load_explicit(w, memory_order_relaxed);
	do {
		room = 0xffffu - v;
		nv = (WORD)(v + (n < room ? n : room));
	} while (nv != v && !atomic_compare_exchange_weak_explicit(w, &v, nv,
	    memory_order_relaxed, memory_order_relaxed));
	if (n > room)
		atomic_fetch_add_explicit(&_mon_stats.lost, n - room,
		    memory_order_relaxed);
	if (room > 0 && n >= room)
		atomic_fetch_add_explicit(&_mon_stats.saturated, 1,
		    memory_order_relaxed);
	if (nv != v)
		atomic_fetch_add_explicit(&_mon_stats.in, nv - v,
		    memory_order_relaxed);
}

/*
 * Add n samples at pc to the current histogram: n is 1, or more when the
 * clock says it missed expirations (the signal then stands for all of
 * them).  Async-signal-safe and safe against the same counter being hit
 * on two threads at once.  1 if counted, 0 when profiling is paused or
 * stopped.
 */
int
_mon_sample(uintptr_t pc, uint64_t n)
{
	struct _mon_hist *h;
	unsigned __int128 prod;
	uintptr_t idx;

	if ((h = hold()) == NULL)
		return 0;
	idx = SIZE_MAX;
	if (pc >= h->off) {
		prod = (unsigned __int128)(pc - h->off) * h->scale;
		prod >>= 17;
		idx = h->scale == 2 ? 0 :
		    prod > SIZE_MAX ? SIZE_MAX : (uintptr_t)prod;
	}
	if (idx < h->nwords)
		bump((_Atomic WORD *)&h->buf[idx], n);
	else
		count_outside(pc, n);
	atomic_fetch_sub(&h->users, 1);
	return 1;
}

/*
 * Does pc fall in a bin of the current histogram -- the program's own
 * text, as profil() was given it?  0 when it does not, or no histogram
 * is set.  Async-signal-safe.
 */
int
_mon_hist_covers(uintptr_t pc)
{
	struct _mon_hist *h;
	unsigned __int128 prod;
	int in;

	if ((h = hold()) == NULL)
		return 0;
	in = 0;
	if (pc >= h->off) {
		prod = (unsigned __int128)(pc - h->off) * h->scale;
		in = h->scale == 2 || (prod >> 17) < h->nwords;
	}
	atomic_fetch_sub(&h->users, 1);
	return in;
}

/*
 * n samples taken in kernel mode, whose pc is the kernel's and has no
 * bin: counted apart, as _mon_sample() counts, 1 if counted and 0 when
 * profiling is paused or stopped.  Async-signal-safe.
 */
int
_mon_sample_kernel(uint64_t n)
{
	struct _mon_hist *h;

	if ((h = hold()) == NULL)
		return 0;
	atomic_fetch_add_explicit(&_mon_stats.kernel, n,
	    memory_order_relaxed);
	atomic_fetch_sub(&h->users, 1);
	return 1;
}

/*
 * Publish a new histogram, or none (buf NULL).  A descriptor is reused
 * only once no sampler holds it.  Callers serialise.
 */
void
_mon_hist_set(WORD *buf, size_t nwords, uintptr_t off, unsigned int scale)
{
	struct _mon_hist *h;

	if (buf == NULL) {
		atomic_store(&_mon_hist, NULL);
		return;
	}
	h = &desc[ndesc++ % NDESC];
	while (atomic_load(&_mon_hist) == h || atomic_load(&h->users) != 0)
		sched_yield();
	h->buf = buf;
	h->nwords = nwords;
	h->off = off;
	h->scale = scale;
	atomic_store_explicit(&_mon_hist, h, memory_order_release);
}

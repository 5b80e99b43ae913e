/*
 * profil.c -- the PC histogram: profil() and the sampling handler.
 *
 * profil(buf, bufsiz, offset, scale) asks that every clock tick of CPU
 * time add one to buf[((pc - offset) * scale) >> 17], scale being a 16.16
 * fixed-point fraction of a 2-byte-per-counter map.  The handler reads
 * the interrupted pc from the signal's ucontext and does just that; it
 * takes no lock, allocates nothing and keeps errno.
 *
 * A histogram is published as an immutable descriptor through one atomic
 * pointer, so a handler running on another thread never sees half of an
 * update.  Descriptors rotate through a small ring: one is reused only
 * after several later profil() calls, long after any handler let go.
 *
 * Counters saturate at 0xffff instead of wrapping; samples that would
 * have passed it are counted in _mon_stats.lost for prof to report.
 * Samples outside the histogram go to a bounded table of addresses so
 * that time spent elsewhere (shared libraries, other code) is not lost.
 */
#define _GNU_SOURCE	/* REG_RIP */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <ucontext.h>

#include "mon_private.h"

#define NDESC	8

_Atomic(struct _mon_hist *) _mon_hist;
struct _mon_stats _mon_stats;
struct _mon_outpc *_mon_outpcs;

static struct _mon_hist desc[NDESC];
static unsigned int ndesc;
static int classic_armed;	/* profil() itself started the clock */
static int forkhooked;

uint64_t
_mon_cputime(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void
_mon_stats_reset(void)
{
	atomic_store(&_mon_stats.in, 0);
	atomic_store(&_mon_stats.out, 0);
	atomic_store(&_mon_stats.lost, 0);
	atomic_store(&_mon_stats.saturated, 0);
	atomic_store(&_mon_stats.overruns, 0);
	atomic_store(&_mon_stats.dropped, 0);
	_mon_stats.cpu_ns = 0;
	_mon_stats.cpu0_ns = _mon_cputime();
	if (_mon_outpcs != NULL) {
		for (size_t i = 0; i < _MON_NOUTPC; i++) {
			atomic_store(&_mon_outpcs[i].pc, 0);
			atomic_store(&_mon_outpcs[i].count, 0);
		}
	}
}

/* Fix the CPU time the current histogram covers. */
void
_mon_stats_stop(void)
{
	uint64_t now;

	now = _mon_cputime();
	_mon_stats.cpu_ns = now > _mon_stats.cpu0_ns ?
	    now - _mon_stats.cpu0_ns : 0;
}

/* Count n samples outside the histogram by address.  Signal context. */
static void
count_outside(uintptr_t pc, uint64_t n)
{
	struct _mon_outpc *t;
	uintptr_t want;
	size_t i, k;

	atomic_fetch_add_explicit(&_mon_stats.out, n, memory_order_relaxed);
	if ((t = _mon_outpcs) == NULL || pc == 0)
		return;
	i = _mon_hash(pc, _MON_NOUTPC_BITS);
	for (k = 0; k < _MON_NOUTPC; k++, i = (i + 1) & (_MON_NOUTPC - 1)) {
		want = 0;
		if (atomic_load_explicit(&t[i].pc, memory_order_relaxed) == pc ||
		    atomic_compare_exchange_strong(&t[i].pc, &want, pc) ||
		    want == pc) {
			atomic_fetch_add_explicit(&t[i].count, n,
			    memory_order_relaxed);
			return;
		}
	}
	/* Table full: the sample stays counted in stats.out only. */
}

/*
 * Add n samples at pc to the current histogram: n is 1, or more when the
 * clock says it missed expirations (the signal then stands for all of
 * them).  Async-signal-safe and safe against the same counter being hit
 * on two threads at once.
 */
void
_mon_sample(uintptr_t pc, uint64_t n)
{
	struct _mon_hist *h;
	unsigned __int128 prod;
	_Atomic WORD *w;
	uintptr_t idx;
	uint64_t room;
	WORD v, nv;

	h = atomic_load_explicit(&_mon_hist, memory_order_acquire);
	if (h == NULL)
		return;
	if (pc < h->off) {
		count_outside(pc, n);
		return;
	}
	if (h->scale == 2)
		idx = 0;
	else {
		prod = (unsigned __int128)(pc - h->off) * h->scale;
		prod >>= 17;
		idx = prod > SIZE_MAX ? SIZE_MAX : (uintptr_t)prod;
	}
	if (idx >= h->nwords) {
		count_outside(pc, n);
		return;
	}
	w = (_Atomic WORD *)&h->buf[idx];
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

static void
handler(int sig, siginfo_t *si, void *uc)
{
	uint64_t n;
	int saved, what;

	saved = errno;
	what = si != NULL ? _mon_clock_ours(si) : _MON_SIG_SAMPLE;
	if (what == 0)
		_mon_clock_chain(sig, si, uc);
	if (what != _MON_SIG_SAMPLE) {
		if (what == _MON_SIG_DRAIN)
			_mon_clock_drain();
		errno = saved;
		return;
	}
	n = 1;
	if (si != NULL && si->si_code == SI_TIMER && si->si_overrun > 0) {
		n += (uint64_t)si->si_overrun;
		atomic_fetch_add_explicit(&_mon_stats.overruns,
		    (uint64_t)si->si_overrun, memory_order_relaxed);
	}
	_mon_sample((uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP],
	    n);
	errno = saved;
}

/*
 * In a fork child: ITIMER_PROF is not inherited, yet profiling started
 * by profil() stays on in both processes, as it classically does.
 * (monitor() re-arms the clock of its own profiles.)
 */
static void
postfork_child(void)
{
	if (classic_armed)
		_mon_clock_fork();
}

/*
 * The work of profil(), with the clock chosen by the caller: monitor()
 * asks for the best per-thread clock, a direct profil() call for the
 * classic one.  Not async-signal-safe; callers serialise.
 */
int
_mon_profil(WORD *buf, size_t bufsiz, uintptr_t off, unsigned int scale,
    int classic)
{
	struct _mon_hist *h;

	/* Samples still in the clock's rings belong to the old histogram. */
	if (_mon_clock_running())
		_mon_clock_drain();
	/* Decide "off" from scale first: buf may be declared nonnull. */
	if (scale < 2 || bufsiz < sizeof(WORD) || buf == NULL) {
		atomic_store(&_mon_hist, NULL);
		_mon_clock_stop();
		classic_armed = 0;
		return 0;
	}
	if (_mon_outpcs == NULL)
		_mon_outpcs = _mon_map(_MON_NOUTPC * sizeof(*_mon_outpcs));
	h = &desc[ndesc++ % NDESC];
	h->buf = buf;
	h->nwords = bufsiz / sizeof(WORD);
	h->off = off;
	h->scale = scale;
	atomic_store_explicit(&_mon_hist, h, memory_order_release);
	if (_mon_clock_running())
		return 0;
	if (_mon_clock_start(handler, classic) != 0) {
		atomic_store(&_mon_hist, NULL);
		return -1;
	}
	classic_armed = classic;
	if (classic && !forkhooked &&
	    pthread_atfork(NULL, NULL, postfork_child) == 0)
		forkhooked = 1;
	return 0;
}

/*
 * profil(2), classic: bufsiz in bytes, scale 0 or 1 (or a NULL buffer)
 * stops sampling and puts back the SIGPROF action and timer that were
 * there before.  Samples come from every thread of the process.
 */
_mon_public int
profil(unsigned short *buf, size_t bufsiz, size_t offset, unsigned int scale)
{
	return _mon_profil(buf, bufsiz, offset, scale, 1);
}

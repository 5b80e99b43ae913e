/*
 * clock.c -- the sampling clock behind the histogram.
 *
 * Three clocks, best first; PROFCLOCK=perf|timer|itimer forces one
 * (perf-signal: perf without rings):
 *
 *  perf	a perf_event task-clock per thread (hrtimer based, user space
 *		only, as perf_event_paranoid 2 allows a process on itself)
 *		at the rate asked for (PROFHZ, default 1000).  The kernel
 *		writes each sample's pc into a small ring mapped from the
 *		event, and no signal is sent per sample: a second, slow
 *		timer on the thread's CPU clock raises SIGPROF a few times
 *		a second, and the handler then empties every thread's ring
 *		into the histogram.  A sample costs the kernel's timer
 *		interrupt and nothing more.  Where the ring cannot be
 *		mapped (locked-memory limits), that thread's overflows come
 *		as SIGPROF to it instead, one signal a sample.
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
 * covered, so prof's seconds stay honest; samples the kernel could not
 * put in a full ring are counted as dropped.
 *
 * A ring is read by whichever thread drains, under the slot's busy flag;
 * a handler only ever tries the flag, so nothing waits on a signal
 * handler that cannot finish.  Stopping, a thread's end and a change of
 * histogram drain first, so no sample taken is left behind.
 *
 * Starting saves the SIGPROF action and ITIMER_PROF timer that were
 * there; stopping puts both back.  fork(): the child's own thread is
 * armed again (no timer or ring is inherited; perf descriptors are, but
 * they watch the parent's threads and are closed).  execve(): perf
 * descriptors are close-on-exec and per-thread timers die with the
 * image; only ITIMER_PROF survives, so exec.c pauses it around the call.
 */
#define _GNU_SOURCE	/* F_SETSIG, F_SETOWN_EX, SIGEV_THREAD_ID */
#include <sys/ioctl.h>
#include <sys/mman.h>
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
#define RINGSECS	2	/* a ring holds 1/RINGSECS s of samples, */
#define RINGMAX		64	/* within 2..RINGMAX data pages, */
#define DRAINS		4	/* and is drained DRAINS times as it fills */

/*
 * One armed thread.  perf: fd is its event; ring, when mapped, gets its
 * samples and timer is the slow clock that has rings drained.  timer:
 * timer is its clock.  tid is 0 for a free slot, -1 while it changes.
 */
struct slot {
	_Atomic pid_t	tid;
	atomic_flag	busy;		/* the ring is being read or unmapped */
	int		fd;
	timer_t		timer;
	struct perf_event_mmap_page *ring;
};

/*
 * thread.c, sigaction.c, exec.c and dlclose.c take the place of libc
 * functions.  A static archive member is only linked when something
 * needs it, and a program's own references may already be satisfied by
 * a shared library ahead of libmon (a sanitizer runtime does this):
 * naming them here brings them in whenever the clock is, and a
 * definition in the program then wins over any shared one.
 */
extern const char _mon_link_thread, _mon_link_sigaction, _mon_link_exec,
    _mon_link_dlclose;
__attribute__((used)) static const char *const pull[] = {
	&_mon_link_thread, &_mon_link_sigaction, &_mon_link_exec,
	&_mon_link_dlclose,
};

static struct sigaction	oldact;
static void		(*ours)(int, siginfo_t *, void *);
static struct itimerval	oldtimer;
static struct itimerval	ourtimer;
static volatile sig_atomic_t running;
static int		mode;		/* MONX_CLK_* */
static uint64_t		period;		/* ns */
static struct slot	slots[MAXTHREADS];
static _Atomic size_t	nslots;		/* slots[nslots..] never used */
static size_t		pagesz;
static size_t		ringlen;	/* bytes mapped: header page + data */
static uint64_t		drain_ns;	/* period of the draining timer */
static int		signals;	/* perf: a signal a sample, no rings */

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
open_timer(pid_t tid, timer_t *tp, uint64_t ns, struct slot *tag)
{
	struct itimerspec its;
	struct sigevent ev;
	clockid_t clk;

	/* The CPU-time clock of thread tid (the kernel's encoding). */
	clk = (clockid_t)((~(unsigned int)tid << 3) | 4 | 2);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGPROF;
	ev.sigev_value.sival_ptr = tag;		/* marks the signal as ours */
	ev._sigev_un._tid = tid;
	if (timer_create(clk, &ev, tp) != 0)
		return -1;
	its.it_interval.tv_sec = ns / 1000000000u;
	its.it_interval.tv_nsec = ns % 1000000000u;
	its.it_value = its.it_interval;
	if (timer_settime(*tp, 0, &its, NULL) != 0) {
		timer_delete(*tp);
		return -1;
	}
	return 0;
}

/* Sizes of the rings and their draining, for the period asked. */
static void
size_rings(void)
{
	uint64_t want, cap;
	size_t n;

	pagesz = (size_t)sysconf(_SC_PAGESIZE);
	/* A sample is a header and a pc: 16 bytes. */
	want = 1000000000u / period / RINGSECS * 16;
	for (n = 2; n < RINGMAX && n * pagesz < want; n *= 2)
		continue;
	ringlen = (n + 1) * pagesz;
	cap = n * pagesz / 16;
	drain_ns = cap / DRAINS * period;
}

/*
 * Thread tid's perf_event clock in slot s: its samples into a ring with
 * a draining timer, or failing that as a signal each.
 */
static int
open_perf(pid_t tid, struct slot *s)
{
	struct perf_event_attr a;
	struct f_owner_ex own;
	void *p;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	/* Nobody waits on the ring: wake only as often as it fills. */
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(ringlen - pagesz);
	a.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, tid, -1, -1,
	    PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	s->ring = NULL;
	if (!signals && (p = mmap(NULL, ringlen, PROT_READ | PROT_WRITE,
	    MAP_SHARED, fd, 0)) != MAP_FAILED) {
		if (open_timer(tid, &s->timer, drain_ns, s) == 0)
			s->ring = p;
		else
			(void)munmap(p, ringlen);
	}
	if (s->ring == NULL) {
		own.type = F_OWNER_TID;
		own.pid = tid;
		if (fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) != 0 ||
		    fcntl(fd, F_SETSIG, SIGPROF) != 0 ||
		    fcntl(fd, F_SETOWN_EX, &own) != 0)
			goto fail;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0)
		goto fail;
	return fd;
fail:
	if (s->ring != NULL) {
		timer_delete(s->timer);
		(void)munmap(s->ring, ringlen);
		s->ring = NULL;
	}
	close(fd);
	return -1;
}

/* The next 8 bytes of a ring's data, which may wrap.  Signal context. */
static uint64_t
ring_u64(const unsigned char *data, uint64_t size, uint64_t at)
{
	uint64_t v;

	memcpy(&v, data + (at & (size - 1)), sizeof(v));
	return v;
}

/*
 * Move what the kernel has written to s's ring into the histogram; the
 * caller holds s->busy.  Records are 8-byte aligned in a power-of-two
 * ring, so no 8-byte field straddles its end.  Signal context.
 */
static void
drain_ring(struct slot *s)
{
	struct perf_event_mmap_page *m = s->ring;
	const unsigned char *data;
	uint64_t head, tail, size, hdr;
	uint32_t type, len;

	size = m->data_size != 0 ? m->data_size : ringlen - pagesz;
	data = (const unsigned char *)m +
	    (m->data_offset != 0 ? m->data_offset : pagesz);
	head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
	tail = m->data_tail;
	while (head - tail >= 8) {
		hdr = ring_u64(data, size, tail);
		type = (uint32_t)hdr;
		len = (uint32_t)(hdr >> 48);
		if (len < 8 || len % 8 != 0 || len > head - tail)
			break;		/* cannot be: leave the ring as it is */
		if (type == PERF_RECORD_SAMPLE && len >= 16)
			_mon_sample((uintptr_t)ring_u64(data, size, tail + 8),
			    1);
		else if (type == PERF_RECORD_LOST && len >= 24)
			atomic_fetch_add_explicit(&_mon_stats.dropped,
			    ring_u64(data, size, tail + 16),
			    memory_order_relaxed);
		tail += len;
	}
	__atomic_store_n(&m->data_tail, tail, __ATOMIC_RELEASE);
}

/*
 * Drain every ring nobody else is draining.  From the handler on the
 * slow timer's signal, and before the histogram changes or goes.
 */
void
_mon_clock_drain(void)
{
	struct slot *s;
	size_t i, n;

	if (mode != MONX_CLK_PERF)
		return;
	n = atomic_load(&nslots);
	for (i = 0; i < n; i++) {
		s = &slots[i];
		if (atomic_load(&s->tid) <= 0 ||
		    atomic_flag_test_and_set(&s->busy))
			continue;
		/* Still armed (not being disarmed or set up): ring is stable. */
		if (atomic_load(&s->tid) > 0 && s->ring != NULL)
			drain_ring(s);
		atomic_flag_clear(&s->busy);
	}
}

/* Give thread tid a clock of the current mode; 0 or -1. */
static int
arm(pid_t tid)
{
	struct slot *s;
	size_t i, n;
	pid_t none;

	n = atomic_load(&nslots);
	for (i = 0; i < n; i++)
		if (atomic_load(&slots[i].tid) == tid)
			return 0;		/* armed already */
	for (i = 0; i < MAXTHREADS; i++) {
		s = &slots[i];
		none = 0;
		if (atomic_load(&s->tid) != 0 ||
		    !atomic_compare_exchange_strong(&s->tid, &none, -1))
			continue;
		if (mode == MONX_CLK_PERF)
			s->fd = open_perf(tid, s);
		else
			s->fd = open_timer(tid, &s->timer, period, s);
		/* Raise the bound before the slot can be seen armed. */
		for (n = atomic_load(&nslots); n <= i &&
		    !atomic_compare_exchange_weak(&nslots, &n, i + 1);)
			continue;
		atomic_store(&s->tid, s->fd < 0 ? 0 : tid);
		return s->fd < 0 ? -1 : 0;
	}
	return -1;
}

/*
 * Take thread tid's clock away, its ring drained first.  Waits for a
 * drain running on another thread; one of this thread's own handlers
 * cannot be draining, as it would be interrupting us.
 */
static void
disarm_slot(struct slot *s, pid_t tid)
{
	if (tid <= 0 || !atomic_compare_exchange_strong(&s->tid, &tid, -1))
		return;
	if (mode == MONX_CLK_PERF) {
		while (atomic_flag_test_and_set(&s->busy))
			sched_yield();
		if (s->ring != NULL) {
			timer_delete(s->timer);
			(void)ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
			drain_ring(s);
			(void)munmap(s->ring, ringlen);
			s->ring = NULL;
		}
		close(s->fd);
		atomic_flag_clear(&s->busy);
	} else
		timer_delete(s->timer);
	atomic_store(&s->tid, 0);
}

static void
disarm_all(void)
{
	size_t i, n;

	n = atomic_load(&nslots);
	for (i = 0; i < n; i++)
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

	signals = 0;
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
	signals = s != NULL && strcmp(s, "perf-signal") == 0;
	if (s != NULL && *s != '\0' && strcmp(s, "perf") != 0 && !signals)
		_mon_warn("PROFCLOCK", "not perf, perf-signal, timer or itimer;"
		    " using the best available", 0);
	list[0] = MONX_CLK_PERF;
	list[1] = MONX_CLK_TIMER;
	list[2] = MONX_CLK_ITIMER;
	return 3;
}

/*
 * Did si come from our clock?  _MON_SIG_SAMPLE: a sample of the pc it
 * interrupted; _MON_SIG_DRAIN: time to empty the rings; 0: with a
 * per-thread clock, a SIGPROF from anything else -- the program's own
 * ITIMER_PROF or timer -- is not ours and goes to the handler the
 * program had.  Signal context.
 */
int
_mon_clock_ours(const siginfo_t *si)
{
	const struct slot *tag;
	int timer;

	tag = si->si_code == SI_TIMER ? si->si_value.sival_ptr : NULL;
	timer = tag >= slots && tag < slots + MAXTHREADS;
	switch (mode) {
	case MONX_CLK_PERF:
		if (timer)
			return _MON_SIG_DRAIN;
		return si->si_code == POLL_IN || si->si_code == POLL_HUP ?
		    _MON_SIG_SAMPLE : 0;
	case MONX_CLK_TIMER:
		return timer ? _MON_SIG_SAMPLE : 0;
	default:
		return _MON_SIG_SAMPLE;
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
	size_rings();
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
 *
 * A sample signalled just before its clock went may still be pending in
 * some thread; under the action put back (SIG_DFL, most often) it would
 * kill the program.  Ignoring SIGPROF for a moment discards every
 * pending one: no clock of ours is left to raise another.
 */
void
_mon_clock_stop(void)
{
	struct sigaction cur, ign;
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
	    (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == ours) {
		memset(&ign, 0, sizeof(ign));
		ign.sa_handler = SIG_IGN;
		sigemptyset(&ign.sa_mask);
		(void)__sigaction(SIGPROF, &ign, NULL);
		(void)__sigaction(SIGPROF, &oldact, NULL);
	}
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
	/* Rings are not mapped in a child (the kernel does not copy them). */
	for (i = 0; i < MAXTHREADS; i++) {
		if (atomic_load(&slots[i].tid) > 0 && mode == MONX_CLK_PERF)
			close(slots[i].fd);
		slots[i].ring = NULL;
		atomic_flag_clear(&slots[i].busy);
		atomic_store(&slots[i].tid, 0);
	}
	atomic_store(&nslots, 0);
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
	size_t i, n;
	pid_t me;

	if (!running || mode == MONX_CLK_ITIMER)
		return;
	me = _mon_gettid();
	n = atomic_load(&nslots);
	for (i = 0; i < n; i++)
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

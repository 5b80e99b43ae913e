/*
 * ring.c -- the perf clock: samples the kernel writes into rings that a
 * thread of libmon's own empties, so that no signal, descriptor or stack
 * frame of libmon's ever reaches the program's threads.
 *
 *	program threads                     libmon's drainer thread
 *	  | task-clock expires (hrtimer)      (all signals blocked,
 *	  v                                    not itself sampled)
 *	kernel writes {hdr, pc, stack} -> ring[cpu] --- every drain_ns ---+
 *	  into the ring of the CPU            ...                        |
 *	  the thread runs on                ring[cpu'] <------------------+
 *	                                          |
 *	                                          v _mon_sample(pc) (hist.c)
 *	                                            _mon_stack_add (stacks.c)
 *
 * One perf_event task-clock per CPU is opened on the starting thread with
 * inherit and inherit_thread: every thread it or its threads create later
 * -- the C library's own helper threads included -- carries the same
 * events from its first instruction, at no cost to pthread_create, and
 * the kernel writes all their samples into the starting thread's rings.
 * A fork child inherits nothing (inherit_thread); an exec drops the
 * events (remove_on_exec).  Threads that already exist when profiling
 * starts get events and rings of their own, again per CPU.
 *
 * A fork child's events are opened by its own drainer as it starts, not
 * by the child's thread: opening them and mapping their rings (the
 * kernel allocates and zeroes every page of a ring, and frees them at
 * the exec) cost a child that only execs more than all the rest of
 * libmon's part in its fork, and most children only exec.  The drainer
 * waits ARMWAIT (a fine period) first: an exec that comes before gives
 * the events up, and a thread the child creates before then has them
 * opened first, by the creating thread, so that it inherits them.  What
 * the child's thread runs in that wait, a fine period of CPU time at
 * most, is not sampled, as the last fine period of a thread shorter
 * than one on a CPU is not: prof shows it apart, with the rest of the
 * unsampled time.
 *
 * With stacks asked for (_mon_stack_limit), each sample carries the
 * user call stack the kernel walked by frame pointers, cut at the limit;
 * a kernel that refuses call chains gets events without them, and the
 * profile has no stacks.
 *
 * Kernel mode is sampled too where the kernel lets this user have it
 * (perf_event_paranoid below 2, or privilege): a sample taken there is
 * counted apart from the histogram, its stack the user one that made
 * the system call or took the fault, marked as in the kernel, so that
 * prof shows the kernel's time under its caller.  Where it is refused,
 * user mode alone is sampled, and prof tells the system time apart by
 * the run's user and system times (MONX_RUN_KERNEL says which).
 *
 * Descriptors: each event's descriptor is closed as soon as its ring is
 * mapped -- the mapping keeps the event alive -- so libmon holds none
 * while the program runs, and stopping is unmapping.  Where a ring
 * cannot be had for a thread (locked-memory limit, descriptors
 * exhausted) that thread is counted as unsampled.
 *
 * Threads shorter than a period: an inherited event starts its first
 * period afresh, on each CPU a thread runs on, so that a thread of less
 * than a period would never be sampled and every thread would lose the
 * end of its last period -- and no event can be given a phase of its
 * own.  So the kernel samples every FINE ns of CPU time or oftener
 * (thin times a period), each sample naming its thread, and the
 * drainer keeps every thin-th of a thread's on a CPU from an offset
 * drawn at random when it first sees the thread there: each sample kept
 * stands for the period, at a random phase.  The end of a thread's last
 * fine period, which no sample saw, the kernel tells when the thread
 * ends (inherit_stat: a READ record of its count on that CPU); it is
 * kept as one more sample with the chance of its share of a period, at
 * the place of the thread's last fine sample, a fine period or less
 * before it (thread_ends()).  A thread that ran less than FINE ns on a
 * CPU has no place there: that time goes unsampled, and prof shows it
 * apart.
 *
 * Fine samples cost: each is a timer interrupt, a microsecond or two on
 * most machines, tens of them on some virtual ones.  They are for short
 * threads, so the clock starts coarse (thin 1: the kernel samples at the
 * period itself) unless the program already has threads, the period is
 * FINE or less, or the wall sampler runs (it takes running threads'
 * stacks from these samples).  A coarse clock loses little: a thread's
 * events count on across its switches, and the rest of its last period
 * on a CPU is told when it ends, so that only what a thread ran on a CPU
 * where it never reached a period goes unsampled.  A thread that ends
 * having run fewer than SHORT periods says threads here are short: as
 * it ends, if pthread_create() made it (_mon_ring_thread_end()), or
 * when the drainer reads its counts (short_ends()).  Then the next
 * pthread_create() makes the clock fine before the new thread can
 * inherit anything, or the drainer does if none comes first
 * (refine()).  A long thread spread thin over many CPUs loses its time
 * on a CPU where it never reached a period without asking.  The
 * starting thread's last coarse period is lost there, as is the end of
 * its run under either clock: the kernel tells no count for a thread
 * that made the events.
 *
 * The drainer is created before the events are opened, so it inherits
 * none and its own few microseconds a drain are never in the profile.
 * Drains are serialised by one mutex: by the drainer, before the
 * histogram changes, at stop, and in refine() on the thread that makes
 * a thread.  None runs in signal context.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mon_private.h"

#define RINGSECS	2	/* a ring holds 1/RINGSECS s of samples, */
#define RINGMAX		64	/* within 2..RINGMAX data pages, */
#define DRAINS		4	/* and is drained DRAINS times as it fills */
#define DRAINER_STACK	(256u << 10)
#define RECLEN		24	/* a sample: header, pc, pid and tid */
#define STACKLEN	128	/* and a stack of 11 frames, for sizing */
#define STACKWORST	(48 + 8 * (_MON_STACKMAX + 2))	/* for draining, */
#define USTACK		(8 * _MON_CALLWORDS)	/* with the user stack's
						   bytes copied */
#define FINE		250000	/* ns, the kernel's period at most */
#define NSEEN		256	/* threads' offsets remembered per ring */
#define KERNELPC	UINT64_MAX	/* a last sample's place: in the kernel */
#define NSYSPC		64	/* pcs a drain remembers at_syscall() of */
#define ARMWAIT		FINE	/* ns a fork child's drainer lets it exec in */
#define SHORT		8	/* periods of CPU: fewer is a short thread */
#define REFINERINGS	256	/* rings refine() may open, at most */
#define NENDS		64	/* threads' ends a drain adds up */
#define NJUDGED		1024	/* ends judged by their own threads, kept */
#define COARSEDRAIN	20000000	/* ns between drains at most, coarse */
#define PENDWORDS	32768	/* samples drained off the drainer, queued */

struct ring {
	struct perf_event_mmap_page *m;
	pid_t		 tid;		/* the thread whose events feed it */
};

/* A thread's fine samples on one ring. */
struct seen {
	pid_t		 tid;
	uint32_t	 acc;		/* since the last kept, from an offset */
	uint64_t	 lastpc;	/* the last one's pc */
};

static pthread_mutex_t	drainlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t	makelock = PTHREAD_RWLOCK_INITIALIZER;
/* This thread is in libmon's pthread_create() or fork handlers: a nested
   call from a handler does nothing. */
static __thread int	making __attribute__((tls_model("initial-exec")));
/* This thread holds makelock to read, as a maker (MAKE_HELD); or did when
   a handler forked, and is the child (MAKE_RENEWED).  Changed only with
   every signal blocked, as making is in a maker. */
static __thread int	makeheld __attribute__((tls_model("initial-exec")));
static __thread int	makecancel __attribute__((tls_model("initial-exec")));
static __thread int	forkheld __attribute__((tls_model("initial-exec")));
/* This thread is the drainer: it alone gives samples to the handles. */
static __thread int	indrainer __attribute__((tls_model("initial-exec")));
static struct _mon_worker drainer;
static _Atomic pid_t	writer_tid;	/* writes the profile: _mon_ring_writing() */
static struct ring	*rings;		/* nring of cap, from mmap */
static size_t		 nring, cap, capbytes;
static size_t		 pagesz, ringlen;
static uint64_t		 period;
static _Atomic uint64_t	 drain_ns;	/* the drainer's sleep */
static uint64_t		 fine;		/* the kernel's period, period / thin */
static uint32_t		 thin;		/* its samples a period */
static _Atomic int	 coarse;	/* thin 1: sampled at the period */
static _Atomic int	 wantfine;	/* WANT_* */
static _Atomic uint32_t	 rate;		/* MONX_RUN_COARSE, _REFINED, ... */
static struct { pid_t tid; uint64_t ns; } ends[NENDS];	/* a drain's */
static size_t		 nends;
static _Atomic pid_t	 judged[NJUDGED];	/* the latest, in turn */
static _Atomic uint32_t	 njudged;
static struct seen	*seen;		/* NSEEN a ring, as rings */
static size_t		 seenbytes;
static uint64_t		 rng;		/* drainer's; under drainlock */
static uint64_t		 lostfine;	/* fine samples the kernel dropped */
static int		 chains;	/* samples carry call chains */
static int		 kernel;	/* kernel mode is sampled too */
static int		 ncpu;
static uint32_t		 unsampled;	/* threads that got no events */
static _Atomic int	 childarm;	/* a fork child's events: ARM_* */
static pid_t		 childtid;	/* its thread, whose they are */

static int	gone(pid_t, int);
static void	settle(void);

/* Whether to make a coarse clock fine (wantfine). */
#define WANT_NONE	0	/* no thread was short yet */
#define WANT_ASKED	1	/* one was: refine() at the next creation */
#define WANT_DONE	2	/* refined, or it could not be */

/* makeheld. */
#define MAKE_HELD	1	/* makelock held to read */
#define MAKE_RENEWED	2	/* held in the parent; renewed, free, here */

/* A fork child's events (childarm). */
#define ARM_DONE	0	/* opened, tried, or none to open */
#define ARM_PENDING	1	/* to be opened: by the drainer, or
				   before a thread is created */
#define ARM_DROPPED	2	/* given up by an exec */
/*
 * Samples another thread drained (refine() by a maker, a drain as the
 * histogram changes, a snapshot), for the drainer to give the handles
 * (mon_profiler(3c): never in the program's threads): tid, depth, then
 * the pcs, each.  Under drainlock; past PENDWORDS they are not given.
 */
static uintptr_t	 pend[PENDWORDS];
static size_t		 npend;
static uint64_t		 syspc[NSYSPC];	/* pc << 1 | at a syscall; under
					   drainlock, emptied each drain */

/*
 * The kernel's period -- fine (at most FINE ns) or the period itself --
 * and the sizes of the rings and their draining for it.
 */
static void
set_rate(int fineness)
{
	uint64_t want, samples, ns;
	size_t n;

	thin = fineness && period > FINE ? (uint32_t)(period / FINE) : 1;
	fine = period / thin;
	pagesz = (size_t)sysconf(_SC_PAGESIZE);
	want = 1000000000u / fine / RINGSECS *
	    (chains ? RECLEN + STACKLEN + USTACK : RECLEN);
	for (n = 2; n < RINGMAX && n * pagesz < want; n *= 2)
		continue;
	ringlen = (n + 1) * pagesz;
	samples = n * pagesz / (chains ? STACKWORST + USTACK : RECLEN);
	ns = samples / DRAINS * fine;
	if (ns > 250000000u)
		ns = 250000000u;
	/* Coarse, the drains are what sees short threads end. */
	if (!fineness && ns > COARSEDRAIN)
		ns = COARSEDRAIN;
	atomic_store_explicit(&drain_ns, ns, memory_order_relaxed);
}

/*
 * Thread tid's task-clock on one CPU, its samples into a ring of its
 * own; the descriptor is closed before returning.  1 when the CPU is
 * offline (nothing to do), 0, or -1.
 */
static int
open_one(pid_t tid, int cpu, int inherit, struct ring *r)
{
	struct perf_event_attr a;
	void *p;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = fine;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	if (chains) {
		/* And the words at the stack pointer: stacks.c says why. */
		a.sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER;
		a.sample_max_stack = (uint16_t)_mon_stack_limit;
		a.sample_stack_user = USTACK;
		a.exclude_callchain_kernel = 1;
	}
	a.exclude_kernel = !kernel;
	a.exclude_hv = 1;
	a.inherit = inherit;
	a.inherit_thread = inherit;
	a.inherit_stat = inherit;	/* a READ record as a thread ends */
	a.remove_on_exec = 1;
	/* Nobody waits on the ring: ask for as few wake-ups as can be. */
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(ringlen - pagesz);
	fd = (int)syscall(SYS_perf_event_open, &a, tid, cpu, -1,
	    PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno == ENODEV ? 1 : -1;
	p = mmap(NULL, ringlen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	(void)close(fd);
	if (p == MAP_FAILED)
		return -1;
	r->m = p;
	r->tid = tid;
	return 0;
}

/*
 * Events on every CPU for thread tid (inherit: for the threads it
 * creates too).  All or nothing; 0, or -1 with errno set.
 */
static int
arm(pid_t tid, int inherit)
{
	size_t first;
	int cpu, r, err;

	first = nring;
	err = ENODEV;
	for (cpu = 0; cpu < ncpu; cpu++) {
		if (nring == cap) {
			err = ENOMEM;
			goto fail;
		}
		if ((r = open_one(tid, cpu, inherit, &rings[nring])) < 0) {
			err = errno;
			goto fail;
		}
		if (r == 0)
			nring++;
	}
	if (nring > first)
		return 0;
fail:
	while (nring > first)
		(void)munmap(rings[--nring].m, ringlen);
	errno = err;
	return -1;
}

/*
 * Thread tid's events, inherited by the threads it creates, as the run
 * samples (kernel), or in user mode alone where kernel mode is refused
 * (EACCES, EPERM).  A fork child asks again: a server that dropped its
 * privileges before forking its workers is refused there what its start
 * was given, and its children would otherwise go unsampled.  0 or -1.
 */
static int
arm_thread(pid_t tid)
{
	if (arm(tid, 1) == 0)
		return 0;
	if (!kernel || (errno != EACCES && errno != EPERM))
		return -1;
	kernel = 0;
	return arm(tid, 1);
}

/*
 * The starting thread's events, sampling kernel mode too if this user
 * may: perf_event_paranoid 2 and above refuses it to the unprivileged
 * (EACCES), who then sample user mode alone, as prof is told.  Decided
 * here, once a run: the threads armed later do as these, and a fork
 * child too unless it is refused (arm_thread()).  0 or -1.
 */
static int
arm_first(void)
{
	kernel = 1;
	return arm_thread(_mon_gettid());
}

/*
 * A fork child's events, if they are still to be opened: by the drainer
 * as it starts, or by the child's thread before it creates another,
 * whichever comes first.  A thread that cannot have them is counted as
 * unsampled.  Caller holds drainlock.
 */
static void
arm_pending(void)
{
	int want;

	want = ARM_PENDING;
	if (atomic_compare_exchange_strong(&childarm, &want, ARM_DONE) &&
	    arm_thread(childtid) != 0 && !gone(childtid, errno))
		unsampled++;
}

/*
 * Give a sample to the handles: now on the drainer, else queued for it.
 * Caller holds drainlock.
 */
static void
give(pid_t tid, const uintptr_t *pcs, uint32_t depth)
{
	if (indrainer) {
		_mon_prof_sample(tid, pcs, depth);
		return;
	}
	if (!_mon_prof_any() || npend + 2 + depth > PENDWORDS)
		return;
	pend[npend++] = (uintptr_t)tid;
	pend[npend++] = depth;
	memcpy(pend + npend, pcs, depth * sizeof(*pcs));
	npend += depth;
}

/* The drainer gives the samples others queued.  Caller holds drainlock. */
static void
give_pending(void)
{
	size_t i;

	for (i = 0; i < npend; i += 2 + pend[i + 1])
		_mon_prof_sample((pid_t)pend[i], pend + i + 2,
		    (uint32_t)pend[i + 1]);
	npend = 0;
}

/* The next 8 bytes of a ring's data, which may wrap. */
static uint64_t
ring_u64(const unsigned char *data, uint64_t size, uint64_t at)
{
	uint64_t v;

	memcpy(&v, data + (at & (size - 1)), sizeof(v));
	return v;
}

/*
 * The user stack that follows a sample's chain at offset at: size, its
 * bytes, the bytes the kernel could copy (dyn_size), into w; the words
 * copied.
 */
static size_t
user_words(const unsigned char *data, uint64_t size, uint64_t tail,
    uint32_t len, uint64_t at, uint64_t *w)
{
	uint64_t n, dyn, i;

	if (at + 8 > len || (n = ring_u64(data, size, tail + at)) == 0 ||
	    n % 8 != 0 || n > USTACK || at + 16 + n > len)
		return 0;
	dyn = ring_u64(data, size, tail + at + 8 + n);
	if (dyn < n)
		n = dyn & ~(uint64_t)7;
	for (i = 0; i < n / 8; i++)
		w[i] = ring_u64(data, size, tail + at + 8 + 8 * i);
	return (size_t)(n / 8);
}

/*
 * Is user pc just after a syscall instruction?  Asked of every sample,
 * and the answer costs a process_vm_readv(): a drain remembers it for
 * the pcs it met, most samples falling on a few, and forgets it at its
 * end, code being unloaded and loaded between two.  Caller holds
 * drainlock.
 */
static int
at_syscall(uintptr_t pc)
{
	uint64_t *c = &syspc[(pc ^ pc >> 7) % NSYSPC];
	int r;

	if (*c != 0 && *c >> 1 == pc)
		return (int)(*c & 1);
	r = _mon_stack_syscall(pc);
	*c = (uint64_t)pc << 1 | (uint64_t)r;
	return r;
}

/*
 * The callers the frame-pointer walk misses, from the user stack
 * w[0..n) of a sample whose walk gave pcs[0..depth), into out (room for
 * _MON_CALLERS); how many.  At a system call, in the kernel or just back
 * from it, wrappers that may have a frame without a frame pointer, one
 * calling the next: stacks.c searches a few words up for them.
 * Elsewhere (a fault or an interrupt too), a function with no frame yet
 * or any more: the word at the stack pointer.
 */
static size_t
missed_callers(const uintptr_t *pcs, uint32_t depth, const uint64_t *w,
    size_t n, uintptr_t *out)
{
	if (depth == 0 || n == 0)
		return 0;
	if (at_syscall(pcs[0]))
		return _mon_stack_callers(w, n, pcs[0], depth > 1 ? pcs[1] : 0,
		    out, _MON_CALLERS);
	if (!_mon_stack_leafret(w[0]))
		return 0;
	out[0] = w[0];
	return 1;
}

/*
 * The sample of len bytes at tail: its pc into the histogram, its user
 * call chain (after the pc: nr, then nr entries, context markers among
 * them) into the stacks.  One taken in kernel mode (inkernel) has the
 * kernel's pc, which no bin holds: it is counted apart, and its stack
 * is the user one, which begins where the thread entered the kernel
 * (the instruction after its syscall, or the one that faulted).  The
 * stack words that follow are the user ones too -- the kernel copies
 * the user stack from the registers saved at the entry -- so that the
 * caller of a system call wrapper is put back as for a sample in user
 * mode.  Without a user pc there is no stack.
 */
static void
sample(const unsigned char *data, uint64_t size, uint64_t tail,
    uint32_t len, int inkernel, pid_t tid)
{
	uintptr_t pcs[_MON_STACKMAX + 1 + _MON_CALLERS], callers[_MON_CALLERS];
	uint64_t nr, i, v, w[USTACK / 8];
	uint32_t depth, flags, slot;
	size_t nw, nc;

	pcs[0] = (uintptr_t)ring_u64(data, size, tail + 8);
	if (inkernel ? !_mon_sample_kernel(1) : !_mon_sample(pcs[0], 1))
		return;
	if (!chains) {
		if (!inkernel)
			give(tid, pcs, 1);
		return;
	}
	nr = len >= 32 ? ring_u64(data, size, tail + 24) : 0;
	if (nr > (len - 32) / 8)
		nr = 0;		/* cannot be: keep the pc alone */
	nw = user_words(data, size, tail, len, 32 + 8 * nr, w);
	depth = 0;
	for (i = 0; i < nr && depth <= _MON_STACKMAX; i++) {
		v = ring_u64(data, size, tail + 32 + 8 * i);
		if (v >= (uint64_t)PERF_CONTEXT_MAX)
			continue;	/* a context marker */
		if (v == 0 && depth > 0)
			break;		/* a null return address: no caller */
		pcs[depth++] = (uintptr_t)v;
	}
	if ((nc = missed_callers(pcs, depth, w, nw, callers)) > 0) {
		memmove(pcs + 1 + nc, pcs + 1, (depth - 1) * sizeof(*pcs));
		memcpy(pcs + 1, callers, nc * sizeof(*pcs));
		depth += (uint32_t)nc;
	}
	if (depth == 0 && inkernel) {
		_mon_stacks_lose(1);
		return;
	}
	if (depth == 0)
		depth = 1;	/* no chain: the pc alone */
	give(tid, pcs, depth);
	flags = depth >= _mon_stack_limit ? MONX_STK_CUT : 0;
	if (inkernel)
		flags |= MONX_STK_KERNEL;
	slot = _mon_stack_add(pcs, depth > _mon_stack_limit ?
	    _mon_stack_limit : depth, flags, 1);
	/* The wall sampler takes a running thread's stack from here. */
	if (atomic_load_explicit(&_mon_wall_on, memory_order_relaxed))
		_mon_stack_mark((pid_t)(ring_u64(data, size, tail + 16) >> 32),
		    slot);
}

/*
 * A sample of the thread that writes the profile, taken while it writes:
 * libmon's time, wherever it found the thread (the C library's code that
 * writes, its system calls), counted at the start of libmon's code with
 * a stack of that alone, as the timer clocks' handler counts them.
 */
static void
self_sample(void)
{
	uintptr_t pc = (uintptr_t)__start_libmon_text;

	if (_mon_sample(pc, 1) && chains)
		_mon_stack_add(&pc, 1, 0, 1);
}

/* The drainer's random numbers (xorshift64*).  Caller holds drainlock. */
static uint32_t
draw(void)
{
	return (uint32_t)(_mon_random(&rng) >> 32);
}

/* The place of thread tid on ring k, its own or another's. */
static struct seen *
seen_slot(size_t k, pid_t tid)
{
	return &seen[k * NSEEN + ((uint32_t)tid * 2654435761u >> 22) % NSEEN];
}

/* Thread tid's entry of ring k; a thread first seen gets a random offset. */
static struct seen *
seen_of(size_t k, pid_t tid)
{
	struct seen *s;

	s = seen_slot(k, tid);
	if (s->tid != tid) {
		s->tid = tid;
		s->acc = draw() % thin;
		s->lastpc = 0;
	}
	return s;
}

/*
 * Keep this fine sample, at pc, of thread tid on ring k?  One in thin,
 * from the thread's offset there: (m / thin) in expectation for m fine
 * samples.  Caller holds drainlock.
 */
static int
thin_keep(size_t k, pid_t tid, uint64_t pc)
{
	struct seen *s;

	s = seen_of(k, tid);
	s->lastpc = pc;
	if (++s->acc < thin)
		return 0;
	s->acc = 0;
	return 1;
}

/*
 * Under a coarse clock, thread tid ended having run ns on a CPU: add it
 * up with its other CPUs', whose counts the kernel writes as it ends,
 * and that one drain nearly always reads together (short_ends()).
 */
static void
ended(pid_t tid, uint64_t ns)
{
	size_t i;

	for (i = 0; i < nends && ends[i].tid != tid; i++)
		continue;
	if (i == nends) {
		if (nends == NENDS)
			return;
		ends[nends].tid = tid;
		ends[nends++].ns = 0;
	}
	ends[i].ns += ns;
}

/* Did thread tid judge itself as it ended (_mon_ring_thread_end())? */
static int
was_judged(pid_t tid)
{
	unsigned int i;

	for (i = 0; i < NJUDGED; i++)
		if (atomic_load_explicit(&judged[i], memory_order_relaxed) ==
		    tid)
			return 1;
	return 0;
}

/*
 * Did a thread that this drain saw end run fewer than SHORT periods?  A
 * thread made other than by pthread_create() (the C library's, a
 * clone()) asks for a fine clock so; those made by it judged themselves
 * as they ended, on their own CPU clocks (_mon_ring_thread_end()), and
 * are passed over: a drain that reads the rings while such a thread
 * ends can find one CPU's count before the kernel writes it and read it
 * alone at the next drain, a few milliseconds of a long thread, or none.
 * Caller holds drainlock.
 */
static void
short_ends(void)
{
	size_t i;
	int want;

	for (i = 0; i < nends; i++)
		if (ends[i].ns < SHORT * period && !was_judged(ends[i].tid)) {
			want = WANT_NONE;
			(void)atomic_compare_exchange_strong(&wantfine, &want,
			    WANT_ASKED);
			break;
		}
	nends = 0;
}

/*
 * Thread tid ended, having run count ns on ring k's CPU.  What it ran
 * after its last fine sample is kept as a sample with the chance of its
 * share of a period, at that sample's place (no stack; in the kernel,
 * if it was), so that the thread keeps what its CPU time is worth in
 * expectation.  Caller holds drainlock.
 */
static void
thread_ends(size_t k, pid_t tid, uint64_t count)
{
	struct seen *s;
	uint64_t rest;

	if (atomic_load_explicit(&coarse, memory_order_relaxed))
		ended(tid, count);
	s = seen_slot(k, tid);
	if (s->tid != tid)
		return;		/* forgotten for another: unsampled */
	rest = count % fine;
	if (s->lastpc != 0 &&
	    ((uint64_t)draw() * period) >> 32 < rest &&
	    (s->lastpc == KERNELPC ? _mon_sample_kernel(1) :
	    _mon_sample((uintptr_t)s->lastpc, 1)) && chains)
		_mon_stacks_lose(1);
	s->tid = 0;
}

/*
 * Move what the kernel has written to ring k into the histogram and
 * the stacks.  Records are 8-byte aligned in a power-of-two ring, so no
 * 8-byte field straddles its end.  Caller holds drainlock.
 */
static void
drain_ring(size_t k)
{
	struct perf_event_mmap_page *m = rings[k].m;
	const unsigned char *data;
	uint64_t head, tail, size, hdr;
	uint32_t type, len;
	pid_t tid, writing;
	int inkernel;

	memset(syspc, 0, sizeof(syspc));
	writing = atomic_load_explicit(&writer_tid, memory_order_acquire);
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
		inkernel = ((hdr >> 32) & PERF_RECORD_MISC_CPUMODE_MASK) ==
		    PERF_RECORD_MISC_KERNEL;
		tid = (pid_t)(ring_u64(data, size, tail + 16) >> 32);
		if (type == PERF_RECORD_SAMPLE && len >= 24 &&
		    thin_keep(k, tid, inkernel ? KERNELPC :
		    ring_u64(data, size, tail + 8))) {
			if (tid == writing && writing != 0 &&
			    __start_libmon_text != NULL)
				self_sample();
			else
				sample(data, size, tail, len, inkernel, tid);
		} else if (type == PERF_RECORD_READ && len >= 24)
			thread_ends(k,
			    (pid_t)(ring_u64(data, size, tail + 8) >> 32),
			    ring_u64(data, size, tail + 16));
		else if (type == PERF_RECORD_LOST && len >= 24) {
			/* Counted in periods, as the samples kept are. */
			lostfine += ring_u64(data, size, tail + 16);
			_mon_stats_dropped(lostfine / thin);
			lostfine %= thin;
		}
		tail += len;
	}
	__atomic_store_n(&m->data_tail, tail, __ATOMIC_RELEASE);
}

/*
 * The calling thread writes the profile from now on (on 1), or no longer
 * (0): its samples meanwhile are libmon's (self_sample()).  Those it took
 * before are drained first, so that they stay the program's; those it
 * took while writing are drained before it is let go.  Each call with 1
 * has one with 0 (lifecycle.c), by the same thread.
 */
void
_mon_ring_writing(int on)
{
	_mon_ring_drain();
	atomic_store_explicit(&writer_tid, on ? _mon_gettid() : 0,
	    memory_order_release);
}

/* Empty every ring into the current histogram.  Not for signal context. */
void
_mon_ring_drain(void)
{
	size_t i;

	pthread_mutex_lock(&drainlock);
	if (indrainer)
		give_pending();
	for (i = 0; i < nring; i++)
		drain_ring(i);
	short_ends();
	pthread_mutex_unlock(&drainlock);
}

/* The CLOCK_MONOTONIC time ns from now. */
static struct timespec
after(uint64_t ns)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec += (long)(ns % 1000000000u);
	t.tv_sec += (time_t)(ns / 1000000000u) + t.tv_nsec / 1000000000;
	t.tv_nsec %= 1000000000;
	return t;
}

/*
 * In a fork child the first wait is ARMWAIT, after which the child's
 * events are opened (arm_pending()) unless an exec or a new thread came
 * first; then one drain_ns after another, or sooner when kicked (the
 * clock made fine fills its rings faster).
 */
static void *
drain_loop(void *unused)
{
	struct timespec t;
	uint64_t wait;
	int first;

	(void)unused;
	_mon_worker_begin(&drainer);
	indrainer = 1;
	first = atomic_load(&childarm) == ARM_PENDING;
	for (;;) {
		wait = first ? ARMWAIT :
		    atomic_load_explicit(&drain_ns, memory_order_relaxed);
		t = after(wait);
		if (!_mon_worker_sleep(&drainer, &t))
			break;
		if (first) {
			pthread_mutex_lock(&drainlock);
			arm_pending();
			pthread_mutex_unlock(&drainlock);
			first = 0;
		}
		/* Objects dlopen'd since: known to the stack walks. */
		if (chains)
			_mon_texts_update();
		_mon_ring_drain();
		/* A short thread ended and none has been made since. */
		if (atomic_load(&wantfine) == WANT_ASKED)
			settle();
		/* Its CPU time is libmon's, not the program's. */
		_mon_stats_own(_MON_OWN_DRAINER, atomic_load(&drainer.tid));
	}
	/* Stopped: what program threads drained goes to the handles. */
	pthread_mutex_lock(&drainlock);
	give_pending();
	pthread_mutex_unlock(&drainlock);
	_mon_worker_end();
}

/*
 * The drainer is started before any event is opened, so it inherits none
 * whether it has run yet or not; if wait, once its id is known (only a
 * scan of the other threads needs it: a fork child has none, and spares
 * the switch).
 */
static int
start_drainer(int wait)
{
	return _mon_worker_start(&drainer, DRAINER_STACK, drain_loop, wait);
}

/*
 * Give thread t, which exists now, events of its own; count it if it
 * cannot have them.  The drainer is not profiled.
 */
static void
arm_other(pid_t t, void *unused)
{
	(void)unused;
	if (t != atomic_load(&drainer.tid) && arm(t, 1) != 0 &&
	    !gone(t, errno))
		unsampled++;
}

/* Count a thread of the program's other than the caller. */
static void
count_other(pid_t t, void *n)
{
	(void)t;
	(*(size_t *)n)++;
}

/*
 * Room in the table of rings (and their threads' offsets) for n more;
 * 0, or -1 with the tables as they were.  Caller holds drainlock.
 */
static int
room(size_t n)
{
	struct ring *r;
	struct seen *z;
	size_t ncap, rb, zb;

	if (nring + n <= cap)
		return 0;
	ncap = nring + n + 8 * (size_t)ncpu;
	rb = ncap * sizeof(*r);
	zb = ncap * NSEEN * sizeof(*z);
	if ((r = _mon_map(rb)) == NULL)
		return -1;
	if ((z = _mon_map(zb)) == NULL) {
		_mon_unmap(r, rb);
		return -1;
	}
	_mon_wipe_on_fork(z, zb);
	memcpy(r, rings, nring * sizeof(*r));
	memcpy(z, seen, nring * NSEEN * sizeof(*z));
	_mon_unmap(rings, capbytes);
	_mon_unmap(seen, seenbytes);
	rings = r;
	seen = z;
	cap = ncap;
	capbytes = rb;
	seenbytes = zb;
	return 0;
}

/*
 * Did thread t end, or is it ending (the leader of a process whose main
 * thread called pthread_exit() stays listed as a zombie)?  Asked when
 * its events could not be opened, with the errno that said why: ESRCH
 * says so too, for a thread past the end of its events but not yet a
 * zombie, which still takes signals and reads as running (such as one
 * pthread_join() has just seen end).  Where its state cannot be read
 * (no descriptor left, say), it is gone only if it takes no signal.
 */
static int
gone(pid_t t, int err)
{
	static const char dir[] = "/proc/self/task/";
	char path[64], buf[256], *p;
	ssize_t n;
	size_t k;
	int fd;

	if (err == ESRCH || !_mon_alive(t))
		return 1;
	memcpy(path, dir, sizeof(dir) - 1);
	k = sizeof(dir) - 1 + _mon_digits(path + sizeof(dir) - 1, (uint64_t)t,
	    10);
	memcpy(path + k, "/stat", sizeof("/stat"));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	(void)close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p != NULL && (p[2] == 'Z' || p[2] == 'X');
}

/* Give thread t, one of the program's, fine events; *failed if it cannot. */
static void
arm_fine(pid_t t, void *failed)
{
	if (t != atomic_load(&drainer.tid) && arm(t, 1) != 0 &&
	    !gone(t, errno))
		*(int *)failed = 1;
}

/*
 * A short thread ended: make the clock fine, by the next thread that
 * makes one (before the new one can inherit anything) or the drainer,
 * whichever comes first.  The coarse rings are drained; the calling
 * thread, if it is the program's, and every other one of the program's
 * get events of their own at the fine period, which the threads made
 * from then on inherit; then the coarse rings are unmapped unread, which
 * ends their events and those inherited from them.  Samples taken by
 * both in between are the fine ones' alone.  What each thread alive ran
 * since its last coarse sample on a CPU is lost (half a period in
 * expectation), and so is a thread made meanwhile by one not yet given
 * fine events, if the scan of the threads missed it: libmon's own
 * pthread_create() waits on drainlock while the clock is to be made
 * fine, but a thread another makes (the C library's for SIGEV_THREAD
 * timers, a clone()) may be born then, as one made while the clock
 * starts may.
 *
 * Every live thread needs rings of its own, which the locked memory of
 * a user without privilege does not stretch to for many: where the live
 * threads would need more than REFINERINGS rings, or one of them cannot
 * have its own (locked memory, descriptors), the fine rings are given
 * up and the clock stays coarse for the rest of the run
 * (MONX_RUN_CROWDED), losing nothing more.  A fork child whose events
 * are still to be opened only changes the period.  Caller holds
 * drainlock.
 */
static void
refine(void)
{
	size_t i, old, oldlen, others;
	pid_t me;
	int failed;

	if (!atomic_load(&coarse) || rings == NULL)
		goto done;	/* fine already, or stopped */
	if (nring == 0) {
		set_rate(1);
		atomic_fetch_or(&rate, MONX_RUN_REFINED);
		atomic_store(&coarse, 0);
		goto done;
	}
	others = 0;
	(void)_mon_threads(count_other, &others);
	old = nring;
	if ((others + 1) * (size_t)ncpu > REFINERINGS ||
	    room((others + 1) * (size_t)ncpu) != 0)
		goto crowded;
	for (i = 0; i < old; i++)
		drain_ring(i);
	oldlen = ringlen;
	set_rate(1);
	me = _mon_gettid();
	failed = 0;
	if (me != atomic_load(&drainer.tid) && arm(me, 1) != 0)
		failed = 1;
	if (!failed)
		(void)_mon_threads(arm_fine, &failed);
	if (failed) {
		while (nring > old)
			(void)munmap(rings[--nring].m, ringlen);
		set_rate(0);
		goto crowded;
	}
	for (i = 0; i < old; i++)
		(void)munmap(rings[i].m, oldlen);
	memmove(rings, rings + old, (nring - old) * sizeof(*rings));
	nring -= old;
	_mon_rezero(seen, seenbytes);
	lostfine = 0;
	atomic_fetch_or(&rate, MONX_RUN_REFINED);
	atomic_store(&coarse, 0);
	if (me != atomic_load(&drainer.tid))
		_mon_worker_kick(&drainer);
	goto done;
crowded:
	atomic_fetch_or(&rate, MONX_RUN_CROWDED);
done:
	/* Last: a thread made meanwhile waits on drainlock till now. */
	atomic_store(&wantfine, WANT_DONE);
}

/*
 * Make the clock fine if a short thread asked, and open a fork child's
 * events if they are still to be opened: by a thread about to make one,
 * or by the drainer.  makelock is held to write, so that no thread
 * libmon's pthread_create() is making is missed.
 */
static void
settle(void)
{
	pthread_rwlock_wrlock(&makelock);
	pthread_mutex_lock(&drainlock);
	if (atomic_load(&wantfine) == WANT_ASKED)
		refine();
	arm_pending();
	pthread_mutex_unlock(&drainlock);
	pthread_rwlock_unlock(&makelock);
}

/*
 * How the kernel's period starts, for a process whose one thread is the
 * calling one save others: coarse if none, the period is over FINE and
 * the wall sampler (which takes running threads' stacks from these
 * samples) is off.
 */
static void
start_rate(size_t others)
{
	atomic_store(&coarse, others == 0 && period > FINE &&
	    !atomic_load_explicit(&_mon_wall_on, memory_order_relaxed));
	atomic_store(&wantfine, WANT_NONE);
	atomic_store(&rate, atomic_load(&coarse) ? MONX_RUN_COARSE : 0);
	nends = 0;
	lostfine = 0;
	set_rate(!atomic_load(&coarse));
}

/* The CPUs there may be. */
static int
ncpu_conf(void)
{
	long n;

	return (n = sysconf(_SC_NPROCESSORS_CONF)) < 1 ? 1 : (int)n;
}

/*
 * Start the perf clock at period ns for the calling thread, the threads
 * it will create and those that exist; 0, or -1 with nothing left
 * behind (the caller then falls back to a clock that signals).
 */
int
_mon_ring_start(uint64_t ns)
{
	size_t len, others;

	period = ns;
	others = 0;
	len = (size_t)ncpu_conf() * (_mon_threads(count_other, &others) + 8) *
	    sizeof(struct ring);
	rng = _mon_cputime() ^ ((uint64_t)_mon_gettid() << 32) ^
	    0x9e3779b97f4a7c15ULL;
	chains = _mon_stack_limit > 0;
	start_rate(others);
	ncpu = ncpu_conf();
	unsampled = 0;
	nring = 0;
	if ((rings = _mon_map(len)) == NULL)
		return -1;
	capbytes = len;
	cap = len / sizeof(struct ring);
	seenbytes = cap * NSEEN * sizeof(struct seen);
	if ((seen = _mon_map(seenbytes)) == NULL || start_drainer(1) != 0)
		goto fail;
	/* A fork child forgets the offsets: it starts without them. */
	_mon_wipe_on_fork(seen, seenbytes);
	if (arm_first() != 0) {
		/* A kernel that walks no user stacks may still sample. */
		chains = 0;
		set_rate(!atomic_load(&coarse));
		if (!_mon_stack_limit || arm_first() != 0) {
			_mon_worker_stop(&drainer);
			goto fail;
		}
		_mon_stack_limit = 0;
	}
	(void)_mon_threads(arm_other, NULL);
	return 0;
fail:
	_mon_unmap(seen, seenbytes);
	seen = NULL;
	_mon_unmap(rings, capbytes);
	rings = NULL;
	cap = 0;
	return -1;
}

/*
 * Stop: the drainer ends, every ring is emptied one last time and
 * unmapped, which ends its events.
 */
void
_mon_ring_stop(void)
{
	size_t i;

	if (rings == NULL)
		return;
	/* A fork child that stops before its events are opened needs none. */
	atomic_store(&childarm, ARM_DONE);
	atomic_store(&coarse, 0);
	atomic_store(&wantfine, WANT_DONE);
	_mon_worker_stop(&drainer);
	pthread_mutex_lock(&drainlock);
	for (i = 0; i < nring; i++) {
		drain_ring(i);
		(void)munmap(rings[i].m, ringlen);
	}
	nring = 0;
	npend = 0;	/* drained here: no drainer left to give them */
	pthread_mutex_unlock(&drainlock);
	_mon_unmap(seen, seenbytes);
	seen = NULL;
	_mon_unmap(rings, capbytes);
	rings = NULL;
	cap = 0;
}

/*
 * The process that armed the clock forks.  prepare holds makelock and
 * drainlock so that the child's copy of the table is not mid-drain nor
 * mid-refine(); parent lets go.
 */
void
_mon_ring_fork_prepare(void)
{
	/*
	 * A fork from a handler within this thread's own making: a maker
	 * holds makelock to read, which it may (drainlock after, the
	 * order settle() takes them in); a fork from an atfork handler,
	 * within this fork's own prepare, finds both held already.
	 */
	if (making) {
		if ((forkheld = makeheld == MAKE_HELD ? 2 : 0) != 0)
			pthread_mutex_lock(&drainlock);
		return;
	}
	forkheld = 1;
	making = 1;
	pthread_rwlock_wrlock(&makelock);
	pthread_mutex_lock(&drainlock);
}

void
_mon_ring_fork_parent(void)
{
	if (forkheld == 0)
		return;
	pthread_mutex_unlock(&drainlock);
	if (forkheld == 2)
		return;
	pthread_rwlock_unlock(&makelock);
	making = 0;
}

/*
 * The child's locks, first of all its fork handling: its snapper, which
 * starts before its clock, may drain at once.  A child forked by a
 * handler that interrupted its thread's making of a thread goes on with
 * that making when the handler returns, making still set: the read lock
 * it held is not held here, and it must not let it go (MAKE_RENEWED).
 */
void
_mon_ring_fork_locks(void)
{
	_mon_renew_mutex(&drainlock);
	_mon_renew_rwlock(&makelock);
	if (forkheld == 1)
		making = 0;
	else if (makeheld == MAKE_HELD)
		makeheld = MAKE_RENEWED;
}

/*
 * In the child no ring is mapped (the kernel does not copy them) and no
 * drainer runs: forget the parent's and start afresh, the events left
 * to the child's drainer (arm_pending()).  0 or -1.
 */
int
_mon_ring_fork_child(void)
{
	nring = 0;
	npend = 0;	/* the parent's threads' */
	if (rings == NULL)
		return -1;
	unsampled = 0;
	/* The parent's threads' offsets mean nothing here. */
	_mon_rezero(seen, seenbytes);
	childtid = _mon_gettid();
	rng ^= (uint64_t)childtid << 17;
	/* One thread again: coarse, until a short one ends. */
	start_rate(0);
	atomic_store(&childarm, ARM_PENDING);
	if (start_drainer(0) != 0) {
		atomic_store(&childarm, ARM_DONE);
		_mon_unmap(seen, seenbytes);
		seen = NULL;
		_mon_unmap(rings, capbytes);
		rings = NULL;
		return -1;
	}
	return 0;
}

/*
 * A thread is about to be created: the clock is made fine if a short
 * thread asked, and a fork child's events are opened, if the drainer
 * has not yet, so that the new thread inherits them.  Makers hold
 * makelock to read until the thread is made (_mon_ring_thread_made()),
 * so that refine() by the drainer, which holds it to write, finds every
 * thread one of them made; they cannot be cancelled meanwhile (a close()
 * in arm() is a cancellation point, and the locks would stay held).  A
 * signal handler that makes a thread while its thread is in here, or an
 * atfork handler while fork holds the locks, does nothing (making).  All
 * but the making itself runs with every signal blocked, so that a
 * handler that forks finds making and makeheld saying what this thread
 * holds (_mon_ring_fork_prepare(), _mon_ring_fork_locks()).  Two changes
 * of the signal mask, a read lock and three loads when there is nothing
 * to do (and two more changes of the mask when the thread is made); 1 if
 * the lock is held, 0 if not.
 */
int
_mon_ring_thread_create(void)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (making) {
		/* In a handler, within this thread's own. */
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return 0;
	}
	making = 1;
	(void)pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &makecancel);
	if (atomic_load(&childarm) == ARM_PENDING ||
	    atomic_load(&wantfine) == WANT_ASKED)
		settle();
	pthread_rwlock_rdlock(&makelock);
	makeheld = MAKE_HELD;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 1;
}

/* The thread _mon_ring_thread_create() was called for is made, or not. */
void
_mon_ring_thread_made(void)
{
	sigset_t all, old;
	int cs;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (makeheld == MAKE_HELD)
		pthread_rwlock_unlock(&makelock);
	makeheld = 0;
	cs = makecancel;
	making = 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	(void)pthread_setcancelstate(cs, NULL);
}

/*
 * A thread made by pthread_create() ends.  Under a coarse clock, one
 * that ran fewer than SHORT periods is short: the next thread made makes
 * the clock fine.  Reading its CPU time costs a clock_gettime(), only
 * while the clock is coarse and no thread has asked.
 */
void
_mon_ring_thread_end(void)
{
	struct timespec ts;

	if (!atomic_load_explicit(&coarse, memory_order_relaxed) ||
	    atomic_load_explicit(&wantfine, memory_order_relaxed) !=
	    WANT_NONE || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return;
	/* Its counts, when a drain reads them, say nothing more. */
	atomic_store_explicit(&judged[atomic_fetch_add_explicit(&njudged, 1,
	    memory_order_relaxed) % NJUDGED], _mon_gettid(),
	    memory_order_relaxed);
	if ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec <
	    SHORT * period)
		atomic_store(&wantfine, WANT_ASKED);
}

/*
 * An exec: a fork child's events not yet opened are not opened at all
 * (they would end with the image).  If the exec fails, the calling
 * thread opens them.
 */
void
_mon_ring_exec_before(void)
{
	int want;

	want = ARM_PENDING;
	(void)atomic_compare_exchange_strong(&childarm, &want, ARM_DROPPED);
}

void
_mon_ring_exec_failed(void)
{
	int want;

	want = ARM_DROPPED;
	if (atomic_compare_exchange_strong(&childarm, &want, ARM_PENDING)) {
		pthread_mutex_lock(&drainlock);
		arm_pending();
		pthread_mutex_unlock(&drainlock);
	}
}

/* Does the clock sample kernel mode too (arm_first())? */
int
_mon_ring_kernel(void)
{
	return rings != NULL && kernel;
}

/* How fine the kernel's period was: MONX_RUN_COARSE, MONX_RUN_REFINED. */
uint32_t
_mon_ring_rate(void)
{
	return rate;
}

/* Threads that could get no events of their own: at start, or refine(). */
uint32_t
_mon_ring_unsampled(void)
{
	return unsampled;
}

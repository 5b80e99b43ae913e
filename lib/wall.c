/*
 * wall.c -- PROFMODE=wall: where each thread of the process spends its
 * wall time, running or blocked, sampled by a thread of libmon's own
 * that sends no signal to the program's threads, so that no system call
 * of theirs is ever interrupted (no EINTR, no short sleep).
 *
 *	program threads                 libmon's wall sampler (all signals
 *	  /proc/self/task/<tid>/         blocked; a round every period)
 *	    stat     state R S D ...  <-- read when the thread's CPU clock
 *	    syscall  nr ... sp pc     <--   moved since the last round;
 *	  user stack words            <--   asleep, its system call and the
 *	                                    words above its stack pointer
 *	  CPU samples (ring.c,
 *	  sigprof.c) mark each thread's
 *	  last stack (stacks.c)       --> a running thread's stack
 *
 * Each round counts a sample for every thread, keyed by (thread, state,
 * system call, stack) in a table of counts (base.c): the WALL record
 * holds the keys and their counts.  The rounds keep to a grid of
 * periods, each at a random point of its own period, so that a program
 * that works on a period of its own is not always seen at one phase of
 * it; a round stands for the periods since the last (more than one when
 * the sampler ran late: its first rounds among a thousand new threads
 * take longer than a period), so that a thread's count is its wall time
 * in periods.  A thread new since the last round counts the periods
 * since its start (pthread_create() tells when), one that ended those
 * up to its end (pthread_create()'s threads tell when they end).
 * What keeps a round cheap:
 *
 *  - A thread whose CPU clock (clock_gettime() of its per-thread CPU
 *    clock: one system call, no /proc) has not moved since the last
 *    round has not run, so it is where it was: its last key is counted
 *    again without reading anything else (in the thread's entry, added
 *    to the table when the key changes or the record is written).  A
 *    thread found idle is not looked at again for as many rounds as it
 *    has been idle, up to IDLEEVERY - 1 -- the looks at a sleeping
 *    thread come 2, 4, 8, 16, then 32 rounds apart -- and the rounds
 *    that skip it touch a word of it only, its periods counted when it
 *    is next looked at, ends, or is written.  (A round stands for one
 *    period or more: ticks, the periods counted.)  When such a thread
 *    is found to have run, its clock says for how long: that many of
 *    the periods not looked at move from where it waited to where it
 *    ran (its last CPU sample's stack), so that a thread that wakes
 *    after a long sleep has its running and waiting time right, though
 *    what it waited in after its wake-up, until it is looked at, is
 *    counted where it waited before; a thread that ends before it is
 *    looked at again is counted so by the CPU time it hands over as it
 *    ends (ended()).  Its clock is its CPU time, not its time runnable:
 *    see machine_busy().
 *  - The threads are known from pthread_create() (lifecycle.c calls
 *    _mon_wall_thread() in the new thread, and _mon_wall_thread_end()
 *    as it ends), and /proc/self/task is listed only at start and, for
 *    threads created otherwise, when the kernel's count of the
 *    process's threads (/proc/self/stat, read every RESCAN ns) less
 *    those known alive has changed.  A thread whose clock is
 *    gone has ended; one that told its end is not counted again while
 *    a listing still finds it in its last words (adopt()).
 *  - Its stat and syscall files are opened once and read with pread()
 *    while the thread is active; an idle one's are closed, and at most
 *    MAXFDS are open at once (the others opened for a read).
 *
 * A blocked thread's stack: /proc gives the user pc its system call
 * returns to and the stack pointer, not the frame pointer.  Above the
 * stack pointer lie the return addresses of the wrappers that made the
 * call, which keep no frame pointer: a word is taken as the next return
 * address only if it returns from a call to the function that holds the
 * last pc (stacks.c tells where a call went), which no stale word of a
 * frame is likely to do.  As soon as the word below such a return
 * address is a frame pointer -- the caller's, saved by a callee that
 * made a frame or pushed it -- whose frame holds a return address, the
 * walk goes on by frame pointers, as the CPU clocks' walks do.
 *
 * A running thread's registers cannot be read without stopping it: its
 * stack is the one its last CPU sample was taken in (stacks.c), none
 * until it has one.  The CPU profile is recorded as without PROFMODE.
 */
#define _GNU_SOURCE	/* O_DIRECTORY in older headers */
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mon_private.h"

#define SAMPLER_STACK	(256u << 10)
#define NEWQ		1024		/* threads born, waiting to be adopted */
#define WINDOW		512		/* words of a blocked stack read */
#define FIRSTSPAN	1024		/* a system call wrapper's size */
#define SPAN		65536		/* a function's, for the next ones */
#define FPSPAN		((uintptr_t)64 << 20)	/* a frame pointer's reach */
#define IDLESTEP	1		/* an idle thread skips a round for
					   each IDLESTEP periods idle, */
#define IDLEEVERY	32		/*   up to IDLEEVERY - 1 in a row */
#define IDLEFDS		100		/* rounds idle before its files close */
#define RESCAN		1000000000u	/* ns between checks of the tasks */
#define MAXFDS		128		/* threads whose /proc files stay open */
#define BORNSHIFT	16		/* a thread's start in 65.5 us units */

struct wthr {
	pid_t		 tid;
	uint32_t	 flags;		/* MONX_WT_* */
	int		 fstat, fsys;	/* open descriptors, or -1 */
	uint32_t	 idle;		/* periods in a row it did not run */
	uint32_t	 endtold;	/* gone as it told its end through
					   endq (ended()), not as its clock
					   vanished */
	uint64_t	 unseen;	/* periods counted to ent without a
					   look, since the last */
	uint64_t	 from;		/* ticks counted for it up to; as
					   ended() lets it go, from - ticks
					   are the periods of that round it
					   counted, which adopt() reads in
					   the same round */
	uint64_t	 precounted;	/* set by adopt(): the periods of
					   this round a previous entry of
					   its tid, ended in it, counted;
					   first_periods() gives at most
					   n - precounted */
	uint64_t	 toldcpu;	/* endtold: its CPU time as it told
					   its end (it may run on a while) */
	uint32_t	 toldat;	/* endtold: when it told its end,
					   BORNSHIFT units, wrapping */
	uint32_t	 fresh;		/* adopted, not looked at yet */
	uint32_t	 born;		/* its start, BORNSHIFT units; 0: unknown */
	uint64_t	 cpu0, cpu;	/* CPU clock: first and last read */
	uint64_t	 ent;		/* its last sample's entry, 0: none */
	uint64_t	 pend;		/* samples of ent not added yet */
	char		 name[16];
};

/* The key of a sample: struct monx_wallstk but its count, and the pcs. */
struct wkey {
	struct monx_wallstk s;
	uint64_t	 pcs[_MON_STACKMAX + 1];
};
#define KEYOFF	offsetof(struct monx_wallstk, tid)

_Atomic int		 _mon_wall_on;
static pthread_mutex_t	 walllock = PTHREAD_MUTEX_INITIALIZER;
static struct _mon_worker sampler;
static int		 running;	/* a sampler was started */
static uint64_t		 period;
static struct wthr	*thr;		/* nthr of cap, from mmap */
static uint32_t		*skips;		/* thr[i]'s rounds before it is
					   looked at, apart: a round reads
					   only these of the threads it
					   does not look at; GONE: ended */
#define GONE		UINT32_MAX
static _Atomic unsigned	 nnew, nend;	/* entries in newq, endq: raised
					   after an entry is put, so that
					   the reader may run a round
					   ahead of it, and read an entry
					   a round late */
static size_t		 nthr, thrcap;
static uint32_t		*tidhash;	/* index + 1 of thr, by tid */
static size_t		 hashcap;
static struct _mon_keys	 counts;
static uint64_t		 ticks, lost, ownns;
static int		 taskfd = -1;
static int		 nfds;
static _Atomic uint64_t	 newq[NEWQ];	/* tid << 32 | born */
static uint64_t		 roundns, lastns;	/* this round's monotonic
						   time, the last's */
static _Atomic uint64_t	 endq[NEWQ];	/* tid << 32 | end: threads
					   ended, to be let go */
static _Atomic uint64_t	 endcpu[NEWQ];	/* and their CPU time, ns */
#define FILLING		UINT64_MAX	/* an endq slot being filled */
#define ZOMBIE		1		/* observe(): ended, still listed */
static unsigned char	 dents[32768];	/* under walllock */
static pid_t		 selfpid;	/* this process, since the start */
static int		 statfd = -1, loadfd = -1;	/* /proc/self/stat,
					   /proc/loadavg */
static long		 extra;		/* threads the kernel counts, less
					   those known alive */
static size_t		 nlive;		/* of thr, not gone */
static int		 busy;		/* machine_busy() at the last check */
static long		 ncpus = 1;
#define BUSYSKIP	3		/* rounds skipped at most, busy */
#define NVERDICT	1024
static struct verdict {
	uintptr_t	 pc, target;
	int		 ret;
}			 verdicts[NVERDICT];	/* under walllock */

/* Thread tid's CPU clock, in ns, into *ns; -1 once the thread is gone. */
static int
cpu_of(pid_t tid, uint64_t *ns)
{
	struct timespec t;
	clockid_t c;

	/* The kernel's per-thread scheduler clock (pthread_getcpuclockid). */
	c = (clockid_t)((~(unsigned int)tid << 3) | 6);
	if (clock_gettime(c, &t) != 0)
		return -1;
	*ns = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
	return 0;
}

static size_t
hslot(pid_t tid)
{
	return ((uint32_t)tid * 2654435761u) & (hashcap - 1);
}

/* The latest entry of thread tid, or NULL. */
static struct wthr *
find(pid_t tid)
{
	size_t i;

	if (hashcap == 0)
		return NULL;
	for (i = hslot(tid); tidhash[i] != 0; i = (i + 1) & (hashcap - 1))
		if (thr[tidhash[i] - 1].tid == tid)
			return &thr[tidhash[i] - 1];
	return NULL;
}

/* tid's hash slot, its own or a free one. */
static uint32_t *
hput(pid_t tid)
{
	size_t i;

	for (i = hslot(tid); tidhash[i] != 0; i = (i + 1) & (hashcap - 1))
		if (thr[tidhash[i] - 1].tid == tid)
			break;
	return &tidhash[i];
}

/* Room for one more thread; 0 or -1. */
static int
grow(void)
{
	struct wthr *nt;
	uint32_t *ns, *nh;
	size_t ncap, i;

	if (nthr < thrcap)
		return 0;
	ncap = thrcap != 0 ? 2 * thrcap : 256;
	nt = _mon_map(ncap * sizeof(*nt));
	ns = _mon_map(ncap * sizeof(*ns));
	nh = _mon_map(2 * ncap * sizeof(*nh));
	if (nt == NULL || ns == NULL || nh == NULL) {
		_mon_unmap(nt, ncap * sizeof(*nt));
		_mon_unmap(ns, ncap * sizeof(*ns));
		_mon_unmap(nh, 2 * ncap * sizeof(*nh));
		return -1;
	}
	if (nthr > 0) {
		memcpy(nt, thr, nthr * sizeof(*nt));
		memcpy(ns, skips, nthr * sizeof(*ns));
	}
	_mon_unmap(thr, thrcap * sizeof(*thr));
	_mon_unmap(skips, thrcap * sizeof(*skips));
	_mon_unmap(tidhash, hashcap * sizeof(*tidhash));
	thr = nt;
	skips = ns;
	tidhash = nh;
	hashcap = 2 * ncap;
	thrcap = ncap;
	for (i = 0; i < nthr; i++)
		*hput(thr[i].tid) = (uint32_t)i + 1;
	return 0;
}

/*
 * Thread tid, born before (old: its CPU time so far is not the run's),
 * at born (monotonic ns >> BORNSHIFT, wrapping; 0 if not known), told
 * of by pthread_create() or, fromscan, found in /proc/self/task.  A
 * thread that told its end is listed there until it is gone, in its
 * last words (libmon's, the C library's, thread-specific data and
 * thread_local destructors): the scan must not adopt it again, or its
 * tid would count more periods than the round has and a key could
 * pass ticks, which prof refuses.  It is told from a new thread that
 * reused the tid by its CPU clock, which a new thread starts again
 * from 0: at or past where the ended one told its end (or gone by the
 * time it is read), it is the same thread.  A new thread that has
 * already run longer than the ended one did is taken for it, and
 * missed -- a tid reused within the run, by a thread pthread_create()
 * did not tell of.  A new thread of the tid of one that ended in this
 * round counts only the periods of it that the other did not
 * (precounted): the counts of a tid stay within the rounds' periods.
 */
static void
adopt(pid_t tid, int old, uint32_t born, int fromscan)
{
	struct wthr *t;
	uint64_t precounted, cpu;

	if (tid <= 0 || tid == atomic_load(&sampler.tid) || _mon_own(tid))
		return;
	precounted = 0;
	if ((t = find(tid)) != NULL) {
		if (!(t->flags & MONX_WT_GONE))
			return;
		if (fromscan && t->endtold && (cpu_of(tid, &cpu) != 0 ||
		    cpu >= t->toldcpu))
			return;
		/*
		 * pthread_create() tells of a thread born at or before the
		 * end of the tid's last one: the same thread, adopted by a
		 * scan that ran between its start and the round that read
		 * its start from newq, and ended since.  A thread that
		 * reuses the tid starts after the other has gone.
		 */
		if (!fromscan && t->endtold && born != 0 &&
		    (int32_t)(born - t->toldat) <= 0)
			return;
		precounted = t->from > ticks ? t->from - ticks : 0;
	}
	if (grow() != 0)
		return;
	t = &thr[nthr];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->fstat = t->fsys = -1;
	t->fresh = 1;
	t->born = born;
	t->from = ticks;
	t->precounted = precounted;
	skips[nthr] = 0;
	if (old && cpu_of(tid, &t->cpu0) != 0)
		return;
	*hput(tid) = (uint32_t)++nthr;
	nlive++;
}

/* Every thread /proc/self/task lists now. */
static void
scan(int old)
{
	struct { uint64_t ino; int64_t off; unsigned short len;
	    unsigned char type; char name[]; } *d;
	long n, off;
	pid_t tid;
	char *c;

	if (taskfd < 0 || lseek(taskfd, 0, SEEK_SET) != 0)
		return;
	while ((n = syscall(SYS_getdents64, taskfd, dents, sizeof(dents))) > 0)
		for (off = 0; off < n; off += d->len) {
			d = (void *)(dents + off);
			for (tid = 0, c = d->name; *c >= '0' && *c <= '9'; c++)
				tid = tid * 10 + (*c - '0');
			if (*c == '\0' && tid > 0)
				adopt(tid, old, 0, 1);
		}
}

static void
closefds(struct wthr *t)
{
	if (t->fstat >= 0) {
		(void)close(t->fstat);
		nfds--;
	}
	if (t->fsys >= 0)
		(void)close(t->fsys);
	t->fstat = t->fsys = -1;
}

/* The samples counted to t's last key go into the table. */
static void
settle(struct wthr *t)
{
	if (t->ent != 0 && t->pend > 0)
		_mon_base_bump(&counts, t->ent, t->pend);
	t->pend = 0;
}

static void
gone(struct wthr *t)
{
	if (!(t->flags & MONX_WT_GONE))
		nlive--;
	settle(t);
	closefds(t);
	t->flags |= MONX_WT_GONE;
	skips[t - thr] = GONE;
}

/*
 * The periods since t was last counted (looked at, or caught up as it
 * ended or the record was written), ticks - from, counted to its last
 * key: a round that does not look at a thread does not touch it
 * (skips[] only).
 */
static void
catch_up(struct wthr *t)
{
	uint64_t m;

	m = ticks - t->from;
	t->from = ticks;
	if (m == 0 || t->ent == 0)
		return;
	t->pend += m;
	t->unseen += m;
	t->idle += (uint32_t)m;
}

/* Open tid/name under /proc/self/task; a descriptor or -1. */
static int
openat_task(pid_t tid, const char *name)
{
	char path[64];
	size_t n;

	n = _mon_digits(path, (uint64_t)tid, 10);
	path[n++] = '/';
	memcpy(path + n, name, strlen(name) + 1);
	return openat(taskfd, path, O_RDONLY | O_CLOEXEC);
}

/* Read a small /proc file by its descriptor into buf; its bytes, or -1. */
static ssize_t
readfd(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (fd < 0 || (n = pread(fd, buf, size - 1, 0)) <= 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/*
 * Read file name of thread t (its descriptor *fd, opened if need be and
 * kept while MAXFDS allow) into buf, NUL-terminated; the bytes, or -1.
 */
static ssize_t
readtask(struct wthr *t, int *fd, const char *name, char *buf, size_t size)
{
	ssize_t n;
	int f, keep;

	keep = 0;
	if ((f = *fd) < 0) {
		if ((f = openat_task(t->tid, name)) < 0)
			return -1;
		keep = fd == &t->fsys ? t->fstat >= 0 : nfds < MAXFDS;
	}
	n = readfd(f, buf, size);
	if (*fd < 0 && !keep)
		(void)close(f);
	else if (*fd < 0) {
		*fd = f;
		if (fd == &t->fstat)
			nfds++;
	}
	return n;
}

/* A number of /proc/.../syscall at *s, decimal or 0x hex; *s moves on. */
static uint64_t
number(const char **s, int *ok)
{
	const char *p = *s;
	uint64_t v;
	int neg, base, d;

	while (*p == ' ')
		p++;
	neg = *p == '-';
	p += neg;
	base = p[0] == '0' && p[1] == 'x' ? 16 : 10;
	p += base == 16 ? 2 : 0;
	for (v = 0, *ok = 0;; p++, *ok = 1) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			break;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*s = p;
	return neg ? -v : v;
}

/* Read len bytes of this process at a into buf, safely; 1, or 0. */
static int
peek(uintptr_t a, void *buf, size_t len)
{
	return _mon_peek(selfpid, a, buf, len);
}

/*
 * What the walks want to know of a word: is it a return address, and
 * where did its call go (stacks.c)?  Each asks the kernel for the code
 * bytes, and the threads of a pool have the same stacks: the answers are
 * kept by address, and forgotten every RESCAN ns, so that a library
 * unloaded and another loaded in its place is not judged by the old one
 * for long.  Under walllock.
 */
static struct verdict *
verdict(uintptr_t w)
{
	struct verdict *v;

	v = &verdicts[(w ^ w >> 11) % NVERDICT];
	if (v->pc != w || v->pc == 0) {
		v->pc = w;
		v->ret = _mon_in_text(w) && _mon_stack_retaddr(w);
		v->target = v->ret ? _mon_stack_target(w) : 0;
	}
	return v;
}

static int
isret(uintptr_t w)
{
	return verdict(w)->ret;
}

static uintptr_t
target(uintptr_t w)
{
	return verdict(w)->target;
}

/*
 * Is fp, read from the stack at a, a frame pointer with a frame above?
 * The frame is read from the window w[0..n) at sp where it lies there.
 */
static int
frame_at(uintptr_t fp, uintptr_t a, uintptr_t *frame, const uint64_t *w,
    size_t n, uintptr_t sp)
{
	if (fp <= a || fp - a >= FPSPAN || fp % 8 != 0)
		return 0;
	if (fp >= sp && (fp - sp) % 8 == 0 && (fp - sp) / 8 + 2 <= n) {
		frame[0] = w[(fp - sp) / 8];
		frame[1] = w[(fp - sp) / 8 + 1];
	} else if (!peek(fp, frame, 2 * sizeof(*frame)))
		return 0;
	return isret(frame[1]);
}

/*
 * The walk by frame pointers from fp on, whose frame holds frame[],
 * pcs[*depth..) filled.
 */
static void
fpwalk(uintptr_t fp, uintptr_t *frame, uint64_t *pcs, uint32_t *depth,
    uint16_t *flags)
{
	for (;;) {
		if (*depth >= _mon_stack_limit) {
			*flags |= MONX_STK_CUT;
			return;
		}
		pcs[(*depth)++] = frame[1];
		if (frame[0] <= fp || frame[0] - fp >= FPSPAN ||
		    frame[0] % 8 != 0)
			return;
		fp = frame[0];
		if (!peek(fp, frame, 2 * sizeof(*frame)) ||
		    frame[1] == 0 || !_mon_in_text(frame[1]))
			return;
	}
}

/* The words at sp, as many as can be read up to WINDOW; how many. */
static size_t
window(uintptr_t sp, uint64_t *w)
{
	size_t n;

	for (n = WINDOW; n >= 16; n /= 2)
		if (peek(sp, w, n * sizeof(*w)))
			return n;
	return 0;
}

/*
 * Is there, among w[i + 2..) below the frame pointer fp, a return
 * address from a call to the function that holds w[i + 1]?  Then that
 * function was called from a frame below fp, and the word w[i] is not
 * the frame pointer its callee saved: a wrapper that makes no frame
 * (nanosleep calling __clock_nanosleep) leaves a slot of its callee's
 * frame unwritten, and a copy of the caller's own frame pointer, left
 * there by an earlier call, would skip the caller.
 */
static int
stale(const uint64_t *w, size_t i, size_t n, uintptr_t sp, uintptr_t fp)
{
	uintptr_t t;
	size_t j;

	for (j = i + 2; j < n && sp + 8 * j < fp; j++) {
		if (!isret(w[j]))
			continue;
		t = target(w[j]);
		if (t != 0 && t <= w[i + 1] && w[i + 1] - t < SPAN)
			return 1;
	}
	return 0;
}

/*
 * Does w[i], at sp + 8 * i, begin a frame: a frame pointer saved there,
 * pointing up to a frame of its own, and a return address above it,
 * into the function whose frame that is?
 */
static int
frame_base(const uint64_t *w, size_t i, size_t n, uintptr_t sp,
    uintptr_t *frame)
{
	return i + 1 < n && isret(w[i + 1]) && frame_at(w[i], sp + 8 * i,
	    frame, w, n, sp) && !stale(w, i, n, sp, w[i]);
}

/*
 * The stack of a thread blocked at user pc with stack pointer sp into
 * pcs (pc first); its depth.  The words above sp are read in order: a
 * return address from a call to the function that holds the last pc is
 * the next (the first may be a tail call's, into a function near it);
 * the first frame whose saved frame pointer leads to another ends the
 * search, and the walk goes on by frame pointers from there.
 */
static uint32_t
walk(uintptr_t pc, uintptr_t sp, uint64_t *pcs, uint16_t *flags)
{
	uint64_t w[WINDOW];
	uintptr_t prev, t, frame[2];
	uint32_t depth;
	size_t n, i;

	pcs[0] = pc;
	depth = 1;
	n = window(sp, w);
	prev = pc;
	for (i = 0; i < n && depth < _mon_stack_limit; i++) {
		if (frame_base(w, i, n, sp, frame)) {
			pcs[depth++] = w[i + 1];
			fpwalk(w[i], frame, pcs, &depth, flags);
			return depth;
		}
		if (!isret(w[i]))
			continue;
		t = target(w[i]);
		if (t == 0 || (t > prev ? depth > 1 || t - prev >= FIRSTSPAN :
		    prev - t >= (depth > 1 ? SPAN : FIRSTSPAN)))
			continue;
		pcs[depth++] = w[i];
		prev = w[i];
	}
	if (depth >= _mon_stack_limit)
		*flags |= MONX_STK_CUT;
	return depth;
}

/* The state letter of a stat line, its name into t; 0 if unreadable. */
static int
parse_stat(struct wthr *t, const char *buf)
{
	const char *open, *close;
	size_t n;

	if ((open = strchr(buf, '(')) == NULL ||
	    (close = strrchr(buf, ')')) == NULL || close < open ||
	    close[1] != ' ')
		return 0;
	n = (size_t)(close - open - 1);
	if (n > sizeof(t->name))
		n = sizeof(t->name);
	memset(t->name, 0, sizeof(t->name));
	memcpy(t->name, open + 1, n);
	return close[2];
}

/*
 * Thread t is blocked: its system call and stack into k, from its
 * syscall file; 0, or -1 when it turns out to be running.
 */
static int
blocked(struct wthr *t, struct wkey *k)
{
	char buf[256];
	const char *s;
	uint64_t v[9];
	int i, ok;

	if (readtask(t, &t->fsys, "syscall", buf, sizeof(buf)) < 0 ||
	    strncmp(buf, "running", 7) == 0)
		return -1;
	s = buf;
	for (i = 0; i < 9; i++) {
		v[i] = number(&s, &ok);
		if (!ok)
			break;
	}
	/* "nr a1 .. a6 sp pc", or "-1 sp pc" outside a system call. */
	if (i != 9 && i != 3)
		return 0;
	k->s.sysno = (int32_t)v[0];
	if (_mon_stack_limit > 0)
		k->s.depth = walk((uintptr_t)v[i - 1], (uintptr_t)v[i - 2],
		    k->pcs, &k->s.flags);
	else
		k->s.depth = 0;
	return 0;
}

/* A running thread's key: its stack is its last CPU sample's. */
static void
last_stack(const struct wthr *t, struct wkey *k)
{
	uintptr_t pcs[_MON_STACKMAX + 1];
	uint32_t fl, i;

	fl = 0;
	k->s.sysno = -1;
	k->s.depth = _mon_stack_last(t->tid, pcs, _mon_stack_limit, &fl);
	k->s.flags = (uint16_t)(fl & MONX_STK_CUT);
	for (i = 0; i < k->s.depth; i++)
		k->pcs[i] = pcs[i];
}

/* Key k counted n times; its entry, or 0 (lost) without memory. */
static uint64_t
add(const struct wkey *k, uint64_t n)
{
	if (_mon_base_reserve(&counts, 1, sizeof(*k)) != 0) {
		lost += n;
		return 0;
	}
	return _mon_base_add(&counts, (const char *)k + KEYOFF,
	    sizeof(k->s) - KEYOFF + k->s.depth * sizeof(uint64_t), n);
}

/*
 * Thread t has ended, with cpu ns of CPU time, at (BORNSHIFT units),
 * though it may still be listed: the scans and a start told late pass
 * it over (adopt()).
 */
static void
told_end(struct wthr *t, uint64_t cpu, uint32_t at)
{
	t->endtold = 1;
	t->toldcpu = cpu;
	t->toldat = at;
}

/*
 * Thread t, which ran since it was last looked at: where it is now, its
 * sample's key, into k; 0, -1 when it has ended, or ZOMBIE when it has
 * ended but is still listed, its CPU clock still read: a main thread
 * that called pthread_exit() while others run on stays a zombie until
 * the process ends.
 */
static int
observe(struct wthr *t, struct wkey *k)
{
	char buf[512];
	int st;

	if (readtask(t, &t->fstat, "stat", buf, sizeof(buf)) < 0)
		return -1;
	if ((st = parse_stat(t, buf)) == 'Z' || st == 'X')
		return ZOMBIE;
	memset(&k->s, 0, sizeof(k->s));
	k->s.tid = (uint32_t)t->tid;
	k->s.sysno = -1;
	k->s.state = st == 'R' ? MONX_WS_RUN : st == 'S' ? MONX_WS_WAIT :
	    st == 'D' ? MONX_WS_DISK : MONX_WS_OTHER;
	if (k->s.state != MONX_WS_RUN && blocked(t, k) != 0)
		k->s.state = MONX_WS_RUN;
	if (k->s.state == MONX_WS_RUN)
		last_stack(t, k);
	return 0;
}

/*
 * Thread t, not looked at for some rounds (idle), has run meanwhile:
 * ran ns of CPU time, of which now ns are this round's own, counted by
 * its caller.  Those rounds were counted to its last key, where it
 * waited; as many periods of them as it ran go to its running key
 * instead, its stack its last CPU sample's.  When in those rounds it
 * woke is not known, only for how long it ran, which is what the
 * counts hold.
 */
static void
ran_unseen(struct wthr *t, uint64_t ns, uint64_t now)
{
	struct wkey k;
	uint64_t r;

	r = ns > now ? (ns - now + period / 2) / period : 0;
	if (r > t->unseen)
		r = t->unseen;
	if (r > t->pend)
		r = t->pend;		/* a write took the rest */
	t->unseen = 0;
	if (r == 0)
		return;
	t->pend -= r;
	memset(&k.s, 0, sizeof(k.s));
	k.s.tid = (uint32_t)t->tid;
	k.s.state = MONX_WS_RUN;
	last_stack(t, &k);
	(void)add(&k, r);
}

/*
 * The periods from a (monotonic ns >> BORNSHIFT, wrapping: 2^32 units
 * are 78 hours) to b (ns), to the nearest, at most n.
 */
static uint64_t
periods(uint32_t a, uint64_t b, uint64_t n)
{
	uint64_t d, m;
	int32_t k;

	/* a after b: none (a thread that ended as the last round ran). */
	if ((k = (int32_t)((uint32_t)(b >> BORNSHIFT) - a)) <= 0)
		return 0;
	d = (uint64_t)k << BORNSHIFT;
	m = (d + period / 2) / period;
	return m > n ? n : m;
}

/*
 * The periods a thread new since the last round, which was not there
 * all along the n the round stands for, has lived: from its start,
 * where known, to the nearest; at least one, at most n - precounted:
 * the periods of the round that a previous entry of its tid, ended in
 * it, did not count -- 0 when that one counted them all.
 */
static uint64_t
first_periods(struct wthr *t, uint64_t n)
{
	uint64_t m;

	t->fresh = 0;
	m = t->born == 0 ? 1 : periods(t->born, roundns, n);
	if (m < 1)
		m = 1;
	if (t->precounted >= n)
		return 0;
	return m < n - t->precounted ? m : n - t->precounted;
}

/*
 * One round's sample of thread t, n periods' worth: the periods since
 * the last round, or those a thread new since then has lived.  The
 * rounds that skipped it (skips[]) are counted first.  A thread that
 * has not run since it was last looked at is not looked at again for as
 * many periods as it has been idle (IDLESTEP), up to IDLEEVERY - 1
 * rounds: the looks at a thread asleep come 2, 4, 8, 16 and then 32
 * rounds apart, a clock read (a system call) each.
 */
static void
look(struct wthr *t, uint64_t n)
{
	struct wkey k;
	uint64_t cpu, skip;
	uint32_t cap;
	int z;

	if (cpu_of(t->tid, &cpu) != 0) {
		/* Ended unseen since it was last counted, when is not
		 * known: half of that time, on the average right. */
		if (t->ent != 0)
			t->pend += (ticks - t->from) / 2;
		t->from = ticks;
		gone(t);
		return;
	}
	catch_up(t);
	t->from = ticks + n;
	if (t->fresh)
		n = first_periods(t, n);
	if (t->ent != 0 && cpu == t->cpu) {
		t->pend += n;
		t->unseen = 0;
		t->idle++;
		skip = t->idle / IDLESTEP;
		cap = busy ? BUSYSKIP : IDLEEVERY - 1;
		skips[t - thr] = skip < cap ? (uint32_t)skip : cap;
		if (t->idle >= IDLEFDS)
			closefds(t);
		return;
	}
	if ((z = observe(t, &k)) != 0) {
		/* A zombie is listed, its clock where it ended, until the
		 * process ends: the scans pass it over as a thread that
		 * told its end (adopt()). */
		if (z == ZOMBIE) {
			/* Ended unseen since it was last looked at, when
			 * is not known: half of that time, as above. */
			skip = t->unseen / 2 < t->pend ? t->unseen / 2 :
			    t->pend;
			t->pend -= skip;
			told_end(t, cpu, (uint32_t)(roundns >> BORNSHIFT));
		}
		gone(t);
		return;
	}
	/* Running now, it has run this round's periods, counted below. */
	if (t->unseen > 0 && t->ent != 0)
		ran_unseen(t, cpu - t->cpu, k.s.state == MONX_WS_RUN ?
		    n * period : 0);
	t->unseen = 0;
	t->cpu = cpu;
	t->idle = 0;
	settle(t);
	/* None of the round's periods left for it: its key at the next
	 * (a key counted 0 times is one prof refuses). */
	t->ent = n > 0 ? add(&k, n) : 0;
}

/*
 * Threads that ended (their start routine returned or they called
 * pthread_exit()) since the last round, n periods ago: each is let go
 * at once, counted as it was for the periods from the last round to its
 * end -- an idle one, not looked at every round, would be counted on
 * for rounds after it.
 */
static void
ended(uint64_t n)
{
	struct wthr *t;
	uint64_t v, cpu, p;
	size_t i;

	for (i = 0; i < NEWQ && atomic_load(&nend) > 0; i++) {
		if ((v = atomic_load(&endq[i])) == 0 || v == FILLING ||
		    !atomic_compare_exchange_strong(&endq[i], &v, 0))
			continue;
		cpu = atomic_load(&endcpu[i]);
		atomic_fetch_sub(&nend, 1);
		if ((t = find((pid_t)(v >> 32))) == NULL ||
		    (t->flags & MONX_WT_GONE))
			continue;
		catch_up(t);
		p = 0;
		if (t->ent != 0 && !t->fresh && lastns != 0)
			p = periods((uint32_t)(lastns >> BORNSHIFT),
			    (uint64_t)(uint32_t)v << BORNSHIFT, n);
		t->pend += p;
		/* Skipped since it was last seen idle: where did it run? */
		if (t->unseen > 0 && t->ent != 0 && cpu > t->cpu) {
			t->unseen += p;
			ran_unseen(t, cpu - t->cpu, 0);
		}
		/* Counted p periods into the round, which a new thread of
		 * its tid does not count again; the scans that still list it
		 * in its last words pass it over (adopt()). */
		t->from = ticks + p;
		told_end(t, cpu, (uint32_t)v);
		gone(t);
	}
}

/* Threads that pthread_create() told of since the last round. */
static void
adopt_new(void)
{
	uint64_t v;
	size_t i;

	for (i = 0; i < NEWQ && atomic_load(&nnew) > 0; i++)
		if (atomic_load_explicit(&newq[i], memory_order_relaxed) != 0 &&
		    (v = atomic_exchange(&newq[i], 0)) != 0) {
			atomic_fetch_sub(&nnew, 1);
			adopt((pid_t)(v >> 32), 0, (uint32_t)v, 0);
		}
}

/* The process's threads, field 20 of /proc/self/stat; or -1. */
static long
nthreads(void)
{
	char buf[1024], *p;
	int f;

	if (readfd(statfd, buf, sizeof(buf)) < 0 ||
	    (p = strrchr(buf, ')')) == NULL)
		return -1;
	/* After the name: state (3), ..., num_threads (20). */
	for (f = 2; f < 20 && p != NULL; f++)
		p = strchr(p + 1, ' ');
	return p == NULL ? -1 : strtol(p + 1, NULL, 10);
}

/*
 * Are more tasks runnable than there are CPUs (the fourth field of
 * /proc/loadavg, runnable/total, now; a read each round)?  Then a thread
 * whose CPU clock stands still may be ready and waiting for a CPU, not
 * blocked: a thread that woke counts where it slept until it is looked
 * at and found to have run (the kernel runs a woken thread a little at
 * once, as a rule), so threads are looked at more often (BUSYSKIP)
 * while it lasts.
 */
static int
machine_busy(void)
{
	char buf[128], *p;
	long r;

	if (readfd(loadfd, buf, sizeof(buf)) < 0 ||
	    (p = strchr(buf, '/')) == NULL)
		return 0;
	while (p > buf && p[-1] != ' ')
		p--;
	r = strtol(p, NULL, 10);
	return r > ncpus;
}

/*
 * One round, n periods since the last: every thread counted once, for
 * n periods.  Caller holds walllock.
 */
static void
round_(uint64_t *since, uint64_t n)
{
	size_t i;
	long k;

	lastns = roundns;
	roundns = _mon_clock_ns(CLOCK_MONOTONIC);
	ended(n);
	adopt_new();
	if ((*since += n * period) >= RESCAN) {
		memset(verdicts, 0, sizeof(verdicts));
		*since = 0;
		/*
		 * The kernel's count of the process's threads, less those
		 * known alive, is libmon's own and the unknown: while it
		 * stays as it was, no thread has come that pthread_create()
		 * did not tell of, and the tasks need no listing.
		 */
		if ((k = nthreads()) < 0 || k - (long)nlive != extra) {
			scan(0);
			if (k >= 0 && (k = nthreads()) >= 0)
				extra = k - (long)nlive;
		}
	}
	/* A machine that turns busy: threads that seemed idle may wait for
	 * a CPU, ready to run; they are looked at within BUSYSKIP rounds. */
	if ((k = machine_busy()) && !busy)
		for (i = 0; i < nthr; i++)
			if (skips[i] != GONE && skips[i] > BUSYSKIP)
				skips[i] = BUSYSKIP;
	busy = (int)k;
	for (i = 0; i < nthr; i++) {
		if (skips[i] == GONE)
			continue;
		if (skips[i] > 0)
			skips[i]--;
		else
			look(&thr[i], n);
	}
	ticks += n;
}

/*
 * The next round's time into *at.  The rounds keep to a grid of periods
 * (*slot, the start of the last round's), each at a point drawn at
 * random in its own period, so that a program that wakes on a period of
 * its own (work every 10 ms) is not seen at one phase of it every time,
 * while a round still stands for one period: the counts add up to the
 * run's wall time, where steps of random length would drift from it.
 * Where periods have passed whole since the last round, the rounds they
 * would have held are missed: the next is in the current period (at
 * once if its point has passed), and stands for them too.  The periods
 * it stands for.
 */
static uint64_t
next_round(uint64_t *slot, struct timespec *at, uint64_t *seed)
{
	uint64_t t, now, missed;

	*slot += period;
	now = _mon_clock_ns(CLOCK_MONOTONIC);
	missed = now > *slot ? (now - *slot) / period : 0;
	*slot += missed * period;
	t = *slot + (_mon_random(seed) >> 11) % period;
	if (t < now)
		t = now;
	at->tv_sec = (time_t)(t / 1000000000u);
	at->tv_nsec = (long)(t % 1000000000u);
	return 1 + missed;
}

static void *
loop(void *unused)
{
	struct timespec at;
	uint64_t since, seed, slot, n;
	int k;

	(void)unused;
	since = 0;
	_mon_worker_begin(&sampler);
	slot = _mon_clock_ns(CLOCK_MONOTONIC);
	seed = (slot << 20 ^ (uint64_t)_mon_gettid()) | 1;
	for (;;) {
		n = next_round(&slot, &at, &seed);
		if (!_mon_worker_sleep(&sampler, &at))
			break;
		/*
		 * Objects dlopen'd or unloaded since: known to the stack
		 * walks, and no verdict kept from before.
		 */
		k = _mon_texts_update();
		pthread_mutex_lock(&walllock);
		if (k)
			memset(verdicts, 0, sizeof(verdicts));
		round_(&since, n);
		ownns = _mon_clock_ns(CLOCK_THREAD_CPUTIME_ID);
		pthread_mutex_unlock(&walllock);
		/* Its CPU time is libmon's, not the program's. */
		_mon_stats_own(_MON_OWN_WALL, atomic_load(&sampler.tid));
	}
	_mon_worker_end();
}

/* Empty everything for a new profile; no sampler runs. */
void
_mon_wall_reset(void)
{
	size_t i;

	for (i = 0; i < nthr; i++)
		closefds(&thr[i]);
	_mon_unmap(thr, thrcap * sizeof(*thr));
	_mon_unmap(skips, thrcap * sizeof(*skips));
	_mon_unmap(tidhash, hashcap * sizeof(*tidhash));
	thr = NULL;
	skips = NULL;
	tidhash = NULL;
	nthr = thrcap = hashcap = 0;
	nfds = 0;
	_mon_base_free(&counts);
	ticks = lost = ownns = 0;
	roundns = lastns = 0;
	for (i = 0; i < NEWQ; i++) {
		atomic_store(&newq[i], 0);
		atomic_store(&endq[i], 0);
	}
	atomic_store(&nnew, 0);
	atomic_store(&nend, 0);
}

/* The sampler's own descriptors of /proc closed. */
static void
closeprocs(void)
{
	if (taskfd >= 0)
		(void)close(taskfd);
	if (statfd >= 0)
		(void)close(statfd);
	if (loadfd >= 0)
		(void)close(loadfd);
	taskfd = statfd = loadfd = -1;
}

/*
 * Start sampling every thread each ns of wall time, afresh; 0, or -1
 * with nothing running.
 */
int
_mon_wall_start(uint64_t ns)
{
	if (running)
		return 0;
	_mon_wall_reset();
	period = ns;
	selfpid = getpid();
	memset(verdicts, 0, sizeof(verdicts));
	if ((ncpus = sysconf(_SC_NPROCESSORS_ONLN)) < 1)
		ncpus = 1;
	busy = 0;
	nlive = 0;
	extra = 0;
	if (statfd < 0)
		statfd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	if (loadfd < 0)
		loadfd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	if (taskfd < 0 && (taskfd = open("/proc/self/task",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		closeprocs();
		return -1;
	}
	if (_mon_worker_start(&sampler, SAMPLER_STACK, loop, 1) != 0) {
		closeprocs();
		return -1;
	}
	pthread_mutex_lock(&walllock);
	scan(1);
	pthread_mutex_unlock(&walllock);
	running = 1;
	atomic_store(&_mon_wall_on, 1);
	return 0;
}

/* Stop the sampler; what it counted stays for the writer. */
void
_mon_wall_stop(void)
{
	uint64_t n, cpu;
	size_t i;

	if (!running)
		return;
	atomic_store(&_mon_wall_on, 0);
	_mon_worker_stop(&sampler);
	running = 0;
	pthread_mutex_lock(&walllock);
	/* The periods since the last round, where each thread was, up to
	 * its end for those that ended. */
	lastns = roundns;
	roundns = _mon_clock_ns(CLOCK_MONOTONIC);
	n = lastns != 0 ? periods((uint32_t)(lastns >> BORNSHIFT), roundns,
	    UINT32_MAX) : 0;
	/* The rounds that did not look at a thread, counted; the last n
	 * periods are counted below. */
	for (i = 0; i < nthr; i++)
		if (!(thr[i].flags & MONX_WT_GONE)) {
			catch_up(&thr[i]);
			thr[i].from = ticks + n;
		}
	ticks += n;
	ended(n);
	for (i = 0; i < nthr; i++) {
		if (!(thr[i].flags & MONX_WT_GONE)) {
			if (thr[i].ent != 0) {
				thr[i].pend += n;
				thr[i].unseen += n;
			}
			if (cpu_of(thr[i].tid, &cpu) == 0) {
				if (cpu != thr[i].cpu && thr[i].ent != 0)
					ran_unseen(&thr[i], cpu - thr[i].cpu,
					    0);
				thr[i].cpu = cpu;
			}
		}
		closefds(&thr[i]);
	}
	closeprocs();
	pthread_mutex_unlock(&walllock);
}

/*
 * Thread tid's start or end, now, into queue q (newq or endq) for the
 * next round; cursor spreads the threads over its slots.  A full queue
 * drops it: the next listing finds a thread that started, and the round
 * that finds its clock gone one that ended.
 */
static void
enqueue(_Atomic uint64_t *q, _Atomic unsigned *cursor, pid_t tid,
    uint64_t cpu)
{
	_Atomic unsigned *count = q == newq ? &nnew : &nend;
	unsigned i, k, j;
	uint64_t free_, v;

	v = (uint64_t)(uint32_t)tid << 32 |
	    (uint32_t)(_mon_clock_ns(CLOCK_MONOTONIC) >> BORNSHIFT);
	k = atomic_fetch_add(cursor, 1);
	for (i = 0; i < NEWQ; i++) {
		j = (k + i) % NEWQ;
		free_ = 0;
		/* An end's slot is held (FILLING) while its CPU time goes
		 * in beside it. */
		if (atomic_compare_exchange_strong(&q[j], &free_,
		    q == endq ? FILLING : v)) {
			if (q == endq) {
				atomic_store(&endcpu[j], cpu);
				atomic_store(&q[j], v);
			}
			atomic_fetch_add(count, 1);
			return;
		}
	}
}

/*
 * A thread pthread_create() made, tid, calls this as it starts, so that
 * the next round counts it from now.
 */
void
_mon_wall_thread(pid_t tid)
{
	static _Atomic unsigned next;

	enqueue(newq, &next, tid, 0);
}

/*
 * Thread tid, which pthread_create() made, is ending: it calls this from
 * its last words, so that the next round no longer counts it, and counts
 * where it ran since it was last looked at by the CPU time it ends with.
 */
void
_mon_wall_thread_end(pid_t tid)
{
	static _Atomic unsigned next;

	enqueue(endq, &next, tid, _mon_clock_ns(CLOCK_THREAD_CPUTIME_ID));
}

void
_mon_wall_fork_prepare(void)
{
	pthread_mutex_lock(&walllock);
}

void
_mon_wall_fork_parent(void)
{
	pthread_mutex_unlock(&walllock);
}

/*
 * The child has none of its parent's threads, nor its sampler: it
 * starts afresh with its own, the parent's descriptors closed.
 */
void
_mon_wall_fork_child(void)
{
	_mon_renew_mutex(&walllock);
	if (!running)
		return;
	/* The parent's task list and stat, not the child's. */
	closeprocs();
	running = 0;
	atomic_store(&_mon_wall_on, 0);
	if (_mon_wall_start(period) != 0)
		_mon_warn("PROFMODE", "no wall sampler in the child", errno);
}

/*
 * The WALL record's payload into p, at most max bytes: what fits, whole
 * entries only; the bytes.  With p NULL, the bytes it would take; 0
 * where no sampler ran.
 */
size_t
_mon_wall_copy(unsigned char *p, size_t max)
{
	struct monx_wallhead h;
	struct monx_wallthr w;
	struct monx_wallstk s;
	const void *key;
	size_t len, klen, pos, i;
	uint64_t count;

	if (period == 0 || (p != NULL && max < sizeof(h)))
		return 0;	/* no wall sampler ran */
	pthread_mutex_lock(&walllock);
	memset(&h, 0, sizeof(h));
	h.period_ns = period;
	/* The periods missed are in ticks and the counts: none for prof
	 * to spread over every sample. */
	h.ticks = ticks;
	h.late = 0;
	h.lost = lost;
	h.own_ns = ownns;
	for (i = 0; i < nthr; i++) {
		if (!(thr[i].flags & MONX_WT_GONE))
			catch_up(&thr[i]);
		settle(&thr[i]);
	}
	len = sizeof(h);
	for (i = 0; i < nthr && (p == NULL || max - len >= sizeof(w)); i++) {
		memset(&w, 0, sizeof(w));
		w.tid = (uint32_t)thr[i].tid;
		w.flags = thr[i].flags;
		w.cpu_ns = thr[i].cpu > thr[i].cpu0 ? thr[i].cpu - thr[i].cpu0 :
		    0;
		memcpy(w.name, thr[i].name, sizeof(w.name));
		if (p != NULL)
			memcpy(p + len, &w, sizeof(w));
		len += sizeof(w);
		h.nthreads++;
	}
	for (pos = 0; _mon_base_next(&counts, &pos, &key, &klen, &count); ) {
		if (p != NULL && max - len < sizeof(s.count) + klen)
			break;
		if (p != NULL) {
			memcpy(p + len, &count, sizeof(count));
			memcpy(p + len + sizeof(count), key, klen);
		}
		len += sizeof(s.count) + klen;
		h.nstacks++;
	}
	if (p != NULL)
		memcpy(p, &h, sizeof(h));
	pthread_mutex_unlock(&walllock);
	return len;
}

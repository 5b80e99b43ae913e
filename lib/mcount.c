/*
 * mcount.c -- call counting for cc -p: the count tables and the slow
 * path of mcount.
 *
 * mcount counts arcs: a call from a call site (frompc, the return
 * address in the caller) to a function (selfpc, the return address of
 * its mcount call).  A function's calls are the sum of the arcs into it,
 * made when the profile is written.
 *
 * Tables by CPU, not by thread.  Every table of counts is written by
 * one thread at a time, so that the fast path in x86_64/mcount_entry.S
 * counts a call with a plain increment: no lock, no cache line another
 * CPU writes.  A call goes to the first of three places that has its
 * arc, or room for it:
 *
 * 1. The thread's own table, OWNCELLS cells found from the call site
 *    (or, where that cell holds another arc, from the site and the
 *    callee): the first arcs the thread makes, as far as their cells
 *    are free.  It costs a thread at most 128 KiB and keeps hot code at
 *    a dozen instructions a call.  A thread gives it back as it ends,
 *    for the next new thread.
 *
 * 2. The counts of the thread's id.  Where the C library has registered
 *    an rseq area for its threads (rseq(2): glibc 2.35 and later), the
 *    id is the kernel's concurrency id of the thread (mm_cid, Linux 6.3
 *    and later: unique among the process's threads running at once,
 *    below the number of CPUs it may use), else its CPU.  Arcs are
 *    numbered, once for the process, and each id has an array of
 *    counts by arc number.  The fast path reads the id, checks that the
 *    counts it keeps are that id's, finds the arc's number in the index
 *    and increments its count, all as one restartable sequence: a
 *    thread that is preempted, migrated or signalled before the
 *    increment is sent back to the sequence's start by the kernel, so
 *    whoever counts into an id's array is the only thread running with
 *    that id.  The arrays number at most the CPUs however many threads
 *    come and go, and each costs 8 bytes an arc: count memory grows with
 *    the arcs the program makes, not with threads x arcs.  Without rseq
 *    each thread has an id, and counts, of its own.
 *
 * 3. The spill, an open hash for the process (table.c) counted with
 *    atomic adds: the arcs the index has no slot for, and every call
 *    that misses its own table of a thread that has no id to count
 *    under (spillid: a vfork child, running on its parent's thread; a
 *    thread rseq did not register; a thread that got no counts).
 *
 *	_mon_tls (per thread)
 *	+-----+------+----+----+--------+
 *	| own | mask | rs | id | counts |
 *	+-----+------+----+----+--------+
 *	   |           |    |      |      an id's counts, by arc number
 *	   v           |    v      +--> +----+------+ +---+---+---+--
 *	  the thread's |  its id        | id | pad  | | 0 | 1 | 2 |
 *	  own cells    v  (in rs)       +----+------+ +---+---+---+--
 *		   the rseq area, whose (the 16 bytes before the counts)
 *		   rseq_cs the fast path sets
 *
 * While a profiler has an enter hook (profiler.c), _mon_counting is 2
 * and mcount_entry.S gives each call to _mon_count_hooked() before
 * counting it as ever (settle() says how the value is kept right).
 *
 * A thread's own table is an array of 2^k cells found from the call
 * site's low bits, so that the fast path costs a shift, a mask and an
 * add before the two compares of the arc.  An arc whose home cell holds
 * another -- most often a second function called from the same site, a
 * dispatch through a table of functions or a virtual call -- takes its
 * other cell, which the fast path tries next:
 *
 *	home cell	cells[(frompc >> 3) % 2^k]
 *	other cell	cells[((frompc ^ selfpc >> 2) >> 3) % 2^k]
 *
 *	cell		+------+------+-------+-----+
 *			| from | self | count | pad |	32 bytes
 *			+------+------+-------+-----+
 *
 * The ids share one index, an array of 2^j slots found the same way,
 * each 4 bytes holding an arc's number (0: free), and one array of
 * arcs by number, written once as the arc is numbered:
 *
 *	home slot	slots[(frompc >> 3) % 2^j]
 *	other slot	slots[((frompc ^ selfpc >> 2) >> 3) % 2^j]
 *
 *	_mon_arcv[n]	+------+------+
 *			| from | self |	16 bytes, [0] no arc
 *			+------+------+
 *
 * Calls are 5 bytes or more apart, and 8 or more in most code (the call
 * and an argument's move), so most call sites of a stretch of 2^(j+3)
 * bytes of text -- any text: the program's, a library's -- have a home
 * slot of their own.  A call site whose home another took, or a call
 * through a pointer to a second callee (an interpreter's dispatch, a
 * virtual call), takes its other slot, which the fast path tries next.
 * The slow path here numbers a missing arc and claims a slot for it,
 * with compare-and-swap, and sends the fast path back to count it.  The
 * index has a slot for every 8 bytes of the program's text; when many
 * arcs find both slots taken it is replaced by one four times larger,
 * into which the arcs are put again under the numbers they had, so that
 * no count moves.  Arrays are mapped and reserved, and the kernel gives
 * them pages only where they are used: the counts and the arcs fill
 * from the start, in the order arcs are first called; the index where
 * the text has call sites.  A thread's own array keeps a map of the
 * pages it touched, for the writer.
 *
 * A thread starts with the id noid and the counts of nocell, which are
 * no id's, and its own table is nocell, which holds no arc: its first
 * call comes here, and the thread is set up.  Nothing here calls
 * malloc; memory comes from mmap.  At stop, arcs.c sums the arcs of all
 * tables and the spill (_mon_cells_each).
 */
#define _GNU_SOURCE	/* dl_iterate_phdr */
#include <sys/auxv.h>
#include <sys/mman.h>

#include <dlfcn.h>
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "mon_private.h"

#define GRAIN		3		/* log2 bytes of text per slot, cell */
#define OWNCELLS	((size_t)1 << 12)	/* a thread's own table */
#define OWNAWAY		(OWNCELLS / 2)	/* arcs turned away: no other cells */
#define SLOTS0		((size_t)1 << 14)	/* the first index: least */
#define SLOTS0MAX	((size_t)1 << 24)	/* and most: 128 MiB of text */
#define SLOTSMAX	((size_t)1 << 26)	/* no index larger: 256 MiB */
#define DENSE		((size_t)1 << 20)	/* slots of 8 MiB of text */
#define ARCS0		((size_t)1 << 16)	/* arc numbers: least */
#define ARCSMAX		((size_t)1 << 24)	/* and most */
#define MAXID		1024		/* ids */
#define PAGE		4096		/* of cells, a bit of the touched map */
#define CHUNK		((size_t)2 << 20)	/* of counts, read at once */
#define RETRIES		4		/* of the fast path for one call */

/* struct rseq (linux/rseq.h): the fields the fast path uses. */
#define RSEQ_CPU_ID	4		/* u32, the CPU */
#define RSEQ_CS		8		/* u64, the sequence: mcount_entry.S's */
#define RSEQ_MM_CID	24		/* u32, the concurrency id */
#define RSEQ_AREA	32		/* bytes */
#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE 27
#endif

/* An arc's cell in a thread's own table; mcount_entry.S reads it so. */
struct cell {
	_Atomic uintptr_t	 from;		/* 0: call site; 0 if free */
	uintptr_t		 self;		/* 8: callee, set after from */
	long			 count;		/* 16 */
	long			 pad;
};
_Static_assert(sizeof(struct cell) == 32, "mcount_entry.S: cell size");
_Static_assert(OWNCELLS * sizeof(struct cell) % PAGE == 0 &&
    OWNCELLS * sizeof(struct cell) / PAGE <= 64,
    "a thread's own cells are whole pages, a bit of touched each");

/* A thread's own table: its cells, and the pages of them it used. */
struct tbl {
	struct cell		*cells;		/* OWNCELLS */
	_Atomic size_t		 nused;		/* cells claimed */
	_Atomic uint64_t	 touched;	/* a bit a page of cells */
	_Atomic pid_t		 owner;		/* the thread, 0 if free */
	struct tbl		*next;		/* the next thread's own */
};

/*
 * What mcount_entry.S reads before an id's counts: the id, to check
 * that the counts the thread keeps are its id's.
 */
struct head {
	uint32_t		 id;		/* -16 */
	uint32_t		 pad;
	size_t			 pad2;
};

/* An id's counts, by arc number, the head before them: its table. */
struct idt {
	_Atomic uint64_t	*counts;
	_Atomic pid_t		 owner;		/* without rseq: the thread */
};

/* An arc, by number: mcount_entry.S compares these. */
struct arcd {
	_Atomic uintptr_t	 from;		/* 0 */
	_Atomic uintptr_t	 self;		/* 8 */
};
_Static_assert(sizeof(struct arcd) == 16, "mcount_entry.S: arc size");

/*
 * The cells of no table, and the counts of no id: one cell that holds
 * no arc, after a head that names no id.
 */
static struct {
	struct head		 head;
	struct cell		 cell;
} nocell = { { UINT32_MAX, 0, 0 }, { 0, 0, 0, 0 } };
_Static_assert(offsetof(__typeof__(nocell), cell) == sizeof(struct head),
    "the head is just before the cell");

/* The index before there is one: one free slot. */
static _Atomic uint32_t noslot[1];
static struct arcd noarc[1];

/*
 * The index: 2^j slots, each the number of the arc there (0: free).
 * This is its only record, and what mcount_entry.S reads: its mask
 * (slots - 1), then its slots, in that order, as index_now() does.  A
 * new index stores its slots first, then its mask (publish()), so that
 * no reader uses a mask larger than the slots it reads (x86_64 keeps
 * loads in order, and stores).  A reader that sees the new slots under
 * the old mask finds no arc where it looks, and numbers the arc again
 * in the slow way: the writer sums an arc wherever it is counted.  The
 * two share a cache line, and neither waits on the other.  An index
 * that was replaced stays mapped: threads may still read it.  And the
 * arcs by number, _mon_arcv, set once, before the first index.
 */
struct {
	_Atomic size_t		 mask;		/* 0 */
	_Atomic uint32_t *_Atomic slots;	/* 8 */
} _mon_ix _mon_hidden __attribute__((aligned(16))) = { 0, noslot };
struct arcd *_mon_arcv _mon_hidden = noarc;

static _Atomic size_t narcs = 1;	/* the next arc's number */
static size_t arcscap;			/* numbers < arcscap */
static size_t slots0;			/* the first index's slots */
static int dense;			/* for a big program's text */
static _Atomic int growing;		/* the index, by a thread */
static _Atomic size_t ixspilled;	/* spill keys when the index came */
static _Atomic size_t ixspills;		/* calls spilled since */

static struct idt *_Atomic ids[MAXID];	/* the ids' counts */
static _Atomic(struct tbl *) owns;	/* the threads' own tables */
static _Atomic size_t nfree;		/* of them, given back */
static _Atomic(struct tbl *) probe;	/* where own_table() asks on */

/*
 * Where the calling thread counts, read by mcount_entry.S: its own
 * table's cells and mask; the rseq area whose rseq_cs the fast path
 * sets and where the thread's id is; and the counts of an id, which the
 * fast path uses only while that id is the thread's -- one word, so
 * that a signal handler that changes it leaves it whole.
 */
static uint64_t norseq[RSEQ_AREA / 8];	/* rs of a thread not set up */
static const uint32_t noid = MAXID;	/* not set up yet */
const uint32_t _mon_spillid _mon_hidden = MAXID;	/* counts here only */
__thread struct {
	struct cell *_Atomic	 own;		/* 0 */
	_Atomic size_t		 mask;		/* 8 */
	void			*rs;		/* 16 */
	const uint32_t		*id;		/* 24 */
	void *_Atomic		 counts;	/* 32 */
} _mon_tls _mon_hidden __attribute__((tls_model("initial-exec"))) =
    { &nocell.cell, 0, norseq, &noid, &nocell.cell };

/*
 * The other cells' mask, for every thread: a thread's own mask, or 0
 * once a thread has turned OWNAWAY arcs away (turned_away()).  The fast
 * path ands it with the thread's own, 0 for a thread with no table.
 */
#define OWNMASK		((OWNCELLS - 1) * sizeof(struct cell))
_Atomic size_t _mon_omask _mon_hidden = OWNMASK;

/* Where a thread is in its setting up (me.state). */
#define NEW		0		/* not begun: its first call does it */
#define BEING_SET	1		/* under way: a handler's calls spill */
#define SET		2

/* The calling thread: its own table, its stand-in rseq area, its calls. */
static __thread struct {
	struct tbl		*own;		/* its own table, if any */
	volatile sig_atomic_t	 state;		/* NEW, BEING_SET or SET */
	uint64_t		 rs[RSEQ_AREA / 8];	/* without rseq */
	uint32_t		 id;		/* without rseq: its id */
	uint32_t		 gen;		/* the profile it counted in */
	uintptr_t		 from, self;	/* the call sent back last */
	unsigned int		 n;		/* times in a row */
	unsigned int		 away;		/* arcs its own table turned away */
} me __attribute__((tls_model("initial-exec")));

volatile int _mon_counting;
static int idoff = -1;			/* the id in the rseq area, or -1 */
static ptrdiff_t rseqoff;		/* the rseq area from the thread */
static struct _mon_tab spill = { .bits0 = 12, .nhash = 11 };
static _Atomic uint64_t uncounted;	/* calls with no slot to go to */
static _Atomic uint32_t counters;	/* threads that counted calls */
static _Atomic uint32_t gen = 1;	/* profiles started */
static uintptr_t textlo, texthi;	/* the program's text */

/*
 * dl_iterate_phdr: the program's text, the first object's: from the
 * lowest executable segment's start to the highest's end, gaps and all,
 * for the size of the index.
 */
static int
program_text(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t lo, hi;
	int i;

	(void)size;
	(void)arg;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD &&
		    (info->dlpi_phdr[i].p_flags & PF_X)) {
			lo = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
			hi = lo + info->dlpi_phdr[i].p_memsz;
			if (textlo == 0 || lo < textlo)
				textlo = lo;
			if (hi > texthi)
				texthi = hi;
		}
	return 1;
}

/*
 * How ids are told apart: by the rseq area's concurrency id or CPU
 * (idoff), if the C library registered the area for every thread and
 * the ids fit, else by thread.  And how large the first index is: a
 * slot for each 8 bytes of the program's text, from SLOTS0 to
 * SLOTS0MAX; with room for two arcs a slot, from ARCS0 to ARCSMAX.
 * Called before counting starts.
 */
static void
init_ids(void)
{
	const ptrdiff_t *off;
	const unsigned int *size;
	size_t text;
	long ncpu;

	if (idoff != -1)
		return;
	idoff = -2;
	(void)dl_iterate_phdr(program_text, NULL);
	text = texthi - textlo;
	for (slots0 = SLOTS0; slots0 < SLOTS0MAX && slots0 << GRAIN < text;
	    slots0 <<= 1)
		;
	arcscap = 2 * slots0;
	if (arcscap < ARCS0)
		arcscap = ARCS0;
	if (arcscap > ARCSMAX)
		arcscap = ARCSMAX;
	dense = slots0 > DENSE;
	off = dlsym(RTLD_DEFAULT, "__rseq_offset");
	size = dlsym(RTLD_DEFAULT, "__rseq_size");
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (off == NULL || size == NULL || *size == 0 || ncpu < 1 ||
	    ncpu >= MAXID)
		return;
	rseqoff = *off;
	idoff = getauxval(AT_RSEQ_FEATURE_SIZE) >= RSEQ_MM_CID + 4 ?
	    RSEQ_MM_CID : RSEQ_CPU_ID;
}

/* The calling thread's rseq area, or NULL if rseq has not registered it. */
static char *
rseq_area(void)
{
	char *tp, *rs;
	uint32_t cpu;

	if (idoff < 0)
		return NULL;
	__asm__("movq %%fs:0, %0" : "=r"(tp));
	rs = tp + rseqoff;
	cpu = *(volatile uint32_t *)(rs + RSEQ_CPU_ID);
	return cpu < MAXID ? rs : NULL;	/* (uint32_t)-1, -2: not registered */
}

/* Has thread t of this process exited?  Async-signal-safe. */
static int
exited(pid_t t)
{
	return t == 0 || !_mon_alive(t);
}

/* A thread's own table, its cells mapped; NULL without memory. */
static struct tbl *
tbl_new(void)
{
	struct tbl *t;

	if ((t = _mon_map(sizeof(*t))) == NULL)
		return NULL;
	if ((t->cells = _mon_map(OWNCELLS * sizeof(struct cell))) == NULL) {
		_mon_unmap(t, sizeof(*t));
		return NULL;
	}
	/* A fork child empties every table: its cells come to it zero. */
	_mon_wipe_on_fork(t->cells, OWNCELLS * sizeof(struct cell));
	return t;
}

/*
 * Memory for len bytes, byte off starting a huge page if big
 * (_mon_map_dense()): a big program fills its counts and its arcs from
 * the start, and its index everywhere.  NULL without memory.
 */
static char *
map_big(size_t len, size_t off, int big)
{
	return big ? _mon_map_dense(len, off) : _mon_map(len);
}

/* The slots of an index of n; NULL without memory. */
static _Atomic uint32_t *
index_new(size_t n, int big)
{
	return (_Atomic uint32_t *)map_big(n * sizeof(uint32_t), 0, big);
}

/* The index's slots, its mask in *mask: the mask first. */
static _Atomic uint32_t *
index_now(size_t *mask)
{
	*mask = atomic_load(&_mon_ix.mask);
	return atomic_load(&_mon_ix.slots);
}

/* The n slots from now on: slots, then mask. */
static void
publish(_Atomic uint32_t *slots, size_t n)
{
	atomic_store(&_mon_ix.slots, slots);
	atomic_store(&_mon_ix.mask, n - 1);
}

/*
 * The arcs' array and the first index, made by the first thread that
 * counts in an id; 0 without memory.  The arcs come first: a number in
 * an index is always one of them.
 */
static int
index_init(void)
{
	_Atomic uint32_t *x, *want;
	char *p;

	if (atomic_load(&_mon_ix.slots) != noslot)
		return 1;
	if (__atomic_load_n(&_mon_arcv, __ATOMIC_ACQUIRE) == noarc) {
		if ((p = map_big(arcscap * sizeof(struct arcd), 0, dense)) ==
		    NULL)
			return 0;
		if (!__atomic_compare_exchange_n(&_mon_arcv, &(struct arcd *){
		    noarc }, (struct arcd *)p, 0, __ATOMIC_RELEASE,
		    __ATOMIC_RELAXED))
			_mon_unmap(p, arcscap * sizeof(struct arcd));
	}
	if ((x = index_new(slots0, dense)) == NULL)
		return 0;
	/* The first: slots from noslot, once, then the mask. */
	want = noslot;
	if (!atomic_compare_exchange_strong(&_mon_ix.slots, &want, x)) {
		_mon_unmap((void *)x, slots0 * sizeof(uint32_t));
		return 1;
	}
	atomic_store(&_mon_ix.mask, slots0 - 1);
	atomic_store(&ixspilled, _mon_tab_keys(&spill));
	return 1;
}

/* The counts of id, made now if need be; NULL without memory. */
static struct idt *
table(uint32_t id)
{
	struct idt *t, *want;
	struct head *h;
	char *p;

	if ((t = atomic_load(&ids[id])) != NULL)
		return t;
	if (!index_init() || (t = _mon_map(sizeof(*t))) == NULL)
		return NULL;
	/* The head in a page before the counts. */
	if ((p = map_big(PAGE + arcscap * sizeof(uint64_t), PAGE, dense)) ==
	    NULL) {
		_mon_unmap(t, sizeof(*t));
		return NULL;
	}
	p += PAGE;
	/* A fork child empties every id's counts: they come to it zero. */
	_mon_wipe_on_fork(p, arcscap * sizeof(uint64_t));
	h = (struct head *)p - 1;
	h->id = id;
	t->counts = (_Atomic uint64_t *)p;	/* published by the CAS below */
	want = NULL;
	if (!atomic_compare_exchange_strong(&ids[id], &want, t)) {
		_mon_unmap(p - PAGE, PAGE + arcscap * sizeof(uint64_t));
		_mon_unmap(t, sizeof(*t));
		return want;	/* another thread's came first */
	}
	return t;
}

/*
 * A thread's own table for the calling thread, tid: one a thread gave
 * back as it ended, one left by a thread the kernel says has exited (a
 * thread libmon did not see end: a C library's own), or a new one;
 * NULL without memory.  The list is walked for a given-back table only
 * when there is one, and else the kernel is asked of at most PROBES
 * owners a new thread, taking turns round the list: a process that
 * starts its thousandth thread while the others live does not make a
 * thousand system calls for it, and a table left by an unseen thread is
 * found again after at most (tables / PROBES) starts that found none
 * given back.  (The probe cursor is read and moved without a lock: two
 * threads may ask of the same owner, which is only a call wasted.)
 */
#define PROBES	4

static struct tbl *
own_table(pid_t tid)
{
	struct tbl *t;
	pid_t o;
	int i;

	if (atomic_load(&nfree) > 0)
		for (t = atomic_load(&owns); t != NULL; t = t->next) {
			o = 0;
			if (atomic_compare_exchange_strong(&t->owner, &o,
			    tid)) {
				atomic_fetch_sub(&nfree, 1);
				return t;
			}
		}
	for (i = 0; i < PROBES; i++) {
		if ((t = atomic_load(&probe)) == NULL &&
		    (t = atomic_load(&owns)) == NULL)
			break;
		atomic_store(&probe, t->next);
		o = atomic_load(&t->owner);
		if (o != 0 && exited(o) &&
		    atomic_compare_exchange_strong(&t->owner, &o, tid))
			return t;
	}
	if ((t = tbl_new()) == NULL)
		return NULL;
	atomic_store(&t->owner, tid);
	t->next = atomic_load(&owns);
	while (!atomic_compare_exchange_weak(&owns, &t->next, t))
		;
	return t;
}

/*
 * Without rseq: an id for the calling thread, tid, alone: one left by a
 * thread that has exited, or a new one; MAXID if there is none.
 */
static uint32_t
own_id(pid_t tid)
{
	struct idt *t;
	uint32_t id;
	pid_t o;

	for (id = 0; id < MAXID; id++) {
		if ((t = table(id)) == NULL)
			return MAXID;
		o = atomic_load(&t->owner);
		if (exited(o) &&
		    atomic_compare_exchange_strong(&t->owner, &o, tid))
			return id;
	}
	return MAXID;
}

/*
 * Set the calling thread up to count: by its rseq area, or with an id
 * of its own; else it counts in the spill.  Counted among the threads
 * that count.
 */
static void
setup(void)
{
	char *rs;
	pid_t tid;
	uint32_t id;
	int err;

	/* A handler's call that came first set the thread up. */
	if (__atomic_exchange_n(&me.state, BEING_SET, __ATOMIC_RELAXED) !=
	    NEW)
		return;
	err = errno;
	tid = _mon_gettid();
	if ((me.own = own_table(tid)) != NULL) {
		/* The mask last: the cells first are read with the old one. */
		atomic_store(&_mon_tls.own, me.own->cells);
		atomic_store(&_mon_tls.mask, OWNMASK);
	}
	if ((rs = rseq_area()) != NULL) {
		_mon_tls.rs = rs;
		_mon_tls.id = (const uint32_t *)(rs + idoff);
	} else if (idoff == -2 && (id = own_id(tid)) < MAXID) {
		me.id = id;
		_mon_tls.rs = me.rs;
		_mon_tls.id = &me.id;
	} else
		_mon_tls.id = &_mon_spillid;
	me.state = SET;
	errno = err;
}

/* Does cell c count the arc from -> self? */
static inline int
holds(struct cell *c, uintptr_t from, uintptr_t self)
{
	return atomic_load_explicit(&c->from, memory_order_relaxed) == from &&
	    c->self == self;
}

/*
 * Claim c of own table t for the arc from -> self; 1 if c now counts
 * it.  A call that comes between the two stores finds self unset and
 * comes here.
 */
static int
claim(struct tbl *t, struct cell *c, uintptr_t from, uintptr_t self)
{
	uintptr_t want;
	size_t pg;

	/*
	 * A cell taken by another arc -- a call through a pointer to a
	 * second callee, on every call -- is seen by a plain load: a locked
	 * compare-and-swap that must fail costs more than the spill.
	 */
	want = 0;
	if (atomic_load_explicit(&c->from, memory_order_relaxed) != 0 ||
	    !atomic_compare_exchange_strong_explicit(&c->from, &want, from,
	    memory_order_relaxed, memory_order_relaxed))
		return 0;
	/*
	 * A thread that passed the counting test as the profile restarted
	 * may have counted into the cell after it was zeroed.
	 */
	c->count = 0;
	atomic_signal_fence(memory_order_seq_cst);
	c->self = self;
	/* Shared words: written only when they change. */
	pg = (size_t)(c - t->cells) * sizeof(*c) / PAGE;
	if ((atomic_load_explicit(&t->touched, memory_order_relaxed) &
	    (uint64_t)1 << pg) == 0)
		atomic_fetch_or_explicit(&t->touched, (uint64_t)1 << pg,
		    memory_order_relaxed);
	atomic_fetch_add_explicit(&t->nused, 1, memory_order_relaxed);
	return 1;
}

/*
 * The home and the other place of the arc from -> self by a mask: its
 * slots in the index, its cells in a thread's own table.
 */
#define HOME(from, mask)	(((from) >> GRAIN) & (mask))
#define OTHER(from, self, mask)	((((from) ^ (self) >> 2) >> GRAIN) & (mask))
#define OWNHOME(t, from)	(&(t)->cells[HOME(from, OWNCELLS - 1)])
#define OWNOTHER(t, from, self)	(&(t)->cells[OTHER(from, self, OWNCELLS - 1)])

/*
 * Has the thread's own table t a cell for from -> self, claimed now?
 * The home cell, or while they are used (_mon_omask) the other.  A
 * thread whose table has turned OWNAWAY arcs away to the index makes
 * more arcs than a table holds (a dispatch over thousands of functions,
 * a big program): from then on no thread uses other cells, so that the
 * fast path stops looking there in vain -- threads that call the same
 * arcs find most of them in the index without ever being turned away --
 * and what they counted stays theirs (turned_away()).
 */
static int
own_cell(struct tbl *t, uintptr_t from, uintptr_t self)
{
	struct cell *home, *other;
	int others;

	home = OWNHOME(t, from);
	other = OWNOTHER(t, from, self);
	others = atomic_load_explicit(&_mon_omask, memory_order_relaxed) != 0;
	return holds(home, from, self) ||
	    (others && holds(other, from, self)) ||
	    claim(t, home, from, self) ||
	    (others && claim(t, other, from, self));
}

/*
 * The thread's own table turned the arc it was asked for away, which
 * is now counted in the index; after OWNAWAY of them, no thread uses
 * other cells (until a new profile: _mon_cells_reset()).
 */
static void
turned_away(void)
{
	if (atomic_load_explicit(&_mon_omask, memory_order_relaxed) != 0 &&
	    ++me.away >= OWNAWAY)
		atomic_store(&_mon_omask, 0);
}

/*
 * The arcs numbered so far, arc 0 (none) among them: never more than
 * arcscap, which take() does not number past.
 */
static size_t
numbered(void)
{
	return atomic_load(&narcs);
}

/* Is arc n (0: none) the arc from -> self? */
static inline int
is_arc(uint32_t n, uintptr_t from, uintptr_t self)
{
	return n != 0 && atomic_load_explicit(&_mon_arcv[n].from,
	    memory_order_relaxed) == from && atomic_load_explicit(
	    &_mon_arcv[n].self, memory_order_relaxed) == self;
}

/*
 * Take slot s of x for the arc from -> self: 1 if it is the arc's now.
 * *np is the number the arc was given, 0 if none yet: it is numbered
 * here, once, before its slot is taken, so that a number in a slot is
 * always an arc.  A number whose slots were both taken meanwhile is in
 * no slot (until the index grows and takes every arc again): wasted.
 */
static int
take(_Atomic uint32_t *x, size_t s, uintptr_t from, uintptr_t self,
    uint32_t *np)
{
	uint32_t want;
	size_t n;

	if (atomic_load_explicit(&x[s], memory_order_relaxed) != 0)
		return 0;
	if (*np == 0) {
		n = atomic_load_explicit(&narcs, memory_order_relaxed);
		do
			if (n >= arcscap)
				return 0;
		while (!atomic_compare_exchange_weak_explicit(&narcs, &n,
		    n + 1, memory_order_relaxed, memory_order_relaxed));
		atomic_store_explicit(&_mon_arcv[n].from, from,
		    memory_order_relaxed);
		atomic_store_explicit(&_mon_arcv[n].self, self,
		    memory_order_relaxed);
		*np = (uint32_t)n;
	}
	want = 0;
	return atomic_compare_exchange_strong_explicit(&x[s], &want,
	    *np, memory_order_release, memory_order_relaxed);
}

/*
 * Has the index a slot for the arc from -> self, numbered and claimed
 * now if need be?  0 if both its slots hold other arcs, or the numbers
 * are all given.
 */
static int
indexed(uintptr_t from, uintptr_t self)
{
	_Atomic uint32_t *x;
	size_t h, o, mask;
	uint32_t n;

	x = index_now(&mask);
	h = HOME(from, mask);
	o = OTHER(from, self, mask);
	if (is_arc(atomic_load_explicit(&x[h], memory_order_acquire),
	    from, self) || is_arc(atomic_load_explicit(&x[o],
	    memory_order_acquire), from, self))
		return 1;
	n = 0;
	return take(x, h, from, self, &n) || take(x, o, from, self, &n);
}

/*
 * The index spills: if it is too small for the text the program runs
 * -- many arcs spilled, or a few called often -- and numbers are left
 * to give, replace it with one four times larger, up to SLOTSMAX,
 * holding every arc numbered so far under its number (the home slot,
 * else the other, else none: it is numbered again when next called).
 * An arc numbered in the old index while this one was filled may be
 * numbered again in it too; the writer sums an arc wherever it is
 * counted.  Of two threads that grow it at once the first does it and
 * the other goes on.
 */
static void
grow(void)
{
	_Atomic uint32_t *nx;
	size_t keys, spills, n, m, i, s, mask;
	uintptr_t from, self;
	int many;

	spills = atomic_fetch_add(&ixspills, 1) + 1;
	if (spills % 1024 != 0)
		return;
	(void)index_now(&mask);
	keys = _mon_tab_keys(&spill);
	many = keys - atomic_load(&ixspilled) >= (mask + 1) / 16;
	n = numbered();
	if (mask + 1 >= SLOTSMAX || n >= arcscap ||
	    (spills < 2 * (mask + 1) && !many) ||
	    atomic_exchange(&growing, 1))
		return;
	/* Grown meanwhile by another thread: this one's spills are old. */
	if (atomic_load(&_mon_ix.mask) != mask) {
		atomic_store(&growing, 0);
		return;
	}
	/* Grown for many arcs, not for a few hot ones: dense. */
	m = (mask + 1) * 4 < SLOTSMAX ? (mask + 1) * 4 : SLOTSMAX;
	if ((nx = index_new(m, dense || many)) != NULL) {
		for (i = 1; i < n; i++) {
			from = atomic_load_explicit(&_mon_arcv[i].from,
			    memory_order_relaxed);
			self = atomic_load_explicit(&_mon_arcv[i].self,
			    memory_order_relaxed);
			if (from == 0 || self == 0)
				continue;	/* being numbered */
			s = HOME(from, m - 1);
			if (atomic_load_explicit(&nx[s],
			    memory_order_relaxed) != 0)
				s = OTHER(from, self, m - 1);
			if (atomic_load_explicit(&nx[s],
			    memory_order_relaxed) == 0)
				atomic_store_explicit(&nx[s], (uint32_t)i,
				    memory_order_relaxed);
		}
		publish(nx, m);
		atomic_store(&ixspilled, keys);
		atomic_store(&ixspills, 0);
	}
	atomic_store(&growing, 0);
}

/*
 * Was self's __fentry__ call made after a push of r10 (with an endbr64
 * before or after it, or none)?  gcc pushes a GNU C nested function's
 * static chain there, and nothing else ends in those bytes at a
 * function's start.
 */
static int
pushed_r10(uintptr_t self)
{
	unsigned char b[16];
	int i, nested;

	if (!_mon_code_before(self, b, sizeof(b)) ||
	    (i = _mon_call_at(b, 16)) < 0)
		return 0;
	(void)_mon_fentry_start(b, i, &nested);
	return nested;
}

/* Count the call from -> self in the spill, with an atomic add. */
static void
spill_one(uintptr_t from, uintptr_t self)
{
	struct _mon_slot *s;
	int err;

	err = errno;
	if ((s = _mon_tab_slot(&spill, from == 0 ? 1 : from, self)) != NULL)
		atomic_fetch_add_explicit(&s->count, 1, memory_order_relaxed);
	else
		atomic_fetch_add_explicit(&uncounted, 1, memory_order_relaxed);
	errno = err;
}

/*
 * mcount's slow path: the arc from -> self is neither in the cells of
 * the thread's own table nor in the index slots the fast path looked
 * at, or the thread's counts are not its id's.  up is the word above
 * from on __fentry__'s stack (0 from mcount): the call site when gcc
 * pushed r10 before the call, whose arc the fast path never finds.
 * Returns 1 to have the fast path count the call -- its cell or slot is
 * there now, or the thread has just been set up -- or 0 if the call is
 * counted (or lost) here.  Called from x86_64/mcount_entry.S with
 * every argument register saved; may run in signal context, so it only
 * uses mmap and raw system calls, and leaves errno as it found it.
 *
 * A new arc takes its home cell in the thread's own table if that is
 * free, else its other cell there, else a number and a slot in the
 * index.
 */
int
_mon_count(uintptr_t self, uintptr_t from, uintptr_t up)
{
	struct idt *t;
	uint32_t id, g;
	int err, ok, moved;

	if (!_mon_counting)
		return 0;
	if ((g = atomic_load_explicit(&gen, memory_order_relaxed)) != me.gen) {
		me.gen = g;
		atomic_fetch_add_explicit(&counters, 1, memory_order_relaxed);
		me.away = 0;	/* a new profile: its tables are empty */
	}
	/*
	 * A vfork child runs on its parent's thread: it leaves the thread
	 * as it finds it, set up or not.
	 */
	if (me.state == NEW && _mon_tls.id != &_mon_spillid) {
		setup();
		return 1;
	}
	if (up != 0 && pushed_r10(self)) {
		spill_one(up, self);	/* the fast path never finds it */
		return 0;
	}
	if (from != 0) {
		/*
		 * The fast path came back for this call: the thread moved
		 * to another id each time, or a restart emptied the cell.
		 */
		if (me.from == from && me.self == self) {
			if (++me.n >= RETRIES)
				goto spill;
		} else {
			me.from = from;
			me.self = self;
			me.n = 0;
		}
		if (me.own != NULL && own_cell(me.own, from, self))
			return 1;
	}
	if (from == 0 || me.state != SET || _mon_tls.id == &_mon_spillid)
		goto spill;
	id = *(volatile const uint32_t *)_mon_tls.id;
	err = errno;
	t = id < MAXID ? table(id) : NULL;
	errno = err;
	if (t == NULL)
		goto spill;
	/*
	 * The thread counts into its id's counts from now on.  Unless it
	 * just came to them (moved to another id), or comes back for the
	 * same call, its own table turned this arc away.
	 */
	moved = atomic_exchange(&_mon_tls.counts, (void *)t->counts) !=
	    (void *)t->counts;
	err = errno;
	ok = indexed(from, self);
	if (ok && !moved && me.n == 0)
		turned_away();
	if (!ok) {
		spill_one(from, self);
		grow();
	}
	errno = err;
	return ok;
spill:
	me.from = me.n = 0;
	spill_one(from, self);
	return 0;
}

/* profiler.c's pg_call(), set by _mon_count_hooks(); kept once set. */
static void (*_Atomic give)(uintptr_t, uintptr_t, uintptr_t, int);

/*
 * mcount's way while a profiler has an enter hook (_mon_counting is 2),
 * called from x86_64/mcount_entry.S with the argument registers, vector
 * ones too, saved: the call is given to profiler.c (give), then counted
 * by the fast path, as ever.  self, from and up as for _mon_count();
 * fentry is 1 from __fentry__, 0 from mcount.  Returns 1 to have the
 * fast path count the call, 0 if counting stopped meanwhile.
 */
int
_mon_count_hooked(uintptr_t self, uintptr_t from, uintptr_t up, int fentry)
{
	void (*g)(uintptr_t, uintptr_t, uintptr_t, int);

	if (!_mon_counting)
		return 0;
	if ((g = atomic_load_explicit(&give, memory_order_acquire)) != NULL)
		g(self, from, up, fentry);
	return 1;
}

/*
 * _mon_counting is 0, or 1 while counting, 2 while counting with an
 * enter hook set: what lifecycle.c (on) and profiler.c (hooks) last
 * said.  Each writer stores what both say, then looks again, so that
 * the last store holds both.
 */
static _Atomic int counton, hookson;
char _mon_vecsave _mon_hidden;		/* vector width: mcount_entry.S */

static void
settle(void)
{
	int want;

	do {
		want = atomic_load(&counton) ? 1 + atomic_load(&hookson) : 0;
		__atomic_store_n(&_mon_counting, want, __ATOMIC_SEQ_CST);
	} while ((atomic_load(&counton) ? 1 + atomic_load(&hookson) : 0) !=
	    want);
}

/* Counting starts (on) or stops: lifecycle.c. */
void
_mon_count_set(int on)
{
	atomic_store(&counton, on != 0);
	settle();
}

/*
 * How wide the vector registers are that the system saves for a
 * thread, and mcount_entry.S then saves around a hook: 0 for SSE's 128
 * bits, 1 for AVX's 256, 2 for AVX-512's 512 -- what CPUID says the
 * processor has and XCR0 says the kernel enabled.
 */
static char
vec_width(void)
{
	unsigned int a, b, c, d, lo, hi;

	if (!__get_cpuid(1, &a, &b, &c, &d) || (c & bit_OSXSAVE) == 0)
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	if ((c & bit_AVX) == 0 || (lo & 0x6) != 0x6)
		return 0;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d) &&
	    (b & bit_AVX512F) != 0 && (lo & 0xe6) == 0xe6)
		return 2;
	return 1;
}

static void
set_width(void)
{
	_mon_vecsave = vec_width();
}

/*
 * A profiler's enter hook is set, and each -pg call is to be given to
 * g; or none is (g NULL): profiler.c.
 */
void
_mon_count_hooks(void (*g)(uintptr_t, uintptr_t, uintptr_t, int))
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	if (g != NULL) {
		/* The width is the system's: found once, before any use. */
		(void)pthread_once(&once, set_width);
		atomic_store_explicit(&give, g, memory_order_release);
	}
	atomic_store(&hookson, g != NULL);
	settle();
}

/*
 * The calling thread is ending: its own table goes back, for the next
 * new thread to take without asking the kernel, and the calls it makes
 * until it is gone (a thread-specific data destructor's) are counted in
 * its id's table.  Called by the thread itself, as it ends (thread.c),
 * not from a signal handler.
 */
void
_mon_cells_thread_end(void)
{
	struct tbl *t;

	if ((t = me.own) == NULL)
		return;
	atomic_store(&_mon_tls.mask, 0);
	atomic_store(&_mon_tls.own, &nocell.cell);
	me.own = NULL;
	atomic_store(&t->owner, 0);
	atomic_fetch_add(&nfree, 1);
}

/*
 * Count the call from -> self from C, as mcount would, for tests.  C
 * cannot run the fast path's restartable sequence, so the count is an
 * atomic add, which is exact only while no other thread counts with the
 * same id: the caller must be the only thread counting.
 */
void
_mon_count_test(uintptr_t self, uintptr_t from)
{
	_Atomic uint32_t *slots;
	_Atomic uint64_t *counts;
	struct cell *c;
	char *own;
	size_t byte, mask;
	uint32_t n;

	while (_mon_count(self, from, 0)) {
		own = (char *)atomic_load(&_mon_tls.own);
		mask = atomic_load(&_mon_tls.mask);
		byte = (from << (5 - GRAIN)) & mask;
		c = (struct cell *)(own + byte);
		if (!holds(c, from, self) &&
		    (mask &= atomic_load(&_mon_omask)) != 0) {
			byte = ((from ^ self >> 2) << (5 - GRAIN)) & mask;
			c = (struct cell *)(own + byte);
		}
		if (holds(c, from, self)) {
			atomic_fetch_add((_Atomic long *)&c->count, 1);
			return;
		}
		counts = atomic_load(&_mon_tls.counts);
		if (((struct head *)counts - 1)->id != *_mon_tls.id)
			continue;
		slots = index_now(&mask);
		n = atomic_load(&slots[HOME(from, mask)]);
		if (!is_arc(n, from, self))
			n = atomic_load(&slots[OTHER(from, self, mask)]);
		if (is_arc(n, from, self)) {
			atomic_fetch_add(&counts[n], 1);
			return;
		}
	}
}

/* Give back the pages of own table t's cells, if it used any. */
static void
tbl_give(struct tbl *t)
{
	if (atomic_exchange(&t->touched, 0) != 0)
		_mon_rezero(t->cells, OWNCELLS * sizeof(struct cell));
}

/*
 * Zero every count: the pages go back to the kernel, so that a fork
 * child that only execs copies none of them.  The arcs keep their
 * numbers and slots.  Counting is off, or only the calling thread
 * exists (a fork child).
 */
void
_mon_cells_reset(void)
{
	struct tbl *t;
	struct idt *d;
	uint32_t id;

	init_ids();
	for (t = atomic_load(&owns); t != NULL; t = t->next) {
		tbl_give(t);
		atomic_store(&t->nused, 0);
	}
	for (id = 0; id < MAXID; id++)
		if ((d = atomic_load(&ids[id])) != NULL)
			_mon_rezero((void *)d->counts,
			    numbered() * sizeof(uint64_t));
	atomic_store(&ixspills, 0);
	atomic_store(&ixspilled, 0);
	_mon_tab_reset(&spill);
	atomic_store(&uncounted, 0);
	atomic_store(&_mon_omask, OWNMASK);	/* other cells again */
	/* Each thread counts itself again at its next slow call. */
	atomic_store(&counters, 0);
	atomic_fetch_add(&gen, 1);
}

/*
 * In a fork child only this thread exists: the parent's counts go, and
 * this thread keeps its own table, and without rseq its id, under its
 * new thread id.  (With rseq the child's ids are its own.)
 */
void
_mon_cells_fork(void)
{
	struct tbl *t;
	struct idt *d;
	pid_t tid;

	_mon_cells_reset();
	/*
	 * A thread that was growing the index is not here to finish.  If
	 * it had stored the new slots and not yet the mask, the old mask
	 * over the new slots finds no arc, which is numbered again, until
	 * the index grows again (or, with the numbers all given, every
	 * call spills): counts are summed wherever they are.  One that was
	 * making the first index is finished here: a mask of 0 over slots
	 * of its own can only be that.
	 */
	atomic_store(&growing, 0);
	if (atomic_load(&_mon_ix.slots) != noslot &&
	    atomic_load(&_mon_ix.mask) == 0)
		atomic_store(&_mon_ix.mask, slots0 - 1);
	tid = _mon_gettid();
	/* The other threads' own tables are free: their threads are not. */
	atomic_store(&nfree, 0);
	for (t = atomic_load(&owns); t != NULL; t = t->next)
		if (t != me.own) {
			atomic_store(&t->owner, 0);
			atomic_fetch_add(&nfree, 1);
		}
	if (me.own != NULL)
		atomic_store(&me.own->owner, tid);
	if (_mon_tls.id == &me.id && (d = atomic_load(&ids[me.id])) != NULL)
		atomic_store(&d->owner, tid);
}

/* Calls counted nowhere: no table, no place in the spill, no memory. */
uint64_t
_mon_cells_lost(void)
{
	return atomic_load(&uncounted);
}

/* n calls counted that the profile cannot hold: the writer's. */
void
_mon_cells_lose(uint64_t n)
{
	atomic_fetch_add_explicit(&uncounted, n, memory_order_relaxed);
}

/* Threads that counted calls in this profile. */
uint32_t
_mon_cells_threads(void)
{
	return atomic_load(&counters);
}

/* Count tables made: the threads' own (reused) and the ids'. */
uint32_t
_mon_cells_tables(void)
{
	struct tbl *t;
	uint32_t n, id;

	n = 0;
	for (t = atomic_load(&owns); t != NULL; t = t->next)
		n++;
	for (id = 0; id < MAXID; id++)
		if (atomic_load(&ids[id]) != NULL)
			n++;
	return n;
}

/*
 * About the arcs there are, for sizing what sums them: the arcs
 * numbered, or the cells claimed in the thread's own table that holds
 * most, whichever is more, and the spill's keys.
 */
size_t
_mon_cells_most(void)
{
	struct tbl *t;
	size_t most, n;

	most = numbered() - 1;
	for (t = atomic_load(&owns); t != NULL; t = t->next)
		if ((n = atomic_load(&t->nused)) > most)
			most = n;
	return most + _mon_tab_keys(&spill);
}

#define PM_PRESENT	((uint64_t)1 << 63)	/* /proc/self/pagemap: */
#define PM_SWAPPED	((uint64_t)1 << 62)	/* a page's bits */
#define PM_BATCH	64			/* entries read at once */

/*
 * Which pages of an id's counts [p, p + len), len at most CHUNK, hold
 * counts: in[i] & 1 for those in memory (mincore()) or swapped out.
 * mincore() says a swapped page is not in memory, as it says of a page
 * never touched, whose counts are all 0; /proc/self/pagemap tells the
 * two apart (*fd, opened at the first need: -2 before, -1 if it cannot
 * be).  Where neither can say, a page is taken as holding counts:
 * reading it maps at most the kernel's zero page.  Keeps errno;
 * async-signal-safe.
 */
static void
pages_used(const char *p, size_t len, unsigned char *in, int *fd)
{
	uint64_t pm[PM_BATCH];
	size_t n, i, j, b;
	ssize_t r;
	int err;

	n = (len + PAGE - 1) / PAGE;
	err = errno;
	if (mincore((void *)p, len, in) != 0) {
		memset(in, 1, n);
		errno = err;
		return;
	}
	for (i = 0; i < n; i += PM_BATCH) {
		b = n - i < PM_BATCH ? n - i : PM_BATCH;
		for (j = 0; j < b && (in[i + j] & 1) != 0; j++)
			;
		if (j == b)
			continue;	/* every page in memory */
		if (*fd == -2)
			*fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
		r = *fd < 0 ? -1 : pread(*fd, pm, b * sizeof(pm[0]),
		    (off_t)(((uintptr_t)p / PAGE + i) * sizeof(pm[0])));
		for (j = 0; j < b; j++)
			if (r != (ssize_t)(b * sizeof(pm[0])) ||
			    (pm[j] & (PM_PRESENT | PM_SWAPPED)) != 0)
				in[i + j] |= 1;
	}
	errno = err;
}

/* Close pages_used()'s descriptor, if it opened one. */
static void
pages_done(int fd)
{
	int err;

	if (fd >= 0) {
		err = errno;
		(void)close(fd);
		errno = err;
	}
}

/*
 * Call fn(arg, from, self, n) for the counts of id's table d: those of
 * the arcs numbered, n not 0, on the pages that hold counts
 * (pages_used(), fd its); with fn NULL, only count them.  If drop, each
 * CHUNK goes back once read.  Gives the counts on those pages, 0 or
 * not: as many as fn could be called for.
 */
static size_t
counts_each(struct idt *d, void (*fn)(void *, uintptr_t, uintptr_t,
    uint64_t), void *arg, int drop, int *fd)
{
	unsigned char in[CHUNK / PAGE];
	_Atomic uint64_t *c;
	size_t n, lo, hi, i, end, used;
	uint64_t k;

	n = numbered();
	c = d->counts;
	used = 0;
	for (lo = 0; lo < n; lo = hi) {
		hi = lo + CHUNK / sizeof(*c) < n ? lo + CHUNK / sizeof(*c) : n;
		pages_used((const char *)(c + lo), (hi - lo) * sizeof(*c), in,
		    fd);
		for (i = lo; i < hi; i = end) {
			end = (i / (PAGE / sizeof(*c)) + 1) *
			    (PAGE / sizeof(*c));
			if (end > hi)
				end = hi;
			if ((in[(i - lo) * sizeof(*c) / PAGE] & 1) == 0)
				continue;
			used += end - i;
			for (; fn != NULL && i < end; i++)
				if (i > 0 && (k = atomic_load_explicit(&c[i],
				    memory_order_relaxed)) != 0)
					fn(arg, atomic_load_explicit(
					    &_mon_arcv[i].from,
					    memory_order_relaxed),
					    atomic_load_explicit(
					    &_mon_arcv[i].self,
					    memory_order_relaxed), k);
		}
		if (drop)
			_mon_rezero((void *)(c + lo), (hi - lo) * sizeof(*c));
	}
	return used;
}

/*
 * The places _mon_cells_each can give, as of now, or more: the cells
 * claimed in every own table, every id's counts on the pages that hold
 * them (the arcs numbered, in a run of pages an id counted in), and the
 * spill's keys.
 */
size_t
_mon_cells_all(void)
{
	struct tbl *t;
	struct idt *d;
	size_t n;
	uint32_t id;
	int fd;

	n = _mon_tab_keys(&spill);
	for (t = atomic_load(&owns); t != NULL; t = t->next)
		n += atomic_load(&t->nused);
	fd = -2;
	for (id = 0; id < MAXID; id++)
		if ((d = atomic_load(&ids[id])) != NULL)
			n += counts_each(d, NULL, NULL, 0, &fd);
	pages_done(fd);
	return n;
}

/*
 * Call fn(arg, from, self, n) for every place that counts an arc, n its
 * calls: each thread's own table's cells, each id's counts, then the
 * spill's slots.  The same arc comes from several places; places with
 * no calls may come too.  Threads may count on meanwhile.  If drop, the
 * profile is being stopped: each run of pages goes back to the kernel
 * once read, so that the caller's sum grows as the tables shrink and
 * writing at exit does not raise the peak; a call counted after its
 * count was read is lost as it would be anyway, and one counted after
 * its page went is counted afresh for no profile.  Uses nothing but
 * reads, mincore, madvise, and open, pread and close of the pagemap: a
 * polite termination runs it in a signal handler.
 */
void
_mon_cells_each(void (*fn)(void *, uintptr_t, uintptr_t, uint64_t),
    void *arg, int drop)
{
	struct _mon_slot *sl;
	struct tbl *t;
	struct idt *d;
	struct cell *c;
	uint64_t bits;
	unsigned int k;
	uint32_t id;
	size_t i, n;
	int fd;

	for (t = atomic_load(&owns); t != NULL; t = t->next) {
		bits = atomic_load(&t->touched);
		for (; bits != 0; bits &= bits - 1) {
			c = (struct cell *)((char *)t->cells +
			    (size_t)__builtin_ctzll(bits) * PAGE);
			for (i = 0; i < PAGE / sizeof(*c); i++)
				fn(arg, atomic_load(&c[i].from), c[i].self,
				    (uint64_t)c[i].count);
		}
		if (drop)
			tbl_give(t);
	}
	fd = -2;
	for (id = 0; id < MAXID; id++)
		if ((d = atomic_load(&ids[id])) != NULL)
			(void)counts_each(d, fn, arg, drop, &fd);
	pages_done(fd);
	for (k = 0; k < _MON_TABMAX; k++) {
		sl = _mon_tab_hash(&spill, k, &n);
		for (i = 0; sl != NULL && i < n; i++)
			fn(arg, atomic_load(&sl[i].key),
			    atomic_load(&sl[i].key2),
			    atomic_load(&sl[i].count));
	}
}

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
 *    alone: the first arcs the thread makes, as far as their cells are
 *    free.  It costs a thread at most 128 KiB and keeps hot code at a
 *    dozen instructions a call.  A thread gives it back as it ends, for
 *    the next new thread.
 *
 * 2. The table of the thread's id.  Where the C library has registered
 *    an rseq area for its threads (rseq(2): glibc 2.35 and later), the
 *    id is the kernel's concurrency id of the thread (mm_cid, Linux 6.3
 *    and later: unique among the process's threads running at once,
 *    below the number of CPUs it may use), else its CPU.  The fast path
 *    reads the id, checks that the cells it keeps belong to that id's
 *    table, finds the arc's cell and increments it, all as one
 *    restartable sequence: a thread that is preempted, migrated or
 *    signalled before the increment is sent back to the sequence's
 *    start by the kernel, so whoever counts into a table is the only
 *    thread running with its id.  The tables number at most the CPUs
 *    however many threads come and go: count memory grows with the arcs
 *    the program makes, not with threads x arcs.  Without rseq each
 *    thread has an id, and a table, of its own.
 *
 * 3. The spill, an open hash for the process (table.c) counted with
 *    atomic adds: the arcs whose cells are taken by others, and every
 *    call that misses its own table of a thread that has no id to count
 *    under (spillid: a vfork child, running on its parent's thread; a
 *    thread rseq did not register; a thread that got no table).
 *
 *	_mon_tls (per thread)
 *	+-----+------+----+----+-------+
 *	| own | mask | rs | id | cells |
 *	+-----+------+----+----+-------+
 *	   |           |    |      |      an id's array
 *	   v           |    v      +--> +----+------+ +------+------+--
 *	  the thread's |  its id        | id | mask | | cell | cell |
 *	  own cells    v  (in rs)       +----+------+ +------+------+--
 *		   the rseq area, whose (the 16 bytes before the cells)
 *		   rseq_cs the fast path sets
 *
 * While a profiler has an enter hook (profiler.c), _mon_counting is 2
 * and mcount_entry.S gives each call to _mon_count_hooked() before
 * counting it as ever (settle() says how the value is kept right).
 *
 * A table's cells are an array of 2^k, found from the call site's low
 * bits, so that the fast path costs a shift, a mask and an add before
 * the two compares of the arc:
 *
 *	home cell	cells[(frompc >> 3) % 2^k]
 *	other cell	cells[((frompc ^ selfpc >> 2) >> 3) % 2^k]
 *
 *	cell		+------+------+-------+-----+
 *			| from | self | count | pad |	32 bytes
 *			+------+------+-------+-----+
 *
 * Calls are 5 bytes or more apart, and 8 or more in most code (the call
 * and an argument's move), so most call sites of a stretch of 2^(k+3)
 * bytes of text -- any text: the program's, a library's -- have a home
 * cell of their own.  A call site whose home another took, or a call
 * through a pointer to a second callee (an interpreter's dispatch, a
 * virtual call), takes its other cell, which the fast path tries next
 * in an id's table (a thread's own table has home cells only).  The slow
 * path here claims a missing arc's cell, with compare-and-swap, and
 * sends the fast path back to count it.  An id's first array has a home
 * cell for every 8 bytes of the program's text; when it spills many
 * arcs it gets one four times larger, and the old one keeps the counts
 * it has.  Arrays are mapped, and the kernel gives them pages only where
 * cells are used; a map of touched pages tells the writer where to
 * look.
 *
 * A thread starts with the id noid and the array nocell, which holds no
 * arc and no id's: its first call comes here, and the thread is set up.
 * Nothing here calls malloc; memory comes from mmap.  At stop, arcs.c
 * sums the arcs of all tables and the spill (_mon_cells_each).
 */
#define _GNU_SOURCE	/* dl_iterate_phdr */
#include <sys/auxv.h>

#include <dlfcn.h>
#include <cpuid.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "mon_private.h"

#define GRAIN		3		/* log2 bytes of text per home cell */
#define OWNCELLS	((size_t)1 << 12)	/* a thread's own table */
#define CELLS0		((size_t)1 << 14)	/* an id's first array: least */
#define IDCELLS0	((size_t)1 << 20)	/* and at most */
#define CELLSMAX	((size_t)1 << 24)	/* 512 MiB: no larger */
#define MAXID		1024		/* tables */
#define PAGE		4096		/* of cells, a bit of the touched map */
#define SPAN		(64 * PAGE)	/* of cells, a touched map's word */
#define GIVE		8		/* words given back at once: 2 MiB,
					   a huge page of a dense array */
#define RETRIES		4		/* of the fast path for one call */

/* struct rseq (linux/rseq.h): the fields the fast path uses. */
#define RSEQ_CPU_ID	4		/* u32, the CPU */
#define RSEQ_CS		8		/* u64, the sequence: mcount_entry.S's */
#define RSEQ_MM_CID	24		/* u32, the concurrency id */
#define RSEQ_AREA	32		/* bytes */
#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE 27
#endif

/* An arc's cell; mcount_entry.S reads it at these offsets. */
struct cell {
	_Atomic uintptr_t	 from;		/* 0: call site; 0 if free */
	uintptr_t		 self;		/* 8: callee, set after from */
	long			 count;		/* 16 */
	long			 pad;
};
_Static_assert(sizeof(struct cell) == 32, "mcount_entry.S: cell size");
_Static_assert(OWNCELLS * sizeof(struct cell) % PAGE == 0,
    "every array is whole pages");

/*
 * An array of cells; a table's earlier ones keep their counts.  The
 * cells are mapped a page after base, the mask in the word before them.
 */
struct arr {
	struct arr		*prev;
	struct cell		*cells;
	_Atomic size_t		 nused;		/* cells claimed */
	size_t			 ncells;	/* a power of 2 */
	size_t			 maplen;	/* of this and touched[] */
	_Atomic uint64_t	 touched[];	/* a bit a page of cells */
};

/* A table: a thread's own, or an id's. */
struct tbl {
	_Atomic(struct arr *)	 arr;		/* the one counted into */
	_Atomic pid_t		 owner;		/* the thread, 0 if free */
	struct tbl		*next;		/* the next thread's own */
	_Atomic size_t		 spilled;	/* spill keys when arr came */
	_Atomic size_t		 spills;	/* calls spilled since */
};

/*
 * What mcount_entry.S reads before an array's first cell: the id of the
 * table it belongs to, and its mask.
 */
struct head {
	uint32_t		 id;		/* -16 */
	uint32_t		 pad;
	size_t			 mask;		/* -8: (ncells - 1) * 32 */
};

/* The array of no table: one cell that holds no arc, and no id's. */
static struct {
	struct head		 head;
	struct cell		 cell;
} nocell = { { UINT32_MAX, 0, 0 }, { 0, 0, 0, 0 } };
_Static_assert(offsetof(__typeof__(nocell), cell) == sizeof(struct head),
    "the head is just before the cell");

static struct tbl *_Atomic tbls[MAXID];	/* the ids' tables */
static _Atomic(struct tbl *) owns;	/* the threads' own tables */
static _Atomic size_t nfree;		/* of them, given back */
static _Atomic(struct tbl *) probe;	/* where own_table() asks on */

/*
 * Where the calling thread counts, read by mcount_entry.S: its own
 * table's cells and mask; the rseq area whose rseq_cs the fast path
 * sets and where the thread's id is; and the cells of an id's table,
 * which the fast path uses only while that id is the thread's -- one
 * word, so that a signal handler that changes it leaves it whole.
 */
static uint64_t norseq[RSEQ_AREA / 8];	/* rs of a thread not set up */
static const uint32_t noid = MAXID;	/* not set up yet */
const uint32_t _mon_spillid _mon_hidden = MAXID;	/* counts here only */
__thread struct {
	struct cell *_Atomic	 own;		/* 0 */
	_Atomic size_t		 mask;		/* 8 */
	void			*rs;		/* 16 */
	const uint32_t		*id;		/* 24 */
	struct cell *_Atomic	 cells;		/* 32 */
} _mon_tls _mon_hidden __attribute__((tls_model("initial-exec"))) =
    { &nocell.cell, 0, norseq, &noid, &nocell.cell };

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
} me __attribute__((tls_model("initial-exec")));

volatile int _mon_counting;
static int idoff = -1;			/* the id in the rseq area, or -1 */
static ptrdiff_t rseqoff;		/* the rseq area from the thread */
static struct _mon_tab spill = { .bits0 = 12, .nhash = 11 };
static _Atomic uint64_t uncounted;	/* calls with no slot to go to */
static _Atomic uint32_t counters;	/* threads that counted calls */
static _Atomic uint32_t gen = 1;	/* profiles started */
static _Atomic size_t idcells = CELLS0;	/* an id's largest array yet */
static uintptr_t textlo, texthi;	/* the program's text */

/*
 * dl_iterate_phdr: the program's text, the first object's: from the
 * lowest executable segment's start to the highest's end, gaps and all,
 * since a home cell is found from a call site's address.
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
 * How tables are told apart: by the rseq area's concurrency id or CPU
 * (idoff), if the C library registered the area for every thread and
 * the ids fit, else by thread.  And how large an id's first array is: a
 * home cell for each 8 bytes of the program's text, up to IDCELLS0.
 * Called before counting starts.
 */
static void
init_ids(void)
{
	const ptrdiff_t *off;
	const unsigned int *size;
	size_t text, n;
	long ncpu;

	if (idoff != -1)
		return;
	idoff = -2;
	(void)dl_iterate_phdr(program_text, NULL);
	text = texthi - textlo;
	for (n = CELLS0; n < IDCELLS0 && n << GRAIN < text; n <<= 1)
		;
	atomic_store(&idcells, n);
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

/*
 * Every table, one after another: the threads' own, then the ids';
 * walk(&w) from w = WALK gives the next, or NULL after the last.
 */
struct walk {
	struct tbl		*t;
	uint32_t		 id;
	int			 ids;		/* on to the ids' */
};
#define WALK	((struct walk){ NULL, 0, 0 })

static struct tbl *
walk(struct walk *w)
{
	if (!w->ids) {
		w->t = w->t == NULL ? atomic_load(&owns) : w->t->next;
		if (w->t != NULL)
			return w->t;
		w->ids = 1;
	}
	while (w->id < MAXID)
		if ((w->t = atomic_load(&tbls[w->id++])) != NULL)
			return w->t;
	return NULL;
}

/* Has thread t of this process exited?  Async-signal-safe. */
static int
exited(pid_t t)
{
	return t == 0 || !_mon_alive(t);
}

/* The words of the touched map of an array of n cells. */
static size_t
arr_words(size_t n)
{
	return (n * sizeof(struct cell) + SPAN - 1) / SPAN;
}

/*
 * A new array of n cells for id's table, after prev; NULL without
 * memory.  dense: the program's calls will use every stretch of it --
 * it replaces an array that spilled many arcs, or the text has more
 * home cells than it -- so it goes on huge pages (_mon_map_dense()),
 * its cells starting one.  Other arrays stay on small pages: their
 * cells are used where the text has call sites, and their other cells,
 * found by hashing, anywhere, and each stretch of 2 MiB one of those
 * touched would be resident whole.  (Row 24 of the bench, 32 threads
 * calling 100,000 functions from 0.8 MB of call sites in 5.3 MiB of
 * text, a median of 10 runs: 46 MB peak RSS and 0.71 s of CPU on small
 * pages, as here; 58 MB and 0.54 s with the whole array on huge pages.)
 */
static struct arr *
arr_new(uint32_t id, size_t n, struct arr *prev, int dense)
{
	struct head *h;
	struct arr *a;
	size_t maplen, len;
	char *p;

	maplen = sizeof(*a) + arr_words(n) * sizeof(uint64_t);
	if ((a = _mon_map(maplen)) == NULL)
		return NULL;
	len = PAGE + n * sizeof(struct cell);
	if ((p = dense ? _mon_map_dense(len, PAGE) : _mon_map(len)) == NULL) {
		_mon_unmap(a, maplen);
		return NULL;
	}
	a->cells = (struct cell *)(p + PAGE);
	/* A fork child empties every table: its cells come to it zero. */
	_mon_wipe_on_fork(a->cells, n * sizeof(struct cell));
	h = (struct head *)a->cells - 1;
	h->id = id;
	h->mask = (n - 1) * sizeof(struct cell);
	a->prev = prev;
	a->ncells = n;
	a->maplen = maplen;
	return a;
}

static void
arr_free(struct arr *a)
{
	_mon_unmap((char *)a->cells - PAGE,
	    PAGE + a->ncells * sizeof(struct cell));
	_mon_unmap(a, a->maplen);
}

/* The table of id, made now if need be; NULL without memory. */
static struct tbl *
table(uint32_t id)
{
	struct tbl *t, *want;
	struct arr *a;
	size_t n;

	if ((t = atomic_load(&tbls[id])) != NULL)
		return t;
	if ((t = _mon_map(sizeof(*t))) == NULL)
		return NULL;
	/* The ids' threads run the same code: as large as the largest. */
	n = atomic_load(&idcells);
	if ((a = arr_new(id, n, NULL, (texthi - textlo) >> GRAIN > n)) ==
	    NULL) {
		_mon_unmap(t, sizeof(*t));
		return NULL;
	}
	atomic_store(&t->arr, a);
	atomic_store(&t->spilled, _mon_tab_keys(&spill));
	want = NULL;
	if (!atomic_compare_exchange_strong(&tbls[id], &want, t)) {
		arr_free(a);		/* another thread's came first */
		_mon_unmap(t, sizeof(*t));
		return want;
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
	struct arr *a;
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
	if ((t = _mon_map(sizeof(*t))) == NULL)
		return NULL;
	if ((a = arr_new(UINT32_MAX, OWNCELLS, NULL, 0)) == NULL) {
		_mon_unmap(t, sizeof(*t));
		return NULL;
	}
	atomic_store(&t->arr, a);
	atomic_store(&t->owner, tid);
	t->next = atomic_load(&owns);
	while (!atomic_compare_exchange_weak(&owns, &t->next, t))
		;
	return t;
}

/*
 * Without rseq: the id of a table for the calling thread, tid, alone: one
 * left by a thread that has exited, or a new one; MAXID if there is none.
 */
static uint32_t
own_id(pid_t tid)
{
	struct tbl *t;
	uint32_t id;
	pid_t o;

	for (id = 0; id < MAXID; id++) {
		if ((t = atomic_load(&tbls[id])) == NULL) {
			if ((t = table(id)) == NULL)
				return MAXID;
		}
		o = atomic_load(&t->owner);
		if (exited(o) &&
		    atomic_compare_exchange_strong(&t->owner, &o, tid))
			return id;
	}
	return MAXID;
}

/*
 * Set the calling thread up to count: by its rseq area, or with a table
 * of its own; else it counts in the spill.  Counted among the threads
 * that count.
 */
static void
setup(void)
{
	struct arr *a;
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
		a = atomic_load(&me.own->arr);
		atomic_store(&_mon_tls.own, a->cells);
		atomic_store(&_mon_tls.mask,
		    (a->ncells - 1) * sizeof(struct cell));
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

/*
 * Table t spills: if its array is too small for the text its threads
 * run -- many arcs spilled, or a few called often -- give it one four
 * times larger, up to CELLSMAX.  The old array keeps its counts for the
 * writer.  Of two threads that grow it at once the first wins.
 */
static void
grow(struct tbl *t, uint32_t id)
{
	struct arr *a, *na;
	size_t keys, spills, n;
	int many;

	spills = atomic_fetch_add(&t->spills, 1) + 1;
	if (spills % 1024 != 0)
		return;
	a = atomic_load(&t->arr);
	keys = _mon_tab_keys(&spill);
	many = keys - atomic_load(&t->spilled) >= a->ncells / 16;
	if (a->ncells >= CELLSMAX || (spills < 2 * a->ncells && !many))
		return;
	n = a->ncells * 4 < CELLSMAX ? a->ncells * 4 : CELLSMAX;
	/* Grown for many arcs, not for a few hot ones: dense. */
	if ((na = arr_new(id, n, a, many)) == NULL)
		return;
	if (!atomic_compare_exchange_strong(&t->arr, &a, na)) {
		arr_free(na);
		return;
	}
	atomic_store(&t->spilled, keys);
	atomic_store(&t->spills, 0);
	n = atomic_load(&idcells);
	while (n < na->ncells &&
	    !atomic_compare_exchange_weak(&idcells, &n, na->ncells))
		;
}

/* Does cell c count the arc from -> self? */
static inline int
holds(struct cell *c, uintptr_t from, uintptr_t self)
{
	return atomic_load_explicit(&c->from, memory_order_relaxed) == from &&
	    c->self == self;
}

/*
 * Claim c of array a for the arc from -> self; 1 if c now counts it.  A
 * call that comes between the two stores finds self unset and comes
 * here.
 */
static int
claim(struct arr *a, struct cell *c, uintptr_t from, uintptr_t self)
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
	pg = (size_t)(c - a->cells) * sizeof(*c) / PAGE;
	if ((atomic_load_explicit(&a->touched[pg / 64], memory_order_relaxed) &
	    (uint64_t)1 << pg % 64) == 0)
		atomic_fetch_or_explicit(&a->touched[pg / 64],
		    (uint64_t)1 << pg % 64, memory_order_relaxed);
	atomic_fetch_add_explicit(&a->nused, 1, memory_order_relaxed);
	return 1;
}

/*
 * Is there a cell for the arc from -> self (from not 0) in t, claimed
 * now if need be?  0 if its cells hold other arcs: its home cell, and
 * if two, its other cell too.
 */
static int
direct(struct tbl *t, uintptr_t from, uintptr_t self, int two)
{
	struct arr *a;
	struct cell *home, *other;
	size_t m;

	a = atomic_load(&t->arr);
	m = a->ncells - 1;
	home = &a->cells[(from >> GRAIN) & m];
	other = &a->cells[((from ^ self >> 2) >> GRAIN) & m];
	if (!two)
		return holds(home, from, self) ||
		    claim(a, home, from, self);
	return holds(home, from, self) || holds(other, from, self) ||
	    claim(a, home, from, self) || claim(a, other, from, self);
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
 * mcount's slow path: the arc from -> self is in neither of the cells
 * the fast path looked at, in the thread's own table and in the table
 * of the id it read.  up is the word above from on __fentry__'s stack
 * (0 from mcount): the call site when gcc pushed r10 before the call,
 * whose arc the fast path never finds.  Returns 1 to have the fast path
 * count the call -- its cell is there now, or the thread has just been
 * set up -- or 0 if the call is counted (or lost) here.  Called from
 * x86_64/mcount_entry.S with every argument register saved; may run in
 * signal context, so it only uses mmap and raw system calls, and leaves
 * errno as it found it.
 *
 * A new arc takes its home cell in the thread's own table if that is
 * free, else a cell in its id's table.
 */
int
_mon_count(uintptr_t self, uintptr_t from, uintptr_t up)
{
	struct tbl *t;
	uint32_t id, g;
	int err;

	if (!_mon_counting)
		return 0;
	if ((g = atomic_load_explicit(&gen, memory_order_relaxed)) != me.gen) {
		me.gen = g;
		atomic_fetch_add_explicit(&counters, 1, memory_order_relaxed);
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
		if (me.own != NULL && direct(me.own, from, self, 0))
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
	/* The thread counts into its id's newest array from now on. */
	atomic_store(&_mon_tls.cells, atomic_load(&t->arr)->cells);
	if (direct(t, from, self, 1))
		return 1;
	spill_one(from, self);
	err = errno;
	grow(t, id);
	errno = err;
	return 0;
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
 * atomic add, which is exact only while no other thread counts into the
 * same table: the caller must be the only thread counting.
 */
void
_mon_count_test(uintptr_t self, uintptr_t from)
{
	struct cell *c;
	struct head *h;
	size_t byte;

	while (_mon_count(self, from, 0)) {
		byte = (from << (5 - GRAIN)) & atomic_load(&_mon_tls.mask);
		c = (struct cell *)((char *)atomic_load(&_mon_tls.own) + byte);
		if (holds(c, from, self)) {
			atomic_fetch_add((_Atomic long *)&c->count, 1);
			return;
		}
		c = atomic_load(&_mon_tls.cells);
		h = (struct head *)c - 1;
		if (h->id != *_mon_tls.id)
			continue;
		byte = (from << (5 - GRAIN)) & h->mask;
		if (!holds((struct cell *)((char *)c + byte), from, self))
			byte = ((from ^ self >> 2) << (5 - GRAIN)) & h->mask;
		if (holds((struct cell *)((char *)c + byte), from, self)) {
			atomic_fetch_add(
			    (_Atomic long *)&((struct cell *)((char *)c +
			    byte))->count, 1);
			return;
		}
	}
}

/*
 * Zero every count and every place: the pages go back to the kernel, so
 * that a fork child that only execs copies none of them.  Counting is
 * off, or only the calling thread exists (a fork child).
 */
void
_mon_cells_reset(void)
{
	struct walk w = WALK;
	struct tbl *t;
	struct arr *a;
	size_t i, n;

	init_ids();
	while ((t = walk(&w)) != NULL) {
		for (a = atomic_load(&t->arr); a != NULL; a = a->prev)
			for (i = 0; i < arr_words(a->ncells); i++) {
				if (atomic_load(&a->touched[i]) == 0)
					continue;
				n = a->ncells * sizeof(struct cell) - i * SPAN;
				_mon_rezero((char *)a->cells + i * SPAN,
				    n < SPAN ? n : SPAN);
				atomic_store(&a->touched[i], 0);
			}
		atomic_store(&t->spilled, 0);
		atomic_store(&t->spills, 0);
		for (a = atomic_load(&t->arr); a != NULL; a = a->prev)
			atomic_store(&a->nused, 0);
	}
	_mon_tab_reset(&spill);
	atomic_store(&uncounted, 0);
	/* Each thread counts itself again at its next slow call. */
	atomic_store(&counters, 0);
	atomic_fetch_add(&gen, 1);
}

/*
 * In a fork child only this thread exists: the parent's counts go, and
 * this thread keeps its own table, and without rseq its id's, under its
 * new thread id.  (With rseq the child's ids are its own.)
 */
void
_mon_cells_fork(void)
{
	struct tbl *t;
	pid_t tid;

	_mon_cells_reset();
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
	if (_mon_tls.id == &me.id && (t = atomic_load(&tbls[me.id])) != NULL)
		atomic_store(&t->owner, tid);
}

/* Calls counted nowhere: no table, no place in the spill, no memory. */
uint64_t
_mon_cells_lost(void)
{
	return atomic_load(&uncounted);
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
	struct walk w = WALK;
	uint32_t n;

	for (n = 0; walk(&w) != NULL; n++)
		;
	return n;
}

/*
 * About the arcs there are, for sizing what sums them: the cells claimed
 * in the newest array of the table that holds most, and the spill's
 * keys.  Not all of them when threads ran on several ids.
 */
size_t
_mon_cells_most(void)
{
	struct walk w = WALK;
	struct tbl *t;
	size_t most, n;

	most = 0;
	while ((t = walk(&w)) != NULL)
		if ((n = atomic_load(&atomic_load(&t->arr)->nused)) > most)
			most = n;
	return most + _mon_tab_keys(&spill);
}

/*
 * The cells claimed in every array of every table, and the spill's keys:
 * what _mon_cells_each can give, as of now.
 */
size_t
_mon_cells_all(void)
{
	struct walk w = WALK;
	struct tbl *t;
	struct arr *a;
	size_t n;

	n = _mon_tab_keys(&spill);
	while ((t = walk(&w)) != NULL)
		for (a = atomic_load(&t->arr); a != NULL; a = a->prev)
			n += atomic_load(&a->nused);
	return n;
}

/*
 * Call fn(arg, from, self, n) for every place that counts an arc, n its
 * calls: each table's cells, then the spill's slots.  The same arc comes
 * from several places; places with no calls may come too.  Threads may
 * count on meanwhile.  If drop, the profile is being stopped: each run
 * of pages goes back to the kernel once read, so that the caller's sum
 * grows as the tables shrink and writing at exit does not raise the
 * peak; a call counted after its cell was read is lost as it would be
 * anyway, and one counted after its page went is counted afresh (its
 * cell claimed again) for no profile.  Pages go back GIVE words' worth
 * at a time, so that a huge page of a dense array goes whole, not split
 * in eight.  Uses nothing but reads and madvise: a polite termination
 * runs it in a signal handler.
 */
void
_mon_cells_each(void (*fn)(void *, uintptr_t, uintptr_t, uint64_t),
    void *arg, int drop)
{
	struct walk w = WALK;
	struct _mon_slot *sl;
	struct tbl *t;
	struct arr *a;
	struct cell *c;
	uint64_t bits, read, any;
	unsigned int k;
	size_t wi, i, n, give, words;

	while ((t = walk(&w)) != NULL)
		for (a = atomic_load(&t->arr); a != NULL; a = a->prev)
			for (wi = give = any = 0,
			    words = arr_words(a->ncells); wi < words; wi++) {
				read = atomic_load(&a->touched[wi]);
				for (bits = read; bits != 0; bits &= bits - 1) {
					c = (struct cell *)((char *)a->cells +
					    wi * SPAN +
					    (size_t)__builtin_ctzll(bits) *
					    PAGE);
					for (i = 0; i < PAGE / sizeof(*c); i++)
						fn(arg,
						    atomic_load(&c[i].from),
						    c[i].self,
						    (uint64_t)c[i].count);
				}
				if (!drop)
					continue;
				if (read != 0)
					atomic_fetch_and(&a->touched[wi], ~read);
				any |= read;
				if ((wi + 1) % GIVE != 0 && wi + 1 < words)
					continue;
				if (any != 0) {
					n = a->ncells * sizeof(struct cell) -
					    give * SPAN;
					if (n > (wi + 1 - give) * SPAN)
						n = (wi + 1 - give) * SPAN;
					_mon_rezero((char *)a->cells +
					    give * SPAN, n);
				}
				give = wi + 1;
				any = 0;
			}
	for (k = 0; k < _MON_TABMAX; k++) {
		sl = _mon_tab_hash(&spill, k, &n);
		for (i = 0; sl != NULL && i < n; i++)
			fn(arg, atomic_load(&sl[i].key),
			    atomic_load(&sl[i].key2),
			    atomic_load(&sl[i].count));
	}
}

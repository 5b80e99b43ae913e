/*
 * mcount.c -- call counting for cc -p: the per-thread arc tables and the
 * slow path of mcount.
 *
 * mcount counts arcs: a call from a call site (frompc, the return
 * address in the caller) to a function (selfpc, the return address of
 * its mcount call).  A function's calls are the sum of the arcs into it,
 * made when the profile is written.  Every thread counts into a table of
 * its own, so the fast path in x86_64/mcount_entry.S writes nothing
 * another thread reads or writes.  The main program's text is mapped in
 * two levels by call site, so that a thread's table grows with the call
 * sites it runs, not with the size of the text:
 *
 *	struct tbl                     chunk (32 KiB, made on first call)
 *	+----------------------+       +------+------+-------+----
 *	| lo, len, blocks,     |       | from | self | count | ...  cell i
 *	| owner, spill, ...    |       +------+------+-------+----  of chunk
 *	+----------------------+  +--> k holds the arc from a call site in
 *	| dir[0] dir[1] ...  --+--+    [lo + 4096k + 4i, ... + 4)
 *	+----------------------+
 *	                               spill: open hash (table.c) of pairs
 *	                               for call sites outside [lo, lo + len)
 *	                               or whose cell holds another arc
 *
 * An arc's home cell is dir[(frompc - lo) >> 12][((frompc - lo) >> 2) %
 * 1024]: two loads and no probe.  Return addresses of two calls are at
 * least 2 bytes apart and nearly always 5, so two call sites rarely
 * share a cell.  When they do, or when one site calls through a pointer
 * to several functions (an interpreter's dispatch, a virtual call), the
 * arc takes its other cell in the same chunk, picked by call site and
 * callee together, ((frompc ^ selfpc >> 2) >> 2) % 1024, which the fast
 * path tries next.  Call sites outside the main text (libc calling a
 * qsort comparator, a -p library) share one more chunk, tbl->outside,
 * where an arc has only that other cell.  Only when an arc's cells are
 * taken does the spill take it.  Chunks are carved from
 * blocks of memory mapped as needed, each twice the one before up to
 * BLOCKMAX; the spill grows the same way (table.c), so a count is lost
 * only when memory is.
 *
 * Cells are claimed with compare-and-swap on the call site and counted
 * with a single increment instruction, so mcount may interrupt itself
 * through a signal handler on the same thread and lose nothing.  Nothing
 * here calls malloc; memory comes from mmap.  A thread's table outlives
 * the thread and is taken over by the next new thread once the kernel
 * says its owner is gone, so counts are never lost and tables do not
 * pile up.  At stop, the writer sums the arcs of all tables.
 */
#include <sys/syscall.h>

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "mon_private.h"

#define GRAIN		2		/* log2 bytes of text per cell */
#define CHUNK		12		/* log2 bytes of text per chunk */
#define CHUNKCELLS	(1u << (CHUNK - GRAIN))
#define CHUNKLEN	(CHUNKCELLS * sizeof(struct cell))
#define DIROFF		512		/* dir[] in struct tbl: mcount_entry.S */
#define BLOCKHDR	4096		/* a block's header page */
#define BLOCK0		((size_t)256 << 10)
#define BLOCKMAX	((size_t)8 << 20)

/* An arc's cell; mcount_entry.S reads it at these offsets. */
struct cell {
	_Atomic uintptr_t	 from;		/* 0: call site; 0 if free */
	uintptr_t		 self;		/* 8: callee, set after from */
	long			 count;		/* 16 */
	long			 pad;
};
_Static_assert(sizeof(struct cell) == 32, "mcount_entry.S: cell size");

/* Memory chunks are carved from; the header page is never zeroed. */
struct block {
	struct block		*next;
	size_t			 len;
	_Atomic size_t		 off;		/* next free byte */
};

struct tbl {
	/* Read by x86_64/mcount_entry.S at these offsets: keep them first. */
	uintptr_t		 lo;		/* 0 */
	size_t			 len;		/* 8: text bytes dir[] maps */
	_Atomic(struct cell *)	 outside;	/* 16: call sites not in it */

	_Atomic(struct block *)	 blocks;
	_Atomic size_t		 nused;		/* direct cells claimed */
	_Atomic pid_t		 owner;		/* thread id, 0 if free */
	struct tbl		*next;
	struct _mon_tab		 spill;		/* counts in its slots */
	/* dir[len >> CHUNK], at DIROFF: chunk pointers, NULL until used */
};
_Static_assert(sizeof(struct tbl) <= DIROFF, "struct tbl overlaps dir[]");
_Static_assert(offsetof(struct tbl, outside) == 16, "mcount_entry.S: outside");

/* The chunk directory that follows the header. */
static inline _Atomic(struct cell *) *
chunkdir(struct tbl *t)
{
	return (_Atomic(struct cell *) *)((char *)t + DIROFF);
}

extern char __executable_start[] __attribute__((weak));
extern char etext[] __attribute__((weak));

volatile int _mon_counting;
static __thread int tried __attribute__((tls_model("initial-exec")));
/* The calling thread's table, read by mcount_entry.S. */
__thread struct {
	struct tbl		*tbl;		/* 0 */
	size_t			 len;		/* 8: its len, 0 without one */
} _mon_tls _mon_hidden __attribute__((tls_model("initial-exec")));

/*
 * mcount's gate: where the main program's text starts, page-aligned,
 * while counting is on, else an address no call site has (it is not
 * canonical), so that every call leaves the fast path where it takes
 * the home cell.  Read by mcount_entry.S.
 */
#define SHUT		((uintptr_t)1 << 63)
uintptr_t _mon_gate _mon_hidden = SHUT;

static _Atomic(struct tbl *) tables;
static _Atomic uint64_t uncounted;	/* calls with no cell to go to */
static _Atomic uint32_t counters;	/* threads that took a table */

/* Turn counting on or off. */
void
_mon_count_on(int on)
{
	_mon_counting = on;
	__atomic_store_n(&_mon_gate, on ? (uintptr_t)__executable_start &
	    ~(uintptr_t)0xfff : SHUT, __ATOMIC_RELAXED);
}

/* Has thread t of this process exited?  Async-signal-safe. */
static int
exited(pid_t t)
{
	return t == 0 || !_mon_alive(t);
}

static struct tbl *
newtbl(pid_t me)
{
	struct tbl *t;
	uintptr_t lo, hi;
	size_t nchunk, len;

	/* Page-aligned: mcount_entry.S finds the cell from frompc alone. */
	lo = (uintptr_t)__executable_start & ~(uintptr_t)0xfff;
	hi = (uintptr_t)etext;
	nchunk = lo != 0 && hi > lo ? ((hi - lo) >> CHUNK) + 1 : 0;
	len = DIROFF + nchunk * sizeof(struct cell *);
	if ((t = _mon_map(len)) == NULL)
		return NULL;
	t->lo = lo;
	t->len = nchunk << CHUNK;
	t->spill.bits0 = 10;		/* 16 KiB, up to 16 MiB */
	t->spill.nhash = 11;
	atomic_store(&t->owner, me);
	t->next = atomic_load(&tables);
	while (!atomic_compare_exchange_weak(&tables, &t->next, t))
		;
	return t;
}

/* A table for the calling thread: one left by a dead thread, or a new one. */
static struct tbl *
acquire(void)
{
	struct tbl *t;
	pid_t me, o;

	me = _mon_gettid();
	atomic_fetch_add_explicit(&counters, 1, memory_order_relaxed);
	for (t = atomic_load(&tables); t != NULL; t = t->next) {
		o = atomic_load(&t->owner);
		if (exited(o) &&
		    atomic_compare_exchange_strong(&t->owner, &o, me))
			return t;
	}
	return newtbl(me);
}

/*
 * A zeroed chunk of t, carved from its blocks, a new block mapped when
 * they are used up; NULL without memory.  Signal context.
 */
static struct cell *
chunk_new(struct tbl *t)
{
	struct block *b, *nb;
	size_t off, len;

	for (;;) {
		b = atomic_load(&t->blocks);
		if (b != NULL) {
			off = atomic_fetch_add(&b->off, CHUNKLEN);
			if (off + CHUNKLEN <= b->len)
				return (struct cell *)((char *)b + off);
		}
		len = b == NULL ? BLOCK0 : b->len < BLOCKMAX ? 2 * b->len :
		    BLOCKMAX;
		if ((nb = _mon_map(len)) == NULL)
			return NULL;
		nb->next = b;
		nb->len = len;
		atomic_store(&nb->off, BLOCKHDR);
		if (!atomic_compare_exchange_strong(&t->blocks, &b, nb))
			_mon_unmap(nb, len);	/* a signal handler's came first */
	}
}

/* Does cell c count the arc from -> self? */
static inline int
holds(struct cell *c, uintptr_t from, uintptr_t self)
{
	return atomic_load_explicit(&c->from, memory_order_relaxed) == from &&
	    c->self == self;
}

static int claim(struct tbl *, struct cell *, uintptr_t, uintptr_t);

/*
 * The direct cell of the arc from -> self in t, claimed now if need be,
 * its chunk made if need be; NULL if it has none.  An arc has two: its
 * call site's home cell, and the other one the call site and callee
 * pick together, for a second callee of a call through a pointer or a
 * call site whose home another took.  Both are found by
 * x86_64/mcount_entry.S.  A call site outside the main program's text
 * (libc calling a qsort comparator, a library built with -p) has only
 * the other cell, in the chunk all such call sites share.
 */
static struct cell *
direct(struct tbl *t, uintptr_t from, uintptr_t self)
{
	_Atomic(struct cell *) *dir;
	struct cell *c, *want, *home, *other;
	uintptr_t d;

	if (from == 0)
		return NULL;		/* 0 is a free cell's */
	d = from - t->lo;
	dir = from < t->lo || d >= t->len ? &t->outside :
	    &chunkdir(t)[d >> CHUNK];
	if ((c = atomic_load(dir)) == NULL) {
		if ((c = chunk_new(t)) == NULL)
			return NULL;
		want = NULL;
		if (!atomic_compare_exchange_strong(dir, &want, c))
			c = want;	/* the chunk carved stays unused */
	}
	other = &c[((from ^ self >> 2) >> GRAIN) & (CHUNKCELLS - 1)];
	if (dir == &t->outside)
		return holds(other, from, self) ||
		    claim(t, other, from, self) ? other : NULL;
	home = &c[(d >> GRAIN) & (CHUNKCELLS - 1)];
	if (holds(home, from, self))
		return home;
	if (holds(other, from, self))
		return other;
	if (claim(t, home, from, self))
		return home;
	return claim(t, other, from, self) ? other : NULL;
}

static inline void
bump(long *n)
{
	/* One instruction: a signal cannot split it. */
	__asm__ volatile("incq %0" : "+m"(*n));
}

/*
 * Claim c for the arc from -> self; 1 if c now counts it.  A handler
 * that interrupts between the two stores finds self unset and spills.
 */
static int
claim(struct tbl *t, struct cell *c, uintptr_t from, uintptr_t self)
{
	uintptr_t want;

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
	c->self = self;
	atomic_fetch_add_explicit(&t->nused, 1, memory_order_relaxed);
	return 1;
}

/*
 * mcount's slow path: the thread has no table yet, or the call from
 * from to self has no direct cell.  Called from x86_64/mcount_entry.S
 * with every argument register saved; may run in signal context, so it
 * only uses mmap and raw system calls.
 */
void
_mon_count(uintptr_t self, uintptr_t from)
{
	struct _mon_slot *s;
	struct tbl *t;
	struct cell *c;
	int err;

	if (!_mon_counting)
		return;
	if ((t = _mon_tls.tbl) == NULL) {
		/*
		 * Mapping a table may fail, and the program's errno is its
		 * own; a thread that got no table does not ask again on
		 * every call.
		 */
		err = errno;
		t = tried ? NULL : acquire();
		errno = err;
		if (t == NULL) {
			tried = 1;
			atomic_fetch_add_explicit(&uncounted, 1,
			    memory_order_relaxed);
			return;
		}
		_mon_tls.tbl = t;
		/* The table first: a handler may count between the stores. */
		atomic_signal_fence(memory_order_seq_cst);
		_mon_tls.len = t->len;
	}
	if ((c = direct(t, from, self)) != NULL) {
		bump(&c->count);
		return;
	}
	if (from == 0)
		from = 1;		/* the spill's keys are not 0 */
	if ((s = _mon_tab_slot(&t->spill, from, self)) != NULL)
		bump((long *)&s->count);
	else
		atomic_fetch_add_explicit(&uncounted, 1, memory_order_relaxed);
}

/* The chunks of block b: *np cells from the one returned. */
static struct cell *
block_cells(struct block *b, size_t *np)
{
	size_t end;

	end = atomic_load(&b->off);
	if (end > b->len)
		end = b->len;
	*np = (end - BLOCKHDR) / sizeof(struct cell);
	return (struct cell *)((char *)b + BLOCKHDR);
}

/*
 * Zero every count and every place: the pages go back to the kernel, so
 * that a fork child that only execs copies none of them.  Counting is
 * off, or only the calling thread exists (a fork child).
 */
void
_mon_cells_reset(void)
{
	struct tbl *t;
	struct block *b;
	uint32_t n;

	for (t = atomic_load(&tables); t != NULL; t = t->next) {
		for (b = atomic_load(&t->blocks); b != NULL; b = b->next)
			_mon_rezero((char *)b + BLOCKHDR, b->len - BLOCKHDR);
		_mon_tab_reset(&t->spill);
		atomic_store(&t->nused, 0);
	}
	atomic_store(&uncounted, 0);
	/* The threads counting now keep their tables: they count again. */
	n = 0;
	for (t = atomic_load(&tables); t != NULL; t = t->next)
		n += !exited(atomic_load(&t->owner));
	atomic_store(&counters, n);
}

/*
 * In a fork child only this thread exists: the parent's counts go, and
 * this thread keeps its table under its new thread id.
 */
void
_mon_cells_fork(void)
{
	_mon_cells_reset();
	atomic_store(&counters, _mon_tls.tbl != NULL);
	if (_mon_tls.tbl != NULL)
		atomic_store(&_mon_tls.tbl->owner, _mon_gettid());
}

uint64_t
_mon_cells_lost(void)
{
	return atomic_load(&uncounted);
}

/*
 * Threads that counted calls in this profile: each took a table, new or
 * left by a thread that had exited.
 */
uint32_t
_mon_cells_threads(void)
{
	return atomic_load(&counters);
}

/* Count tables made: a thread's outlives it and serves a later one. */
uint32_t
_mon_cells_tables(void)
{
	struct tbl *t;
	uint32_t n;

	n = 0;
	for (t = atomic_load(&tables); t != NULL; t = t->next)
		n++;
	return n;
}

/* Does arc a sort before arc b: by callee, then by call site? */
static int
before(const struct monx_arc *a, const struct monx_arc *b)
{
	return a->selfpc != b->selfpc ? a->selfpc < b->selfpc :
	    a->frompc < b->frompc;
}

/* Heap sort: no malloc, no recursion. */
static void
sift(struct monx_arc *a, size_t root, size_t n)
{
	struct monx_arc tmp;
	size_t child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && before(&a[child], &a[child + 1]))
			child++;
		if (!before(&a[root], &a[child]))
			return;
		tmp = a[root];
		a[root] = a[child];
		a[child] = tmp;
		root = child;
	}
}

static void
sortarcs(struct monx_arc *a, size_t n)
{
	struct monx_arc tmp;
	size_t i;

	for (i = n / 2; i-- > 0;)
		sift(a, i, n);
	for (i = n; i-- > 1;) {
		tmp = a[0];
		a[0] = a[i];
		a[i] = tmp;
		sift(a, 0, i);
	}
}

/*
 * Add n calls from -> self into the hash h of 2^bits arcs, of which
 * *room may still be taken.  Threads counting on (a snapshot) may claim
 * more cells than were measured: an arc that finds no room is left for
 * the next reading, and a slot always stays free to end a probe.
 */
static void
merge_one(struct monx_arc *h, unsigned int bits, uintptr_t from,
    uintptr_t self, uint64_t n, size_t *room)
{
	size_t j;

	if (from == 0 || self == 0 || n == 0)
		return;
	j = _mon_hash(from ^ (self << 17 | self >> 47), bits);
	while (h[j].count != 0 &&
	    (h[j].frompc != from || h[j].selfpc != self))
		j = (j + 1) & (((size_t)1 << bits) - 1);
	if (h[j].count == 0) {
		if (*room == 0)
			return;
		(*room)--;
	}
	h[j].frompc = from;
	h[j].selfpc = self;
	h[j].count += n;
}

/* Add the arcs of table t into the hash h of 2^bits arcs. */
static void
merge_tbl(struct monx_arc *h, unsigned int bits, struct tbl *t, size_t *room)
{
	struct _mon_slot *s;
	struct block *b;
	struct cell *c;
	unsigned int k;
	size_t i, n;

	for (b = atomic_load(&t->blocks); b != NULL; b = b->next)
		for (c = block_cells(b, &n), i = 0; i < n; i++)
			merge_one(h, bits, atomic_load(&c[i].from),
			    c[i].self, (uint64_t)c[i].count, room);
	for (k = 0; k < _MON_TABMAX; k++) {
		s = _mon_tab_hash(&t->spill, k, &n);
		for (i = 0; s != NULL && i < n; i++)
			merge_one(h, bits, atomic_load(&s[i].key),
			    atomic_load(&s[i].key2),
			    atomic_load(&s[i].count), room);
	}
}

/*
 * Sum the arcs of every table into one array sorted by callee, then call
 * site, arcs with no calls left out.  Returns mmap'd memory holding *np
 * arcs, which the caller gives back with _mon_unmap(p, *maplenp); or
 * NULL with both 0 when there is nothing or no memory.  Not for signal
 * context.
 */
struct monx_arc *
_mon_arcs_merge(size_t *np, size_t *maplenp)
{
	struct tbl *t;
	struct monx_arc *h;
	size_t total, cap, room, i, k;
	unsigned int bits;

	*np = *maplenp = 0;
	total = 0;
	for (t = atomic_load(&tables); t != NULL; t = t->next)
		total += atomic_load(&t->nused) + _mon_tab_keys(&t->spill);
	if (total == 0)
		return NULL;
	for (bits = 6, cap = 64; cap < 2 * total; bits++, cap <<= 1)
		;
	if ((h = _mon_map(cap * sizeof(*h))) == NULL)
		return NULL;
	*maplenp = cap * sizeof(*h);
	room = cap - 1;
	for (t = atomic_load(&tables); t != NULL; t = t->next)
		merge_tbl(h, bits, t, &room);
	for (i = k = 0; i < cap; i++)
		if (h[i].count != 0)
			h[k++] = h[i];
	sortarcs(h, k);
	*np = k;
	return h;
}

/*
 * The calls of each function: arcs a[0..n), sorted by callee, summed by
 * callee into c, which has room for n cells.  Returns the cells made.
 */
size_t
_mon_arcs_cells(const struct monx_arc *a, size_t n, struct cnt *c)
{
	size_t i, k;

	for (i = k = 0; i < n; i++) {
		if (k > 0 && (uintptr_t)c[k - 1].fnpc == a[i].selfpc) {
			c[k - 1].mcnt += (long)a[i].count;
			continue;
		}
		c[k].fnpc = (char *)(uintptr_t)a[i].selfpc;
		c[k].mcnt = (long)a[i].count;
		k++;
	}
	return k;
}

/*
 * mcount.c -- call counting for cc -p: the per-thread arc tables and the
 * slow path of mcount.
 *
 * mcount counts arcs: a call from a call site (frompc, the return
 * address in the caller) to a function (selfpc, the return address of
 * its mcount call).  A function's calls are the sum of the arcs into it,
 * made when the profile is written.  Every thread counts into a table of
 * its own, so the fast path in x86_64/mcount_entry.S writes nothing
 * another thread reads or writes.
 *
 * A table's cells are an array of 2^k, found from the call site's low
 * bits, so that the fast path costs a shift, a mask and an add before
 * the two compares of the arc:
 *
 *	home cell	cells[(frompc >> 2) % 2^k]
 *	other cell	cells[((frompc ^ selfpc >> 2) >> 2) % 2^k]
 *
 *	cell		+------+------+-------+-----+
 *			| from | self | count | pad |	32 bytes
 *			+------+------+-------+-----+
 *
 * Return addresses of two calls are at least 2 bytes apart and nearly
 * always 5, so the call sites of a stretch of 2^(k+2) bytes of text --
 * any text: the program's, a library's -- each have a home cell of
 * their own.  A call site whose home another took, or a call through a
 * pointer to a second callee (an interpreter's dispatch, a virtual
 * call), takes the other cell, which the fast path tries next.  Only
 * when an arc's two cells are taken does it go to the spill, an open
 * hash (table.c) that grows.  When a thread spills many arcs its array
 * is too small for the text it runs: it gets one four times larger,
 * and the old one keeps the counts it has.  Arrays are mapped, and the
 * kernel gives them pages only where cells are used; a map of touched
 * pages tells the writer where to look.
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

#define GRAIN		2		/* log2 bytes of text per home cell */
#define CELLS0		((size_t)1 << 14)	/* a table's first array */
#define CELLSMAX	((size_t)1 << 20)	/* 32 MiB: no larger */
#define PAGE		4096		/* of cells, a bit of the touched map */
#define SPAN		(64 * PAGE)	/* of cells, a word of the touched map */

/* An arc's cell; mcount_entry.S reads it at these offsets. */
struct cell {
	_Atomic uintptr_t	 from;		/* 0: call site; 0 if free */
	uintptr_t		 self;		/* 8: callee, set after from */
	long			 count;		/* 16 */
	long			 pad;
};
_Static_assert(sizeof(struct cell) == 32, "mcount_entry.S: cell size");
_Static_assert(CELLS0 * sizeof(struct cell) % SPAN == 0,
    "every array is whole words of its touched map");

/* An array of cells; a table's earlier ones keep their counts. */
struct arr {
	struct arr		*prev;
	struct cell		*cells;
	size_t			 ncells;	/* a power of 2 */
	size_t			 maplen;	/* of this header and touched[] */
	_Atomic uint64_t	 touched[];	/* a bit a page of cells */
};

struct tbl {
	_Atomic(struct arr *)	 arr;		/* the one counted into */
	_Atomic size_t		 nused;		/* cells claimed, all arrays */
	_Atomic pid_t		 owner;		/* thread id, 0 if free */
	struct tbl		*next;
	size_t			 spilled;	/* spill keys when arr came */
	size_t			 spills;	/* calls spilled since */
	struct _mon_tab		 spill;		/* counts in its slots */
};

/*
 * Where the calling thread counts, read by mcount_entry.S: its array's
 * cells, and (2^k - 1) * 32, the mask of a cell's byte in them.  A
 * thread with no table yet has the one cell nocell, which holds no arc,
 * so that its first call goes to the slow path.
 */
static struct cell nocell;
__thread struct {
	struct cell		*cells;		/* 0 */
	size_t			 mask;		/* 8 */
} _mon_tls _mon_hidden __attribute__((tls_model("initial-exec"))) =
    { &nocell, 0 };

volatile int _mon_counting;
static __thread int tried __attribute__((tls_model("initial-exec")));
static __thread struct tbl *mytbl __attribute__((tls_model("initial-exec")));

static _Atomic(struct tbl *) tables;
static _Atomic uint64_t uncounted;	/* calls with no cell to go to */
static _Atomic uint32_t counters;	/* threads that took a table */

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
	return n * sizeof(struct cell) / SPAN;
}

/* A new array of n cells, after prev; NULL without memory. */
static struct arr *
arr_new(size_t n, struct arr *prev)
{
	struct arr *a;
	size_t maplen;

	maplen = sizeof(*a) + arr_words(n) * sizeof(uint64_t);
	if ((a = _mon_map(maplen)) == NULL)
		return NULL;
	if ((a->cells = _mon_map(n * sizeof(struct cell))) == NULL) {
		_mon_unmap(a, maplen);
		return NULL;
	}
	a->prev = prev;
	a->ncells = n;
	a->maplen = maplen;
	return a;
}

static void
arr_free(struct arr *a)
{
	_mon_unmap(a->cells, a->ncells * sizeof(struct cell));
	_mon_unmap(a, a->maplen);
}

/*
 * Count into t's array from now on.  Every signal is blocked meanwhile:
 * a handler on this thread that grew the table between the two stores
 * would leave them naming two arrays, with the larger one's mask.
 */
static void
use(struct tbl *t)
{
	sigset_t all, was;
	struct arr *a;

	sigfillset(&all);
	(void)pthread_sigmask(SIG_SETMASK, &all, &was);
	a = atomic_load(&t->arr);
	_mon_tls.cells = a->cells;
	atomic_signal_fence(memory_order_seq_cst);
	_mon_tls.mask = (a->ncells - 1) * sizeof(struct cell);
	(void)pthread_sigmask(SIG_SETMASK, &was, NULL);
}

static struct tbl *
newtbl(pid_t me)
{
	struct tbl *t;
	struct arr *a;

	if ((t = _mon_map(sizeof(*t))) == NULL)
		return NULL;
	if ((a = arr_new(CELLS0, NULL)) == NULL) {
		_mon_unmap(t, sizeof(*t));
		return NULL;
	}
	atomic_store(&t->arr, a);
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
 * The calling thread spills: if its array is too small for the text it
 * runs -- many arcs spilled, or a few called often -- give it one four
 * times larger, up to CELLSMAX.  The old array keeps its counts for the
 * writer.  Signal context: a handler that grew the table first wins,
 * and this one's array goes back; either way the thread counts into the
 * table's newest.
 */
static void
grow(struct tbl *t)
{
	struct arr *a, *na;
	size_t keys;

	if (++t->spills % 1024 != 0)
		return;
	a = atomic_load(&t->arr);
	keys = _mon_tab_keys(&t->spill);
	if (a->ncells >= CELLSMAX || (t->spills < 2 * a->ncells &&
	    keys - t->spilled < a->ncells / 16))
		return;
	if ((na = arr_new(a->ncells * 4, a)) == NULL)
		return;
	if (!atomic_compare_exchange_strong(&t->arr, &a, na)) {
		arr_free(na);
		return;
	}
	t->spilled = keys;
	t->spills = 0;
	use(t);
}

/* Does cell c count the arc from -> self? */
static inline int
holds(struct cell *c, uintptr_t from, uintptr_t self)
{
	return atomic_load_explicit(&c->from, memory_order_relaxed) == from &&
	    c->self == self;
}

static int claim(struct tbl *, struct arr *, struct cell *, uintptr_t,
    uintptr_t);

/*
 * The cell of the arc from -> self in t, claimed now if need be; NULL if
 * both its cells hold other arcs.
 */
static struct cell *
direct(struct tbl *t, uintptr_t from, uintptr_t self)
{
	struct arr *a;
	struct cell *home, *other;
	size_t m;

	if (from == 0)
		return NULL;		/* 0 is a free cell's */
	a = atomic_load(&t->arr);
	m = a->ncells - 1;
	home = &a->cells[(from >> GRAIN) & m];
	other = &a->cells[((from ^ self >> 2) >> GRAIN) & m];
	if (holds(home, from, self))
		return home;
	if (holds(other, from, self))
		return other;
	if (claim(t, a, home, from, self))
		return home;
	return claim(t, a, other, from, self) ? other : NULL;
}

static inline void
bump(long *n)
{
	/* One instruction: a signal cannot split it. */
	__asm__ volatile("incq %0" : "+m"(*n));
}

/*
 * Claim c of array a for the arc from -> self; 1 if c now counts it.  A
 * handler that interrupts between the two stores finds self unset and
 * spills.
 */
static int
claim(struct tbl *t, struct arr *a, struct cell *c, uintptr_t from,
    uintptr_t self)
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
	pg = (size_t)(c - a->cells) * sizeof(*c) / PAGE;
	atomic_fetch_or_explicit(&a->touched[pg / 64], (uint64_t)1 << pg % 64,
	    memory_order_relaxed);
	atomic_fetch_add_explicit(&t->nused, 1, memory_order_relaxed);
	return 1;
}

/*
 * Was self's __fentry__ call made right after a push of r10?  gcc
 * pushes a GNU C nested function's static chain there, and nothing else
 * ends in those bytes at a function's start.  The call is 5 bytes (call
 * rel32), or 6: through the GOT, or with an addr32 prefix where the
 * link editor made that a direct call.  The 8 bytes before self are
 * read safely when some are on the page before.
 */
static int
pushed_r10(uintptr_t self)
{
	unsigned char b[8];
	int err, ok, i;

	if ((self & (PAGE - 1)) >= sizeof(b))
		for (i = 0; i < (int)sizeof(b); i++)
			b[i] = ((const unsigned char *)self)[i - 8];
	else {
		err = errno;
		ok = _mon_peek(getpid(), self - sizeof(b), b, sizeof(b));
		errno = err;
		if (!ok)
			return 0;
	}
	if (b[3] == 0xe8)
		i = b[2] == 0x67 ? 2 : 3;	/* the call's first byte */
	else if (b[2] == 0xff && b[3] == 0x15)
		i = 2;
	else
		return 0;
	return b[i - 2] == 0x41 && b[i - 1] == 0x52;	/* pushq %r10 */
}

/*
 * mcount's slow path: the thread has no table yet, or the arc from
 * from to self is in neither of the cells the fast path looks at.  up
 * is the word above from on __fentry__'s stack (0 from mcount): the
 * call site when gcc pushed r10 before the call, whose arc the fast
 * path never finds.  Called from x86_64/mcount_entry.S with every
 * argument register saved; may run in signal context, so it only uses
 * mmap and raw system calls.
 */
void
_mon_count(uintptr_t self, uintptr_t from, uintptr_t up)
{
	struct _mon_slot *s;
	struct tbl *t;
	struct cell *c;
	int err;

	if (!_mon_counting)
		return;
	if (up != 0 && pushed_r10(self))
		from = up;
	if ((t = mytbl) == NULL) {
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
		mytbl = t;
		use(t);
	}
	if ((c = direct(t, from, self)) != NULL) {
		bump(&c->count);
		return;
	}
	if (from == 0)
		from = 1;		/* the spill's keys are not 0 */
	if ((s = _mon_tab_slot(&t->spill, from, self)) != NULL) {
		bump((long *)&s->count);
		err = errno;
		grow(t);
		errno = err;
	} else
		atomic_fetch_add_explicit(&uncounted, 1, memory_order_relaxed);
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
	struct arr *a;
	size_t i;
	uint32_t n;

	for (t = atomic_load(&tables); t != NULL; t = t->next) {
		for (a = atomic_load(&t->arr); a != NULL; a = a->prev)
			for (i = 0; i < arr_words(a->ncells); i++) {
				if (atomic_load(&a->touched[i]) == 0)
					continue;
				_mon_rezero((char *)a->cells + i * SPAN, SPAN);
				atomic_store(&a->touched[i], 0);
			}
		_mon_tab_reset(&t->spill);
		t->spilled = t->spills = 0;
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
	atomic_store(&counters, mytbl != NULL);
	if (mytbl != NULL)
		atomic_store(&mytbl->owner, _mon_gettid());
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
	struct arr *a;
	struct cell *c;
	uint64_t w;
	unsigned int k;
	size_t wi, i, n;

	for (a = atomic_load(&t->arr); a != NULL; a = a->prev)
		for (wi = 0; wi < arr_words(a->ncells); wi++)
			for (w = atomic_load(&a->touched[wi]); w != 0;
			    w &= w - 1) {
				c = (struct cell *)((char *)a->cells +
				    wi * SPAN + (size_t)__builtin_ctzll(w) *
				    PAGE);
				for (i = 0; i < PAGE / sizeof(*c); i++)
					merge_one(h, bits,
					    atomic_load(&c[i].from), c[i].self,
					    (uint64_t)c[i].count, room);
			}
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

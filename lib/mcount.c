/*
 * mcount.c -- call counting for cc -p: the per-thread tables and the
 * slow path of mcount.
 *
 * Every thread counts into a table of its own, so the fast path in
 * x86_64/mcount_entry.S writes nothing another thread reads or writes:
 *
 *	struct tbl (one page)          slot[] (sparse, nslot cells)
 *	+--------------------+         +--------+--------+----
 *	| lo, nslot, slot  --+-------> | fnpc   | mcnt   | ...   cell i holds
 *	| spill, used, owner |         +--------+--------+----   a pc in
 *	| next               |                                   [lo+8i, lo+8i+8)
 *	+--------------------+         spill[]: open hash for pcs outside
 *	                               [lo, lo+8*nslot) or whose slot is taken
 *
 * The main program's text is mapped directly: a function's cell is
 * slot[(selfpc - lo) >> 3], found with one subtraction and no probe.
 * Return addresses of mcount calls are at least 7 bytes apart, so two
 * functions rarely share a slot; when they do, or when the pc is in a
 * shared library, the spill hash takes it.
 *
 * Cells are claimed with compare-and-swap on fnpc and counted with a
 * single increment instruction, so mcount may interrupt itself through
 * a signal handler on the same thread and lose nothing.  Nothing here
 * calls malloc; tables come from mmap.  A thread's table outlives the
 * thread and is taken over by the next new thread once the kernel says
 * its owner is gone, so counts are never lost and tables do not pile up.
 * At stop, the writer sums the cells of all tables by pc.
 */
#include <sys/syscall.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

#include "mon_private.h"

#define GRAIN		3		/* log2 bytes of text per direct slot */
#define NSPILL_BITS	14
#define NSPILL		(1u << NSPILL_BITS)	/* spill cells per thread */
#define NPROBE		32		/* spill cells tried before giving up */

struct tbl {
	/* Read by x86_64/mcount_entry.S at these offsets: keep them first. */
	uintptr_t		 lo;		/* 0 */
	size_t			 nslot;		/* 8 */
	struct cnt		*slot;		/* 16 */

	struct cnt		*spill;
	struct cnt		**used;		/* cells claimed, in order */
	_Atomic size_t		 nused;
	size_t			 maplen;	/* slot + spill + used */
	_Atomic pid_t		 owner;		/* thread id, 0 if free */
	struct tbl		*next;
};

extern char __executable_start[] __attribute__((weak));
extern char etext[] __attribute__((weak));

volatile int _mon_counting;
__thread struct tbl *_mon_tls_tbl _mon_hidden
    __attribute__((tls_model("initial-exec")));

static _Atomic(struct tbl *) tables;
static _Atomic uint64_t lost;		/* calls with no cell to go to */

/* Is thread t of this process gone?  Async-signal-safe. */
static int
gone(pid_t t)
{
	int saved, r;

	if (t == 0)
		return 1;
	saved = errno;
	r = syscall(SYS_tgkill, getpid(), t, 0) == -1 && errno == ESRCH;
	errno = saved;
	return r;
}

static struct tbl *
newtbl(pid_t me)
{
	struct tbl *t;
	uintptr_t lo, hi;
	size_t nslot, len;
	char *m;

	lo = (uintptr_t)__executable_start;
	hi = (uintptr_t)etext;
	nslot = lo != 0 && hi > lo ? ((hi - lo) >> GRAIN) + 1 : 0;
	len = nslot * sizeof(struct cnt) + NSPILL * sizeof(struct cnt) +
	    (nslot + NSPILL) * sizeof(struct cnt *);
	if ((t = _mon_map(sizeof(*t))) == NULL)
		return NULL;
	if ((m = _mon_map(len)) == NULL) {
		_mon_unmap(t, sizeof(*t));
		return NULL;
	}
	t->lo = lo;
	t->nslot = nslot;
	t->slot = (struct cnt *)m;
	t->spill = (struct cnt *)(m + nslot * sizeof(struct cnt));
	t->used = (struct cnt **)(m + (nslot + NSPILL) * sizeof(struct cnt));
	t->maplen = len;
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
	for (t = atomic_load(&tables); t != NULL; t = t->next) {
		o = atomic_load(&t->owner);
		if (gone(o) && atomic_compare_exchange_strong(&t->owner, &o, me))
			return t;
	}
	return newtbl(me);
}

static inline void
bump(struct cnt *c)
{
	/* One instruction: a signal cannot split it. */
	__asm__ volatile("incq %0" : "+m"(c->mcnt));
}

/* Claim c for pc; 1 if c now belongs to pc. */
static int
claim(struct tbl *t, struct cnt *c, uintptr_t pc)
{
	char *want;
	size_t n;

	want = NULL;
	if (!__atomic_compare_exchange_n(&c->fnpc, &want, (char *)pc, 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return want == (char *)pc;
	n = atomic_fetch_add_explicit(&t->nused, 1, memory_order_relaxed);
	t->used[n] = c;
	return 1;
}

static struct cnt *
spill(struct tbl *t, uintptr_t pc)
{
	struct cnt *c;
	size_t i, n;

	/* A bounded probe: a full table costs a lost count, not a scan. */
	i = _mon_hash(pc, NSPILL_BITS);
	for (n = 0; n < NPROBE; n++, i = (i + 1) & (NSPILL - 1)) {
		c = &t->spill[i];
		if (c->fnpc == (char *)pc)
			return c;
		if (c->fnpc == NULL && claim(t, c, pc))
			return c;
	}
	return NULL;
}

/*
 * mcount's slow path: the thread has no table yet, or pc has no direct
 * cell.  Called from x86_64/mcount_entry.S with every argument register
 * saved; may run in signal context, so it only uses mmap and raw system
 * calls.
 */
void
_mon_count(uintptr_t pc)
{
	struct tbl *t;
	struct cnt *c;
	size_t i;

	if (!_mon_counting)
		return;
	if ((t = _mon_tls_tbl) == NULL) {
		if ((t = acquire()) == NULL) {
			atomic_fetch_add_explicit(&lost, 1,
			    memory_order_relaxed);
			return;
		}
		_mon_tls_tbl = t;
	}
	i = (pc - t->lo) >> GRAIN;
	if (pc >= t->lo && i < t->nslot) {
		c = &t->slot[i];
		if (c->fnpc == (char *)pc || claim(t, c, pc)) {
			bump(c);
			return;
		}
	}
	if ((c = spill(t, pc)) != NULL)
		bump(c);
	else
		atomic_fetch_add_explicit(&lost, 1, memory_order_relaxed);
}

/* Zero every count, keeping the cells' places.  Other threads may run. */
void
_mon_cells_reset(void)
{
	struct tbl *t;
	size_t i, n;

	for (t = atomic_load(&tables); t != NULL; t = t->next) {
		n = atomic_load(&t->nused);
		for (i = 0; i < n; i++)
			if (t->used[i] != NULL)
				t->used[i]->mcnt = 0;
	}
	atomic_store(&lost, 0);
}

/*
 * In a fork child only this thread exists: the parent's counts go, and
 * this thread keeps its table under its new thread id.
 */
void
_mon_cells_fork(void)
{
	_mon_cells_reset();
	if (_mon_tls_tbl != NULL)
		atomic_store(&_mon_tls_tbl->owner, _mon_gettid());
}

uint64_t
_mon_cells_lost(void)
{
	return atomic_load(&lost);
}

uint32_t
_mon_cells_threads(void)
{
	struct tbl *t;
	uint32_t n;

	n = 0;
	for (t = atomic_load(&tables); t != NULL; t = t->next)
		n++;
	return n;
}

/* Heap sort by fnpc: no malloc, no recursion. */
static void
sift(struct cnt *a, size_t root, size_t n)
{
	struct cnt tmp;
	size_t child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && a[child + 1].fnpc > a[child].fnpc)
			child++;
		if (a[root].fnpc >= a[child].fnpc)
			return;
		tmp = a[root];
		a[root] = a[child];
		a[child] = tmp;
		root = child;
	}
}

static void
sortcells(struct cnt *a, size_t n)
{
	struct cnt tmp;
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
 * Sum the cells of every table by pc into one array sorted by pc, cells
 * with no calls left out.  Returns mmap'd memory holding *np cells, which
 * the caller gives back with _mon_unmap(p, *maplenp); or NULL with both
 * 0 when there is nothing or no memory.  Not for signal context.
 */
struct cnt *
_mon_cells_merge(size_t *np, size_t *maplenp)
{
	struct tbl *t;
	struct cnt *h, *out, *c;
	size_t total, cap, i, j, n, k;
	unsigned int bits;

	*np = *maplenp = 0;
	total = 0;
	for (t = atomic_load(&tables); t != NULL; t = t->next)
		total += atomic_load(&t->nused);
	if (total == 0)
		return NULL;
	for (bits = 6, cap = 64; cap < 2 * total; bits++, cap <<= 1)
		;
	if ((h = _mon_map(cap * sizeof(*h))) == NULL)
		return NULL;
	*maplenp = cap * sizeof(*h);
	for (t = atomic_load(&tables); t != NULL; t = t->next) {
		n = atomic_load(&t->nused);
		for (i = 0; i < n; i++) {
			if ((c = t->used[i]) == NULL || c->mcnt == 0)
				continue;
			j = _mon_hash((uintptr_t)c->fnpc, bits);
			while (h[j].fnpc != NULL && h[j].fnpc != c->fnpc)
				j = (j + 1) & (cap - 1);
			h[j].fnpc = c->fnpc;
			h[j].mcnt += c->mcnt;
		}
	}
	for (i = k = 0; i < cap; i++)
		if (h[i].fnpc != NULL)
			h[k++] = h[i];
	out = h;
	sortcells(out, k);
	*np = k;
	return out;
}

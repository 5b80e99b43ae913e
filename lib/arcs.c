/*
 * arcs.c -- the arcs of a profile: the count tables' cells summed by arc
 * (mcount.c keeps them; the same arc is counted in several places), then
 * sorted by callee and call site (arcsort.c) for the writer, and summed
 * by callee into the calls of each function.
 */
#include <stddef.h>
#include <stdint.h>

#include "mon_private.h"

/*
 * The arcs of the tables summed by arc in an open hash of 2^bits, mapped.
 * The same arc is in several tables -- a thread's own, each id's it ran
 * on, the spill -- so the hash is sized by the largest table and doubles
 * when three quarters full.  Threads counting on (a snapshot) may claim
 * cells after the tables were measured; without memory to grow, an arc
 * new to the hash is left out, whole, for the next reading.
 */
struct sum {
	struct monx_arc		*h;
	unsigned int		 bits;
	size_t			 n;		/* arcs in h */
};

static void sum_add(struct sum *, uintptr_t, uintptr_t, uint64_t);

/* Double s's hash; 0 without memory. */
static int
sum_grow(struct sum *s)
{
	struct sum ns;
	size_t i, cap;

	cap = (size_t)1 << s->bits;
	if ((ns.h = _mon_map_dense(2 * cap * sizeof(*ns.h), 0)) == NULL)
		return 0;
	ns.bits = s->bits + 1;
	ns.n = 0;
	for (i = 0; i < cap; i++)
		if (s->h[i].count != 0)
			sum_add(&ns, s->h[i].frompc, s->h[i].selfpc,
			    s->h[i].count);
	_mon_unmap(s->h, cap * sizeof(*s->h));
	*s = ns;
	return 1;
}

/* Add n calls from -> self. */
static void
sum_add(struct sum *s, uintptr_t from, uintptr_t self, uint64_t n)
{
	size_t j, mask;

	if (from == 0 || self == 0 || n == 0)
		return;
	for (;;) {
		mask = ((size_t)1 << s->bits) - 1;
		j = _mon_hash(from ^ (self << 17 | self >> 47), s->bits);
		while (s->h[j].count != 0 &&
		    (s->h[j].frompc != from || s->h[j].selfpc != self))
			j = (j + 1) & mask;
		if (s->h[j].count != 0) {
			s->h[j].count += n;	/* an arc already there */
			return;
		}
		if (s->n < ((size_t)3 << s->bits) / 4)
			break;
		if (!sum_grow(s))
			return;		/* a new arc, and no room */
	}
	s->h[j].frompc = from;
	s->h[j].selfpc = self;
	s->h[j].count = n;
	s->n++;
}

/* _mon_cells_each's callback: add n calls from -> self to the sum arg. */
static void
sum_cell(void *arg, uintptr_t from, uintptr_t self, uint64_t n)
{
	sum_add(arg, from, self, n);
}

/*
 * At stop, the cells are listed whole instead (_mon_arcs_merge): the
 * list grows in order as the tables give their pages back, so that the
 * peak stays the tables', and the sort's scratch comes once they are
 * gone.  Counting is off: only a call already under way may claim a
 * cell after the list was sized, and the slack is for those.
 */
struct list {
	struct monx_arc		*a;
	size_t			 n, cap;
	uint64_t		 lost;		/* calls with no room left */
};

/* _mon_cells_each's callback: list n calls from -> self in arg. */
static void
list_cell(void *arg, uintptr_t from, uintptr_t self, uint64_t n)
{
	struct list *l = arg;

	if (from == 0 || self == 0 || n == 0)
		return;
	if (l->n == l->cap) {
		l->lost += n;
		return;
	}
	l->a[l->n].frompc = from;
	l->a[l->n].selfpc = self;
	l->a[l->n].count = n;
	l->n++;
}

/* The final merge: list, give back, sort, sum neighbours.  See below. */
static struct monx_arc *
merge_final(size_t *np, size_t *maplenp)
{
	struct list l;
	struct monx_arc *scratch;
	size_t i, k, len;

	if ((l.cap = _mon_cells_all()) == 0)
		return NULL;
	l.cap += l.cap / 64 + 64;
	len = l.cap * sizeof(*l.a);
	if ((l.a = _mon_map_dense(len, 0)) == NULL)
		return NULL;
	l.n = 0;
	l.lost = 0;
	_mon_cells_each(list_cell, &l, 1);
	_mon_cells_lose(l.lost);
	scratch = _mon_map_dense(l.n * sizeof(*l.a), 0);
	_mon_arcs_sort(l.a, l.n, scratch);
	_mon_unmap(scratch, l.n * sizeof(*l.a));
	for (i = k = 0; i < l.n; i++)
		if (k > 0 && l.a[k - 1].selfpc == l.a[i].selfpc &&
		    l.a[k - 1].frompc == l.a[i].frompc)
			l.a[k - 1].count += l.a[i].count;
		else
			l.a[k++] = l.a[i];
	*np = k;
	*maplenp = len;
	return l.a;
}

/* _mon_cells_each's callback: n more calls in the sum arg, lost. */
static void
lose_cell(void *arg, uintptr_t from, uintptr_t self, uint64_t n)
{
	(void)from;
	(void)self;
	*(uint64_t *)arg += n;
}

/*
 * A snapshot's merge: the arcs summed into a hash sized by the table
 * that holds most, and sorted there.  See below.
 */
static struct monx_arc *
merge_sum(size_t *np, size_t *maplenp)
{
	struct sum s;
	size_t most, cap, i, k;

	if ((most = _mon_cells_most()) == 0)
		return NULL;
	for (s.bits = 6; ((size_t)3 << s.bits) / 4 < most + most / 4; s.bits++)
		;
	if ((s.h = _mon_map_dense(sizeof(*s.h) << s.bits, 0)) == NULL)
		return NULL;
	s.n = 0;
	_mon_cells_each(sum_cell, &s, 0);
	cap = (size_t)1 << s.bits;
	for (i = k = 0; i < cap; i++)
		if (s.h[i].count != 0)
			s.h[k++] = s.h[i];
	_mon_arcs_sort(s.h, k, cap - k >= k ? s.h + k : NULL);
	*np = k;
	*maplenp = cap * sizeof(*s.h);
	return s.h;
}

/*
 * Sum the arcs of every table into one array sorted by callee, then call
 * site, arcs with no calls left out.  Returns mmap'd memory holding *np
 * arcs, which the caller gives back with _mon_unmap(p, *maplenp); or
 * NULL with both 0 when there is nothing or no memory.
 *
 * A snapshot sums into the hash, which holds at least 4/3 of the arcs;
 * the sort uses the rest of it for scratch when that holds as many arcs
 * again, else maps its own.  If final, the profile is stopping, and the
 * tables give their pages back as they are read: the cells are listed,
 * sorted and their neighbours summed, so that writing at exit does not
 * raise the peak (a hash's pages would all be touched at once, before
 * the tables had given back much); without memory for the list, the
 * hash, and without memory for either, the calls are told lost
 * (_mon_cells_lose()), never left out unsaid.  Uses mmap only: a polite
 * termination runs it in a signal handler.
 */
struct monx_arc *
_mon_arcs_merge(size_t *np, size_t *maplenp, int final)
{
	struct monx_arc *a;
	uint64_t lost;

	*np = *maplenp = 0;
	if (!final)
		return merge_sum(np, maplenp);
	if ((a = merge_final(np, maplenp)) != NULL ||
	    (a = merge_sum(np, maplenp)) != NULL)
		return a;
	lost = 0;
	_mon_cells_each(lose_cell, &lost, 1);
	_mon_cells_lose(lost);
	return NULL;
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

/*
 * heap.c -- a binary heap of indices, for the sweeps that cut
 * overlapping ranges into pieces that do not overlap (read/perfmap.c: the
 * lines of a JIT's map, latest on top; read/place.c: a file's object
 * records, first on top).  The caller owns the array, sized for every
 * index it may push, and says which of two indices goes above.
 */
#include <stddef.h>

#include "util/util.h"

static void
swap(struct heap *h, size_t i, size_t j)
{
	size_t t = h->v[i];

	h->v[i] = h->v[j];
	h->v[j] = t;
}

static int
above(const struct heap *h, size_t i, size_t j)
{
	return h->above(h->ctx, h->v[i], h->v[j]);
}

/* Add x; the caller made room for it. */
void
heap_push(struct heap *h, size_t x)
{
	size_t i = h->n++;

	h->v[i] = x;
	for (; i > 0 && above(h, i, (i - 1) / 2); i = (i - 1) / 2)
		swap(h, i, (i - 1) / 2);
}

/* Take off the top, h->v[0]; the heap is not empty. */
void
heap_pop(struct heap *h)
{
	size_t i = 0, c;

	h->v[0] = h->v[--h->n];
	for (;;) {
		c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && above(h, c + 1, c))
			c++;
		if (!above(h, c, i))
			break;
		swap(h, i, c);
		i = c;
	}
}

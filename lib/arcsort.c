/*
 * arcsort.c -- the merged arcs in the writer's order: by callee (selfpc),
 * then by call site (frompc).
 *
 * A radix sort, least significant byte first, over the 16-byte key
 * selfpc:frompc: a pass a byte, each stable, from frompc's lowest byte
 * to selfpc's highest.  Bytes in which every arc agrees -- the high
 * bytes of addresses in one text -- sort nothing and are skipped, so a
 * million arcs in a program of 40 MB of text take some eight passes,
 * each a read of the arcs and a scattered write of them.  Each pass also
 * counts the next byte it will sort by, so the arcs are read once per
 * pass and once to find the bytes that differ.
 *
 * It runs where the writer runs -- at exit, in a polite signal's handler
 * on the program's stack -- so it takes no lock, calls no malloc and
 * does not recurse: the passes ping-pong between the arcs and a scratch
 * array of as many, which the caller gives or which is mapped here.
 * Without memory for one, a heap sort in place does the same.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mon_private.h"

#define RADIX	256
#define NBYTES	16		/* of the key: frompc's 8, then selfpc's */

/* Byte d of a's key, 0 the lowest of frompc, 15 the highest of selfpc. */
static inline unsigned int
keybyte(const struct monx_arc *a, unsigned int d)
{
	uint64_t k = d < 8 ? a->frompc : a->selfpc;

	return (unsigned int)(k >> (8 * (d % 8))) & (RADIX - 1);
}

/* Does arc a sort before arc b? */
static int
before(const struct monx_arc *a, const struct monx_arc *b)
{
	return a->selfpc != b->selfpc ? a->selfpc < b->selfpc :
	    a->frompc < b->frompc;
}

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

/* The sort with no memory to spare: slower, in place. */
static void
heap_sort(struct monx_arc *a, size_t n)
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
 * The bytes of the key in which some arcs differ, lowest first, into
 * d[]; their number.
 */
static unsigned int
differing(const struct monx_arc *a, size_t n, unsigned int *d)
{
	uint64_t from, self;
	unsigned int i, nd;
	size_t j;

	from = self = 0;
	for (j = 1; j < n; j++) {
		from |= a[j].frompc ^ a[0].frompc;
		self |= a[j].selfpc ^ a[0].selfpc;
	}
	nd = 0;
	for (i = 0; i < NBYTES; i++)
		if (((i < 8 ? from : self) >> (8 * (i % 8)) & (RADIX - 1)) != 0)
			d[nd++] = i;
	return nd;
}

/*
 * One stable pass: src's arcs into dst by byte d, whose counts cnt
 * holds; next[] gets the counts of byte nextd (if nextd < NBYTES).
 */
static void
pass(const struct monx_arc *src, struct monx_arc *dst, size_t n,
    unsigned int d, size_t *cnt, unsigned int nextd, size_t *next)
{
	size_t j, at, k;

	for (j = at = 0; j < RADIX; j++) {
		k = cnt[j];
		cnt[j] = at;
		at += k;
	}
	memset(next, 0, RADIX * sizeof(*next));
	if (nextd < NBYTES)
		for (j = 0; j < n; j++) {
			next[keybyte(&src[j], nextd)]++;
			dst[cnt[keybyte(&src[j], d)]++] = src[j];
		}
	else
		for (j = 0; j < n; j++)
			dst[cnt[keybyte(&src[j], d)]++] = src[j];
}

/*
 * Sort a[0..n) by selfpc, then frompc.  scratch is room for n arcs,
 * which the sort may write, or NULL: then it maps its own, and with no
 * memory sorts in place, more slowly.  No malloc, no lock, no
 * recursion; some 4 KiB of stack.
 */
void
_mon_arcs_sort(struct monx_arc *a, size_t n, struct monx_arc *scratch)
{
	struct monx_arc *src, *dst, *t, *mapped;
	size_t cnt[2][RADIX], j;
	unsigned int d[NBYTES], nd, i;

	if (n < 2)
		return;
	mapped = NULL;
	if (scratch == NULL &&
	    (scratch = mapped = _mon_map_dense(n * sizeof(*a), 0)) == NULL) {
		heap_sort(a, n);
		return;
	}
	if ((nd = differing(a, n, d)) == 0)
		goto out;
	memset(cnt[0], 0, sizeof(cnt[0]));
	for (j = 0; j < n; j++)
		cnt[0][keybyte(&a[j], d[0])]++;
	src = a;
	dst = scratch;
	for (i = 0; i < nd; i++) {
		pass(src, dst, n, d[i], cnt[i % 2],
		    i + 1 < nd ? d[i + 1] : NBYTES, cnt[(i + 1) % 2]);
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
out:
	_mon_unmap(mapped, n * sizeof(*a));
}

/*
 * sortsum.c -- sort an array, and add up the elements that are one.
 *
 * Counts at places, arcs between places or rows, stacks of frames: each
 * is gathered file by file and stack by stack with repeats, then sorted
 * so that equal ones are neighbours and folded into the first of them.
 * One loop for all, the order and the adding theirs.
 */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/*
 * Fold each run of the n sorted elements of size bytes at v that cmp
 * finds equal into its first element by add(first, other).  The
 * folded elements are gone; returns how many are left, in order.
 */
size_t
sumsorted(void *v, size_t n, size_t size, int (*cmp)(const void *,
    const void *), void (*add)(void *, const void *))
{
	unsigned char *b = v;
	size_t i, k;

	if (n == 0)
		return 0;
	for (i = 1, k = 0; i < n; i++) {
		if (cmp(b + k * size, b + i * size) == 0)
			add(b + k * size, b + i * size);
		else if (++k != i)
			memcpy(b + k * size, b + i * size, size);
	}
	return k + 1;
}

/* Sort v by cmp, then sumsorted(). */
size_t
sortsum(void *v, size_t n, size_t size, int (*cmp)(const void *,
    const void *), void (*add)(void *, const void *))
{
	unsigned char *b = v;
	size_t i;

	/* One file's cells and arcs come in order: no sort, no copy. */
	for (i = 1; i < n && cmp(b + (i - 1) * size, b + i * size) <= 0; i++)
		;
	if (i < n)
		qsort(v, n, size, cmp);
	return sumsorted(v, n, size, cmp, add);
}

/* *sum += v, held at UINT64_MAX rather than wrapped. */
void
addsat(uint64_t *sum, uint64_t v)
{
	if (__builtin_add_overflow(*sum, v, sum))
		*sum = UINT64_MAX;
}

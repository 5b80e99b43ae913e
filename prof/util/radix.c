/*
 * radix.c -- sort 64-bit keys by their digits, least significant first.
 *
 * The call graph's pairs and the stacks' frames come by the ten
 * million: qsort() compares each some twenty-four times through a
 * function pointer and, being glibc's merge sort, copies the whole
 * array aside.  Keys sort here in a few passes of 11 bits, each a
 * count and a scatter into the other buffer; a digit every key has
 * alike (the high bits of row ids, of addresses in one object) is
 * skipped.
 */
#include <stdint.h>
#include <string.h>

#include "util/util.h"

#define RBITS	11
#define RSIZE	(1U << RBITS)

/*
 * Sort v[0..n) in increasing order, tmp[0..n) the room to scatter into;
 * returns v or tmp, whichever holds the sorted keys.
 */
uint64_t *
radix_sort(uint64_t *v, uint64_t *tmp, size_t n)
{
	static size_t count[RSIZE];
	uint64_t *from = v, *to = tmp, *t, all = 0, any = 0;
	unsigned shift;
	size_t i, d, sum, c;

	/* Bits in which some keys differ: the others need no pass. */
	for (i = 0; i < n; i++) {
		all |= v[i];
		any |= ~v[i];
	}
	for (shift = 0; shift < 64; shift += RBITS) {
		if ((((all & any) >> shift) & (RSIZE - 1)) == 0)
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(from[i] >> shift) & (RSIZE - 1)]++;
		for (d = 0, sum = 0; d < RSIZE; d++) {
			c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++) {
			d = (from[i] >> shift) & (RSIZE - 1);
			to[count[d]++] = from[i];
		}
		t = from;
		from = to;
		to = t;
	}
	return from;
}

/*
 * Digits of 8 bits when a value comes along: a scatter of 16-byte pairs
 * into two arrays writes to 2 * 2^RBITS places at once, more pages than
 * the TLB holds, and ran at half the speed it does with 2 * 256.  All
 * digits are counted in one pass first.
 */
#define PBITS	8
#define PSIZE	(1U << PBITS)
#define PDIGITS	(64 / PBITS)

/*
 * radix_sort() of the keys k[0..n), each carrying its value v[i] along;
 * tk and tv the room to scatter into.  The sorted pairs end in k and v
 * (copied back from tk and tv if the passes were odd).
 */
void
radix_sort_pairs(uint64_t *k, uint64_t *v, uint64_t *tk, uint64_t *tv,
    size_t n)
{
	static size_t count[PDIGITS][PSIZE];
	uint64_t *fk = k, *fv = v, *ok = tk, *ov = tv, *t, all = 0, any = 0;
	unsigned p, shift;
	size_t i, d, sum, c, at, *cp;

	memset(count, 0, sizeof(count));
	for (i = 0; i < n; i++) {
		all |= k[i];
		any |= ~k[i];
		for (p = 0; p < PDIGITS; p++)
			count[p][(k[i] >> (p * PBITS)) & (PSIZE - 1)]++;
	}
	for (p = 0; p < PDIGITS; p++) {
		shift = p * PBITS;
		if ((((all & any) >> shift) & (PSIZE - 1)) == 0)
			continue;
		cp = count[p];
		for (d = 0, sum = 0; d < PSIZE; d++) {
			c = cp[d];
			cp[d] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++) {
			at = cp[(fk[i] >> shift) & (PSIZE - 1)]++;
			ok[at] = fk[i];
			ov[at] = fv[i];
		}
		t = fk, fk = ok, ok = t;
		t = fv, fv = ov, ov = t;
	}
	if (fk != k) {
		memcpy(k, fk, n * sizeof(*k));
		memcpy(v, fv, n * sizeof(*v));
	}
}

/*
 * namesort.c -- names ranked in strcmp's order, without strcmp.
 *
 * Sorting a million rows by name through qsort costs twenty million
 * strcmp calls, most of them over the same first letters.  A multikey
 * quicksort (Bentley and Sedgewick) looks at each letter of a name about
 * once: it splits the names on the letter at one depth into less, equal
 * and greater, and goes one letter deeper only with the equal part.
 * Letters compare as unsigned char, as strcmp's do, so the order is
 * strcmp's.  The sorters then compare ranks, which are integers.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define SMALL	12		/* fewer names than this: insertion sort */

struct nm {
	const unsigned char	*s;
	size_t			 i;
};

static void
swap(struct nm *v, size_t a, size_t b)
{
	struct nm t = v[a];

	v[a] = v[b];
	v[b] = t;
}

/* v[0..n), equal in their first d letters, by insertion. */
static void
insertion(struct nm *v, size_t n, size_t d)
{
	struct nm t;
	size_t i, j;

	for (i = 1; i < n; i++) {
		t = v[i];
		for (j = i; j > 0 && strcmp((const char *)v[j - 1].s + d,
		    (const char *)t.s + d) > 0; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

/* v[0..n), equal in their first d letters, in strcmp's order. */
static void
mkqsort(struct nm *v, size_t n, size_t d)
{
	size_t lt, gt, i;
	unsigned char p, c;

	while (n >= SMALL) {
		swap(v, 0, n / 2);
		p = v[0].s[d];
		/* v[0..lt) < p, v[lt..i) == p, v[gt..n) > p */
		for (lt = 0, i = 1, gt = n; i < gt; ) {
			c = v[i].s[d];
			if (c < p)
				swap(v, lt++, i++);
			else if (c > p)
				swap(v, i, --gt);
			else
				i++;
		}
		mkqsort(v, lt, d);
		mkqsort(v + gt, n - gt, d);
		if (p == '\0')
			return;		/* the equal part is equal whole */
		v += lt;
		n = gt - lt;
		d++;
	}
	insertion(v, n, d);
}

/*
 * The names of a run that share their first d letters, ranked from r:
 * v[0..n) in order by mkqsort(), then a rank more at each change.
 * Returns the last rank given.
 */
static size_t
rank_run(struct nm *v, size_t n, size_t d, size_t r, size_t *rank)
{
	size_t i;

	mkqsort(v, n, d);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp((const char *)v[i - 1].s + d,
		    (const char *)v[i].s + d) != 0)
			r++;
		rank[v[i].i] = r;
	}
	return r;
}

/*
 * rank[i] for each of the n names name[i]: its place among the distinct
 * names in strcmp's order, from 0.  Equal names have equal ranks.
 *
 * The names' first letters, as many whole bytes as fit beside the
 * index in 64 bits (five for a million names), are one key each,
 * radix-sorted (radix.c) with the index below them; only the runs that
 * share all those letters, and go on, are sorted further by mkqsort().
 * mkqsort() on a million names that differ only in their last few
 * letters walked all of them a letter at a time: 7% of -q's time.
 */
void
name_ranks(const char *const *name, size_t n, size_t *rank)
{
	uint64_t *k, *tmp, *sk, pre, mask;
	struct nm *v = NULL;
	const unsigned char *s;
	size_t i, j, a, r = 0, cap = 0, bits, nb;

	if (n == 0)
		return;
	for (bits = 1; bits < 64 && (n - 1) >> bits != 0; bits++)
		;
	nb = (64 - bits) / 8;
	mask = ((uint64_t)1 << bits) - 1;
	k = xcalloc(n, sizeof(*k));
	tmp = xcalloc(n, sizeof(*tmp));
	for (i = 0; i < n; i++) {
		s = (const unsigned char *)name[i];
		for (j = 0, pre = 0; j < nb; j++)
			pre = pre << 8 | (*s != '\0' ? *s++ : 0);
		k[i] = pre << bits | i;
	}
	sk = radix_sort(k, tmp, n);
	for (i = 0; i < n; i = j) {
		pre = sk[i] >> bits;
		for (j = i + 1; j < n && sk[j] >> bits == pre; j++)
			;
		if (i > 0)
			r++;
		if ((nb > 0 && (pre & 0xff) == 0) || j - i == 1) {
			/* Names that end within the key are equal. */
			for (; i < j; i++)
				rank[sk[i] & mask] = r;
			continue;
		}
		if (j - i > cap) {
			cap = j - i;
			free(v);
			v = xcalloc(cap, sizeof(*v));
		}
		for (a = i; i < j; i++) {
			v[i - a].s = (const unsigned char *)name[sk[i] & mask];
			v[i - a].i = (size_t)(sk[i] & mask);
		}
		r = rank_run(v, j - a, nb, r, rank);
	}
	free(v);
	free(k);
	free(tmp);
}

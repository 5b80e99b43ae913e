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
 * rank[i] for each of the n names name[i]: its place among the distinct
 * names in strcmp's order, from 0.  Equal names have equal ranks.
 */
void
name_ranks(const char *const *name, size_t n, size_t *rank)
{
	struct nm *v;
	size_t i, r;

	if (n == 0)
		return;
	v = xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++) {
		v[i].s = (const unsigned char *)name[i];
		v[i].i = i;
	}
	mkqsort(v, n, 0);
	for (i = 0, r = 0; i < n; i++) {
		if (i > 0 && strcmp((const char *)v[i - 1].s,
		    (const char *)v[i].s) != 0)
			r++;
		rank[v[i].i] = r;
	}
	free(v);
}

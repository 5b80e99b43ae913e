/*
 * xmalloc.c -- allocation for prof: every size that comes from a product
 * is checked before it reaches malloc, and running out of memory ends
 * the program with one line instead of returning NULL to callers that
 * would have to check it everywhere.
 *
 * A block of BIGBLOCK bytes or more is advised to the kernel for
 * transparent huge pages (where it gives them on request, the default
 * of most distributions).  prof's big arrays -- the profile read whole,
 * the cells, the entries of a million functions -- are filled once from
 * end to end, and on 4 KiB pages each page is a fault: 140,000 of them
 * reading a profile of a million arcs, a third of prof's CPU time and
 * more under a hypervisor.  A huge page is one fault for 512 and fewer
 * TLB misses as the arrays are walked.  The blocks are filled whole, so
 * the resident size hardly changes.
 */
#include <sys/mman.h>

#include <err.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define BIGBLOCK	((size_t)1 << 21)	/* a huge page's size */
#define SMALLPAGE	((uintptr_t)4096)

/* Ask for huge pages under the n bytes at p, if there are enough. */
static void *
huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	uintptr_t from, to;

	if (n < BIGBLOCK)
		return p;
	from = ((uintptr_t)p + SMALLPAGE - 1) & ~(SMALLPAGE - 1);
	to = ((uintptr_t)p + n) & ~(SMALLPAGE - 1);
	(void)madvise((void *)from, to - from, MADV_HUGEPAGE);
#else
	(void)n;
#endif
	return p;
}

/*
 * realloc(p, n) for a block of huge pages: advised before the copy, not
 * after it, so that the copy does not fault in the new block 4 KiB at a
 * time (glibc's realloc copies a block of the heap that cannot grow in
 * place, and the tail of an mremap()ed one is unadvised).
 */
static void *
big_realloc(void *p, size_t n)
{
	void *q;
	size_t had;

#ifdef __GLIBC__
	had = malloc_usable_size(p);
#else
	had = 0;
#endif
	if (had == 0 || had >= n) {
		if ((q = realloc(p, n)) == NULL)
			err(1, NULL);
		return huge(q, n);
	}
	if ((q = malloc(n)) == NULL)
		err(1, NULL);
	memcpy(huge(q, n), p, had);
	free(p);
	return q;
}

void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n == 0 ? 1 : n)) == NULL)
		err(1, NULL);
	return huge(p, n);
}

void *
xcalloc(size_t n, size_t size)
{
	void *p;

	if (n == 0 || size == 0)
		n = size = 1;
	if ((p = calloc(n, size)) == NULL)
		err(1, NULL);
	return huge(p, n * size);
}

/* realloc(p, n * size), refusing a product that does not fit. */
void *
xreallocarray(void *p, size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		errx(1, "out of memory: %zu * %zu bytes", n, size);
	if (bytes >= BIGBLOCK && p != NULL)
		return big_realloc(p, bytes);
	if ((p = realloc(p, bytes == 0 ? 1 : bytes)) == NULL)
		err(1, NULL);
	return huge(p, bytes);
}

/*
 * v, an array of *cap elements of size bytes, *len of them used, with
 * room for n more: it grows by half its size at least, so that adding
 * elements one at a time costs O(1) each.
 */
void *
xgrow(void *v, size_t *cap, size_t len, size_t n, size_t size)
{
	size_t want, more;

	if (__builtin_add_overflow(len, n, &want))
		errx(1, "out of memory: %zu + %zu elements", len, n);
	if (want <= *cap && v != NULL)
		return v;
	more = *cap / 2 < 16 ? 16 : *cap / 2;
	if (want < *cap + more && *cap <= SIZE_MAX - more)
		want = *cap + more;
	*cap = want;
	return xreallocarray(v, *cap, size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* The first n bytes of s (fewer if s ends sooner), NUL-terminated. */
char *
xstrndup(const char *s, size_t n)
{
	char *p;

	n = strnlen(s, n);
	if (n == SIZE_MAX)
		errx(1, "out of memory");
	p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/*
 * Give the heap's free pages back to the system.  glibc raises its mmap
 * threshold as big blocks are freed, so that the reader's temporaries
 * of a million elements land in the heap and, freed, stay resident
 * below what is still in use: tens of megabytes that no later array of
 * that size reuses.  Called between steps; elsewhere a no-op.
 */
void
heap_trim(void)
{
#ifdef __GLIBC__
	(void)malloc_trim(0);
#endif
}

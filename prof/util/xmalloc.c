/*
 * xmalloc.c -- allocation for prof: every size that comes from a product
 * is checked before it reaches malloc, and running out of memory ends
 * the program with one line instead of returning NULL to callers that
 * would have to check it everywhere.
 *
 * The memory under a block of BIGBLOCK bytes or more is advised to the
 * kernel for transparent huge pages (which it gives when
 * /sys/kernel/mm/transparent_hugepage/enabled says madvise, the default
 * of most distributions, or always).  prof's big arrays -- the profile
 * read whole, the cells, the entries of a million functions -- are
 * filled once from end to end, and on 4 KiB pages each page is a fault:
 * 140,000 of them reading a profile of a million arcs, a third of
 * prof's CPU time and more under a hypervisor.  A huge page is one
 * fault for 512 and fewer TLB misses as the arrays are walked.  The
 * blocks are filled whole, so the resident size hardly changes.  The
 * advice stays with the addresses after free(): glibc may put smaller
 * blocks there later, on huge pages too.
 */
#include <sys/mman.h>

#include <err.h>
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

#define BIGBLOCK	((size_t)1 << 21)	/* a huge page's size */

/*
 * Ask for huge pages under the whole pages of the n bytes at p, if
 * there are enough; p.  errno is kept: a kernel without transparent
 * huge pages refuses the advice, and callers such as the exports
 * report errno from before an allocation.
 */
static void *
huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	static uintptr_t pg;
	uintptr_t from, to;
	int e;

	if (n < BIGBLOCK)
		return p;
	if (pg == 0)
		pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	from = ((uintptr_t)p + pg - 1) & ~(pg - 1);
	to = ((uintptr_t)p + n) & ~(pg - 1);
	e = errno;
	if (to > from)
		(void)madvise((void *)from, to - from, MADV_HUGEPAGE);
	errno = e;
#else
	(void)n;
#endif
	return p;
}

/*
 * realloc(p, n) for a block of huge pages, growing: a new block advised
 * before the copy, so that the copy does not fault it in 4 KiB at a
 * time.  glibc's realloc would copy into unadvised memory: a block of
 * the heap that cannot grow in place is copied, and so is a block of
 * its own mapping once huge() has split that mapping, which mremap()
 * then refuses to grow.  The old and new blocks are resident together
 * for the copy, as they would be in realloc.  (Without glibc's
 * malloc_usable_size(), realloc as ever, advised after.)
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

/*
 * xmalloc.c -- allocation for prof: every size that comes from a product
 * is checked before it reaches malloc, and running out of memory ends
 * the program with one line instead of returning NULL to callers that
 * would have to check it everywhere.
 */
#include <err.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n == 0 ? 1 : n)) == NULL)
		err(1, NULL);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p;

	if (n == 0 || size == 0)
		n = size = 1;
	if ((p = calloc(n, size)) == NULL)
		err(1, NULL);
	return p;
}

/* realloc(p, n * size), refusing a product that does not fit. */
void *
xreallocarray(void *p, size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		errx(1, "out of memory: %zu * %zu bytes", n, size);
	if ((p = realloc(p, bytes == 0 ? 1 : bytes)) == NULL)
		err(1, NULL);
	return p;
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

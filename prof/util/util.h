/*
 * util.h -- what every room of prof uses: allocation that cannot fail,
 * sorting with summing, a heap of indices, text made printable.
 *
 *	xmalloc.c	allocation that cannot return NULL or overflow
 *	sortsum.c	sorting, and adding up what is equal
 *	radix.c		sorting 64-bit keys by their digits
 *	heap.c		the heap the range-cutting sweeps share
 *	namesort.c	names ranked in strcmp's order
 *	printable.c	text from files made fit for a terminal
 *	deflate.c	the code tables of deflate, written and read
 *	crc32.c		the CRC-32 of gzip and of debuglinks
 */
#ifndef _UTIL_H
#define _UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A heap of indices; above(ctx, a, b): a goes above b (heap.c). */
struct heap {
	size_t		*v;
	size_t		 n;
	int		(*above)(const void *, size_t, size_t);
	const void	*ctx;
};

/* crc32.c: the CRC-32 of p[0..n), continued from crc (0 to start) */
uint32_t crc32_add(uint32_t, const unsigned char *, size_t);

/* deflate.c: base and extra bits of length and distance codes */
extern const uint16_t deflate_lbase[29], deflate_dbase[30];
extern const uint8_t deflate_lextra[29], deflate_dextra[30];

/* printable.c */
char	*printable(const char *);
void	put_text(FILE *, const char *);

/* heap.c */
void	heap_push(struct heap *, size_t);
void	heap_pop(struct heap *);

/* namesort.c */
void	name_ranks(const char *const *, size_t, size_t *);

/* radix.c */
uint64_t *radix_sort(uint64_t *, uint64_t *, size_t);
void	radix_sort_pairs(uint64_t *, uint64_t *, uint64_t *, uint64_t *,
	    size_t);

/* sortsum.c */
size_t	sortsum(void *, size_t, size_t, int (*)(const void *, const void *),
	    void (*)(void *, const void *));
size_t	sumsorted(void *, size_t, size_t, int (*)(const void *,
	    const void *), void (*)(void *, const void *));
void	addsat(uint64_t *, uint64_t);

/* xmalloc.c */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
void	*xgrow(void *, size_t *, size_t, size_t, size_t);
void	 heap_trim(void);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);

#endif /* !_UTIL_H */

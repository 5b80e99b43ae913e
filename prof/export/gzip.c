/*
 * gzip.c -- a gzip member (RFC 1952) of one deflate block (RFC 1951)
 * with the fixed Huffman codes, for prof -F pprof: profile ingest
 * services take profile.proto gzipped, and prof must not depend on
 * zlib for it.
 *
 * Matches are found greedily through a hash of the next three bytes
 * and a chain of earlier positions with the same hash, at most CHAIN
 * of them tried, within the 32 KiB window.  A protobuf profile repeats
 * its tags, varints and strings, so this gets most of what a full
 * deflate would; the fixed codes spare the writer building trees, and
 * leave at most a few per cent on the table.  Data they would make
 * longer is stored instead.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export/xset.h"
#include "util/util.h"

#define WINDOW		32768
#define HBITS		15
#define CHAIN		64		/* earlier positions tried a match */
#define MINMATCH	3
#define MAXMATCH	258
#define NIL		UINT32_MAX

/* The output, written a bit at a time from the low bits of each byte. */
struct bits {
	unsigned char	*p;
	size_t		 len, cap;
	uint32_t	 acc;		/* bits not yet a whole byte */
	unsigned	 n;
};

static void
put_byte(struct bits *b, unsigned char c)
{
	b->p = xgrow(b->p, &b->cap, b->len, 1, 1);
	b->p[b->len++] = c;
}

/* n (<= 16) bits of v, low bit first, as deflate's extra bits go. */
static void
put_bits(struct bits *b, uint32_t v, unsigned n)
{
	b->acc |= (v & ((1u << n) - 1)) << b->n;
	b->n += n;
	while (b->n >= 8) {
		put_byte(b, b->acc & 0xff);
		b->acc >>= 8;
		b->n -= 8;
	}
}

/* A Huffman code of n bits: its high bit goes first. */
static void
put_code(struct bits *b, uint32_t code, unsigned n)
{
	uint32_t r = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		r |= ((code >> i) & 1) << (n - 1 - i);
	put_bits(b, r, n);
}

/* Literal/length symbol s in the fixed code (RFC 1951, 3.2.6). */
static void
put_sym(struct bits *b, unsigned s)
{
	if (s < 144)
		put_code(b, 0x30 + s, 8);
	else if (s < 256)
		put_code(b, 0x190 + s - 144, 9);
	else if (s < 280)
		put_code(b, s - 256, 7);
	else
		put_code(b, 0xc0 + s - 280, 8);
}

/* A match of len bytes, dist back: length and distance codes. */
static void
put_match(struct bits *b, unsigned len, unsigned dist)
{
	static const uint16_t lbase[29] = {
		3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
		35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258
	};
	static const uint8_t lextra[29] = {
		0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
		3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0
	};
	static const uint16_t dbase[30] = {
		1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
		257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
		8193, 12289, 16385, 24577
	};
	static const uint8_t dextra[30] = {
		0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
		7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13
	};
	unsigned i;

	for (i = 28; lbase[i] > len; i--)
		continue;
	put_sym(b, 257 + i);
	put_bits(b, len - lbase[i], lextra[i]);
	for (i = 29; dbase[i] > dist; i--)
		continue;
	put_code(b, i, 5);
	put_bits(b, dist - dbase[i], dextra[i]);
}

static uint32_t
hash3(const unsigned char *p)
{
	uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];

	return (v * 2654435761u) >> (32 - HBITS);
}

/* The longest match for in[i..n) among the positions chained to it. */
static unsigned
longest(const unsigned char *in, size_t i, size_t n, const uint32_t *head,
    const uint32_t *prev, unsigned *dist)
{
	size_t max = n - i < MAXMATCH ? n - i : MAXMATCH;
	unsigned best = 0, k, tries;
	uint32_t j;

	j = head[hash3(in + i)];
	for (tries = 0; j != NIL && i - j <= WINDOW && tries < CHAIN;
	    tries++) {
		for (k = 0; k < max && in[j + k] == in[i + k]; k++)
			continue;
		if (k > best) {
			best = k;
			*dist = (unsigned)(i - j);
			if (k == max)
				break;
		}
		j = prev[j % WINDOW];
	}
	return best;
}

/* Chain position i under the hash of its three bytes. */
static void
insert(const unsigned char *in, size_t i, size_t n, uint32_t *head,
    uint32_t *prev)
{
	uint32_t h;

	if (n - i < MINMATCH)
		return;
	h = hash3(in + i);
	prev[i % WINDOW] = head[h];
	head[h] = (uint32_t)i;
}

/* in[0..n) as one final fixed-Huffman block. */
static void
deflate(struct bits *b, const unsigned char *in, size_t n)
{
	uint32_t *head, *prev;
	unsigned len, dist = 0;
	size_t i, k;

	head = xcalloc((size_t)1 << HBITS, sizeof(*head));
	prev = xcalloc(WINDOW, sizeof(*prev));
	memset(head, 0xff, ((size_t)1 << HBITS) * sizeof(*head));
	put_bits(b, 1, 1);		/* BFINAL */
	put_bits(b, 1, 2);		/* BTYPE 01: fixed codes */
	for (i = 0; i < n; ) {
		len = n - i >= MINMATCH ? longest(in, i, n, head, prev,
		    &dist) : 0;
		if (len >= MINMATCH) {
			put_match(b, len, dist);
			for (k = 0; k < len; k++)
				insert(in, i + k, n, head, prev);
			i += len;
		} else {
			put_sym(b, in[i]);
			insert(in, i, n, head, prev);
			i++;
		}
	}
	put_sym(b, 256);
	if (b->n > 0)
		put_bits(b, 0, 8 - b->n);
	free(head);
	free(prev);
}

/*
 * in[0..n) as stored blocks, for data that the fixed codes would make
 * longer (already compressed, or random): 5 bytes a 64 KiB block more.
 */
static void
store(struct bits *b, const unsigned char *in, size_t n)
{
	size_t k;

	do {
		k = n < 65535 ? n : 65535;
		put_bits(b, k == n, 1);		/* BFINAL */
		put_bits(b, 0, 2);		/* BTYPE 00: stored */
		if (b->n > 0)
			put_bits(b, 0, 8 - b->n);
		put_bits(b, (uint32_t)k, 16);
		put_bits(b, (uint32_t)k ^ 0xffff, 16);
		if (k > 0) {
			b->p = xgrow(b->p, &b->cap, b->len, k, 1);
			memcpy(b->p + b->len, in, k);
			b->len += k;
			in += k;
			n -= k;
		}
	} while (n > 0);
}

/* The CRC-32 of ISO 3309 (gzip's, zlib's), continued from crc. */
uint32_t
crc32_add(uint32_t crc, const unsigned char *p, size_t n)
{
	static uint32_t table[256];
	uint32_t c;
	size_t i;
	unsigned k;

	if (table[1] == 0) {
		for (i = 0; i < 256; i++) {
			c = (uint32_t)i;
			for (k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	c = ~crc;
	for (i = 0; i < n; i++)
		c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

static void
put_le32(struct bits *b, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		put_byte(b, (v >> (8 * i)) & 0xff);
}

/*
 * in[0..n) as a gzip file in fresh memory, its length in *outlen: no
 * name, no time (the profile carries its own), OS "unknown".
 */
unsigned char *
gzip_encode(const unsigned char *in, size_t n, size_t *outlen)
{
	static const unsigned char head[10] = {
		0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255
	};
	struct bits b;
	size_t i;

	memset(&b, 0, sizeof(b));
	for (i = 0; i < sizeof(head); i++)
		put_byte(&b, head[i]);
	deflate(&b, in, n);
	if (b.len - sizeof(head) > n + 5 * (n / 65535 + 1)) {
		b.len = sizeof(head);
		store(&b, in, n);
	}
	put_le32(&b, crc32_add(0, in, n));
	put_le32(&b, (uint32_t)n);
	*outlen = b.len;
	return b.p;
}

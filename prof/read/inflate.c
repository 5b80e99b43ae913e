/*
 * inflate.c -- a zlib stream undone: what an ELF section compressed
 * with ELFCOMPRESS_ZLIB holds (gcc -gz, objcopy --compress-debug-
 * sections, and the separate debug files distributions ship), so that
 * the line table (dwline.c) of such a file is read as of any other.
 *
 * RFC 1950's wrapper (two bytes of header, an Adler-32 of the data at
 * the end) around RFC 1951's blocks: stored, fixed Huffman codes, or
 * codes of their own.  The output's size is known beforehand (the
 * section's compression header gives it), so the data is written
 * straight into a buffer of that size and nothing past it; a stream
 * that would write more, ends short of it, reads past its input,
 * refers back before the output's start, holds a code no table has or
 * a table no code can be read with, or whose checksum is wrong, is
 * refused whole.  Every step reads input or ends the stream, so no
 * input makes it loop.
 */
#include <stdint.h>
#include <string.h>

#include "read/read.h"
#include "util/util.h"

#define MAXBITS		15		/* longest code */
#define NLITLEN		288		/* literal/length symbols, 2 unused */
#define NDIST		30		/* distance symbols */

/* The input, read a bit at a time, least significant first. */
struct in {
	const unsigned char *p;
	size_t		 len, pos;
	uint32_t	 bits;		/* fewer than 8 left over between reads */
	unsigned	 nbits;
	int		 bad;
};

/* A canonical Huffman code: codes of each length, symbols by code. */
struct huff {
	uint16_t	 count[MAXBITS + 1];
	uint16_t	 sym[NLITLEN];
};

/* n bits (n <= 16) of the input; past its end, 0 and bad set. */
static unsigned
bits(struct in *s, unsigned n)
{
	unsigned v;

	while (s->nbits < n) {
		if (s->pos >= s->len) {
			s->bad = 1;
			return 0;
		}
		s->bits |= (uint32_t)s->p[s->pos++] << s->nbits;
		s->nbits += 8;
	}
	v = s->bits & ((1U << n) - 1);
	s->bits >>= n;
	s->nbits -= n;
	return v;
}

/*
 * The code of n symbols of these lengths.  0, or -1 for lengths that
 * give some symbols more codes than there are; a code with codes left
 * over is kept (one distance code is allowed to be), and a bit string
 * it lacks is an error when decoded.
 */
static int
build(struct huff *h, const uint8_t *len, size_t n)
{
	uint16_t off[MAXBITS + 1];
	size_t i;
	int left;

	memset(h->count, 0, sizeof(h->count));
	for (i = 0; i < n; i++)
		h->count[len[i]]++;
	left = 1;
	for (i = 1; i <= MAXBITS; i++) {
		left = left * 2 - h->count[i];
		if (left < 0)
			return -1;
	}
	off[1] = 0;
	for (i = 1; i < MAXBITS; i++)
		off[i + 1] = off[i] + h->count[i];
	for (i = 0; i < n; i++)
		if (len[i] != 0)
			h->sym[off[len[i]]++] = (uint16_t)i;
	return 0;
}

/* The next symbol of code h, or -1. */
static int
decode(struct in *s, const struct huff *h)
{
	int code = 0, first = 0, index = 0, count, n;

	for (n = 1; n <= MAXBITS; n++) {
		code |= (int)bits(s, 1);
		if (s->bad)
			return -1;
		count = h->count[n];
		if (code - first < count)
			return h->sym[index + code - first];
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -1;
}

/* The data of one block of Huffman codes, into out[*at .. outlen). */
static int
codes(struct in *s, const struct huff *lit, const struct huff *dist,
    unsigned char *out, size_t outlen, size_t *at)
{
	size_t len, d;
	int sym;

	for (;;) {
		if ((sym = decode(s, lit)) < 0)
			return -1;
		if (sym < 256) {
			if (*at >= outlen)
				return -1;
			out[(*at)++] = (unsigned char)sym;
			continue;
		}
		if (sym == 256)
			return 0;
		if ((sym -= 257) >= 29)
			return -1;
		len = deflate_lbase[sym] + bits(s, deflate_lextra[sym]);
		if ((sym = decode(s, dist)) < 0 || sym >= NDIST)
			return -1;
		d = deflate_dbase[sym] + bits(s, deflate_dextra[sym]);
		if (s->bad || d > *at || len > outlen - *at)
			return -1;
		for (; len > 0; len--, (*at)++)
			out[*at] = out[*at - d];
	}
}

/* A stored block: its bytes as they are. */
static int
stored(struct in *s, unsigned char *out, size_t outlen, size_t *at)
{
	size_t n;

	s->bits = 0;			/* to the byte: what is left of it */
	s->nbits = 0;
	if (s->len - s->pos < 4)
		return -1;
	n = s->p[s->pos] | (size_t)s->p[s->pos + 1] << 8;
	if ((n ^ (s->p[s->pos + 2] | (size_t)s->p[s->pos + 3] << 8)) !=
	    0xffff)
		return -1;
	s->pos += 4;
	if (n > s->len - s->pos || n > outlen - *at)
		return -1;
	memcpy(out + *at, s->p + s->pos, n);
	s->pos += n;
	*at += n;
	return 0;
}

static int
fixed(struct in *s, unsigned char *out, size_t outlen, size_t *at)
{
	struct huff lit, dist;
	uint8_t len[NLITLEN];
	size_t i;

	for (i = 0; i < NLITLEN; i++)
		len[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
	(void)build(&lit, len, NLITLEN);
	for (i = 0; i < NDIST; i++)
		len[i] = 5;
	(void)build(&dist, len, NDIST);
	return codes(s, &lit, &dist, out, outlen, at);
}

/* A block with codes of its own, their lengths coded first. */
static int
dynamic(struct in *s, unsigned char *out, size_t outlen, size_t *at)
{
	static const uint8_t order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
	};
	struct huff lit, dist, cl;
	uint8_t len[NLITLEN + NDIST];
	unsigned nlit, ndist, ncl, i, n, rep;
	int sym;

	nlit = bits(s, 5) + 257;
	ndist = bits(s, 5) + 1;
	ncl = bits(s, 4) + 4;
	if (s->bad || nlit > 286 || ndist > NDIST)
		return -1;
	memset(len, 0, sizeof(len));
	for (i = 0; i < ncl; i++)
		len[order[i]] = (uint8_t)bits(s, 3);
	if (s->bad || build(&cl, len, 19) != 0)
		return -1;
	for (n = 0; n < nlit + ndist; ) {
		if ((sym = decode(s, &cl)) < 0)
			return -1;
		if (sym < 16) {
			len[n++] = (uint8_t)sym;
			continue;
		}
		if (sym == 16) {
			if (n == 0)
				return -1;
			rep = 3 + bits(s, 2);
			sym = len[n - 1];
		} else {
			rep = sym == 17 ? 3 + bits(s, 3) : 11 + bits(s, 7);
			sym = 0;
		}
		if (s->bad || rep > nlit + ndist - n)
			return -1;
		while (rep-- > 0)
			len[n++] = (uint8_t)sym;
	}
	if (len[256] == 0 || build(&lit, len, nlit) != 0 ||
	    build(&dist, len + nlit, ndist) != 0)
		return -1;
	return codes(s, &lit, &dist, out, outlen, at);
}

static uint32_t
adler32(const unsigned char *p, size_t n)
{
	uint32_t a = 1, b = 0;
	size_t k;

	while (n > 0) {
		k = n < 5552 ? n : 5552;	/* b stays below 2^32 */
		n -= k;
		while (k-- > 0) {
			a += *p++;
			b += a;
		}
		a %= 65521;
		b %= 65521;
	}
	return b << 16 | a;
}

/*
 * Undo the zlib stream in[0 .. inlen) into out[0 .. outlen), which it
 * must fill exactly.  0, or -1 for a stream that is not whole and
 * right.
 */
int
inflate_zlib(const unsigned char *in, size_t inlen, unsigned char *out,
    size_t outlen)
{
	struct in s = { in, inlen, 2, 0, 0, 0 };
	size_t at = 0;
	unsigned last, type;
	uint32_t sum;
	int rc;

	/* Deflate, a window of at most 32 KiB, no preset dictionary. */
	if (inlen < 2 || (in[0] & 0x0f) != 8 || in[0] >> 4 > 7 ||
	    (in[0] << 8 | in[1]) % 31 != 0 || (in[1] & 0x20) != 0)
		return -1;
	do {
		last = bits(&s, 1);
		type = bits(&s, 2);
		if (s.bad)
			return -1;
		if (type == 0)
			rc = stored(&s, out, outlen, &at);
		else if (type == 1)
			rc = fixed(&s, out, outlen, &at);
		else if (type == 2)
			rc = dynamic(&s, out, outlen, &at);
		else
			rc = -1;
		if (rc != 0 || s.bad)
			return -1;
	} while (!last);
	if (at != outlen || s.len - s.pos < 4)
		return -1;
	sum = (uint32_t)in[s.pos] << 24 | (uint32_t)in[s.pos + 1] << 16 |
	    (uint32_t)in[s.pos + 2] << 8 | in[s.pos + 3];
	return sum == adler32(out, outlen) ? 0 : -1;
}

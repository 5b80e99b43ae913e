/*
 * gzip.c -- a gzip member (RFC 1952) of deflate blocks (RFC 1951), for
 * prof -F pprof: profile ingest services take profile.proto gzipped,
 * and prof must not depend on zlib for it.
 *
 * Matches are found greedily through a hash of the next three bytes
 * and a chain of earlier positions with the same hash, at most CHAIN
 * of them tried, within the 32 KiB window.  The matches and literals of
 * BLOCK tokens make a block, written in whichever of the three forms is
 * shortest: with Huffman codes made for it (a protobuf profile's bytes
 * are far from evenly spread), with the fixed codes, or stored (data
 * already compressed, or random).  Code lengths are limited to what
 * deflate allows by halving the counts until Huffman's fit; a tree is
 * given two symbols at least, so that every code is complete.
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
#define BLOCK		65536		/* tokens a block */
#define NLIT		286		/* literal/length symbols */
#define NDIST		30
#define NFIXED		288		/* of the fixed code, 286 and 287
					   unused but counted */
#define NCL		19		/* code-length symbols */

/* The output, written a bit at a time from the low bits of each byte. */
struct bits {
	unsigned char	*p;
	size_t		 len, cap;
	uint32_t	 acc;		/* bits not yet a whole byte */
	unsigned	 n;
};

/* A literal (len 0, the byte in dist) or a match. */
struct tok {
	uint16_t	 len;
	uint16_t	 dist;
};

/* A Huffman code: each symbol's length and bits. */
struct code {
	uint8_t		 len[NFIXED];
	uint16_t	 bits[NFIXED];
};

/* The order code-length code lengths are sent in. */
static const uint8_t clorder[NCL] = {
	16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
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

static void
align(struct bits *b)
{
	if (b->n > 0)
		put_bits(b, 0, 8 - b->n);
}

/* The length symbol's index (less 257) and the distance's code. */
static unsigned
len_index(unsigned len)
{
	unsigned i;

	for (i = 28; deflate_lbase[i] > len; i--)
		continue;
	return i;
}

static unsigned
dist_index(unsigned dist)
{
	unsigned i;

	for (i = 29; deflate_dbase[i] > dist; i--)
		continue;
	return i;
}

/*
 * The fixed codes' lengths (RFC 1951, 3.2.6), of all their symbols:
 * the unused 286 and 287 shift the 9-bit codes that follow them.
 */
static void
fixed_codes(struct code *lit, struct code *dist)
{
	unsigned s;

	for (s = 0; s < NFIXED; s++)
		lit->len[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
	for (s = 0; s < 32; s++)
		dist->len[s] = 5;
}

/* Each symbol's bits from the lengths, as the canonical code has them. */
static void
canonical(struct code *c, unsigned n)
{
	uint16_t count[16] = { 0 }, next[16];
	unsigned s, l, v = 0;

	for (s = 0; s < n; s++)
		count[c->len[s]]++;
	count[0] = 0;
	for (l = 1; l < 16; l++) {
		v = (v + count[l - 1]) << 1;
		next[l] = (uint16_t)v;
	}
	for (s = 0; s < n; s++)
		if (c->len[s] != 0)
			c->bits[s] = next[c->len[s]]++;
}

/*
 * Huffman code lengths for the counts f[0..n) into len, none over max:
 * the leaves sorted by count, merged two by two from two queues (the
 * leaves, and the nodes made, which come in order), each node's depth
 * from its parent's.  Returns the longest.
 */
static unsigned
huffman(const uint32_t *f, unsigned n, uint8_t *len)
{
	uint32_t w[2 * NLIT];
	uint16_t leaf[NLIT], parent[2 * NLIT];
	uint8_t depth[2 * NLIT];
	unsigned m = 0, i, j, k, x, t, longest = 0;

	for (i = 0; i < n; i++) {
		len[i] = 0;
		if (f[i] == 0)
			continue;
		/* Insertion sort: n is 286 at most. */
		for (j = m++; j > 0 && f[leaf[j - 1]] > f[i]; j--)
			leaf[j] = leaf[j - 1];
		leaf[j] = (uint16_t)i;
	}
	for (i = 0; i < m; i++)
		w[i] = f[leaf[i]];
	i = 0;				/* next leaf */
	j = m;				/* next node */
	for (k = m; k < 2 * m - 1; k++) {
		w[k] = 0;
		for (t = 0; t < 2; t++) {
			if (i < m && (j >= k || w[i] <= w[j]))
				x = i++;
			else
				x = j++;
			parent[x] = (uint16_t)k;
			w[k] += w[x];
		}
	}
	depth[2 * m - 2] = 0;
	for (k = 2 * m - 2; k-- > 0; ) {
		depth[k] = depth[parent[k]] + 1;
		if (k < m) {
			len[leaf[k]] = depth[k];
			if (depth[k] > longest)
				longest = depth[k];
		}
	}
	return longest;
}

/* A code for the counts f[0..n), no length over max, made canonical. */
static void
make_code(const uint32_t *counts, unsigned n, unsigned max, struct code *c)
{
	uint32_t f[NLIT];
	unsigned i, used = 0;

	memcpy(f, counts, n * sizeof(*f));
	for (i = 0; i < n; i++)
		used += f[i] != 0;
	/* Two symbols at least: a code of one is incomplete. */
	for (i = 0; used < 2; i++)
		if (f[i] == 0) {
			f[i] = 1;
			used++;
		}
	while (huffman(f, n, c->len) > max)
		for (i = 0; i < n; i++)
			if (f[i] != 0)
				f[i] = (f[i] + 1) / 2;
	canonical(c, n);
}

/* What a block's tokens need: their counts, and their extra bits. */
struct census {
	uint32_t	 lit[NLIT];
	uint32_t	 dist[NDIST];
	uint64_t	 extra;
};

static void
count(const struct tok *t, size_t nt, struct census *s)
{
	unsigned li, di;
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < nt; i++) {
		if (t[i].len == 0) {
			s->lit[t[i].dist]++;
			continue;
		}
		li = len_index(t[i].len);
		di = dist_index(t[i].dist);
		s->lit[257 + li]++;
		s->dist[di]++;
		s->extra += deflate_lextra[li] + deflate_dextra[di];
	}
	s->lit[256]++;
}

/* Bits the tokens take in codes lit and dist. */
static uint64_t
cost(const struct census *s, const struct code *lit, const struct code *dist)
{
	uint64_t n = s->extra;
	unsigned i;

	for (i = 0; i < NLIT; i++)
		n += (uint64_t)s->lit[i] * lit->len[i];
	for (i = 0; i < NDIST; i++)
		n += (uint64_t)s->dist[i] * dist->len[i];
	return n;
}

/*
 * The lengths of the two codes as one sequence, run-length coded with
 * the code-length symbols (16: the last again 3-6 times, 17: 3-10
 * zeros, 18: 11-138 zeros) into sym[] and their extra bits into arg[].
 * Returns how many.
 */
static size_t
rle(const uint8_t *lens, size_t n, uint8_t *sym, uint8_t *arg)
{
	size_t i = 0, k = 0, run, r;

	while (i < n) {
		for (run = 1; i + run < n && lens[i + run] == lens[i]; run++)
			continue;
		if (lens[i] == 0 && run >= 3) {
			r = run > 138 ? 138 : run;
			sym[k] = r >= 11 ? 18 : 17;
			arg[k++] = (uint8_t)(r >= 11 ? r - 11 : r - 3);
			i += r;
		} else if (lens[i] != 0 && run >= 4) {
			sym[k] = lens[i];
			arg[k++] = 0;
			i++;
			for (run--; run >= 3; run -= r) {
				r = run > 6 ? 6 : run;
				sym[k] = 16;
				arg[k++] = (uint8_t)(r - 3);
				i += r;
			}
		} else {
			sym[k] = lens[i];
			arg[k++] = 0;
			i++;
		}
	}
	return k;
}

/* The block's tokens in codes lit and dist, and its end. */
static void
put_tokens(struct bits *b, const struct tok *t, size_t nt,
    const struct code *lit, const struct code *dist)
{
	unsigned li, di;
	size_t i;

	for (i = 0; i < nt; i++) {
		if (t[i].len == 0) {
			put_code(b, lit->bits[t[i].dist], lit->len[t[i].dist]);
			continue;
		}
		li = len_index(t[i].len);
		put_code(b, lit->bits[257 + li], lit->len[257 + li]);
		put_bits(b, t[i].len - deflate_lbase[li], deflate_lextra[li]);
		di = dist_index(t[i].dist);
		put_code(b, dist->bits[di], dist->len[di]);
		put_bits(b, t[i].dist - deflate_dbase[di], deflate_dextra[di]);
	}
	put_code(b, lit->bits[256], lit->len[256]);
}

/* raw[0..n) as stored blocks, of 64 KiB at most; the last final if so. */
static void
store(struct bits *b, const unsigned char *raw, size_t n, int final)
{
	size_t k;

	do {
		k = n < 65535 ? n : 65535;
		put_bits(b, final && k == n, 1);
		put_bits(b, 0, 2);		/* BTYPE 00: stored */
		align(b);
		put_bits(b, (uint32_t)k, 16);
		put_bits(b, (uint32_t)k ^ 0xffff, 16);
		if (k > 0) {
			b->p = xgrow(b->p, &b->cap, b->len, k, 1);
			memcpy(b->p + b->len, raw, k);
			b->len += k;
			raw += k;
			n -= k;
		}
	} while (n > 0);
}

/* A dynamic block's code-length header: its codes, sizes and bits. */
struct header {
	struct code	 cl;
	uint8_t		 sym[NLIT + NDIST], arg[NLIT + NDIST];
	size_t		 nsym;
	unsigned	 nlit, ndist, ncl;
	uint64_t	 bits;
};

static void
make_header(const struct code *lit, const struct code *dist,
    struct header *h)
{
	static const uint8_t clextra[NCL] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7
	};
	uint8_t lens[NLIT + NDIST];
	uint32_t f[NCL] = { 0 };
	size_t i;

	for (h->nlit = NLIT; h->nlit > 257 && lit->len[h->nlit - 1] == 0;
	    h->nlit--)
		continue;
	for (h->ndist = NDIST; h->ndist > 1 && dist->len[h->ndist - 1] == 0;
	    h->ndist--)
		continue;
	memcpy(lens, lit->len, h->nlit);
	memcpy(lens + h->nlit, dist->len, h->ndist);
	h->nsym = rle(lens, h->nlit + h->ndist, h->sym, h->arg);
	for (i = 0; i < h->nsym; i++)
		f[h->sym[i]]++;
	make_code(f, NCL, 7, &h->cl);
	for (h->ncl = NCL; h->ncl > 4 && h->cl.len[clorder[h->ncl - 1]] == 0;
	    h->ncl--)
		continue;
	h->bits = 5 + 5 + 4 + 3 * h->ncl;
	for (i = 0; i < h->nsym; i++)
		h->bits += h->cl.len[h->sym[i]] + clextra[h->sym[i]];
}

static void
put_header(struct bits *b, const struct header *h)
{
	static const uint8_t clextra[3] = { 2, 3, 7 };
	size_t i;

	put_bits(b, h->nlit - 257, 5);
	put_bits(b, h->ndist - 1, 5);
	put_bits(b, h->ncl - 4, 4);
	for (i = 0; i < h->ncl; i++)
		put_bits(b, h->cl.len[clorder[i]], 3);
	for (i = 0; i < h->nsym; i++) {
		put_code(b, h->cl.bits[h->sym[i]], h->cl.len[h->sym[i]]);
		if (h->sym[i] >= 16)
			put_bits(b, h->arg[i], clextra[h->sym[i] - 16]);
	}
}

/*
 * A block of the tokens t[0..nt), which stand for raw[0..nraw), in the
 * shortest of its three forms.
 */
static void
block(struct bits *b, const struct tok *t, size_t nt,
    const unsigned char *raw, size_t nraw, int final)
{
	struct census s;
	struct code flit, fdist, dlit, ddist;
	struct header h;
	uint64_t fixed, dyn, stored;

	count(t, nt, &s);
	fixed_codes(&flit, &fdist);
	make_code(s.lit, NLIT, 15, &dlit);
	make_code(s.dist, NDIST, 15, &ddist);
	make_header(&dlit, &ddist, &h);
	fixed = 3 + cost(&s, &flit, &fdist);
	dyn = 3 + h.bits + cost(&s, &dlit, &ddist);
	stored = (nraw / 65535 + 1) * (3 + 7 + 32) + 8 * (uint64_t)nraw;
	if (stored <= fixed && stored <= dyn) {
		store(b, raw, nraw, final);
		return;
	}
	put_bits(b, final != 0, 1);
	if (dyn < fixed) {
		put_bits(b, 2, 2);		/* BTYPE 10: dynamic codes */
		put_header(b, &h);
		put_tokens(b, t, nt, &dlit, &ddist);
	} else {
		put_bits(b, 1, 2);		/* BTYPE 01: fixed codes */
		canonical(&flit, NFIXED);
		canonical(&fdist, 32);
		put_tokens(b, t, nt, &flit, &fdist);
	}
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

/* in[0..n) as blocks of BLOCK tokens, the last final. */
static void
deflate(struct bits *b, const unsigned char *in, size_t n)
{
	uint32_t *head, *prev;
	struct tok *t;
	unsigned len, dist = 0;
	size_t i, k, nt = 0, start = 0;

	head = xcalloc((size_t)1 << HBITS, sizeof(*head));
	prev = xcalloc(WINDOW, sizeof(*prev));
	t = xcalloc(BLOCK, sizeof(*t));
	memset(head, 0xff, ((size_t)1 << HBITS) * sizeof(*head));
	for (i = 0; i < n; ) {
		len = n - i >= MINMATCH ? longest(in, i, n, head, prev,
		    &dist) : 0;
		if (len >= MINMATCH) {
			t[nt].len = (uint16_t)len;
			t[nt++].dist = (uint16_t)dist;
			for (k = 0; k < len; k++)
				insert(in, i + k, n, head, prev);
			i += len;
		} else {
			t[nt].len = 0;
			t[nt++].dist = in[i];
			insert(in, i, n, head, prev);
			i++;
		}
		if (nt == BLOCK && i < n) {
			block(b, t, nt, in + start, i - start, 0);
			start = i;
			nt = 0;
		}
	}
	block(b, t, nt, in + start, n - start, 1);
	align(b);
	free(head);
	free(prev);
	free(t);
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
	put_le32(&b, crc32_add(0, in, n));
	put_le32(&b, (uint32_t)n);
	*outlen = b.len;
	return b.p;
}

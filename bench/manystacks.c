/*
 * manystacks.c -- forge a profile in parts of many distinct stacks, the
 * input of row 27 (issue 26 item 9): what a long run of a big program,
 * written every few seconds, leaves to prof.
 *
 * usage: manystacks prog parts stacks depth dir < functions
 *
 * functions holds "ADDR SIZE" lines, hex, as `nm -S` prints them: the
 * functions of prog, whose link-time addresses the files use (an EXEC
 * record of bias 0).  dir/mon.out.1 .. dir/mon.out.PARTS each get
 * STACKS distinct stacks of DEPTH frames, every pc inside a function
 * drawn at random (a fixed seed: the same input every time), 1 to 4
 * samples each; the histogram holds each stack's samples at its
 * innermost pc, some 10,000 functions spread over the text a call-count
 * cell (a cell for each of a million would outweigh the stacks), and a
 * RUN record
 * says which part of the run the file is.  No stack repeats, in a file
 * or across them: the merge's work is all distinct.
 */
#include <err.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon.h"
#include "monfmt.h"

#define SAMPLE_NS	1000000ULL	/* a sample stands for 1 ms */

struct buf {
	unsigned char	*p;
	size_t		 len, cap;
};

static void
put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		if ((b->p = realloc(b->p, b->cap)) == NULL)
			err(1, NULL);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void
record(struct buf *b, uint32_t type, const void *body, size_t len)
{
	static const unsigned char zero[8];
	struct monx_rec r;

	r.type = type;
	r.len = (uint32_t)len;
	put(b, &r, sizeof(r));
	put(b, body, len);
	put(b, zero, (8 - len % 8) % 8);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

/* xorshift64*: the same stacks on every run. */
static uint64_t
rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static uint64_t *fa, *fs;	/* functions: address, size */
static size_t nf;

int
main(int argc, char *argv[])
{
	struct buf recs = { NULL, 0, 0 }, stk = { NULL, 0, 0 };
	struct buf out = { NULL, 0, 0 }, s = { NULL, 0, 0 };
	struct monx_stack ms;
	struct monx_run run;
	struct monx_obj ob;
	struct monx_head mh;
	struct hdr h;
	struct cnt c;
	uint64_t lo = UINT64_MAX, hi = 0, a, z, pc, v, nsamp, bin;
	unsigned long parts, nstk, depth, part, i, j;
	uint16_t *hist;
	size_t nhist, cap = 0, k, plen, step, ncells;
	char name[4096];
	FILE *fp;

	if (argc != 6) {
		fprintf(stderr, "usage: manystacks prog parts stacks depth "
		    "dir < functions\n");
		return 1;
	}
	parts = strtoul(argv[2], NULL, 10);
	nstk = strtoul(argv[3], NULL, 10);
	depth = strtoul(argv[4], NULL, 10);
	if (parts == 0 || nstk == 0 || depth == 0 || depth > 127)
		errx(1, "parts, stacks and depth (1 to 127) must be positive");
	while (scanf("%" SCNx64 " %" SCNx64, &a, &z) == 2) {
		if (z < 8)
			continue;
		if (nf == cap) {
			cap = cap ? 2 * cap : 1024;
			fa = realloc(fa, cap * sizeof(*fa));
			fs = realloc(fs, cap * sizeof(*fs));
			if (fa == NULL || fs == NULL)
				err(1, NULL);
		}
		fa[nf] = a;
		fs[nf++] = z;
		if (a < lo)
			lo = a;
		if (a + z > hi)
			hi = a + z;
	}
	if (nf == 0)
		errx(1, "no functions on stdin");
	lo &= ~(uint64_t)7;
	hi = (hi + 7) & ~(uint64_t)7;
	/* Bins of 8 bytes of text or more, at most 2 MB of histogram. */
	for (bin = 8; (hi - lo) / bin > (1 << 20); bin *= 2)
		;
	hi = lo + (hi - lo + bin - 1) / bin * bin;
	nhist = (size_t)((hi - lo) / bin);
	if ((hist = calloc(nhist, sizeof(*hist))) == NULL)
		err(1, NULL);
	plen = strlen(argv[1]);
	step = nf / 10000 + 1;
	ncells = (nf + step - 1) / step;

	for (part = 1; part <= parts; part++) {
		memset(hist, 0, nhist * sizeof(*hist));
		recs.len = stk.len = out.len = s.len = 0;
		nsamp = 0;
		for (i = 0; i < nstk; i++) {
			ms.count = 1 + rnd() % 4;
			ms.depth = (uint32_t)depth;
			ms.flags = 0;
			put(&stk, &ms, sizeof(ms));
			for (j = 0; j < depth; j++) {
				k = (size_t)(rnd() % nf);
				pc = fa[k] + 1 + rnd() % (fs[k] - 1);
				put(&stk, &pc, sizeof(pc));
				if (j == 0 && hist[(pc - lo) / bin] < 0xfff0)
					hist[(pc - lo) / bin] += ms.count;
			}
			nsamp += ms.count;
		}
		memset(&run, 0, sizeof(run));
		run.clock = MONX_CLK_PERF;
		run.pid = 4242;
		run.period_ns = SAMPLE_NS;
		run.sample_ns = SAMPLE_NS;
		run.cpu_ns = nsamp * SAMPLE_NS;
		run.user_ns = run.cpu_ns;
		run.samples_in = nsamp;
		run.threads = 1;
		run.tables = 1;
		run.stack_limit = 127;
		run.part = (uint32_t)part;
		run.last = part == parts;
		run.begin_ns = 1700000000000000000ULL +
		    (part - 1) * 5000000000ULL;
		run.end_ns = run.begin_ns + 5000000000ULL;
		record(&recs, MONX_R_RUN, &run, sizeof(run));
		memset(&ob, 0, sizeof(ob));
		ob.lo = lo;
		ob.hi = hi;
		ob.pathlen = (uint32_t)plen;
		put(&s, &ob, sizeof(ob));
		put(&s, argv[1], plen);
		record(&recs, MONX_R_EXEC, s.p, s.len);
		record(&recs, MONX_R_STACKS, stk.p, stk.len);
		s.len = 0;
		memcpy(mh.magic, MONX_MAGIC, sizeof(mh.magic));
		mh.version = MONX_VERSION;
		mh.length = recs.len;
		put(&s, &mh, sizeof(mh));
		put(&s, recs.p, recs.len);

		h.lpc = (char *)(uintptr_t)lo;
		h.hpc = (char *)(uintptr_t)hi;
		h.nfns = ncells + (s.len + MONX_PAYLOAD - 1) / MONX_PAYLOAD;
		put(&out, &h, sizeof(h));
		for (k = 0; k < nf; k += step) {
			c.fnpc = (char *)(uintptr_t)(fa[k] + 4);
			c.mcnt = (long)(1 + (k * 7919) % 1000) * (long)part;
			put(&out, &c, sizeof(c));
		}
		for (i = 0; i < s.len; i += MONX_PAYLOAD) {
			v = 0;
			for (j = 0; j < MONX_PAYLOAD && i + j < s.len; j++)
				v |= (uint64_t)s.p[i + j] << (8 * j);
			c.fnpc = (char *)(uintptr_t)(MONX_TAG << MONX_TAGSHIFT |
			    v);
			c.mcnt = 0;
			put(&out, &c, sizeof(c));
		}
		put(&out, hist, nhist * sizeof(*hist));
		(void)snprintf(name, sizeof(name), "%s/mon.out.%lu", argv[5],
		    part);
		if ((fp = fopen(name, "w")) == NULL)
			err(1, "%s", name);
		if (fwrite(out.p, 1, out.len, fp) != out.len || fclose(fp) != 0)
			err(1, "%s", name);
	}
	return 0;
}

/*
 * t_mkmon.c -- forge mon.out files for the prof tests.
 *
 * usage: t_mkmon file < description
 *
 * The description says, one item a line, what the file holds; the
 * forger writes exactly that, lies included, so that prof's reports and
 * its error paths can be checked without a profiled run.  Numbers may
 * be decimal or 0x-hex.  Lines:
 *
 *	lpc A / hpc A		the histogram range in the header
 *	hist N			N histogram WORDs, zero
 *	bin I C			histogram WORD I holds C
 *	cell FNPC C		a call-count cell
 *	zerocells N		N empty cells (fnpc 0, mcnt 0)
 *	nfns N			the header's nfns, whatever follows
 *	run KEY=V ...		a RUN record: clock pid period cpu in out
 *				lost saturated overruns cells_lost scale
 *				threads dropped unloaded_lost outside_lost
 *				unsampled user sys stacks_lost stacks_cut
 *				stack_limit arcs part last start wall;
 *				len=N writes
 *				only its
 *				first N bytes
 *	exec BIAS LO HI ID PATH	the EXEC record (ID hex bytes, or -)
 *	obj BIAS LO HI ID PATH	an OBJ record
 *	self LO HI		the SELF record: libmon's code
 *	pcs PC C		a sample outside the histogram (one PCS
 *				record after the others holds them all)
 *	arc FROM SELF C		a call arc: return address, callee's cell
 *				(one ARCS record after the others)
 *	stack C FLAGS PC ...	a stack of C samples, innermost pc first
 *				(one STACKS record after the others)
 *	endstacks		the stacks so far as a STACKS record now
 *	record TYPE LEN HEX	a raw record claiming LEN bytes, holding HEX
 *	magic S / version N	the extension head's magic and version
 *	xlength N		the extension head's length, a lie
 *	truncate N		cut the file after N bytes
 *	append HEX		raw bytes after the histogram
 *
 * Without run, exec, obj, self, pcs, arc, stack, record, magic, version or xlength the
 * file is classic: no extension cells at all.
 */
#include <err.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon.h"
#include "monfmt.h"

struct buf {
	unsigned char	*p;
	size_t		 len;
	size_t		 cap;
};

struct forge {
	uint64_t	 lpc, hpc;
	int		 nfns_set;
	uint64_t	 nfns;
	uint16_t	*hist;
	size_t		 nhist;
	struct buf	 cells;		/* ordinary cells */
	struct buf	 recs;		/* extension records */
	struct buf	 pcs;
	struct buf	 arcs;
	struct buf	 stacks;
	struct buf	 tail;
	int		 ext;
	char		 magic[4];
	uint32_t	 version;
	int		 xlen_set;
	uint64_t	 xlen;
	int		 trunc_set;
	uint64_t	 trunc;
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

static uint64_t
num(const char *s)
{
	char *end;
	uint64_t v;

	if (s == NULL)
		errx(1, "missing number");
	v = strtoull(s, &end, 0);
	if (*end != '\0')
		errx(1, "bad number: %s", s);
	return v;
}

/* Hex bytes ("-" for none) appended to b; returns how many. */
static size_t
hexbytes(struct buf *b, const char *s)
{
	unsigned int v;
	unsigned char c;
	size_t n = 0;

	if (s == NULL || strcmp(s, "-") == 0)
		return 0;
	for (; s[0] != '\0' && s[1] != '\0'; s += 2, n++) {
		if (sscanf(s, "%2x", &v) != 1)
			errx(1, "bad hex: %s", s);
		c = (unsigned char)v;
		put(b, &c, 1);
	}
	return n;
}

static void
record(struct forge *f, uint32_t type, const void *body, size_t len)
{
	static const unsigned char zero[8];
	struct monx_rec r;

	r.type = type;
	r.len = (uint32_t)len;
	put(&f->recs, &r, sizeof(r));
	put(&f->recs, body, len);
	put(&f->recs, zero, (8 - len % 8) % 8);
	f->ext = 1;
}

#define RUNKEY(k, f) { k, offsetof(struct monx_run, f), \
	sizeof(((struct monx_run *)0)->f) }

static const struct {
	const char	*key;
	size_t		 off;
	size_t		 size;
} runkeys[] = {
	RUNKEY("clock", clock),		RUNKEY("pid", pid),
	RUNKEY("period", period_ns),	RUNKEY("cpu", cpu_ns),
	RUNKEY("in", samples_in),	RUNKEY("out", samples_out),
	RUNKEY("lost", samples_lost),	RUNKEY("saturated", saturated),
	RUNKEY("overruns", overruns),	RUNKEY("cells_lost", cells_lost),
	RUNKEY("scale", scale),		RUNKEY("threads", threads),
	RUNKEY("dropped", dropped),	RUNKEY("unloaded_lost", unloaded_lost),
	RUNKEY("outside_lost", outside_lost), RUNKEY("unsampled", unsampled),
	RUNKEY("user", user_ns),	RUNKEY("sys", sys_ns),
	RUNKEY("stacks_lost", stacks_lost), RUNKEY("stacks_cut", stacks_cut),
	RUNKEY("stack_limit", stack_limit), RUNKEY("arcs", arcs),
	RUNKEY("part", part),		RUNKEY("last", last),
	RUNKEY("start", start_ns),	RUNKEY("wall", wall_ns),
	RUNKEY("kernel", samples_kernel), RUNKEY("flags", flags),
};

static void
run_record(struct forge *f, char *args)
{
	struct monx_run r;
	unsigned char *p = (unsigned char *)&r;
	uint64_t v64;
	uint32_t v32;
	size_t i, len;
	char *kv, *v;

	memset(&r, 0, sizeof(r));
	len = sizeof(r);
	for (kv = strtok(args, " \t\n"); kv != NULL; kv = strtok(NULL, " \t\n")) {
		if ((v = strchr(kv, '=')) == NULL)
			errx(1, "run: want key=value: %s", kv);
		*v++ = '\0';
		if (strcmp(kv, "len") == 0) {
			if ((len = (size_t)num(v)) > sizeof(r))
				errx(1, "run: len over %zu", sizeof(r));
			continue;
		}
		for (i = 0; i < sizeof(runkeys) / sizeof(runkeys[0]); i++)
			if (strcmp(kv, runkeys[i].key) == 0)
				break;
		if (i == sizeof(runkeys) / sizeof(runkeys[0]))
			errx(1, "run: unknown key %s", kv);
		v64 = num(v);
		v32 = (uint32_t)v64;
		memcpy(p + runkeys[i].off, runkeys[i].size == 4 ?
		    (void *)&v32 : (void *)&v64, runkeys[i].size);
	}
	record(f, MONX_R_RUN, &r, len);
}

static void
obj_record(struct forge *f, uint32_t type)
{
	struct monx_obj o;
	struct buf body = { NULL, 0, 0 }, id = { NULL, 0, 0 };
	const char *path;

	memset(&o, 0, sizeof(o));
	o.bias = num(strtok(NULL, " \t\n"));
	o.lo = num(strtok(NULL, " \t\n"));
	o.hi = num(strtok(NULL, " \t\n"));
	o.idlen = (uint32_t)hexbytes(&id, strtok(NULL, " \t\n"));
	if ((path = strtok(NULL, " \t\n")) == NULL)
		errx(1, "exec/obj: no path");
	o.pathlen = (uint32_t)strlen(path);
	put(&body, &o, sizeof(o));
	if (id.len > 0)
		put(&body, id.p, id.len);
	put(&body, path, o.pathlen);
	record(f, type, body.p, body.len);
	free(body.p);
	free(id.p);
}

static void
raw_record(struct forge *f)
{
	struct monx_rec r;
	struct buf body = { NULL, 0, 0 };

	r.type = (uint32_t)num(strtok(NULL, " \t\n"));
	r.len = (uint32_t)num(strtok(NULL, " \t\n"));
	hexbytes(&body, strtok(NULL, " \t\n"));
	put(&f->recs, &r, sizeof(r));
	if (body.len > 0)
		put(&f->recs, body.p, body.len);
	free(body.p);
	f->ext = 1;
}

/* A stack: its count, flags, then its pcs to the end of the line. */
static void
stack_line(struct forge *f)
{
	struct monx_stack st;
	struct buf pcs = { NULL, 0, 0 };
	uint64_t pc;
	char *s;

	st.count = num(strtok(NULL, " \t\n"));
	st.flags = (uint32_t)num(strtok(NULL, " \t\n"));
	st.depth = 0;
	while ((s = strtok(NULL, " \t\n")) != NULL) {
		pc = num(s);
		put(&pcs, &pc, sizeof(pc));
		st.depth++;
	}
	put(&f->stacks, &st, sizeof(st));
	if (pcs.len > 0)
		put(&f->stacks, pcs.p, pcs.len);
	free(pcs.p);
	f->ext = 1;
}

/* The stacks so far as one STACKS record. */
static void
end_stacks(struct forge *f)
{
	if (f->stacks.len > 0)
		record(f, MONX_R_STACKS, f->stacks.p, f->stacks.len);
	f->stacks.len = 0;
}

static void
set_bin(struct forge *f, uint64_t i, uint64_t c)
{
	if (i >= f->nhist)
		errx(1, "bin %llu past hist %zu", (unsigned long long)i,
		    f->nhist);
	f->hist[i] = (uint16_t)c;
}

static void
line(struct forge *f, char *s)
{
	struct cnt c;
	uint64_t a, b;
	char *kw;

	if ((kw = strtok(s, " \t\n")) == NULL || kw[0] == '#')
		return;
	if (strcmp(kw, "lpc") == 0)
		f->lpc = num(strtok(NULL, " \t\n"));
	else if (strcmp(kw, "hpc") == 0)
		f->hpc = num(strtok(NULL, " \t\n"));
	else if (strcmp(kw, "nfns") == 0) {
		f->nfns = num(strtok(NULL, " \t\n"));
		f->nfns_set = 1;
	} else if (strcmp(kw, "hist") == 0) {
		f->nhist = (size_t)num(strtok(NULL, " \t\n"));
		if ((f->hist = calloc(f->nhist + 1, 2)) == NULL)
			err(1, NULL);
	} else if (strcmp(kw, "bin") == 0) {
		a = num(strtok(NULL, " \t\n"));
		set_bin(f, a, num(strtok(NULL, " \t\n")));
	} else if (strcmp(kw, "cell") == 0) {
		a = num(strtok(NULL, " \t\n"));
		b = num(strtok(NULL, " \t\n"));
		c.fnpc = (char *)(uintptr_t)a;
		c.mcnt = (long)b;
		put(&f->cells, &c, sizeof(c));
	} else if (strcmp(kw, "zerocells") == 0) {
		memset(&c, 0, sizeof(c));
		for (a = num(strtok(NULL, " \t\n")); a > 0; a--)
			put(&f->cells, &c, sizeof(c));
	} else if (strcmp(kw, "run") == 0)
		run_record(f, strtok(NULL, "\n"));
	else if (strcmp(kw, "exec") == 0)
		obj_record(f, MONX_R_EXEC);
	else if (strcmp(kw, "obj") == 0)
		obj_record(f, MONX_R_OBJ);
	else if (strcmp(kw, "self") == 0) {
		struct monx_range r;

		r.lo = num(strtok(NULL, " \t\n"));
		r.hi = num(strtok(NULL, " \t\n"));
		record(f, MONX_R_SELF, &r, sizeof(r));
	} else if (strcmp(kw, "pcs") == 0) {
		struct monx_pc pc;

		pc.pc = num(strtok(NULL, " \t\n"));
		pc.count = num(strtok(NULL, " \t\n"));
		put(&f->pcs, &pc, sizeof(pc));
		f->ext = 1;
	} else if (strcmp(kw, "arc") == 0) {
		struct monx_arc arc;

		arc.frompc = num(strtok(NULL, " \t\n"));
		arc.selfpc = num(strtok(NULL, " \t\n"));
		arc.count = num(strtok(NULL, " \t\n"));
		put(&f->arcs, &arc, sizeof(arc));
		f->ext = 1;
	} else if (strcmp(kw, "stack") == 0)
		stack_line(f);
	else if (strcmp(kw, "endstacks") == 0)
		end_stacks(f);
	else if (strcmp(kw, "record") == 0)
		raw_record(f);
	else if (strcmp(kw, "magic") == 0) {
		strncpy(f->magic, strtok(NULL, " \t\n"), sizeof(f->magic));
		f->ext = 1;
	} else if (strcmp(kw, "version") == 0) {
		f->version = (uint32_t)num(strtok(NULL, " \t\n"));
		f->ext = 1;
	} else if (strcmp(kw, "xlength") == 0) {
		f->xlen = num(strtok(NULL, " \t\n"));
		f->xlen_set = f->ext = 1;
	} else if (strcmp(kw, "truncate") == 0) {
		f->trunc = num(strtok(NULL, " \t\n"));
		f->trunc_set = 1;
	} else if (strcmp(kw, "append") == 0)
		hexbytes(&f->tail, strtok(NULL, " \t\n"));
	else
		errx(1, "unknown line: %s", kw);
}

/* The extension stream, as marker cells appended to out. */
static void
ext_cells(struct forge *f, struct buf *out)
{
	struct monx_head h;
	struct buf s = { NULL, 0, 0 };
	struct cnt c;
	uint64_t v;
	size_t i, j;

	if (f->pcs.len > 0)
		record(f, MONX_R_PCS, f->pcs.p, f->pcs.len);
	if (f->arcs.len > 0)
		record(f, MONX_R_ARCS, f->arcs.p, f->arcs.len);
	end_stacks(f);
	memcpy(h.magic, f->magic, sizeof(h.magic));
	h.version = f->version;
	h.length = f->xlen_set ? f->xlen : f->recs.len;
	put(&s, &h, sizeof(h));
	if (f->recs.len > 0)
		put(&s, f->recs.p, f->recs.len);
	for (i = 0; i < s.len; i += MONX_PAYLOAD) {
		v = 0;
		for (j = 0; j < MONX_PAYLOAD && i + j < s.len; j++)
			v |= (uint64_t)s.p[i + j] << (8 * j);
		c.fnpc = (char *)(uintptr_t)(MONX_TAG << MONX_TAGSHIFT | v);
		c.mcnt = 0;
		put(out, &c, sizeof(c));
	}
	free(s.p);
}

/* Static, so that what they hold is still reachable at exit. */
static struct forge f;
static struct buf out, xc;
static char *text;

int
main(int argc, char *argv[])
{
	struct hdr h;
	size_t cap = 0, len;
	FILE *fp;

	if (argc != 2) {
		fprintf(stderr, "usage: t_mkmon file < description\n");
		return 1;
	}
	memcpy(f.magic, MONX_MAGIC, sizeof(f.magic));
	f.version = MONX_VERSION;
	while (getline(&text, &cap, stdin) > 0)
		line(&f, text);
	if (f.ext)
		ext_cells(&f, &xc);
	h.lpc = (char *)(uintptr_t)f.lpc;
	h.hpc = (char *)(uintptr_t)f.hpc;
	h.nfns = f.nfns_set ? f.nfns :
	    (f.cells.len + xc.len) / sizeof(struct cnt);
	put(&out, &h, sizeof(h));
	if (f.cells.len > 0)
		put(&out, f.cells.p, f.cells.len);
	if (xc.len > 0)
		put(&out, xc.p, xc.len);
	if (f.nhist > 0)
		put(&out, f.hist, f.nhist * 2);
	if (f.tail.len > 0)
		put(&out, f.tail.p, f.tail.len);
	len = f.trunc_set && f.trunc < out.len ? (size_t)f.trunc : out.len;
	if ((fp = fopen(argv[1], "w")) == NULL)
		err(1, "%s", argv[1]);
	if (fwrite(out.p, 1, len, fp) != len || fclose(fp) != 0)
		err(1, "%s", argv[1]);
	return 0;
}

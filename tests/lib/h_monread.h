/*
 * h_monread.h -- the tests' one reader of mon.out, shared by the atf-c
 * programs and by t_mondump (which prints a file for the shell tests).
 *
 * It is strict on purpose: a file the runtime writes must be exactly
 * the layout of <mon.h> -- header, nfns cells, a histogram of whole
 * WORDs to the end of the file -- with the extension of monfmt.h, when
 * there is one, in a contiguous run of marker cells at the end of the
 * cell array, its stream well formed to the last padding byte.  Any
 * departure makes mon_parse() fail with a reason, so every test that
 * reads a file also checks its structure.
 *
 * Header-only: everything is static, and a program uses what it needs.
 */
#ifndef H_MONREAD_H
#define H_MONREAD_H

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"
#include "monfmt.h"

#define MON_MAXOBJ	1024

struct mon_obj {
	struct monx_obj	 o;
	unsigned char	 id[64];	/* build-id, o.idlen bytes */
	char		 path[4096];	/* NUL-terminated */
};

struct mon_file {
	struct hdr	 hdr;		/* as stored: nfns counts markers */
	struct cnt	*cells;		/* the counted cells, no markers */
	size_t		 ncells;
	WORD		*hist;
	size_t		 nhist;
	int		 has_ext;
	int		 has_run;
	struct monx_run	 run;
	int		 has_exec;
	struct mon_obj	 exec;
	struct mon_obj	*objs;		/* MONX_R_OBJ records, in order */
	size_t		 nobjs;
	struct monx_pc	*pcs;
	size_t		 npcs;
	struct monx_arc	*arcs;		/* MONX_R_ARCS records, joined */
	size_t		 narcs;
	unsigned char	*stacks;	/* MONX_R_STACKS bodies, joined */
	size_t		 stacklen;
	int		 has_clocks;
	struct monx_clocks clocks;
	struct monx_timed *timed;	/* MONX_R_TIMED, after CLOCKS */
	size_t		 ntimed;
	unsigned int	 nunknown;	/* records of types we do not know */
};

static inline int
mon_fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

static inline void
mon_free(struct mon_file *m)
{
	free(m->cells);
	free(m->hist);
	free(m->objs);
	free(m->pcs);
	free(m->arcs);
	free(m->stacks);
	free(m->timed);
	memset(m, 0, sizeof(*m));
}

/* An ARCS record: whole arcs, none empty, added to m->arcs. */
static inline int
mon_parse_arcs(struct mon_file *m, const unsigned char *p, uint32_t len,
    char *why, size_t whylen)
{
	struct monx_arc a, *na;
	size_t i, n;

	if (len == 0 || len % sizeof(a) != 0)
		return mon_fail(why, whylen, "ARCS record of %u bytes", len);
	n = len / sizeof(a);
	if ((na = realloc(m->arcs, (m->narcs + n) * sizeof(a))) == NULL)
		return mon_fail(why, whylen, "out of memory");
	m->arcs = na;
	for (i = 0; i < n; i++) {
		memcpy(&a, p + i * sizeof(a), sizeof(a));
		if (a.count == 0 || a.frompc == 0 || a.selfpc == 0)
			return mon_fail(why, whylen, "empty arc");
		m->arcs[m->narcs++] = a;
	}
	return 0;
}

/* A STACKS record: stacks of 1 or more pcs, filling it exactly. */
static inline int
mon_parse_stacks(struct mon_file *m, const unsigned char *p, uint32_t len,
    char *why, size_t whylen)
{
	struct monx_stack st;
	unsigned char *ns;
	size_t off;

	for (off = 0; off < len; off += sizeof(st) + st.depth * 8UL) {
		if (len - off < sizeof(st))
			return mon_fail(why, whylen, "stack head cut short");
		memcpy(&st, p + off, sizeof(st));
		if (st.count == 0 || st.depth == 0 ||
		    st.depth > (len - off - sizeof(st)) / 8)
			return mon_fail(why, whylen, "bad stack at %zu", off);
	}
	if ((ns = realloc(m->stacks, m->stacklen + len)) == NULL)
		return mon_fail(why, whylen, "out of memory");
	memcpy(ns + m->stacklen, p, len);
	m->stacks = ns;
	m->stacklen += len;
	return 0;
}

/* One MONX_R_EXEC or MONX_R_OBJ record body into o. */
static inline int
mon_parse_obj(const unsigned char *p, uint32_t len, struct mon_obj *o,
    char *why, size_t whylen)
{
	if (len < sizeof(o->o))
		return mon_fail(why, whylen, "object record too short");
	memcpy(&o->o, p, sizeof(o->o));
	if (o->o.idlen > sizeof(o->id) ||
	    o->o.pathlen >= sizeof(o->path) ||
	    (uint64_t)sizeof(o->o) + o->o.idlen + o->o.pathlen != len)
		return mon_fail(why, whylen, "object record lengths disagree");
	memcpy(o->id, p + sizeof(o->o), o->o.idlen);
	memcpy(o->path, p + sizeof(o->o) + o->o.idlen, o->o.pathlen);
	o->path[o->o.pathlen] = '\0';
	if (o->o.lo > o->o.hi)
		return mon_fail(why, whylen, "object text range inverted");
	return 0;
}

/* The extension stream ext[0..n): head, then records. */
static inline int
mon_parse_ext(struct mon_file *m, const unsigned char *ext, size_t n,
    char *why, size_t whylen)
{
	struct monx_head head;
	struct monx_rec r;
	size_t off, end, pad, i;

	if (n < sizeof(head))
		return mon_fail(why, whylen, "extension shorter than its head");
	memcpy(&head, ext, sizeof(head));
	if (memcmp(head.magic, MONX_MAGIC, 4) != 0)
		return mon_fail(why, whylen, "extension magic is wrong");
	if (head.version != MONX_VERSION)
		return mon_fail(why, whylen, "extension version %u",
		    head.version);
	if (head.length > n - sizeof(head))
		return mon_fail(why, whylen, "extension length past its cells");
	end = sizeof(head) + head.length;
	if (n - end >= MONX_PAYLOAD)
		return mon_fail(why, whylen, "a whole marker cell unused");
	for (i = end; i < n; i++)
		if (ext[i] != 0)
			return mon_fail(why, whylen, "padding not zero");
	for (off = sizeof(head); off < end;) {
		if (end - off < sizeof(r))
			return mon_fail(why, whylen, "record head cut short");
		memcpy(&r, ext + off, sizeof(r));
		off += sizeof(r);
		pad = (8 - r.len % 8) % 8;
		if (r.len > end - off || pad > end - off - r.len)
			return mon_fail(why, whylen,
			    "record %u runs past the end", r.type);
		for (i = 0; i < pad; i++)
			if (ext[off + r.len + i] != 0)
				return mon_fail(why, whylen,
				    "record padding not zero");
		switch (r.type) {
		case MONX_R_RUN:
			if (m->has_run || r.len != sizeof(m->run))
				return mon_fail(why, whylen, "bad RUN record");
			memcpy(&m->run, ext + off, sizeof(m->run));
			m->has_run = 1;
			break;
		case MONX_R_EXEC:
			if (m->has_exec || m->nobjs > 0)
				return mon_fail(why, whylen,
				    "EXEC record twice or after OBJ");
			if (mon_parse_obj(ext + off, r.len, &m->exec, why,
			    whylen) != 0)
				return -1;
			m->has_exec = 1;
			break;
		case MONX_R_OBJ:
			if (m->nobjs == MON_MAXOBJ)
				return mon_fail(why, whylen,
				    "too many objects");
			if (m->objs == NULL && (m->objs = calloc(MON_MAXOBJ,
			    sizeof(*m->objs))) == NULL)
				return mon_fail(why, whylen, "out of memory");
			if (mon_parse_obj(ext + off, r.len,
			    &m->objs[m->nobjs], why, whylen) != 0)
				return -1;
			m->nobjs++;
			break;
		case MONX_R_PCS:
			if (m->pcs != NULL || r.len % sizeof(struct monx_pc))
				return mon_fail(why, whylen, "bad PCS record");
			m->npcs = r.len / sizeof(struct monx_pc);
			if ((m->pcs = malloc(r.len + 1)) == NULL)
				return mon_fail(why, whylen, "out of memory");
			memcpy(m->pcs, ext + off, r.len);
			break;
		case MONX_R_ARCS:
			if (mon_parse_arcs(m, ext + off, r.len, why,
			    whylen) != 0)
				return -1;
			break;
		case MONX_R_STACKS:
			if (mon_parse_stacks(m, ext + off, r.len, why,
			    whylen) != 0)
				return -1;
			break;
		case MONX_R_CLOCKS:
			if (m->has_clocks || r.len != sizeof(m->clocks))
				return mon_fail(why, whylen,
				    "bad CLOCKS record");
			memcpy(&m->clocks, ext + off, sizeof(m->clocks));
			if (m->clocks.tick1 <= m->clocks.tick0 ||
			    m->clocks.ns1 <= m->clocks.ns0)
				return mon_fail(why, whylen,
				    "CLOCKS record: time runs backwards");
			m->has_clocks = 1;
			break;
		case MONX_R_TIMED:
			if (!m->has_clocks || m->timed != NULL || r.len == 0 ||
			    r.len % sizeof(struct monx_timed) != 0)
				return mon_fail(why, whylen, "bad TIMED record");
			m->ntimed = r.len / sizeof(struct monx_timed);
			if ((m->timed = malloc(r.len)) == NULL)
				return mon_fail(why, whylen, "out of memory");
			memcpy(m->timed, ext + off, r.len);
			for (i = 0; i < m->ntimed; i++)
				if ((m->timed[i].kind != MONX_TM_FUNC &&
				    m->timed[i].kind != MONX_TM_ARC &&
				    m->timed[i].kind != MONX_TM_CTX) ||
				    m->timed[i].callee == 0 ||
				    m->timed[i].min > m->timed[i].max)
					return mon_fail(why, whylen,
					    "bad TIMED entry");
			break;
		default:
			m->nunknown++;
			break;
		}
		off += r.len + pad;
	}
	return 0;
}

/*
 * Parse a mon.out image of len bytes (a file, or a buffer monitor() was
 * given).  0, or -1 with the reason in why.
 */
static inline int
mon_parse(const void *data, size_t len, struct mon_file *m, char *why,
    size_t whylen)
{
	const unsigned char *p = data;
	const struct cnt *c;
	unsigned char *ext;
	size_t i, first, n, nfns, rest;
	uint64_t v;
	int r;

	memset(m, 0, sizeof(*m));
	if (len < sizeof(m->hdr))
		return mon_fail(why, whylen, "shorter than a header");
	memcpy(&m->hdr, p, sizeof(m->hdr));
	nfns = m->hdr.nfns;
	rest = len - sizeof(m->hdr);
	if (nfns > rest / sizeof(struct cnt))
		return mon_fail(why, whylen, "nfns %zu does not fit", nfns);
	rest -= nfns * sizeof(struct cnt);
	if (rest % sizeof(WORD) != 0)
		return mon_fail(why, whylen, "histogram not whole WORDs");
	if (m->hdr.lpc >= m->hdr.hpc)
		return mon_fail(why, whylen, "lpc not below hpc");
	c = (const struct cnt *)(p + sizeof(m->hdr));
	for (first = 0; first < nfns; first++)
		if (MONX_IS_CELL(c[first].fnpc, c[first].mcnt))
			break;
	for (i = first; i < nfns; i++)
		if (!MONX_IS_CELL(c[i].fnpc, c[i].mcnt))
			return mon_fail(why, whylen,
			    "counted cell %zu after a marker cell", i);
	m->ncells = first;
	m->cells = malloc(first * sizeof(struct cnt) + 1);
	m->nhist = rest / sizeof(WORD);
	m->hist = malloc(rest + 1);
	if (m->cells == NULL || m->hist == NULL) {
		mon_free(m);
		return mon_fail(why, whylen, "out of memory");
	}
	memcpy(m->cells, c, first * sizeof(struct cnt));
	memcpy(m->hist, p + len - rest, rest);
	if (first == nfns)
		return 0;
	m->has_ext = 1;
	n = (nfns - first) * MONX_PAYLOAD;
	if ((ext = malloc(n)) == NULL) {
		mon_free(m);
		return mon_fail(why, whylen, "out of memory");
	}
	for (i = first; i < nfns; i++) {
		v = (uint64_t)(uintptr_t)c[i].fnpc;
		for (size_t j = 0; j < MONX_PAYLOAD; j++)
			ext[(i - first) * MONX_PAYLOAD + j] =
			    (unsigned char)(v >> (8 * j));
	}
	r = mon_parse_ext(m, ext, n, why, whylen);
	free(ext);
	if (r != 0)
		mon_free(m);
	return r;
}

/* Read and parse the file at path.  0, or -1 with the reason in why. */
static inline int
mon_read(const char *path, struct mon_file *m, char *why, size_t whylen)
{
	struct stat st;
	unsigned char *buf;
	size_t got;
	ssize_t n;
	int fd, r;

	memset(m, 0, sizeof(*m));
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW)) < 0)
		return mon_fail(why, whylen, "%s", strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return mon_fail(why, whylen, "not a regular file");
	}
	if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
		close(fd);
		return mon_fail(why, whylen, "out of memory");
	}
	for (got = 0; got < (size_t)st.st_size; got += (size_t)n)
		if ((n = read(fd, buf + got, (size_t)st.st_size - got)) <= 0)
			break;
	close(fd);
	if (got != (size_t)st.st_size) {
		free(buf);
		return mon_fail(why, whylen, "short read");
	}
	r = mon_parse(buf, got, m, why, whylen);
	free(buf);
	return r;
}

/* Calls counted for pcs in [lo, hi). */
static inline long
mon_calls(const struct mon_file *m, uintptr_t lo, uintptr_t hi)
{
	long sum = 0;
	size_t i;

	for (i = 0; i < m->ncells; i++)
		if ((uintptr_t)m->cells[i].fnpc >= lo &&
		    (uintptr_t)m->cells[i].fnpc < hi)
			sum += m->cells[i].mcnt;
	return sum;
}

/* Samples in histogram counters [i0, i1]. */
static inline uint64_t
mon_samples(const struct mon_file *m, size_t i0, size_t i1)
{
	uint64_t sum = 0;
	size_t i;

	for (i = i0; i <= i1 && i < m->nhist; i++)
		sum += m->hist[i];
	return sum;
}

/* The counter a pc lands in, given the scale (profil's formula). */
static inline size_t
mon_index(const struct mon_file *m, uintptr_t pc, unsigned int scale)
{
	return (size_t)(((unsigned __int128)(pc - (uintptr_t)m->hdr.lpc) *
	    scale) >> 17);
}

#endif /* !H_MONREAD_H */

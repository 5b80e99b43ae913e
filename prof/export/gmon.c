/*
 * gmon.c -- prof -F gmon: gmon.out files that GNU gprof reads.
 *
 * gprof reads one object's addresses against one ELF file, so each
 * object gets a file of its own, in the current directory: the
 * program's gmon.out, a library's gmon.NAME.out after its file name
 * (gprof /usr/lib/libx.so gmon.libx.so.out), each written whole and
 * named on stdout.  A file is the header ("gmon", version 1) and
 * records:
 *
 *	histogram	low_pc, high_pc, bins, rate in Hz, "seconds",
 *			then one 16-bit count a bin
 *	arc		from_pc, self_pc, a 32-bit count of calls
 *
 * at link-time addresses, which is what gprof looks symbols up by.  The
 * program's histogram is the run's, bin for bin; samples of the program
 * outside it, and a library's samples, are binned BIN_BYTES wide over
 * the range they span.  Counts are the report's weighted samples in
 * whole ones, rounded on a running sum (no bin gains or loses more
 * than one, nothing overall).  A count over 65535 does not fit a bin:
 * the histogram is written again for what is left, and gprof adds up
 * records of the same range; an arc over 2^32 - 1 calls is written as
 * several arcs, which gprof adds up too.  Nothing is cut or scaled: a
 * count that MAX_RECORDS records cannot hold (a bin of 67 million
 * samples, an arc of 4.4 * 10^12 calls) is an error that names the
 * profile, and that file and the ones written before it are removed.
 *
 * An arc goes to the file of its callee, when its caller is in the
 * same object: gprof looks a caller up in the one file's symbols, and
 * drops an arc whose caller is not there.  So calls from another object
 * (main, called from libc; a library's functions, called from the
 * program) are not in the file, as they are not in glibc's gmon.out;
 * prof says how many there were, in one warning a file; and how many
 * calls were counted with no caller at all (a classic file's cells),
 * which gprof cannot be given either.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

#define BIN_BYTES	4		/* a bin of samples outside */
#define MAX_BINS	(1u << 24)	/* wider bins beyond */
#define PAGE_KEY(a)	(((a) & 0xfff) == 1)	/* the reader's page keys */

#define PROFIL_UNIT	131072	/* profil(): 2^17 / scale bytes a bin */

#define MAX_RECORDS	1024	/* of one histogram, or one arc */

#define TAG_HIST	0
#define TAG_ARC		1

/* A histogram being made: bins over [lo, lo + n * width). */
struct ghist {
	uint64_t	 lo;
	uint64_t	 width;		/* bytes a bin, 0: the run's bins */
	uint64_t	 hi;
	double		*w;		/* weighted samples */
	size_t		 n;
};

/* A file being written. */
struct gfile {
	FILE		*fp;
	char		*name;
	uint32_t	 rate;
	int		 bad;
	int		 hists;		/* histogram records written */
	const char	*toobig;	/* a count the format cannot hold */
};

static void
put(struct gfile *f, const void *v, size_t n)
{
	if (fwrite(v, 1, n, f->fp) != n)
		f->bad = 1;
}

static void
put32(struct gfile *f, uint32_t v)
{
	put(f, &v, sizeof(v));
}

static void
put64(struct gfile *f, uint64_t v)
{
	put(f, &v, sizeof(v));
}

/*
 * The histogram's records: as many as its largest count needs, each
 * bin at most 65535, what is left in the next.
 */
static void
put_hist(struct gfile *f, const struct ghist *h)
{
	static const char dimen[15] = "seconds";
	uint64_t *left, most = 0;
	uint16_t c;
	double cum = 0;
	size_t i;

	if (h->n == 0)
		return;
	left = xcalloc(h->n, sizeof(*left));
	for (i = 0; i < h->n; i++)
		if ((left[i] = xset_round(h->w[i], &cum)) > most)
			most = left[i];
	if (most > (uint64_t)0xffff * MAX_RECORDS) {
		f->toobig = "a bin of more samples than gmon.out holds in 1024 "
		    "records";
		free(left);
		return;
	}
	do {
		f->hists++;
		fputc(TAG_HIST, f->fp);
		put64(f, h->lo);
		put64(f, h->hi);
		put32(f, (uint32_t)h->n);
		put32(f, f->rate);
		put(f, dimen, sizeof(dimen));
		fputc('s', f->fp);
		for (i = 0; i < h->n; i++) {
			c = left[i] > 0xffff ? 0xffff : (uint16_t)left[i];
			left[i] -= c;
			put(f, &c, sizeof(c));
		}
		most = most > 0xffff ? most - 0xffff : 0;
	} while (most > 0);
	free(left);
}

/* Arc records for calls from -> self, 2^32 - 1 at most each. */
static void
put_arc(struct gfile *f, uint64_t from, uint64_t self, uint64_t calls)
{
	uint32_t c;

	if (calls > (uint64_t)UINT32_MAX * MAX_RECORDS) {
		f->toobig = "an arc of more calls than gmon.out holds in 1024 "
		    "records";
		return;
	}
	while (calls > 0) {
		c = calls > UINT32_MAX ? UINT32_MAX : (uint32_t)calls;
		fputc(TAG_ARC, f->fp);
		put64(f, from);
		put64(f, self);
		put32(f, c);
		calls -= c;
	}
}

/* The program's histogram, as the run binned it. */
static void
run_hist(const struct profile *p, struct ghist *h)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	if (p->nhist == 0 || p->hpc <= p->lpc)
		return;
	h->lo = p->lpc;
	h->hi = p->scale > 2 ? p->lpc + (uint64_t)(((unsigned __int128)
	    p->nhist * PROFIL_UNIT + p->scale - 1) / p->scale) : p->hpc;
	h->n = p->nhist;
	h->w = xcalloc(h->n, sizeof(*h->w));
	for (i = 0; i < p->nbins; i++)
		h->w[p->bins[i].i] = p->bins[i].w;
}

/* Where a place's samples lie: [*a, *b). */
static void
place_span(const struct place *pl, uint64_t *a, uint64_t *b)
{
	*a = PAGE_KEY(pl->addr) ? pl->addr - 1 : pl->addr;
	*b = PAGE_KEY(pl->addr) ? *a + 4096 : *a + 1;
}

/* A place's weighted samples into the bins, a page's spread evenly. */
static void
bin_place(struct ghist *h, const struct place *pl)
{
	uint64_t a, b, i, j, k;

	place_span(pl, &a, &b);
	i = a > h->lo ? (a - h->lo) / h->width : 0;
	j = b > h->lo ? (b - h->lo + h->width - 1) / h->width : 1;
	if (j > h->n)
		j = h->n;
	if (i >= j)
		i = j - 1;
	for (k = i; k < j; k++)
		h->w[k] += pl->samples / (double)(j - i);
}

/*
 * The samples of object obj at [lo, hi), binned.  Bins end at end if
 * it is not 0 (samples below the run's histogram), else start at
 * start or above (above it, or a library's).
 */
static void
pcs_hist(const struct profile *p, size_t obj, uint64_t lo, uint64_t hi,
    uint64_t start, uint64_t end, struct ghist *h)
{
	const struct place *pl;
	uint64_t a, b, min = UINT64_MAX, max = 0;
	size_t i;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < p->npcs; i++) {
		pl = &p->pcs[i];
		if (pl->obj != obj || pl->addr < lo || pl->addr >= hi)
			continue;
		place_span(pl, &a, &b);
		min = a < min ? a : min;
		max = b > max ? b : max;
	}
	if (min >= max)
		return;
	if (end != 0 && max > end)
		max = end;
	for (h->width = BIN_BYTES; (max - min) / h->width >= MAX_BINS;
	    h->width *= 2)
		;
	if (end != 0) {
		h->n = (end - min + h->width - 1) / h->width;
		if (h->n > end / h->width)	/* bins from address 0 */
			h->n = end / h->width;
		h->lo = end - h->n * h->width;
	} else {
		h->lo = min - min % h->width;
		h->lo = h->lo < start ? start : h->lo;
		h->n = (max - h->lo + h->width - 1) / h->width + 1;
	}
	h->hi = h->lo + h->n * h->width;
	h->w = xcalloc(h->n, sizeof(*h->w));
	for (i = 0; i < p->npcs; i++) {
		pl = &p->pcs[i];
		if (pl->obj == obj && pl->addr >= lo && pl->addr < hi)
			bin_place(h, pl);
	}
}

/*
 * The arcs into object obj from obj; the calls from other objects, which
 * gprof would drop, counted in *other.
 */
static void
put_arcs(struct gfile *f, const struct profile *p, size_t obj,
    uint64_t *other)
{
	const struct parc *a;
	size_t i;

	for (i = 0; i < p->narcs; i++) {
		a = &p->arcs[i];
		if (a->sobj != obj)
			continue;
		if (a->fobj == obj)
			put_arc(f, a->from, a->self, a->count);
		else if (__builtin_add_overflow(*other, a->count, other))
			*other = UINT64_MAX;
	}
}

/*
 * The calls into object obj that its cells count and no arc holds: a
 * classic file's, which has counts and no callers.  gprof reads calls
 * only as arcs, so these are left out, and said to be.
 */
static uint64_t
calls_without_callers(const struct profile *p, size_t obj)
{
	uint64_t cells = 0, arcs = 0;
	size_t i;

	for (i = 0; i < p->ncells; i++)
		if (p->cells[i].obj == obj &&
		    __builtin_add_overflow(cells, p->cells[i].count, &cells))
			cells = UINT64_MAX;
	for (i = 0; i < p->narcs; i++)
		if (p->arcs[i].sobj == obj &&
		    __builtin_add_overflow(arcs, p->arcs[i].count, &arcs))
			arcs = UINT64_MAX;
	return cells > arcs ? cells - arcs : 0;
}

static void
free_hist(struct ghist *h)
{
	free(h->w);
	memset(h, 0, sizeof(*h));
}

/*
 * An empty histogram for object obj, which took no samples: one bin of
 * none at the lowest function called in it.  gprof wants a histogram in
 * every file ("missing histogram"), and its call graph divides by the
 * histogram's time.
 */
static void
empty_hist(struct gfile *f, const struct profile *p, size_t obj)
{
	struct ghist h;
	double none = 0;
	size_t i;

	memset(&h, 0, sizeof(h));
	h.lo = UINT64_MAX;
	for (i = 0; i < p->narcs; i++)
		if (p->arcs[i].sobj == obj && p->arcs[i].self < h.lo)
			h.lo = p->arcs[i].self;
	if (h.lo == UINT64_MAX)
		h.lo = 0;
	h.lo -= h.lo % BIN_BYTES;
	h.hi = h.lo + BIN_BYTES;
	h.n = 1;
	h.w = &none;
	put_hist(f, &h);
}

/*
 * The histograms of object obj: the run's, and the samples outside;
 * an empty one if it has none.
 */
static void
put_hists(struct gfile *f, const struct profile *p, size_t obj)
{
	struct ghist run, h;

	f->hists = 0;
	if (obj != OBJ_MAIN) {
		pcs_hist(p, obj, 0, UINT64_MAX, 0, 0, &h);
		put_hist(f, &h);
		free_hist(&h);
		if (f->hists == 0)
			empty_hist(f, p, obj);
		return;
	}
	run_hist(p, &run);
	put_hist(f, &run);
	if (run.n > 0) {
		pcs_hist(p, obj, 0, run.lo, 0, run.lo, &h);
		put_hist(f, &h);
		free_hist(&h);
	}
	pcs_hist(p, obj, run.n > 0 ? p->hpc : 0, UINT64_MAX, run.hi, 0, &h);
	put_hist(f, &h);
	free_hist(&h);
	free_hist(&run);
	if (f->hists == 0)
		empty_hist(f, p, obj);
}

/* Does object obj have samples or arcs into it? */
static int
has_data(const struct profile *p, size_t obj)
{
	size_t i;

	if (obj == OBJ_MAIN && p->nhist > 0)
		return 1;
	for (i = 0; i < p->npcs; i++)
		if (p->pcs[i].obj == obj && p->pcs[i].samples > 0)
			return 1;
	for (i = 0; i < p->narcs; i++)
		if (p->arcs[i].sobj == obj)
			return 1;
	return 0;
}

/* The file of object obj: gmon.out, or gmon.NAME.out. */
static char *
file_name(const struct xset *x, size_t obj)
{
	const char *path = x->p->objs[obj].path, *s;
	char *name;
	size_t n;

	if (obj == OBJ_MAIN)
		return xstrdup("gmon.out");
	s = strrchr(path, '/');
	s = s != NULL ? s + 1 : path;
	n = strlen(s) + sizeof("gmon..out");
	name = xmalloc(n);
	(void)snprintf(name, n, "gmon.%s.out", s);
	return name;
}

/* Write object obj's file; -1 and errno's reason if it fails. */
static int
write_file(const struct xset *x, size_t obj, struct gfile *f,
    uint64_t *other)
{
	static const char head[20] = { 'g', 'm', 'o', 'n', 1 };
	int e;

	if ((f->fp = fopen(f->name, "w")) == NULL)
		return -1;
	f->bad = 0;
	put(f, head, sizeof(head));
	put_hists(f, x->p, obj);
	put_arcs(f, x->p, obj, other);
	e = ferror(f->fp) || f->bad ? (errno != 0 ? errno : EIO) : 0;
	if (fclose(f->fp) != 0 && e == 0)
		e = errno;
	if (e == 0 && f->toobig == NULL)
		return 0;
	(void)unlink(f->name);		/* no part of a file left */
	errno = e;
	return -1;
}

/* Remove the n files written before a refusal: all or none is left. */
static void
unlink_all(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		(void)unlink(names[i]);
}

/*
 * Every object's file, then their names on fp and the warnings: a
 * refusal of one removes the others, and nothing was said of them.
 */
int
export_gmon(const struct xset *x, FILE *fp, const char **file,
    const char **why)
{
	static char *failed;
	struct gfile f;
	char **names;
	uint64_t *other, *nocaller;
	size_t obj, n = 0, i;
	int rv = 0;

	memset(&f, 0, sizeof(f));
	names = xcalloc(x->p->nobjs + 1, sizeof(*names));
	other = xcalloc(x->p->nobjs + 1, sizeof(*other));
	nocaller = xcalloc(x->p->nobjs + 1, sizeof(*nocaller));
	f.rate = x->p->period > 0 ? (uint32_t)(1.0 / x->p->period + 0.5) : 0;
	for (obj = 0; obj < x->p->nobjs || obj == OBJ_MAIN; obj++) {
		if (obj != OBJ_MAIN && (x->p->objs[obj].jitpid != 0 ||
		    x->p->objs[obj].path[0] == '\0' || !has_data(x->p, obj)))
			continue;
		f.name = names[n] = file_name(x, obj);
		nocaller[n] = calls_without_callers(x->p, obj);
		errno = 0;
		f.toobig = NULL;
		if (write_file(x, obj, &f, &other[n]) != 0) {
			*why = f.toobig != NULL ? f.toobig : strerror(errno);
			*file = f.toobig != NULL ? x->p->first :
			    (failed = printable(f.name));
			unlink_all(names, n);
			n++;
			rv = -1;
			break;
		}
		n++;
	}
	for (i = 0; i < n; i++) {
		if (rv == 0) {
			put_text(fp, names[i]);
			fputc('\n', fp);
			if (other[i] > 0)
				warnx("%s: %" PRIu64 " call%s from other "
				    "objects left out: gprof could not name "
				    "their callers", names[i], other[i],
				    other[i] == 1 ? "" : "s");
			if (nocaller[i] > 0)
				warnx("%s: %" PRIu64 " call%s counted without "
				    "their callers left out: gprof reads calls "
				    "only as arcs", names[i], nocaller[i],
				    nocaller[i] == 1 ? "" : "s");
		}
		free(names[i]);
	}
	free(names);
	free(other);
	free(nocaller);
	return rv;
}

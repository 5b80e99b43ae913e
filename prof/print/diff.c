/*
 * diff.c -- prof -d BASE: how a profile differs from a base profile of
 * the same program, function by function.
 *
 *	 Seconds  %Time     Base      New      Calls  Name
 *	   +0.20  +16.4     0.10     0.30       +200  leaf_b
 *
 * Seconds is the new profile's seconds less the base's; %Time the
 * change of the function's share, in points, each share of its own
 * profile's time as the flat report gives it; Base and New the seconds
 * of each; Calls the change of the call count.  Rows of the two
 * reports are the same function when the report names them alike --
 * names, a clashing local's source file, the object -- never by
 * address, so that two builds of the program compare.  A function one
 * profile lacks counts as nothing there.  The changes are taken as
 * printed (rounded to the hundredth of a second, the tenth of a point),
 * so that no line says -0.00 and the order is the one the eye sees: by
 * the size of the change in seconds, then in share, then in calls,
 * largest first, then by name.  A function with no change in either
 * has no line.  A column too narrow for a figure is widened, as the
 * report's are.  A total line ends the report: each profile's seconds
 * and their change, in seconds and in percent of the base's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "print/print.h"
#include "prof.h"
#include "util/util.h"

/* A function of either report, or of both. */
struct dline {
	char		*key;		/* the name the report prints,
					   row_name() */
	const struct row *w[2];		/* in the base, in the new one */
	double		 secs;		/* change of seconds */
	double		 share;		/* change of share, points */
	int64_t		 calls;		/* change of calls */
};

static int
cmp_key(const void *a, const void *b)
{
	const struct dline *x = a, *y = b;
	int c;

	if ((c = strcmp(x->key, y->key)) != 0)
		return c;
	return x->w[0] != NULL ? -1 : y->w[0] != NULL ? 1 : 0;
}

static double
mag(double v)
{
	return v < 0 ? -v : v;
}

/* Largest change first: seconds, share, calls; then by name. */
static int
cmp_change(const void *a, const void *b)
{
	const struct dline *x = a, *y = b;
	double u, v;

	if ((u = mag(x->secs)) != (v = mag(y->secs)))
		return u > v ? -1 : 1;
	if ((u = mag(x->share)) != (v = mag(y->share)))
		return u > v ? -1 : 1;
	if ((u = mag((double)x->calls)) != (v = mag((double)y->calls)))
		return u > v ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* 100 / the time a row's share is of, as report.c measures it. */
static double
pct(const struct report *r)
{
	return r->total - r->overhead > 0 ? 100.0 / (r->total -
	    r->overhead) : 0;
}

/*
 * Both reports' rows that have time or calls, one line a key: the
 * lines of the same key made one, the base's row and the new one's.
 */
static struct dline *
match_rows(struct report *r[2], size_t *nout)
{
	struct dline *d;
	size_t i, k, n = 0, m;

	d = xcalloc(r[0]->nrows + r[1]->nrows + 1, sizeof(*d));
	for (k = 0; k < 2; k++)
		for (i = 0; i < r[k]->nrows; i++) {
			if (r[k]->rows[i].samples <= 0 &&
			    r[k]->rows[i].calls == 0)
				continue;
			d[n].key = row_name(&r[k]->rows[i], ROWNAME_ALL);
			d[n++].w[k] = &r[k]->rows[i];
		}
	qsort(d, n, sizeof(*d), cmp_key);
	for (i = 0, m = 0; i < n; i++) {
		if (m > 0 && strcmp(d[m - 1].key, d[i].key) == 0 &&
		    d[m - 1].w[1] == NULL && d[i].w[1] != NULL) {
			d[m - 1].w[1] = d[i].w[1];
			free(d[i].key);
			continue;
		}
		d[m++] = d[i];
	}
	*nout = m;
	return d;
}

/* v as printf prints it with prec decimals, and never -0. */
static double
printed(double v, int prec)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", prec, v);
	return strtod(buf, NULL) + 0.0;
}

/* The changes of line d, new less base, as printed. */
static void
changes(struct dline *d, struct report *r[2])
{
	double s[2] = { 0, 0 }, sh[2] = { 0, 0 };
	uint64_t c[2] = { 0, 0 };
	size_t k;

	for (k = 0; k < 2; k++) {
		if (d->w[k] == NULL)
			continue;
		s[k] = d->w[k]->samples * r[k]->period;
		sh[k] = d->w[k]->samples * pct(r[k]);
		c[k] = d->w[k]->calls;
	}
	d->secs = printed(s[1] - s[0], 2);
	d->share = printed(sh[1] - sh[0], 1);
	d->calls = c[1] >= c[0] ? (int64_t)(c[1] - c[0] > INT64_MAX ?
	    INT64_MAX : c[1] - c[0]) : -(int64_t)(c[0] - c[1] > INT64_MAX ?
	    INT64_MAX : c[0] - c[1]);
}

/* The columns' widths: a blank, then the widest figure or heading. */
enum { C_SECS, C_SHARE, C_BASE, C_NEW, C_CALLS, NCOLS };

/* The figures of line d, in fig, each fit to print. */
static void
figures(const struct dline *d, struct report *r[2], char fig[NCOLS][32])
{
	double s[2];
	size_t k;

	for (k = 0; k < 2; k++)
		s[k] = d->w[k] != NULL ? d->w[k]->samples * r[k]->period : 0;
	snprintf(fig[C_SECS], 32, "%+.2f", d->secs);
	snprintf(fig[C_SHARE], 32, "%+.1f", d->share);
	snprintf(fig[C_BASE], 32, "%.2f", s[0]);
	snprintf(fig[C_NEW], 32, "%.2f", s[1]);
	if (d->calls != 0)
		snprintf(fig[C_CALLS], 32, "%+" PRId64, d->calls);
	else
		fig[C_CALLS][0] = '\0';
}

static void
print_line(const struct dline *d, struct report *r[2], const int *wid)
{
	char fig[NCOLS][32];
	size_t k;

	figures(d, r, fig);
	for (k = 0; k < NCOLS; k++)
		printf("%*s", wid[k], fig[k]);
	fputs("  ", stdout);
	printf("%s\n", d->key);	/* printable: row_name() */
}

/* Does line d say nothing: no change in seconds, share or calls? */
static int
unchanged(const struct dline *d)
{
	return d->secs == 0 && d->share == 0 && d->calls == 0;
}

/* The columns wide enough for the heading and every line's figures. */
static void
widths(const struct dline *d, size_t n, struct report *r[2], int *wid)
{
	static const int least[NCOLS] = { 8, 7, 9, 9, 11 };
	char fig[NCOLS][32];
	size_t i, k;
	int len;

	memcpy(wid, least, sizeof(least));
	for (i = 0; i < n; i++) {
		if (unchanged(&d[i]))
			continue;
		figures(&d[i], r, fig);
		for (k = 0; k < NCOLS; k++)
			if ((len = (int)strlen(fig[k]) + 1) > wid[k])
				wid[k] = len;
	}
}

/*
 * -d: the difference of report rn from report rb, the base, on stdout.
 * Both are sorted as o says, which demangles their names for -C.
 */
void
diff_print(struct report *rb, struct report *rn, const struct opts *o)
{
	struct report *r[2] = { rb, rn };
	struct dline *d;
	double t[2];
	size_t i, n;
	int wid[NCOLS];

	report_sort(rb, o);	/* -C's names */
	report_sort(rn, o);
	d = match_rows(r, &n);
	for (i = 0; i < n; i++)
		changes(&d[i], r);
	qsort(d, n, sizeof(*d), cmp_change);
	widths(d, n, r, wid);
	if (!o->nohead)
		printf("%*s%*s%*s%*s%*s  %s\n", wid[C_SECS], "Seconds",
		    wid[C_SHARE], "%Time", wid[C_BASE], "Base", wid[C_NEW],
		    "New", wid[C_CALLS], "Calls", "Name");
	for (i = 0; i < n; i++)
		if (!unchanged(&d[i]))
			print_line(&d[i], r, wid);
	for (i = 0; i < 2; i++)
		t[i] = (r[i]->total - r[i]->overhead) * r[i]->period;
	printf("\ntotal: %.2f s in the base, %.2f s in the new profile, "
	    "%+.2f s (%+.1f%% of the base)\n", t[0], t[1],
	    printed(t[1] - t[0], 2), t[0] > 0 ? printed(100 * (t[1] - t[0]) /
	    t[0], 1) : 0.0);
	for (i = 0; i < n; i++)
		free(d[i].key);
	free(d);
}

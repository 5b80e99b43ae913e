/*
 * report.c -- the report on stdout and the -s statistics on stderr.
 *
 * The columns are classic prof's, byte for byte:
 *
 *	[ Address ] %Time Seconds Cumsecs  #Calls   msec/call  Name
 *
 * %Time is a row's share of every sample the run took, inside the
 * histogram or not, and of the kernel's time, so time spent outside the
 * program stays visible as the percentages left over -- all but the
 * samples in libmon's own code, which the overhead line after the rows
 * shows: the rows estimate the program as it runs unprofiled.  Seconds are samples times the period the
 * reader worked out.  The call count and msec/call appear only for a
 * function that has counts; msec/call shows fewer decimals as the calls
 * grow.  Rows of other objects carry the object's name after their own.
 * A call count too long for the classic 8 columns widens its column for
 * the whole report, so that it never runs into Cumsecs.  Every name and
 * path came from a file and goes out through printable().
 *
 * -i adds two columns after Cumsecs, %Incl and Inclsecs: the inclusive
 * time measured from the stacks as model/reconcile.c made them hold the
 * rows' samples, never less than a row's own and the same the exports
 * give; or with -e gprof's estimate where there are no stacks, or a
 * dash -- never a figure made up.  A function whose calls were timed
 * one by one (-finstrument-functions) shows that time instead, marked
 * with a * after Inclsecs.
 * Rows only the call graph needed (no time, no calls of their own, as
 * main) are printed only then.
 *
 * -s words what the reader and the attribution counted: the classic
 * lines first, then the run's, then what became of each object, then
 * the arcs and stacks and how they checked against each other.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "print/print.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

#define CALLS_WIDTH	8		/* classic %8ld */

/*
 * The widths of the columns: classic's, or wider for a figure that
 * needs more, one blank kept before it (a forged file's counts can
 * make any figure long).  msec is what msec/call takes beyond its
 * classic 14 columns.
 */
struct widths {
	int	 pct, secs, cum, ipct, isecs, calls, msec;
};

/* Width of the Address column: 8 as classic, more if an address needs it. */
static int
addr_width(const struct report *r, int base)
{
	char buf[32];
	int n, w = 8;
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		n = snprintf(buf, sizeof(buf), base == 'o' ? "%" PRIo64 :
		    "%" PRIx64, r->rows[i].addr);
		if (n > w)
			w = n;
	}
	return w;
}

/* Width of the #Calls column: 8 as classic, wider to keep a blank. */
static int
calls_width(const struct report *r)
{
	char buf[32];
	int n, w = CALLS_WIDTH;
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		n = snprintf(buf, sizeof(buf), "%" PRIu64, r->rows[i].calls);
		if (n + 1 > w)
			w = n + 1;
	}
	return w;
}

/* Classic's digits after the point of msec/call for a call count. */
static int
precision(uint64_t calls)
{
	return calls < 10 ? 0 : calls < 100 ? 1 : calls < 1000 ? 2 :
	    calls < 10000 ? 3 : 4;
}

/*
 * The width v takes as "%#.*f" prints it, a blank before; at least w.
 * A figure below 10^k - 1, k the integer digits w has room for, fits
 * whatever its rounding: only a larger one is printed to be measured,
 * so that a million rows are not formatted twice.
 */
static int
fig_width(int w, int prec, double v)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
	    1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	char buf[sizeof(((struct fixed *)0)->s)];
	int n, k = w - 2 - prec;

	if (k >= 1 && k < (int)(sizeof(p10) / sizeof(p10[0])) && v >= 0 &&
	    v < p10[k] - 1)
		return w;
	n = snprintf(buf, sizeof(buf), "%#.*f", prec, v);
	if (n > (int)sizeof(buf) - 1)	/* fig_fixed() cuts it there too */
		n = (int)sizeof(buf) - 1;
	return n + 1 > w ? n + 1 : w;
}

/* -i's figure for a row, in samples, or -1 for a dash. */
static double
incl_of(const struct report *r, const struct opts *o, const struct row *w)
{
	if (w->timed && r->period > 0)
		return w->measured / r->period;
	if (r->g.sampled)
		return graph_incl(r, w);
	if (o->estimate && r->g.estimated)
		return graph_rowest(r, w);
	return -1;
}

/*
 * -i's share for a row: of the samples; a measured row's, of the run's
 * wall time, its measure.
 */
static double
incl_pct(const struct report *r, const struct row *w, double v, double pct)
{
	if (w->timed && r->wall > 0)
		return 100.0 * w->measured / r->wall;
	return v * pct;
}

/* The widths the rows printed need, pct being 100 / the total. */
static void
widths(const struct report *r, const struct opts *o, double pct,
    struct widths *k)
{
	const struct row *w;
	double cum = 0, secs, v;
	size_t i;
	int d;

	k->pct = 6;
	k->secs = k->cum = 8;
	k->ipct = 7;
	k->isecs = 9;
	k->calls = calls_width(r);
	k->msec = 0;
	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		if (w->graphonly && !o->incl)
			continue;
		secs = w->samples * r->period;
		cum += secs;
		k->pct = fig_width(k->pct, 1, w->samples * pct);
		k->secs = fig_width(k->secs, 2, secs);
		k->cum = fig_width(k->cum, 2, cum);
		if (o->incl && (v = incl_of(r, o, w)) >= 0) {
			k->ipct = fig_width(k->ipct, 1,
			    incl_pct(r, w, v, pct));
			k->isecs = fig_width(k->isecs, 2, v * r->period);
		}
		if (w->calls > 0) {
			d = precision(w->calls);
			k->msec = fig_width(k->msec + d + 8, d, 1000.0 * secs /
			    (double)w->calls) - (d + 8);
		}
	}
}

/* A row's names, file and object on stdout, as its Name column. */
void
put_rowname(const struct row *w)
{
	size_t k;

	for (k = 0; k < w->nnames; k++) {
		if (k > 0)
			fputs(", ", stdout);
		put_text(stdout, w->names[k]);
	}
	if (w->file != NULL) {
		fputs(" [", stdout);
		put_text(stdout, w->file);
		putchar(']');
	}
	if (w->obj != NULL) {
		fputs(" (", stdout);
		put_text(stdout, w->obj);
		putchar(')');
	}
}

/*
 * -i: the inclusive time, measured from the stacks; gprof's estimate
 * with -e when there are none; else a dash, not a figure made up.
 */
static void
print_incl(const struct report *r, const struct opts *o, const struct row *w,
    double pct, const struct widths *k)
{
	double v;

	if ((v = incl_of(r, o, w)) < 0)
		printf("%*s%*s", k->ipct, "-", k->isecs, "-");
	else
		printf("%*.1f%*.2f", k->ipct, incl_pct(r, w, v, pct),
		    k->isecs, v * r->period);
	if (r->ntimed > 0)
		putchar(w->timed ? '*' : ' ');
}

static void
print_row(const struct report *r, const struct opts *o, const struct row *w,
    double pct, double cum, const struct widths *k)
{
	static struct fixed col[4];
	static const char f[] = "%#*.*f";
	double secs = w->samples * r->period;
	char buf[24];
	int d;

	fputs(fig_fixed(&col[0], f, k->pct, 1, w->samples * pct), stdout);
	fputs(fig_fixed(&col[1], f, k->secs, 2, secs), stdout);
	fputs(fig_fixed(&col[2], f, k->cum, 2, cum), stdout);
	if (o->incl)
		print_incl(r, o, w, pct, k);
	if (w->calls > 0) {
		d = precision(w->calls);
		fig_right(stdout, buf, fig_u64(buf, w->calls), k->calls);
		fputs(fig_fixed(&col[3], f, d + 8 + k->msec, d, 1000.0 *
		    secs / (double)w->calls), stdout);
		fig_pad(stdout, 6 - d);
	} else
		fig_pad(stdout, k->calls + 14 + k->msec);
	put_rowname(w);
	putchar('\n');
}

/*
 * libmon's own time, apart from the rows, whose %Time is the program's
 * share without it: what classic prof showed on its mcount row.
 */
static void
print_overhead(const struct report *r)
{
	if (!r->libmon && r->overhead == 0)
		return;
	printf("\nprofiling overhead, not in the rows: %.2f s, %.1f%% of all "
	    "samples, %" PRIu64 " calls counted\n", r->overhead * r->period,
	    r->total > 0 ? 100.0 * r->overhead / r->total : 0.0,
	    r->calltotal);
}

/*
 * The functions' samples that no stack holds (that kept none, or that
 * the histogram placed where no stack ends), which count in their own
 * function's inclusive time alone; the kernel's and the unsampled
 * rows, which no stack could hold, apart.
 */
static double
nostack_samples(const struct report *r)
{
	double n = 0;
	size_t i;

	for (i = 0; i < r->nrows; i++)
		if (!r->rows[i].kernel)
			n += graph_nostack(r, r->rows[i].id);
	return n;
}

/* Where the -i column's figures come from, after the rows. */
static void
print_incl_source(const struct report *r, const struct opts *o)
{
	double n;

	if (r->g.sampled) {
		printf("\ninclusive time: measured from sampled call stacks, "
		    "%.0f samples", r->g.samples);
		if ((n = nostack_samples(r)) >= 0.5)
			printf("; %.0f samples no stack holds count for "
			    "their own function alone", n);
		putchar('\n');
	} else if (o->estimate && r->g.estimated)
		printf("\ninclusive time: gprof's equal-cost estimate, not "
		    "measured (no stacks)\n");
	else
		printf("\ninclusive time: unavailable, the files hold no "
		    "stacks (-e estimates it from the arcs)\n");
	if (r->ntimed > 0)
		printf("* measured: each call timed (-finstrument-functions), "
		    "%zu functions; wall time, %%Incl of the run's %.2f s; "
		    "recursion counted once\n", r->ntimed, r->wall);
}

/* Sort and print the rows of r on stdout. */
void
report_print(struct report *r, const struct opts *o)
{
	const struct row *w;
	struct widths k;
	double pct, cum;
	size_t i;
	int aw = 0;

	report_sort(r, o);
	if (o->addr)
		aw = addr_width(r, o->addr);
	pct = r->total - r->overhead > 0 ? 100.0 / (r->total - r->overhead) :
	    0;
	widths(r, o, pct, &k);
	if (!o->nohead) {
		if (o->addr)
			printf("%*s ", aw, "Address");
		printf("%*s%*s%*s", k.pct, "%Time", k.secs, "Seconds", k.cum,
		    "Cumsecs");
		if (o->incl)
			printf("%*s%*s%s", k.ipct, "%Incl", k.isecs,
			    "Inclsecs", r->ntimed > 0 ? " " : "");
		printf("%*s%*s  Name\n", k.calls, "#Calls", 12 + k.msec,
		    "msec/call");
	}
	cum = 0;
	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		if (w->graphonly && !o->incl)
			continue;
		cum += w->samples * r->period;
		if (o->addr)
			printf(o->addr == 'o' ? "%*" PRIo64 " " :
			    "%*" PRIx64 " ", aw, w->addr);
		print_row(r, o, w, pct, cum, &k);
	}
	print_overhead(r);
	if (o->incl)
		print_incl_source(r, o);
}

/*
 * The classic three lines of -s.  Call counts: the cells (summed by
 * place) that counted calls, and how many of them were credited to a
 * named function.
 */
static void
stats_classic(const struct report *r, const struct profile *p)
{
	uint64_t scale;

	fprintf(stderr, "%5zu/%zu call counts used\n", r->cellsnamed,
	    r->cellscalled);
	fprintf(stderr, "%5zu/%zu symbols qualified", r->qualified, r->nsyms);
	if (r->idle > 0)
		fprintf(stderr, ", %zu had zero time and zero call-counts\n",
		    r->idle);
	else
		fputc('\n', stderr);
	scale = p->scale;
	if (scale == 0 && p->hpc > p->lpc)
		scale = (uint64_t)(131072.0 * (double)p->nhist /
		    (double)(p->hpc - p->lpc));
	fprintf(stderr, "%#" PRIx64 " scale factor\n", scale);
}

/*
 * The sampling clock: what was asked, what it delivered; for a perf
 * clock that said so, whether its kernel sampled at the period or
 * finer (libmon(7): threads shorter than a sampling period); for a
 * timer clock, whether a thread's timer had to be armed again.
 */
static void
stats_clock(const struct profile *p)
{
	uint32_t f = p->anyrun ? p->sum.flags : 0;

	fputs("clock: ", stderr);
	profile_put_clock(stderr, p);
	fputc('\n', stderr);
	if (f & MONX_RUN_REFINED)
		fputs("clock rate: the kernel sampled at the period, then "
		    "finer once a thread had ended short\n", stderr);
	else if (f & MONX_RUN_CROWDED)
		fputs("clock rate: the kernel sampled at the period "
		    "throughout; after a short thread, too many were alive "
		    "to sample finer, or one could not be\n", stderr);
	else if (f & MONX_RUN_COARSE)
		fputs("clock rate: the kernel sampled at the period "
		    "throughout\n", stderr);
	if (f & MONX_RUN_REVIVED)
		fputs("clock revived: the kernel stopped a thread's timer "
		    "(libmon(7), the timer clock); armed again, the time it "
		    "missed went where the thread was next sampled: its "
		    "total is right, its split among functions may not be; "
		    "PROFCLOCK=perf has no such timers\n", stderr);
}

/* Seconds, and the samples no function took; per file rate if need be. */
static void
stats_seconds(const struct report *r, const struct profile *p)
{
	double none;

	none = r->total - r->attributed;
	if (none < 0.5)
		none = 0;
	if (p->pmin == p->pmax) {
		fprintf(stderr, "seconds: %.2f covered by samples, %.6f a "
		    "sample\n", r->total * r->period, r->period);
		fprintf(stderr, "unattributed: %.0f samples (%.2f s) in no "
		    "known function\n", none, none * r->period);
		return;
	}
	fprintf(stderr, "seconds: %.2f covered by samples, %.6f to %.6f a "
	    "sample (files at different rates)\n", r->total * r->period,
	    p->pmin, p->pmax);
	fprintf(stderr, "unattributed: %.2f s in no known function\n",
	    none * r->period);
}

/* What became of time in the kernel, file by file. */
static void
stats_kernel(const struct profile *p)
{
	static const char *const how[K_NMODES] = {
		"sampled, under its callers (perf clock samples kernel mode)",
		"shown apart (perf clock samples user mode only)",
		"charged to the call site",
		"spread over the user samples (no user and system split)",
		"unknown (classic mon.out)",
	};
	const char *sep = "kernel time: ";
	size_t k, n = 0;

	for (k = 0; k < K_NMODES; k++)
		n += p->kfiles[k] > 0;
	for (k = 0; k < K_NMODES; k++) {
		if (p->kfiles[k] == 0)
			continue;
		fprintf(stderr, "%s%s", sep, how[k]);
		if (n > 1)
			fprintf(stderr, " in %zu file%s", p->kfiles[k],
			    p->kfiles[k] == 1 ? "" : "s");
		sep = "; ";
	}
	if (p->wkernel > 0)
		fprintf(stderr, ", %.2f s", p->wkernel * p->period);
	fputc('\n', stderr);
}

/* libmon's own code: how it was known, and the time it took. */
static void
stats_overhead(const struct report *r)
{
	fprintf(stderr, "overhead: %.2f s in libmon's code, ", r->overhead *
	    r->period);
	if (r->libmon == 'r')
		fputs("known by its recorded range\n", stderr);
	else if (r->libmon == 'n')
		fputs("known by its names (the file records no range)\n",
		    stderr);
	else
		fputs("none found in the program\n", stderr);
}

/* The lists of objects -s prints. */
enum list { L_DEBUG, L_DYNONLY, L_UNREAD, L_MAPS, L_MAPSUNREAD };

static int
in_list(const struct profile *p, const struct objuse *u, size_t i,
    enum list k)
{
	int map = p->objs[i].jitpid != 0;

	switch (k) {
	case L_DEBUG:
		return !map && u->st != NULL && u->st->debug != NULL;
	case L_DYNONLY:
		return !map && u->st != NULL &&
		    strcmp(u->st->table, ".dynsym") == 0;
	case L_UNREAD:
		return !map && u->tried && u->st == NULL;
	case L_MAPS:
		return map && u->st != NULL;
	default:
		return map && u->tried && u->st == NULL;
	}
}

static void
put_item(const struct profile *p, const struct objuse *u, size_t i,
    enum list k)
{
	switch (k) {
	case L_DEBUG:
		put_text(stderr, u->label);
		fputs(": ", stderr);
		put_text(stderr, u->st->debug);
		break;
	case L_DYNONLY:
		put_text(stderr, u->label);
		break;
	case L_MAPS:
		if (u->st->path != NULL)
			put_text(stderr, p->objs[i].path);
		if (p->objs[i].jittext != NULL)
			fprintf(stderr, "%snames kept by process %" PRIu32,
			    u->st->path != NULL ? " and " : "",
			    p->objs[i].jitpid);
		if (p->objs[i].jitpart > 0)
			fprintf(stderr, " in part %" PRIu32,
			    p->objs[i].jitpart);
		if (p->objs[i].jitdropped > 0)
			fprintf(stderr, ", %" PRIu64 " more it could not keep",
			    p->objs[i].jitdropped);
		fprintf(stderr, " (%zu of %zu entries sampled", u->sampled,
		    u->st->nsyms);
		if (u->st->nbad > 0)
			fprintf(stderr, ", %zu line%s skipped", u->st->nbad,
			    u->st->nbad == 1 ? "" : "s");
		fputc(')', stderr);
		break;
	default:
		put_text(stderr, p->objs[i].path);
		fprintf(stderr, " (%s)", u->why);
		break;
	}
}

/* The objects of list k, after head, ", " between; how many (put 0: count). */
static size_t
put_list(const struct report *r, const struct profile *p, enum list k,
    const char *head, int put)
{
	size_t i, n = 0;

	for (i = 1; i < p->nobjs; i++) {
		if (!in_list(p, &r->uses[i], i, k))
			continue;
		if (put) {
			fputs(n == 0 ? head : ", ", stderr);
			put_item(p, &r->uses[i], i, k);
		}
		n++;
	}
	return n;
}

/* The shared objects: how many were read, from where, which were not. */
static void
stats_objects(const struct report *r, const struct profile *p)
{
	size_t i, used = 0, ndebug;

	for (i = 1; i < p->nobjs; i++)
		used += p->objs[i].jitpid == 0 && r->uses[i].st != NULL;
	fprintf(stderr, "objects: %zu loaded, %zu read for symbols",
	    p->nobjs - 1 - p->nmaps, used);
	if ((ndebug = put_list(r, p, L_DEBUG, NULL, 0)) > 0) {
		fprintf(stderr, ", %zu from %s (", ndebug,
		    ndebug == 1 ? "a debug file" : "debug files");
		put_list(r, p, L_DEBUG, "", 1);
		fputc(')', stderr);
	}
	put_list(r, p, L_DYNONLY, "; exported names only (no .symtab, no "
	    "debug file): ", 1);
	put_list(r, p, L_UNREAD, "; not read: ", 1);
	fputc('\n', stderr);
}

/*
 * The names of generated code: the perf maps looked in and the names the
 * profiles kept, entries sampled, lines skipped, or why not.
 */
static void
stats_maps(const struct report *r, const struct profile *p)
{
	size_t n;

	if (put_list(r, p, L_MAPS, NULL, 0) +
	    put_list(r, p, L_MAPSUNREAD, NULL, 0) == 0)
		return;
	fputs("JIT names: ", stderr);
	n = put_list(r, p, L_MAPS, "", 1);
	put_list(r, p, L_MAPSUNREAD, n > 0 ? "; not read: " : "not read: ",
	    1);
	fputc('\n', stderr);
}

/*
 * The stacks' innermost frames are the samples' own pcs: their
 * functions' shares should be the flat report's self shares, but for
 * the histogram's coarser bins and samples that kept no stack.  How far
 * apart the two are: half the sum of the differences of the shares, the
 * part of the time the stacks would put elsewhere.
 */
/* Row w's self time in the stacks alone: less what no stack holds. */
static double
stack_self(const struct report *r, const struct row *w)
{
	const struct node *nd = graph_node(r, w);

	return nd->gself - nd->nostack;
}

static void
leaves_against_self(const struct report *r)
{
	const struct row *w;
	double leaves = 0, self = 0, d = 0, gself;
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		if (!w->kernel) {
			leaves += stack_self(r, w);
			self += w->samples;
		}
	}
	if (leaves <= 0 || self <= 0)
		return;
	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		gself = stack_self(r, w);
		if (!w->kernel)
			d += gself / leaves > w->samples / self ?
			    gself / leaves - w->samples / self :
			    w->samples / self - gself / leaves;
	}
	fprintf(stderr, "leaves: the stacks' self time is placed as the "
	    "report's but for %.1f%% of it\n", 50 * d);
}

/* The calls timed one by one, and those that were not. */
static void
stats_timed(const struct report *r, const struct profile *p)
{
	const struct monx_clocks *c = &p->tclocks;

	if (p->timedfiles == 0)
		return;
	fprintf(stderr, "measured: %zu functions timed call by call in %"
	    PRIu32 " threads; %" PRIu64 " calls closed by an unwind, %"
	    PRIu64 " returns with no call, %" PRIu64 " hooks missed in "
	    "signal handlers, %" PRIu64 " calls too deep and %" PRIu64
	    " without memory not timed\n", r->ntimed, c->threads, c->unwound,
	    c->unmatched, c->missed, c->deep, c->nomem);
	if (r->ntctx > 0 || c->ctxcut > 0)
		fprintf(stderr, "contexts: %zu stacks of calls timed; %" PRIu32
		    " left out of the files for want of room\n", r->ntctx,
		    c->ctxcut);
}

/*
 * The arcs and stacks the files held, and what checking them against
 * each other and against the counts found.
 */
static void
stats_graph(const struct report *r, const struct profile *p)
{
	const struct graph *g = &r->g;
	uint64_t calls = 0;
	size_t i;
	char lim[32];

	for (i = 0; i < p->narcs; i++)
		addsat(&calls, p->arcs[i].count);
	if (p->arcfiles > 0)
		fprintf(stderr, "arcs: %zu from %zu file%s, %" PRIu64 " calls; "
		    "%zu call counts their arcs do not add up to\n",
		    p->narcs, p->arcfiles, p->arcfiles == 1 ? "" : "s",
		    calls, p->arcsbad);
	if (p->stackfiles == 0)
		return;
	fprintf(stderr, "stacks: %zu distinct from %zu file%s, %" PRIu64
	    " samples, %" PRIu64 " kept no stack, %.0f cut at %s"
	    " frames, %.0f in libmon's code\n", p->nstacks, p->stackfiles,
	    p->stackfiles == 1 ? "" : "s", p->stackraw, p->sum.stacks_lost,
	    g->cut, stack_limits(p, lim, sizeof(lim)), g->overhead);
	if (g->shortend > 0)
		fprintf(stderr, "short: %.0f samples in stacks that end short "
		    "of a thread's start\n", g->shortend);
	if (g->counted)
		fprintf(stderr, "unconfirmed: %.0f samples in stacks with a "
		    "caller pair the counted arcs do not confirm, %zu pairs\n",
		    g->unconfirmed, g->nounconf);
	leaves_against_self(r);
}

/*
 * The samples taken: in the histogram, outside it, in the kernel where
 * a file's perf clock sampled kernel mode, and lost.
 */
static void
stats_samples(const struct report *r, const struct profile *p)
{
	const struct monx_run *run = &p->sum;
	uint64_t lost, kernel;

	lost = p->anyrun ? run->samples_lost + run->dropped : 0;
	kernel = p->anyrun ? run->samples_kernel : 0;
	fprintf(stderr, "samples: %" PRIu64 " total, %" PRIu64 " in the "
	    "histogram, %" PRIu64 " outside it, ", r->histsum + r->outside +
	    kernel + lost, r->histsum, r->outside);
	if (p->anyrun && (run->flags & MONX_RUN_KERNEL))
		fprintf(stderr, "%" PRIu64 " in the kernel, ", kernel);
	fprintf(stderr, "%" PRIu64 " lost\n", lost);
}

/*
 * PROFMODE=wall: what the wall sampler did (monx_wallhead): its rate,
 * its rounds and those it missed running late (each round taken then
 * stands for more of the wall clock), the samples it could not keep,
 * and the CPU time it used itself, libmon's and not the program's, as
 * a share of one core over the run.
 */
static void
stats_wall(const struct profile *p)
{
	double core;

	if (p->wallfiles == 0)
		return;
	core = p->wallrun > 0 ? 100 * p->wallown / p->wallrun : 0.0;
	fprintf(stderr, "wall: %.0f Hz, %" PRIu64 " rounds, %" PRIu64
	    " missed running late, %" PRIu64 " samples lost, %zu threads; "
	    "the sampler used %.3f s of CPU, %.2f%% of a core\n",
	    p->wallhz, p->wallticks, p->walllate, p->walllost, p->nwthreads,
	    p->wallown, core);
}

static void
stats_all(const struct report *r, const struct profile *p,
    const struct symtab *st)
{
	const struct monx_run *run = &p->sum;

	stats_classic(r, p);
	if (p->nfiles > 1)
		fprintf(stderr, "files: %zu merged\n", p->nfiles);
	stats_samples(r, p);
	stats_clock(p);
	stats_seconds(r, p);
	stats_kernel(p);
	stats_overhead(r);
	fprintf(stderr, "saturated: %" PRIu64 " counters, %" PRIu64
	    " samples lost to them\n", run->saturated, run->samples_lost);
	fprintf(stderr, "cells: %" PRIu64 " count cells, %" PRIu64
	    " calls lost for want of a cell, %" PRIu64 " in no known "
	    "function\n", p->rawcells, run->cells_lost, r->callsunmatched);
	fprintf(stderr, "overruns: %" PRIu64 " clock expirations missed\n",
	    run->overruns);
	fprintf(stderr, "dropped: %" PRIu64 " samples the kernel could not "
	    "buffer\n", run->dropped);
	fprintf(stderr, "unloaded: %" PRIu64 " libraries unloaded with no "
	    "room left to record them\n", run->unloaded_lost);
	fprintf(stderr, "unplaced: %" PRIu64 " samples outside the "
	    "histogram with no room left to keep their address\n",
	    run->outside_lost);
	fprintf(stderr, "unsampled: %" PRIu32 " threads no clock could be "
	    "given\n", run->unsampled);
	if (p->anyrun)
		fprintf(stderr, "threads: %" PRIu32 " counted calls, in %"
		    PRIu32 " count tables\n", run->threads, run->tables);
	fputs("symbols: ", stderr);
	fprintf(stderr, "%s of ", st->table);
	put_text(stderr, st->debug != NULL ? st->debug : st->path);
	if (st->debug != NULL) {
		fputs(" for ", stderr);
		put_text(stderr, st->path);
	}
	fputc('\n', stderr);
	if (p->nobjs - p->nmaps > 1)
		stats_objects(r, p);
	stats_maps(r, p);
	stats_graph(r, p);
	stats_timed(r, p);
}

/* -s: the statistics on stderr, after the report. */
void
report_stats(const struct report *r, const struct profile *p,
    const struct symtab *st)
{
	stats_all(r, p, st);
	stats_wall(p);
}

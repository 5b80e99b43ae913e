/*
 * lines.c -- -L, the report by source line:
 *
 *	[ Address ] %Time Seconds Cumsecs   Calls  Line
 *
 * one row a source line of a function, "file:line function", sorted
 * as the flat report is (-t, -c, -n by file and line, -a by address),
 * %Time of the same total as the flat report's.  Calls are the calls
 * made from the line, counted exactly at their call sites (mcount's
 * arcs); blank on a line that made none.  A file under the current
 * directory is named from there, so that rows stay short; any other as
 * the line table gives it.  Code no line table covers is "??:0" in its
 * function.  A note after the rows says where the time came from:
 * exact sampled addresses, or histogram bins shared by bytes.
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

/* "file:line function (object)" of a row. */
void
put_linename(const struct lines *ls, const struct lrow *w)
{
	if (w->file != NULL)
		put_text(stdout, line_file_name(w->file));
	else
		fputs("??", stdout);
	printf(":%" PRIu32 " ", w->line);
	put_text(stdout, w->func != NULL ? w->func : "??");
	if (w->obj != OBJ_MAIN && w->obj < ls->r->ntabs &&
	    ls->r->uses != NULL && ls->r->uses[w->obj].label != NULL) {
		fputs(" (", stdout);
		put_text(stdout, ls->r->uses[w->obj].label);
		putchar(')');
	}
}

/* The note after the rows: where the time came from. */
static void
lines_note(const struct lines *ls)
{
	const struct profile *p = ls->p;
	uint64_t lo, hi;

	if (ls->exact)
		printf("\nlines: time from the exact address of each sample "
		    "(the stacks' pcs); calls from their call sites\n");
	else if (p->nbins > 0) {
		bin_range(p, p->bins[0].i, &lo, &hi);
		printf("\nlines: time from the histogram's %" PRIu64 "-byte "
		    "bins, shared by bytes where a bin holds two lines; calls "
		    "from their call sites\n", hi - lo);
	} else
		printf("\nlines: time from the sampled addresses; calls from "
		    "their call sites\n");
}

/* Print ls, sorted, on stdout: -L. */
void
lines_print(struct lines *ls, const struct opts *o)
{
	const struct lrow *w;
	double pct, cum = 0, period = ls->r->period;
	size_t i;
	int aw = 0;

	lines_sort(ls, o->sort);
	pct = ls->total > 0 ? 100.0 / ls->total : 0;
	if (o->addr)
		for (i = 0; i < ls->nrows; i++) {
			char b[32];
			int n = snprintf(b, sizeof(b), o->addr == 'o' ?
			    "%" PRIo64 : "%" PRIx64, ls->rows[i].addr);
			if (n > aw)
				aw = n;
		}
	if (aw > 0 && aw < 7)
		aw = 7;
	if (!o->nohead) {
		if (o->addr)
			printf("%*s ", aw, "Address");
		printf(" %%Time Seconds Cumsecs    Calls  Line\n");
	}
	for (i = 0; i < ls->nrows; i++) {
		w = &ls->rows[i];
		cum += w->samples * period;
		if (o->addr)
			printf(o->addr == 'o' ? "%*" PRIo64 " " :
			    "%*" PRIx64 " ", aw, w->addr);
		printf("%6.1f%8.2f%8.2f", w->samples * pct,
		    w->samples * period, cum);
		if (w->calls > 0)
			printf(" %8" PRIu64 "  ", w->calls);
		else
			printf("%11s", "");
		put_linename(ls, w);
		putchar('\n');
	}
	if (!o->nohead)
		lines_note(ls);
}

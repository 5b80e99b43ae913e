/*
 * focusnote.c -- prof -f: after the report or the call graph, a line
 * on what the focus kept, since the shares above it are of that part
 * alone:
 *
 *	focus ^parse: 3 functions match, 0.42 s of 1.20 s (35.0%) kept
 */
#include <stdio.h>

#include "model/model.h"
#include "print/print.h"
#include "prof.h"
#include "util/util.h"

/* -f: the line, on stdout, of what focus_apply() kept of report r. */
void
focus_note(const struct focus *f, const struct report *r,
    const struct opts *o)
{
	fputs("\nfocus ", stdout);
	put_text(stdout, o->focus);
	printf(": %zu function%s, %.2f s of %.2f s (%.1f%%) kept\n",
	    f->matched, f->matched == 1 ? " matches" : "s match",
	    f->kept * r->period,
	    f->all * r->period, f->all > 0 ? 100 * f->kept / f->all : 0.0);
}

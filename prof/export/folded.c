/*
 * folded.c -- prof -F folded: one line per distinct stack, root
 * first, frames separated by ';', then one space and a whole number of
 * samples:
 *
 *	main;costly_caller;work 90
 *	__libc_start_call_main (libc.so.6);main;cheap_caller;work 10
 *
 * flamegraph.pl, inferno and speedscope read it.  A frame is named as
 * the report names its row, object and all, so a library's frames say
 * which library; a ';' in a name, which would split the frame, is
 * written ':'.  A stack whose count rounds to nothing is left out: the
 * counts still add up to the total (stacks.c).
 *
 * With -L the innermost frame is a source line of its function,
 * "work:42": a stack is split among the lines of its leaf function in
 * proportion of that function's own samples on each (-L's figures;
 * the merged stacks keep no address), rounded on a running sum so that
 * the stack's count is kept.  A function without lines stays whole.  A
 * line of a file other than the one the function starts in (code
 * inlined from a header) names its file, as -L does, "work:hot.h:7",
 * so that it is not taken for the function's own line 7.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

static void
put_frame(const char *s, FILE *fp)
{
	for (; *s != '\0'; s++)
		fputc(*s == ';' ? ':' : *s, fp);
}

/*
 * Stack s, root first, its leaf at line (0: the function whole) of
 * file (NULL: the function's own).
 */
static void
put_stack(const struct xset *x, const struct xstack *s, const char *file,
    uint32_t line, uint64_t count, FILE *fp)
{
	char *f;

	size_t j;

	for (j = 0; j < s->depth; j++) {
		if (j > 0)
			fputc(';', fp);
		put_frame(x->labels[x->ids[s->first + j]], fp);
	}
	if (line > 0 && file != NULL) {
		f = printable(line_file_name(file));
		fputc(':', fp);
		put_frame(f, fp);
		free(f);
	}
	if (line > 0)
		fprintf(fp, ":%lu", (unsigned long)line);
	fprintf(fp, " %llu\n", (unsigned long long)count);
}

/* -L: stack s a line of its leaf at a time; 0 if the leaf has none. */
static int
by_line(const struct xset *x, const struct xlines *xl,
    struct srclines *sl, const struct xstack *s, FILE *fp)
{
	const struct xline *l;
	size_t leaf = x->ids[s->first + s->depth - 1], k;
	double tot, cum = 0;
	const char *own;
	uint32_t start;
	uint64_t n;

	if (leaf >= x->nlabels || xl->first[leaf] >= xl->nlines ||
	    (tot = xl->total[leaf]) <= 0)
		return 0;
	srcline_find(sl, leaf, &own, &start);
	for (k = xl->first[leaf]; k < xl->nlines && xl->lines[k].id == leaf;
	    k++) {
		l = &xl->lines[k];
		if ((n = xset_round((double)s->count * l->samples / tot,
		    &cum)) > 0)
			put_stack(x, s, own == NULL ||
			    xline_samefile(l->file, own) ? NULL : l->file,
			    l->line, n, fp);
	}
	return 1;
}

int
export_folded(const struct xset *x, FILE *fp, const char **file,
    const char **why)
{
	const struct xstack *s;
	struct srclines sl;
	struct xlines xl;
	size_t i;
	int lines = x->o->lines == 'L';

	(void)file;
	(void)why;
	if (lines) {
		srcline_init(&sl, x);
		xlines_make(&xl, x, &sl);
	}
	for (i = 0; i < x->nstacks; i++) {
		s = &x->stacks[i];
		if (s->count == 0 || s->depth == 0)
			continue;
		if (!lines || !by_line(x, &xl, &sl, s, fp))
			put_stack(x, s, NULL, 0, s->count, fp);
	}
	if (lines) {
		xlines_free(&xl);
		srcline_free(&sl);
	}
	return 0;
}

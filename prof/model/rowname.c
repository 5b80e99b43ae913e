/*
 * rowname.c -- a row's name as the report prints it: its names,
 * "a, b" ("[unnamed]" when it has none), a clashing local's source
 * file in brackets, its object in parentheses, each made printable.
 *
 *	helper, worker [util.c] (libfoo.so)
 *
 * The one spelling of it, since it is also a key: -d matches the rows
 * of two profiles by it (print/diff.c), and the exports name frames by
 * it (export/stacks.c, callgrind.c, pprof.c), so that every view calls
 * a function alike.  A writer whose format holds the object or the
 * file in a field of its own leaves that part out.
 */
#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"
#include "util/util.h"

/*
 * Row w's name, the parts that parts asks for (ROWNAME_FILE,
 * ROWNAME_OBJ) after the names, in a string the caller frees.
 */
char *
row_name(const struct row *w, int parts)
{
	char *s = NULL;
	size_t len = 0, k;
	FILE *fp;

	if ((fp = open_memstream(&s, &len)) == NULL)
		return xstrdup("?");
	for (k = 0; k < w->nnames; k++) {
		if (k > 0)
			fputs(", ", fp);
		put_text(fp, w->names[k]);
	}
	if (w->nnames == 0)
		fputs("[unnamed]", fp);
	if ((parts & ROWNAME_FILE) && w->file != NULL) {
		fputs(" [", fp);
		put_text(fp, w->file);
		fputc(']', fp);
	}
	if ((parts & ROWNAME_OBJ) && w->obj != NULL) {
		fputs(" (", fp);
		put_text(fp, w->obj);
		fputc(')', fp);
	}
	if (fclose(fp) != 0 || s == NULL) {
		free(s);
		return xstrdup("?");
	}
	return s;
}

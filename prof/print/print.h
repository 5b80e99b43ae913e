/*
 * print.h -- prof's third room: the report on stdout, as the flat rows
 * or the call graph, and the -s statistics on stderr.
 *
 *	report.c	the flat report, classic prof's columns; -s
 *	graphprint.c	-q, the call graph; -e, the estimate beside it
 */
#ifndef _PRINT_H
#define _PRINT_H

#include "model/model.h"
#include "prof.h"

/* report.c */
void	report_print(struct report *, const struct opts *);
void	put_rowname(const struct row *);
void	report_stats(const struct report *, const struct profile *,
	    const struct symtab *);

/* graphprint.c */
void	graph_print(struct report *, const struct profile *,
	    const struct opts *);
void	estimate_print(struct report *, const struct opts *);
void	report_show(struct report *, const struct profile *,
	    const struct opts *);

#endif /* !_PRINT_H */

/*
 * print.h -- prof's third room: the report on stdout, as the flat rows
 * or the call graph, and the -s statistics on stderr.
 *
 *	report.c	the flat report, classic prof's columns; -s
 *	graphprint.c	-q, the call graph; -e, the estimate beside it
 *	measured.c	-q's measured graph: calls timed one by one
 *	figures.c	numbers as printf prints them, faster
 *	diff.c		-d: two profiles' difference, function by function
 *	focusnote.c	-f: the line on what the focus kept
 *	lines.c		-L: the report by source line
 *	annotate.c	-A: source files listed with each line's figures
 *	slow.c		-T: the calls longer than PROFSLOW's threshold
 */
#ifndef _PRINT_H
#define _PRINT_H

#include <stdint.h>
#include <stdio.h>

#include "model/model.h"
#include "prof.h"

/* A column's last figure (figures.c). */
struct fixed {
	double		 v;
	const char	*fmt;
	int		 width, prec, ok;
	size_t		 len;		/* of s */
	char		 s[48];
};

/* report.c */
void	report_print(struct report *, const struct opts *);
void	put_rowname(const struct row *);
void	report_stats(const struct report *, const struct profile *,
	    const struct symtab *);

/* figures.c */
const char *fig_fixed(struct fixed *, const char *, int, int, double);
size_t	fig_u64(char *, uint64_t);
void	fig_pad(FILE *, int);
void	fig_right(FILE *, const char *, size_t, int);

/* measured.c */
void	measured_print(const struct report *, const struct profile *);

/* diff.c */
void	diff_print(struct report *, struct report *, const struct opts *);

/* focusnote.c */
void	focus_note(FILE *, const struct focus *, const struct report *,
	    const struct opts *);

/* lines.c */
void	lines_print(struct lines *, const struct opts *);
void	put_linename(const struct lines *, const struct lrow *);

/* annotate.c */
void	annotate_print(struct lines *, const struct opts *,
	    const char *const *, size_t);
int	annotate_names(const struct dwline *, const char *);

/* wall.c, wallgraph.c */
void	wall_print(const struct report *, const struct profile *,
	    const struct opts *);
void	wall_graph_print(const struct report *, const struct profile *,
	    const struct opts *);

/* slow.c */
void	slow_print(const struct report *, const struct profile *,
	    const struct opts *);

/* graphprint.c */
void	graph_print(struct report *, const struct profile *,
	    const struct opts *);
void	graph_print_lines(struct report *, const struct profile *,
	    const struct opts *, struct lines *);
void	estimate_print(struct report *, const struct opts *);
void	report_show(struct report *, const struct profile *,
	    const struct opts *);

#endif /* !_PRINT_H */

/*
 * model.h -- prof's second room: the merged profile against the
 * program's symbols, as the report's rows, the arcs and stacks between
 * them, and their inclusive time.  Nothing here knows how the report
 * is printed or exported.
 *
 *	attrib.c	the steps in order; samples, calls, arcs and stack
 *			frames placed in the entries of the symbol tables
 *	entries.c	each object's symbol table cut into entries, read
 *			on first use; -l's folding; libmon's own entry
 *	rows.c		the rows named: entries, unnamed addresses, the
 *			kernel's time, clashing locals, what became of
 *			each object
 *	rowname.c	a row's name as printed, the key views share
 *	callgraph.c	the call graph over rows: inclusive time measured
 *			from the stacks, arc times, gprof's estimate
 *	reconcile.c	the stacks made to hold the rows' samples, and the
 *			inclusive time the report and the exports show
 *	sort.c		the rows in the order the options ask for
 *	focus.c		-f: only the stacks and arcs through some names
 *	lines.c		-L and -A: samples and calls by source line
 */
#ifndef _MODEL_H
#define _MODEL_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "prof.h"
#include "read/read.h"

/* A line of the report. */
struct row {
	const char	**names;	/* synonyms, printed "a, b" */
	size_t		 nnames;
	const char	*obj;		/* object label, NULL for the program */
	const char	*file;		/* a clashing local's source file */
	char		*own;		/* a name made for the row, or NULL */
	size_t		 objidx;
	uint64_t	 addr;
	double		 samples;
	uint64_t	 calls;
	size_t		 id;		/* its place in the graph, stable */
	size_t		 byname;	/* rank of its first name (sort.c) */
	int		 graphonly;	/* a row only the graph needed */
	int		 kernel;	/* the kernel's or the unsampled row:
					   no function; what no stack holds
					   of it is a root of its own */
	int		 timed;		/* its calls were timed one by one */
	double		 measured;	/* then their inclusive seconds */
};

/*
 * What the call graph says of a row, kept apart from the rows by id
 * (graph_node()): the flat report has no graph, and a million rows
 * without these figures are 48 MB less.
 */
struct node {
	double		 gself;		/* samples of stacks it ends */
	double		 incl;		/* samples of stacks it is in */
	uint64_t	 callsin;	/* arcs into it from other rows */
	uint64_t	 selfcalls;	/* and from itself */
	size_t		 level;		/* fewest frames above it in a stack */
	double		 nostack;	/* of gself, what no stack holds: the
					   kernel's, the unsampled row's */
};

#define ROW_NONE	SIZE_MAX	/* a frame no row stands for */
#define ROW_SELF	(SIZE_MAX - 1)	/* a frame in libmon's code */

/*
 * A caller-to-callee pair of rows, by id, counted by mcount or seen in
 * stacks or both.  samples: the stacks in which from calls to
 * directly, once a stack however often; leaf: of those, the stacks
 * that end in to right under from.
 */
struct cgarc {
	size_t		 from, to;
	uint64_t	 calls;
	int		 counted;	/* an arc of the files holds it */
	int		 unconfirmed;	/* in stacks, uncounted, to counted */
	double		 samples;
	double		 leaf;
};

/* A stack in rows, ids[first .. first + depth), innermost first. */
struct cgstack {
	size_t		 first;
	size_t		 depth;
	double		 samples;
	double		 scaled;	/* its samples as the views but the
					   graph's count them (reconcile.c) */
	int		 cut;		/* outer frames lost at the limit */
	int		 shortend;	/* or lost where the walk stopped
					   short of a thread's start */
};

/* The call graph of a report. */
struct graph {
	struct cgarc	*arcs;		/* sorted by from, then to */
	size_t		 narcs, arccap;
	struct cgstack	*stacks;
	size_t		 nstacks;
	size_t		*ids;
	size_t		 nids, idcap;
	unsigned char	*skipped;	/* by ids: its call went elsewhere */
	size_t		 skipcap;
	struct frame	*pcs;		/* by ids: the frame's place, the
					   sampled pc or a return address
					   less one; obj OBJ_NONE for the
					   kernel's frame */
	size_t		 pccap;
	struct node	*nodes;		/* by id, the rows graph_compute saw */
	size_t		 nnodes;
	double		*rowest;	/* gprof's estimate of a row's incl,
					   by id, if estimated */
	double		*arcest;	/* and of an arc's time, by arc */
	double		*nostack;	/* by id, a row's samples no stack
					   holds; [nrincl]: of no row */
	double		*rincl;		/* by id, inclusive samples of the
					   reconciled stacks (reconcile.c) */
	size_t		 nrincl;	/* the rows they were worked out for */
	int		 counted;	/* the files had arcs */
	int		 sampled;	/* the files had stacks */
	double		 samples;	/* in the stacks, libmon's left out */
	double		 overhead;	/* stacks ending in libmon's code */
	double		 unconfirmed;	/* stacks with an unconfirmed pair */
	double		 cut;		/* stacks cut at the limit */
	double		 shortend;	/* stacks ending short of a start */
	double		 stackless;	/* kernel and unsampled time no stack
					   holds: stackless_rows() */
	size_t		 nounconf;	/* distinct unconfirmed pairs */
	int		 estimated;	/* est computed (there were arcs) */
};

/* How attribution fared with object i > 0 of a profile, for -s. */
struct objuse {
	int			 tried;	/* it had data, and was looked up */
	const char		*why;	/* why it could not be read, or NULL */
	const struct symtab	*st;	/* its functions, when read */
	const char		*label;	/* how rows name it */
	size_t			 sampled; /* entries that took samples */
};

/*
 * Calls timed one by one (-finstrument-functions): a function's, to
 * row to and from ROW_NONE, or an arc's, from row from (ROW_NONE when
 * root: the first timed call of a thread's stack) to row to.  Seconds
 * of wall time; files and aliases summed.
 */
struct tcall {
	size_t		 from, to;
	int		 arc;
	int		 root;		/* an arc from where a thread starts */
	uint64_t	 calls;
	uint64_t	 open;		/* running at the write */
	double		 incl;		/* outermost calls only */
	double		 self;
	double		 min, max;	/* of whole calls; 0 if none */
};

/*
 * A calling context of the calls timed one by one: the calls of row
 * row (ROW_NONE: of no function a row stands for) with the stack of
 * its parent, up (an index in the report's tctx; SIZE_MAX at a
 * thread's root, or where the stack was not kept: lost) above it.
 * Seconds of wall time.
 */
struct tctx {
	size_t		 row;
	size_t		 up;
	size_t		 depth;		/* its stack's frames, its own too */
	int		 lost;		/* its root's stack was not kept */
	double		 self;		/* its calls' self time */
};

/*
 * The report: rows and the totals they are measured against.  Samples
 * are weighted ones (struct profile), but for the counts -s prints.
 */
struct report {
	struct row	*rows;
	size_t		 nrows;
	double		 total;		/* every sample of the run */
	double		 attributed;	/* samples given to a named function */
	double		 unsampled;	/* CPU time no sample stood for, the
					   same (its row) */
	double		 histattr;	/* of which from the histogram */
	double		 period;	/* seconds per sample */
	double		 overhead;	/* samples in libmon's code */
	int		 libmon;	/* 0, or how it was found: 'r' 'n' */
	int		 stripped;	/* the program's own time and calls
					   are on its unnamed row, warned */
	uint64_t	 histsum;	/* samples in the histogram, counted */
	uint64_t	 outside;	/* outside it, counted */
	uint64_t	 calltotal;
	uint64_t	 callsunmatched;
	size_t		 ntimed;	/* rows with measured calls */
	struct tcall	*tcalls;	/* by arc, from, to: functions first */
	size_t		 ntcalls;
	struct tctx	*tctx;		/* the contexts, a parent before its
					   children */
	size_t		 ntctx;
	double		 wall;		/* the run's wall time, seconds; 0:
					   unknown */
	size_t		 cellscalled;	/* cells (by place) with calls */
	size_t		 cellsnamed;	/* of which given to a function */
	size_t		 qualified;	/* main-program functions */
	size_t		 nsyms;		/* symbols in its table */
	size_t		 idle;		/* qualified, but no time or calls */
	struct objuse	*uses;		/* one per object; [0] unused */
	void		*tabs;		/* attrib.c's symbol tables */
	size_t		 ntabs;
	struct graph	 g;		/* ids index rows as first made */
	struct row	**byid;		/* rows by id, once sorted */
	struct nameblock *names;	/* where rows' names arrays lie */
	size_t		*wrows;		/* -w: each wall frame's row id,
					   ROW_NONE or ROW_SELF */
	size_t		*srows;		/* -T: each slow call's frame's */
	char		**wnames;	/* -w: by id, rows' names as
					   printed, made when first asked */
};

/* attrib.c */
void	bin_range(const struct profile *, size_t, uint64_t *, uint64_t *);
void	attribute(struct report *, struct profile *, struct symtab *,
	    const struct opts *);
void	report_free(struct report *);
const struct symtab *report_symtab(const struct report *, size_t);

/* callgraph.c */
int	row_thread_start(const struct row *);
void	graph_compute(struct report *, int);
size_t	graph_find(const struct graph *, size_t, size_t);
const struct node *graph_node(const struct report *, const struct row *);
double	graph_rowest(const struct report *, const struct row *);
double	graph_arcest(const struct graph *, const struct cgarc *);
void	graph_reset(struct graph *);
void	graph_free(struct graph *);

/* reconcile.c */
void	graph_reconcile(struct report *);
double	graph_incl(const struct report *, const struct row *);
double	graph_nostack(const struct report *, size_t);

/*
 * A source line of a function, for -L and -A (lines.c): file NULL and
 * line 0 for its function's code that no line table covers.
 */
struct lrow {
	size_t		 obj;
	const char	*file;		/* as the line table names it */
	uint32_t	 line;
	const char	*func;		/* the function holding it, or NULL */
	uint64_t	 entry;		/* that function's entry, or 0 */
	uint64_t	 addr;		/* its lowest address seen */
	double		 samples;
	uint64_t	 calls;		/* calls made from it */
	size_t		 rank;		/* its place before sorting */
};

/* Calls made from a line (a row of lines) to one function. */
struct lcall {
	size_t		 row;
	const char	*callee;	/* NULL: no function known */
	size_t		 cobj;		/* its object */
	uint64_t	 centry;	/* and entry, or 0 */
	uint64_t	 calls;
};

/* A profile by source line. */
struct lines {
	const struct report *r;
	const struct profile *p;
	const struct opts *o;
	const regex_t	*focus;		/* -f, or NULL */
	struct lrow	*rows;
	size_t		 nrows, rowcap;
	size_t		*hash;		/* index + 1 of rows, or 0 */
	size_t		 hashcap;
	struct lcall	*calls;		/* by row, once sorted */
	size_t		 ncalls, callcap;
	void		*tabs;		/* each object's line table */
	size_t		 ntabs;
	double		 total;		/* samples shares are of */
	int		 exact;		/* time from exact pcs (stacks) */
	int		 filled;	/* lines_fill() made the rows */
	struct entid	*byentry;	/* the report's rows by entry */
	size_t		 nbyentry;
	int		 anylines;	/* a table gave a line */
};

/* lines.c */
void	lines_open(struct lines *, const struct report *,
	    const struct profile *, const struct opts *);
void	lines_fill(struct lines *, const regex_t *);
void	lines_build(struct lines *, const struct report *,
	    const struct profile *, const struct opts *, const regex_t *);
void	lines_sort(struct lines *, int);
const struct dwline *lines_table(struct lines *, size_t);
int	lines_main_table(struct lines *);
size_t	lines_row(struct lines *, size_t, uint64_t);
void	lines_free(struct lines *);
const char *line_file_name(const char *);

/* -f: the pattern, and what it kept of the report (focus.c). */
struct focus {
	regex_t		 re;
	double		 all;		/* what focus can keep: the stacks'
					   samples, libmon's left out (with
					   no stacks, the report's total) */
	double		 kept;		/* after: the report's new total */
	size_t		 matched;	/* matching rows kept with time or
					   calls */
};

/* focus.c */
int	focus_compile(struct focus *, const char *, char *, size_t);
void	focus_apply(struct report *, struct focus *, int);

/* rowname.c: what row_name() puts after the names */
#define ROWNAME_FILE	1	/* a clashing local's " [file]" */
#define ROWNAME_OBJ	2	/* the object's " (obj)" */
#define ROWNAME_ALL	(ROWNAME_FILE | ROWNAME_OBJ)
char	*row_name(const struct row *, int);

/* wall.c */
const char *wall_sysname(int32_t, char *, size_t);
size_t	wall_frame_id(const struct report *, const struct profile *,
	    const struct frame *);
const struct row *wall_frame_row(const struct report *,
	    const struct profile *, const struct frame *);
const char *wall_frame_name(const struct report *, const struct profile *,
	    const struct frame *, uint64_t *);
int	wall_is_libmon(const struct report *, const struct profile *,
	    const struct wstack *);
const char *wall_sample_name(const struct report *, const struct profile *,
	    const struct wstack *);
const char *wall_nostack_name(const struct profile *, const struct wstack *);
unsigned char *wall_called(const struct report *, const struct profile *);
int	wall_rooted(const struct report *, const struct profile *,
	    const struct wstack *, const unsigned char *);
int	wall_never_ran(const struct wthread *);
int	wall_kept(const struct opts *, const struct wthread *);

/* sort.c */
void	report_sort(struct report *, const struct opts *);
void	report_rank(struct report *, const struct opts *);

#endif /* !_MODEL_H */

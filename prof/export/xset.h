/*
 * xset.h -- the export set, what prof -F's writers share: the report's
 * stacks, root first, merged by function and counted in whole samples.
 *
 *	export.c	the formats by name, and the order of steps
 *	stacks.c	the stacks every writer reads, the frames'
 *			labels, the run's description
 *	wallset.c	the same of -w's wall samples
 *	ctxset.c	the same of -M's calls timed one by one
 *	folded.c	folded stacks (flamegraph.pl, inferno, speedscope)
 *	svg.c		a flame graph drawn by prof itself
 *	pprof.c		profile.proto, with a protobuf encoder
 *	callgrind.c	the callgrind format (KCachegrind)
 *	gmon.c		GNU gmon.out files (gprof)
 *	gzip.c		gzip: deflate blocks of their own or fixed codes, CRC-32
 *	srcline.c	a frame's source file and line, by the line table
 *
 * Frames are row ids of the report, and five more: X_UNKNOWN for a
 * frame no row stands for (and the samples the report gives no
 * function), X_NOSTACK, the root of a function's samples that kept no
 * stack, X_CUT, the root of a stack whose outer frames were lost at the
 * stack limit (else its outermost kept frame looks a root), and
 * X_SHORT, the root of one whose walk stopped short of a thread's start
 * at a frame it could not follow (code without frame pointers), and
 * X_LOST, the root of a measured stack whose stack libmon did not keep
 * (ctxset.c).  The CPU
 * samples' stacks add up to the report's total and each function's
 * innermost samples to its row's (stacks.c); libmon's own time is in
 * none of them, as in none of the report's rows.  -w's (wallset.c)
 * count wall samples, -M's (ctxset.c) measured nanoseconds.
 */
#ifndef _XSET_H
#define _XSET_H

#include <stdint.h>
#include <stdio.h>

#include "model/model.h"
#include "prof.h"

/* A stack: ids[first .. first + depth) of its set, root first. */
struct xstack {
	size_t		 first;
	size_t		 depth;
	uint64_t	 count;		/* whole samples, or nanoseconds (-M) */
	double		 samples;	/* weighted, as the report's */
};

/* What every writer is given. */
struct xset {
	struct report		*r;
	const struct profile	*p;
	const struct opts	*o;
	const char		*prog;	/* as named, made printable */
	struct xstack		*stacks; /* sorted by their frames */
	size_t			 nstacks;
	size_t			*ids;
	size_t			 nids, idcap;
	char			**labels; /* by id, nrows + X_FIXED of them */
	size_t			 nlabels;
	uint64_t		 count;	/* of all the stacks */
	double			 samples;
	int			 flat;	/* no stacks: a frame a function */
	int			 wall;	/* -w: wall samples (wallset.c) */
	int			 measured; /* -M: the calls timed one by
					   one, a count a nanosecond
					   (ctxset.c) */
	double			 period; /* seconds a count stands for;
					   0: the report's */
	size_t			*objs;	/* -w: the object of each label
					   from nrows + X_FIXED on, */
	uint64_t		*addrs;	/* and its function's entry */
	double			 wallself; /* -w: thread-seconds of
					   libmon's own, in no stack */
};

#define X_UNKNOWN(x)	((x)->r->nrows)
#define X_NOSTACK(x)	((x)->r->nrows + 1)
#define X_CUT(x)	((x)->r->nrows + 2)
#define X_SHORT(x)	((x)->r->nrows + 3)
#define X_LOST(x)	((x)->r->nrows + 4)
#define X_FIXED		5	/* frames no row stands for, after the rows */

/* stacks.c */
void		 xset_begin(struct xset *, struct report *,
		    const struct profile *, const struct opts *,
		    const char *);
void		 xset_make(struct xset *, struct report *,
		    const struct profile *, const struct opts *,
		    const char *);
void		 xset_free(struct xset *);
const struct row *xset_row(const struct xset *, size_t);
size_t		 xset_object(const struct xset *, size_t);
char		*xset_objname(const struct xset *, size_t);
double		 xset_seconds(const struct xset *, double);
char		*xset_title(const struct xset *);
char		*xset_overhead(const struct xset *);
uint64_t	 xset_round(double, double *);

size_t		*xset_add_stack(struct xset *, size_t, double);
void		 xset_merge(struct xset *);

/* ctxset.c */
void		 xset_make_measured(struct xset *, struct report *,
		    const struct profile *, const struct opts *,
		    const char *);

/* wallset.c */
void		 xset_make_wall(struct xset *, struct report *,
		    const struct profile *, const struct opts *,
		    const char *);

/* srcline.c: the line tables of a set's objects, read on first use */
struct srclines {
	const struct xset	*x;
	struct opts		 o;	/* the set's, for lines */
	struct lines		 ls;	/* the tables, and the lines */
	unsigned char		*used;	/* by object: a file named */
};
void		 srcline_init(struct srclines *, const struct xset *);
int		 srcline_find(struct srclines *, size_t, const char **,
		    uint32_t *);
int		 srcline_used(const struct srclines *, size_t);
void		 srcline_free(struct srclines *);

/*
 * srcline.c: each frame's samples by source line, and its counted calls
 * by call site, for the formats that hold lines (pprof, callgrind,
 * folded with -L): model/lines.c's lines, found their frames by their
 * function's entry.
 */
struct xline {
	size_t		 id;		/* the frame */
	const char	*file;		/* as the line table names it: the
					   frame's own or one inlined */
	uint32_t	 line;
	uint64_t	 addr;		/* its lowest address */
	double		 samples;	/* the frame's own samples there */
};
struct xsite {
	size_t		 from, to;	/* frames: caller, callee */
	size_t		 line;		/* the call site, in lines; SIZE_MAX:
					   a stack's, at no line */
	uint64_t	 calls;		/* counted there */
	double		 weight;	/* the stacks' samples whose call
					   into to's outermost frame was
					   made there (callgrind's rule) */
};
struct xlines {
	struct xline	*lines;		/* by frame, file, then line */
	size_t		 nlines, linecap;
	size_t		*first;		/* by frame: its first, or nlines */
	double		*total;		/* by frame: its lines' samples */
	struct xsite	*sites;		/* by caller, callee, then line */
	size_t		 nsites, sitecap;
	int		 stacked;	/* the weights are the stacks' */
};
int		 xline_samefile(const char *, const char *);
void		 xlines_make(struct xlines *, const struct xset *,
		    struct srclines *);
size_t		 xlines_sites(const struct xlines *, size_t, size_t,
		    size_t *);
void		 xlines_free(struct xlines *);

/* gzip.c */
unsigned char	*gzip_encode(const unsigned char *, size_t, size_t *);

/* The writers: 0, or -1 with the file at fault and the reason. */
int	export_folded(const struct xset *, FILE *, const char **,
	    const char **);
int	export_svg(const struct xset *, FILE *, const char **,
	    const char **);
int	export_pprof(const struct xset *, FILE *, const char **,
	    const char **);
int	export_pprof_diff(const struct xset *, const struct xset *, FILE *,
	    const char **, const char **);
int	export_callgrind(const struct xset *, FILE *, const char **,
	    const char **);
int	export_gmon(const struct xset *, FILE *, const char **,
	    const char **);

#endif /* !_XSET_H */

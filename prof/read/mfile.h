/*
 * mfile.h -- one mon.out file as the readers of read/ pass it along:
 * read and checked (monread.c), its addresses placed (place.c), then
 * merged into the profile (merge.c).  For those three files alone.
 */
#ifndef _MFILE_H
#define _MFILE_H

#include <stdint.h>
#include <string.h>

#include "monfmt.h"
#include "read/read.h"

#define USERTOP		(1ULL << 56)	/* above any x86_64 user address */

/* An object as one file describes it. */
struct fobj {
	uint64_t		 bias, lo, hi;
	const unsigned char	*id;
	size_t			 idlen;
	const char		*path;		/* not NUL-terminated */
	size_t			 pathlen;
	size_t			 gidx;		/* its index in profile.objs */
};

/* Addresses [lo, hi) of a file that belong to its OBJ record rec. */
struct span {
	uint64_t		 lo, hi;
	size_t			 rec;
	int			 shared;	/* another object's holds them */
};

/* A STACKS record's payload, checked whole. */
struct stkrec {
	const unsigned char	*p;
	size_t			 len;
};

/* One file, read and checked, before it is merged. */
struct mfile {
	const char		*name;
	const char		*why;
	unsigned char		*buf;
	size_t			 len;
	uint64_t		 lpc, hpc, nfns;
	const unsigned char	*cells;
	const unsigned char	*hist;
	size_t			 nhist;
	unsigned char		*ext;		/* the extension payload */
	size_t			 extlen;
	int			 hasrun;
	struct monx_run		 run;
	int			 hasself;
	struct monx_range	 self;
	int			 hasexec;
	struct fobj		 exec;
	struct fobj		*objs;
	size_t			 nobjs, objcap;
	struct span		*spans;
	size_t			 nspans;
	struct monx_pc		*pcs;
	size_t			 npcs, pcscap;
	struct monx_arc		*arcs;
	size_t			 narcs, arccap;
	struct stkrec		*stks;
	size_t			 nstks, stkcap;
	int			 hasclocks;
	struct monx_clocks	 clocks;
	const unsigned char	*timed;		/* TIMED entries, in ext */
	size_t			 ntimed;
	uint64_t		 stkframes;	/* pcs in them */
	double			 period;	/* seconds a sample of its own */
	double			 weight;	/* that over profile.period */
	uint64_t		 shared[2];	/* calls, samples at an address
						   two objects held */
	size_t			 jit;		/* its process's perf map */
	const unsigned char	*jitents;	/* its JIT record's entries */
	size_t			 jitlen;
	struct monx_jithead	 jithead;
	const unsigned char	*wall;		/* its WALL record, checked */
	size_t			 walllen;
	const unsigned char	*slow;		/* its SLOW record, checked */
	size_t			 slowlen;
	int			 quiet;		/* scanned only: say nothing,
						   arcs and stacks unread */
};

static inline uint64_t
get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* monread.c */
int	mfile_slurp(const char *, unsigned char **, size_t *, const char **);
int	mfile_parse(struct mfile *);
enum kmode mfile_kernel_mode(const struct mfile *);
uint64_t mfile_samples(const struct mfile *);
double	mfile_period(const struct mfile *, const struct ipool *);
double	mfile_unsampled_seconds(const struct mfile *);
double	mfile_kernel_seconds(const struct mfile *);
void	mfile_free(struct mfile *);
void	mfile_cell(const struct mfile *, size_t, uint64_t *, int64_t *);

/* place.c */
void	join_objects(struct profile *, struct mfile *);
void	join_perfmap(struct profile *, struct mfile *);
void	make_spans(struct mfile *, size_t);
int	place(const struct mfile *, uint64_t, struct place *);
struct place *add_place(struct place *, size_t *, struct mfile *, uint64_t,
	    uint64_t, int);

#endif /* !_MFILE_H */

/*
 * attr.h -- what attribution's files pass between them while one
 * report is made: each object's table of entries, the addresses no
 * symbol covers, and the state of the whole (struct attr).  For
 * attrib.c, entries.c and rows.c alone.
 */
#ifndef _ATTR_H
#define _ATTR_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "prof.h"
#include "read/read.h"

#define UNSAMPLED_ROW	0.01	/* a share of the CPU time no sample stood
				   for worth a row of its own, */
#define UNSAMPLED_WARN	0.05	/* and worth a warning, */
#define UNSAMPLED_WARN_S 0.05	/* if it is at least so many seconds */

/*
 * 40 bytes: a program of a million functions has a million entries, and
 * they are all there while the rows are made.  Its address is its first
 * function's.
 */
struct entry {
	size_t		 first;		/* its group in funcs */
	size_t		 ngroup;
	double		 samples;
	uint64_t	 calls;
	unsigned char	 local;		/* a local with no global to join */
	unsigned char	 self;		/* libmon's code: overhead, no row */
	unsigned char	 graph;		/* on an arc or in a stack */
};

/* An object's symbols and entries, loaded when first needed. */
struct otab {
	struct symtab	 st;
	int		 tried;
	int		 ok;
	const char	*why;
	char		*label;		/* basename of the path */
	struct entry	*ents;		/* NULL once the rows are made */
	size_t		 nents;
	size_t		*rowid;		/* each entry's row, or ROW_NONE */
	double		*tincl;		/* each entry's measured inclusive
					   seconds (TIMED), or NULL: none */
	uint64_t	*tcalls;	/* and its measured calls */
	size_t		 selfent;	/* libmon's entry, or SIZE_MAX */
	uint32_t	*upidx;		/* lookup's index (attrib.c), */
	size_t		 nupidx;	/* its buckets, */
	unsigned	 upshift;	/* each 2^upshift bytes */
};

/* Samples and calls at an address no symbol covers. */
struct raw {
	size_t		 obj;
	uint64_t	 addr;
	double		 samples;
	uint64_t	 calls;
	int		 graph;		/* only a frame or an arc put it here */
	size_t		 row;		/* the id of its row */
};

struct attr {
	const struct profile	*p;
	const struct opts	*o;
	struct otab		*tabs;		/* one per p->objs */
	struct raw		*raws;
	size_t			 nraws;
	size_t			 rawcap;
	struct report		*r;
	size_t			*arcto;		/* each arc's callee row */
	size_t			*byfrom;	/* arcs by return address */
	size_t			*through;	/* caller, callee pairs the
						   stacks join over libmon's
						   frames (graph_stacks()) */
	size_t			 nthrough, throughcap;
	size_t			 kernelrow;	/* the kernel's row's id, or
						   ROW_NONE */
};

/* entries.c */
void	 make_entries(struct otab *, const struct profile *, size_t, int);
void	 drop_entries(struct attr *);
struct otab *otab(struct attr *, size_t);
size_t	 group_end(const struct symtab *, size_t);
int	 is_vdso(const struct object *);

/* rows.c */
void	 entry_rows(struct attr *, size_t *);
void	 raw_rows(struct attr *, size_t *);
void	 mark_clashes(struct report *);
void	 kernel_row(struct attr *, size_t *);
void	 unsampled_row(struct attr *, size_t *);
void	 note_uses(struct attr *);
void	 free_names(struct report *);
int	 cmp_raw(const void *, const void *);

#endif /* !_ATTR_H */

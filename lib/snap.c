/*
 * snap.c -- a profile written in parts while it runs on: snapshots by
 * signal, by interval or by the program's call, and the part written at
 * the end; and the names the files of a run take.
 *
 * A part holds what happened since the part before it, and stands on
 * its own: header, cells, histogram, RUN, objects, samples outside.
 *
 *	histogram	taken bin by bin, each exchanged for 0: a sampler's
 *			compare-and-swap on a bin sees the exchange and
 *			retries, so no sample is lost or taken twice, and
 *			each part saturates at 0xffff on its own, not the
 *			run as a whole
 *	arcs		per-thread tables that only their owners may write:
 *			read as they stand, less the baseline (base.c); the
 *			cells are the part's arcs summed by callee
 *	outside pcs	the same
 *	stacks		each slot of the store (stacks.c) less its count at
 *			the last part: a slot holds one stack for the run
 *	RUN counters	the same, from a copy of the RUN record
 *
 * A baseline moves on only once its part is written; a part that cannot
 * be written leaves everything for the next, its histogram bins given
 * back.  Callers hold proflock.
 *
 * Names: with PROFDIR, DIR/<pid>.<prog>, each part DIR/<pid>.<prog>.<n>;
 * a name some other process left there (the pid used again) is never
 * written over: the run takes the next free -<k> (DIR/<pid>.<prog>-2,
 * DIR/<pid>.<prog>-2.<n>).  Without PROFDIR, mon.out and mon.out.<n>,
 * written over as mon.out always was.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mon_private.h"

#define MAXRUNS	1000		/* -<k> tried before giving up */

static struct _mon_keys	arcbase;	/* calls per arc at the last part */
static uint64_t		*stacksince;	/* samples per stack slot, and */
static uint64_t		*stacknow;	/* as the part being written read */
#define STACKBASE	(_MON_STACKSLOTS * sizeof(uint64_t))
static struct _mon_keys	pcbase;		/* samples per pc outside */
static struct monx_run	runbase;
static uint64_t		begin_ns;	/* when the last part was cut */
static unsigned long	nparts;		/* parts this process wrote */
static int		numbered;	/* files are parts */
static pid_t		runpid;		/* the process run and wrote are of */
static unsigned int	run;		/* its -<k>, 1 for none */
static int		wrote;		/* it wrote its whole-run name */

/* The RUN counters that add up: a part has their difference. */
static const size_t counters[] = {
	offsetof(struct monx_run, cpu_ns),
	offsetof(struct monx_run, samples_in),
	offsetof(struct monx_run, samples_out),
	offsetof(struct monx_run, samples_lost),
	offsetof(struct monx_run, saturated),
	offsetof(struct monx_run, overruns),
	offsetof(struct monx_run, cells_lost),
	offsetof(struct monx_run, dropped),
	offsetof(struct monx_run, unloaded_lost),
	offsetof(struct monx_run, outside_lost),
	offsetof(struct monx_run, user_ns),
	offsetof(struct monx_run, sys_ns),
	offsetof(struct monx_run, stacks_lost),
	offsetof(struct monx_run, stacks_cut),
	offsetof(struct monx_run, own_ns),
	offsetof(struct monx_run, samples_kernel),
};
#define NCOUNTERS	(sizeof(counters) / sizeof(counters[0]))

static uint64_t
realtime(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * A profile starts from nothing (a first start, a fork child): no
 * baseline; parts numbered from 1 in a process that wrote none.
 */
void
_mon_snap_reset(int parts)
{
	_mon_base_free(&arcbase);
	_mon_base_free(&pcbase);
	if (stacksince != NULL) {
		_mon_rezero(stacksince, STACKBASE);
		_mon_rezero(stacknow, STACKBASE);
	}
	memset(&runbase, 0, sizeof(runbase));
	begin_ns = realtime();
	if (runpid != getpid())
		nparts = 0;
	numbered = parts;
}

/* Are the files parts?  From now on they are, if on. */
int
_mon_snap_numbered(int on)
{
	if (on)
		numbered = 1;
	return numbered;
}

/*
 * Write d as the file of this run for part (0: the whole run), never
 * over another run's file under PROFDIR.  0, or -1 with errno set.
 */
int
_mon_snap_put(struct _mon_out *d, unsigned long part)
{
	char path[_MON_MAXPATH];
	unsigned int first;
	pid_t me;
	int r;

	me = getpid();
	r = -1;
	errno = EEXIST;
	if (runpid != me) {
		runpid = me;
		run = 1;
		wrote = 0;
	}
	first = run;
	for (; run < MAXRUNS; run++) {
		if (_mon_outpath(path, sizeof(path), run, part) != 0) {
			_mon_warn("PROFDIR", "path too long", 0);
			errno = ENAMETOOLONG;
			return -1;
		}
		/* This run's own whole file is written again, as ever. */
		d->noreplace = _mon_outname_dir() && !(part == 0 && wrote);
		if ((r = _mon_write(path, d)) == 0 || errno != EEXIST ||
		    !d->noreplace)
			break;
	}
	if (r == 0 && run != first && (wrote || nparts > 0))
		_mon_warn(path, "a file of this name was there; the run"
		    " goes on under this one", 0);
	if (r == 0 && part == 0)
		wrote = 1;
	return r;
}

/* The histogram bins since the last part, into dst; hist left at 0. */
static void
take(WORD *hist, WORD *dst, size_t n)
{
	_Atomic WORD *w = (_Atomic WORD *)hist;
	size_t i;

	for (i = 0; i < n; i++)
		if (atomic_load_explicit(&w[i], memory_order_relaxed) != 0)
			dst[i] = atomic_exchange(&w[i], 0);
}

/* A part that was not written gives its bins back, saturating. */
static void
giveback(WORD *hist, const WORD *src, size_t n)
{
	_Atomic WORD *w = (_Atomic WORD *)hist;
	unsigned int sum;
	WORD v;
	size_t i;

	for (i = 0; i < n; i++) {
		if (src[i] == 0)
			continue;
		v = atomic_load(&w[i]);
		do
			sum = (unsigned int)v + src[i];
		while (!atomic_compare_exchange_weak(&w[i], &v,
		    (WORD)(sum > 0xffff ? 0xffff : sum)));
	}
}

/* RUN counters since the last part into part; the rest as they stand. */
static void
run_delta(const struct monx_run *now, struct monx_run *part)
{
	size_t i;
	uint64_t a, b;

	*part = *now;
	for (i = 0; i < NCOUNTERS; i++) {
		memcpy(&a, (const char *)now + counters[i], sizeof(a));
		memcpy(&b, (const char *)&runbase + counters[i], sizeof(b));
		a = a > b ? a - b : 0;
		memcpy((char *)part + counters[i], &a, sizeof(a));
	}
}

/* What a part reads, and what it writes, in memory of its own. */
struct cut {
	struct monx_arc	*cum;		/* calls by arc, as they stand */
	size_t		 ncum, cummap;
	struct monx_arc	*arcs;		/* since the last part */
	size_t		 narcs;
	struct cnt	*cells;		/* they, summed by callee */
	size_t		 ncells;
	struct monx_pc	*pcs;		/* samples outside, as they stand */
	size_t		 npcs, pcmap;
	struct monx_pc	*pcd;		/* since the last part */
	size_t		 npcd;
	WORD		*hist;
	size_t		 histmap;
};

static void
cut_free(struct cut *c)
{
	_mon_unmap(c->cum, c->cummap);
	_mon_unmap(c->arcs, c->ncum * sizeof(struct monx_arc));
	_mon_unmap(c->cells, c->ncum * sizeof(struct cnt));
	_mon_unmap(c->pcs, c->pcmap);
	_mon_unmap(c->pcd, c->pcmap);
	_mon_unmap(c->hist, c->histmap);
}

/*
 * Read the counts as they stand and their differences from the
 * baselines, with room for the baselines to take them.  0, or -1 and
 * ENOMEM with nothing taken.
 */
static int
cut_read(struct cut *c, size_t nhist)
{
	size_t n;

	memset(c, 0, sizeof(*c));
	c->histmap = nhist * sizeof(WORD);
	if (nhist > 0 && (c->hist = _mon_map(c->histmap)) == NULL)
		goto nomem;
	/* The stacks' counts at the last part, kept once parts are on. */
	if (stacksince == NULL && ((stacksince = _mon_map(STACKBASE)) == NULL ||
	    (stacknow = _mon_map(STACKBASE)) == NULL)) {
		_mon_unmap(stacksince, STACKBASE);
		stacksince = NULL;
		goto nomem;
	}
	c->cum = _mon_arcs_merge(&c->ncum, &c->cummap, 0);
	if (c->ncum > 0 &&
	    ((c->arcs = _mon_map(c->ncum * sizeof(struct monx_arc))) == NULL ||
	    (c->cells = _mon_map(c->ncum * sizeof(struct cnt))) == NULL))
		goto nomem;
	/* Sorted by callee, as the cum arcs are: the cells sum them so. */
	c->narcs = _mon_base_delta(&arcbase, c->cum, c->ncum, c->arcs,
	    sizeof(struct monx_arc), 2 * sizeof(uint64_t),
	    offsetof(struct monx_arc, count));
	c->ncells = _mon_arcs_cells(c->arcs, c->narcs, c->cells);
	/* Places may be taken meanwhile: room for some more. */
	n = _mon_outside_count() + 64;
	c->pcmap = n * sizeof(struct monx_pc);
	if ((c->pcs = _mon_map(c->pcmap)) == NULL ||
	    (c->pcd = _mon_map(c->pcmap)) == NULL)
		goto nomem;
	c->npcs = _mon_outside_copy((unsigned char *)c->pcs, n);
	c->npcs = _mon_base_fold(c->pcs, c->npcs, sizeof(struct monx_pc),
	    sizeof(uint64_t), offsetof(struct monx_pc, count));
	c->npcd = _mon_base_delta(&pcbase, c->pcs, c->npcs, c->pcd,
	    sizeof(struct monx_pc), sizeof(uint64_t),
	    offsetof(struct monx_pc, count));
	if (_mon_base_reserve(&arcbase, c->ncum,
	    c->ncum * 2 * sizeof(uint64_t)) ||
	    _mon_base_reserve(&pcbase, c->npcs, c->npcs * sizeof(uint64_t)))
		goto nomem;
	return 0;
nomem:
	cut_free(c);
	errno = ENOMEM;
	return -1;
}

/* The part is written: what was read becomes the baseline. */
static void
cut_commit(const struct cut *c, const struct monx_run *now, uint64_t end)
{
	_mon_base_commit(&arcbase, c->cum, c->ncum, sizeof(struct monx_arc),
	    2 * sizeof(uint64_t), offsetof(struct monx_arc, count));
	_mon_stacks_settle(stacksince, stacknow);
	_mon_base_commit(&pcbase, c->pcs, c->npcs, sizeof(struct monx_pc),
	    sizeof(uint64_t), offsetof(struct monx_pc, count));
	runbase = *now;
	begin_ns = end;
}

/*
 * Write the part of the profile whose header is h and live histogram
 * hist (nhist bins at scale), the clock still running; last: the part
 * that ends the profile.  Numbered when parts are on, else the whole
 * run under its usual name.  0, or -1 with errno set and nothing lost:
 * the next part has it.
 */
int
_mon_snap_write(const struct hdr *h, WORD *hist, size_t nhist,
    unsigned int scale, uint32_t unsampled, int last)
{
	struct _mon_out d;
	struct monx_run now, part;
	struct cut c;
	unsigned long n;
	uint64_t end;
	int r, err;

	if (cut_read(&c, nhist) != 0)
		return -1;
	take(hist, c.hist, nhist);
	end = realtime();
	_mon_stats_cut();
	memset(&d, 0, sizeof(d));
	d.scale = scale;
	d.unsampled = unsampled;
	_mon_run_fill(&now, &d);
	run_delta(&now, &part);
	n = numbered ? nparts + 1 : 0;
	part.part = (uint32_t)n;
	part.last = last != 0;
	part.begin_ns = begin_ns;
	part.end_ns = end;
	d.hdr = h;
	d.cells = c.cells;
	d.ncells = c.ncells;
	d.arcs = c.arcs;
	d.narcs = c.narcs;
	d.stacks_since = stacksince;
	d.stacks_now = stacknow;
	d.hist = c.hist;
	d.nhist = nhist;
	d.run = &part;
	d.pcs = c.pcd;
	d.npcs = c.npcd;
	d.running = !last;
	/* The measured calls are the whole run's: in the last part only. */
	d.timed = last != 0;
	if ((r = _mon_snap_put(&d, n)) == 0) {
		cut_commit(&c, &now, end);
		nparts = n;
	} else
		giveback(hist, c.hist, nhist);
	err = errno;
	cut_free(&c);
	/* libmon's snapper: the part's CPU time is not the program's. */
	if (_mon_own(_mon_gettid()))
		_mon_stats_own(_MON_OWN_SNAPPER, _mon_gettid());
	errno = err;
	return r;
}

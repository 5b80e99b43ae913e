/*
 * merge.c -- mon.out files, placed, merged into one struct profile.
 *
 * Placed data of several files (a parent and its children, many runs)
 * merge by addition: histograms bin by bin, which requires the same
 * range, size and scale; cells and outside samples by place; arcs by
 * their two places (the caller's at the return address less one, as a
 * cell's function is found); stacks by their frames, each placed where
 * its function is looked up (the sampled pc, then return addresses
 * less one); run counters summed.  Arcs are checked against the cells
 * they must add up to, and stacks against the samples the run took:
 * a file that contradicts itself there is warned about, not refused.
 *
 * Files may have sampled at different rates, or with different clocks:
 * each file's samples are weighted by its own period (its clock's CPU
 * time over the samples it took, else the period it asked for, else a
 * classic file's 100 Hz) over the first file's, so that the seconds of
 * each add up to its own CPU time.  A perf-clock
 * file that records its user and system times has its samples stand
 * for the user part, and its system part is kept apart for the kernel's
 * row; one that sampled kernel mode too has its kernel samples make
 * that row, and their stacks the kernel's frame under its caller.
 * Where libmon's own code lay (SELF) is placed like any address.
 */

#include <sys/types.h>

#include <err.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "read/mfile.h"
#include "read/read.h"
#include "util/util.h"

/* --- merging ------------------------------------------------------ */

/*
 * The histogram: the first file sets its shape, the others must match.
 * Checked before anything of f is merged, so that a file refused leaves
 * the profile as it was.
 */
static int
check_hist(struct profile *p, const struct mfile *f, const char **why)
{
	uint64_t bias, scale;
	size_t len;

	if (p->nfiles == 0)
		return 0;
	bias = f->hasexec && f->hpc > f->lpc ? f->exec.bias : 0;
	scale = f->hasrun ? f->run.scale : 0;
	if (p->lpc == f->lpc - bias && p->hpc == f->hpc - bias &&
	    p->nhist == f->nhist && p->scale == scale)
		return 0;
	free(p->why);
	len = strlen(p->first) + 64;
	p->why = xmalloc(len);
	(void)snprintf(p->why, len, "histogram range or size differs from %s",
	    p->first);
	*why = p->why;
	return -1;
}

/*
 * The histogram, kept as the bins that took samples: a program of a
 * million functions has millions of bins, nearly all empty.  A file's
 * bins are added to those of the files before it, index by index.
 */
static void
merge_hist(struct profile *p, struct mfile *f)
{
	struct hbin *v;
	uint64_t bias;
	size_t i, j, n, k;
	uint16_t w;

	bias = f->hasexec && f->hpc > f->lpc ? f->exec.bias : 0;
	if (p->nfiles == 0) {
		p->lpc = f->lpc - bias;
		p->hpc = f->hpc - bias;
		p->nhist = f->nhist;
		p->scale = f->hasrun ? f->run.scale : 0;
	}
	for (i = 0, n = 0; i < f->nhist; i++) {
		memcpy(&w, f->hist + i * sizeof(w), sizeof(w));
		n += w != 0;
	}
	v = xcalloc(p->nbins + n + 1, sizeof(*v));
	for (i = 0, j = 0, k = 0; i < f->nhist; i++) {
		memcpy(&w, f->hist + i * sizeof(w), sizeof(w));
		for (; j < p->nbins && p->bins[j].i < i; j++)
			v[k++] = p->bins[j];
		if (w == 0)
			continue;
		v[k].i = i;
		v[k].w = (j < p->nbins && p->bins[j].i == i ?
		    p->bins[j++].w : 0) + f->weight * w;
		k++;
		p->histraw += w;
	}
	for (; j < p->nbins; j++)
		v[k++] = p->bins[j];
	free(p->bins);
	p->bins = v;
	p->nbins = k;
}

/* Process pid's pool of ITIMER_PROF samples, made if make; or NULL. */
static struct ipool *
ipool_of(struct profile *p, uint32_t pid, int make)
{
	size_t i;

	for (i = 0; i < p->nipools; i++)
		if (p->ipools[i].pid == pid)
			return &p->ipools[i];
	if (!make)
		return NULL;
	p->ipools = xreallocarray(p->ipools, p->nipools + 1,
	    sizeof(*p->ipools));
	memset(&p->ipools[p->nipools], 0, sizeof(*p->ipools));
	p->ipools[p->nipools].pid = pid;
	return &p->ipools[p->nipools++];
}

/* The file's period, and what it weighs against the first file's. */
static void
merge_period(struct profile *p, struct mfile *f)
{
	f->period = mfile_period(f, f->hasrun ? ipool_of(p, f->run.pid, 0) :
	    NULL);
	if (p->nfiles == 0) {
		p->period = p->pmin = p->pmax = f->period;
		p->askmin = UINT64_MAX;
	}
	if (f->period < p->pmin)
		p->pmin = f->period;
	if (f->period > p->pmax)
		p->pmax = f->period;
	f->weight = f->period / p->period;
	p->wkernel += mfile_kernel_seconds(f) / p->period;
	if (mfile_kernel_mode(f) == K_SAMPLED)
		p->wksampled += mfile_kernel_seconds(f) / p->period;
	p->wunsampled += mfile_unsampled_seconds(f) / p->period;
	p->cpuweighed += (double)f->run.cpu_ns / 1e9 / p->period;
	p->kfiles[mfile_kernel_mode(f)]++;
	if (f->hasrun && f->run.period_ns > 0) {
		if (f->run.period_ns < p->askmin)
			p->askmin = f->run.period_ns;
		if (f->run.period_ns > p->askmax)
			p->askmax = f->run.period_ns;
	}
}

/*
 * The wall-clock span of the files together: from the earliest start
 * to the latest stop, over the files that give a start.
 */
static void
merge_span(struct monx_run *s, const struct monx_run *r)
{
	uint64_t end;

	if (r->start_ns == 0)
		return;
	if (s->start_ns == 0) {
		s->start_ns = r->start_ns;
		s->wall_ns = r->wall_ns;
		return;
	}
	end = s->start_ns + s->wall_ns;
	if (r->start_ns + r->wall_ns > end)
		end = r->start_ns + r->wall_ns;
	if (r->start_ns < s->start_ns)
		s->start_ns = r->start_ns;
	s->wall_ns = end - s->start_ns;
}

static void
merge_run(struct profile *p, const struct mfile *f)
{
	const struct monx_run *r = &f->run;
	struct monx_run *s = &p->sum;
	int state;

	if (!f->hasrun) {
		p->run = 0;
		return;
	}
	p->wlost += f->weight * ((double)r->samples_lost + (double)r->dropped);
	/*
	 * The threads and tables of a run in parts are those of its last
	 * part: the others' stood at their time and are not added.
	 */
	state = r->part == 0 || r->last;
	if (!p->anyrun) {
		*s = *r;
		if (!state)
			s->threads = s->tables = s->unsampled = 0;
		p->anyrun = 1;
		return;
	}
	if (r->clock != s->clock)
		p->clocks = 1;
	s->cpu_ns += r->cpu_ns;
	s->samples_in += r->samples_in;
	s->samples_out += r->samples_out;
	s->samples_lost += r->samples_lost;
	s->saturated += r->saturated;
	s->overruns += r->overruns;
	s->dropped += r->dropped;
	s->samples_kernel += r->samples_kernel;
	s->flags |= r->flags;
	s->cells_lost += r->cells_lost;
	if (state) {
		s->threads += r->threads;
		s->tables += r->tables;
		s->unsampled += r->unsampled;
	}
	s->unloaded_lost += r->unloaded_lost;
	s->outside_lost += r->outside_lost;
	s->user_ns += r->user_ns;
	s->sys_ns += r->sys_ns;
	s->stacks_lost += r->stacks_lost;
	s->stacks_cut += r->stacks_cut;
	merge_span(s, r);
}

/*
 * Where libmon's code lay, as a place: the same program's files give
 * the same range, kept once.
 */
static void
note_self(struct profile *p, const struct mfile *f)
{
	struct place pl;
	struct selfcode *c;
	size_t i;

	if (!f->hasself)
		return;
	(void)place(f, f->self.lo, &pl);
	if (pl.obj == OBJ_NONE || (f->hasexec && pl.obj == f->jit))
		return;
	for (i = 0; i < p->nself; i++)
		if (p->self[i].obj == pl.obj && p->self[i].lo == pl.addr)
			return;
	p->self = xreallocarray(p->self, p->nself + 1, sizeof(*p->self));
	c = &p->self[p->nself++];
	c->obj = pl.obj;
	c->lo = pl.addr;
	c->hi = pl.addr + (f->self.hi - f->self.lo);
}

static void
merge_counts(struct profile *p, struct mfile *f)
{
	struct place *pl;
	uint64_t pc, out = 0;
	int64_t mcnt;
	size_t i;

	p->cells = xreallocarray(p->cells, p->ncells + f->nfns,
	    sizeof(*p->cells));
	p->pcs = xgrow(p->pcs, &p->pcscap, p->npcs, f->npcs, sizeof(*p->pcs));
	for (i = 0; i < f->nfns; i++) {
		mfile_cell(f, i, &pc, &mcnt);
		if (MONX_IS_CELL(pc, mcnt) || (pc == 0 && mcnt == 0))
			continue;
		p->rawcells++;
		if (mcnt > 0)
			p->usedcells++;
		add_place(p->cells, &p->ncells, f, pc, (uint64_t)mcnt, 0);
	}
	for (i = 0; i < f->npcs; i++) {
		if (f->pcs[i].count == 0)
			continue;
		pl = add_place(p->pcs, &p->npcs, f, f->pcs[i].pc,
		    f->pcs[i].count, 1);
		pl->samples = f->weight * (double)f->pcs[i].count;
		if (__builtin_add_overflow(out, f->pcs[i].count, &out))
			out = UINT64_MAX;
	}
	/* The run may have taken more than it had room to record. */
	if (f->hasrun && f->run.samples_out > out)
		out = f->run.samples_out;
	p->outraw += out;
	p->wout += f->weight * (double)out;
}

static int
cmp_u64pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : 0;
}

/*
 * arcs_against_cells() for a file whose arcs come sorted by callee and
 * whose cells by address, as libmon writes them: one walk down both,
 * nothing copied.  -1 if they are not so sorted.
 */
static ssize_t
sorted_against_cells(const struct mfile *f)
{
	uint64_t pc, sum;
	int64_t mcnt;
	size_t i, j, bad = 0;
	int any = 0;
	uint64_t last = 0;

	for (i = 1; i < f->narcs; i++)
		if (f->arcs[i].selfpc < f->arcs[i - 1].selfpc)
			return -1;
	for (i = j = 0; i <= f->nfns; i++) {
		if (i < f->nfns) {
			mfile_cell(f, i, &pc, &mcnt);
			if (MONX_IS_CELL(pc, mcnt) || mcnt == 0)
				continue;
			if (any && pc <= last)
				return -1;
			any = 1;
			last = pc;
		} else
			pc = UINT64_MAX, mcnt = 0;
		/* Arcs into an address with no cell, by address. */
		while (j < f->narcs && f->arcs[j].selfpc < pc) {
			sum = 0;
			do
				sum += f->arcs[j].count;
			while (++j < f->narcs &&
			    f->arcs[j].selfpc == f->arcs[j - 1].selfpc);
			bad += sum != 0;
		}
		if (i == f->nfns)
			break;
		for (sum = 0; j < f->narcs && f->arcs[j].selfpc == pc; j++)
			sum += f->arcs[j].count;
		bad += sum != (uint64_t)mcnt;
	}
	return j < f->narcs ? -1 : (ssize_t)bad;
}

/*
 * Cells the file's arcs do not add up to: where its arcs hold every
 * call, the arcs into a cell sum to its count.  Pairs (address, calls),
 * cells' counts subtracted from arcs', by address.
 */
static size_t
arcs_against_cells(const struct mfile *f)
{
	uint64_t (*v)[2], pc;
	int64_t mcnt;
	size_t i, j, n = 0, bad = 0;
	uint64_t sum;
	ssize_t sbad;

	if ((sbad = sorted_against_cells(f)) >= 0)
		return (size_t)sbad;
	v = xcalloc(f->narcs + f->nfns + 1, sizeof(*v));
	for (i = 0; i < f->narcs; i++) {
		v[n][0] = f->arcs[i].selfpc;
		v[n++][1] = f->arcs[i].count;
	}
	for (i = 0; i < f->nfns; i++) {
		mfile_cell(f, i, &pc, &mcnt);
		if (MONX_IS_CELL(pc, mcnt) || mcnt == 0)
			continue;
		v[n][0] = pc;
		v[n++][1] = -(uint64_t)mcnt;	/* modulo 2^64: sums to 0 */
	}
	qsort(v, n, sizeof(*v), cmp_u64pair);
	for (i = 0; i < n; i = j) {
		for (sum = 0, j = i; j < n && v[j][0] == v[i][0]; j++)
			sum += v[j][1];
		bad += sum != 0;
	}
	free(v);
	return bad;
}

/* The file's arcs, placed: the caller at the return address less one. */
static void
merge_arcs(struct profile *p, struct mfile *f)
{
	struct place from, self;
	struct parc *a;
	size_t i, bad;

	if (!(f->hasrun && f->run.arcs) && f->narcs == 0)
		return;
	p->arcfiles++;
	if (f->hasrun && f->run.arcs && (bad = arcs_against_cells(f)) > 0) {
		warnx("warning: %s: the arcs into %zu call counts do not add "
		    "up to them", f->name, bad);
		p->arcsbad += bad;
	}
	p->arcs = xgrow(p->arcs, &p->arccap, p->narcs, f->narcs,
	    sizeof(*p->arcs));
	for (i = 0; i < f->narcs; i++) {
		(void)place(f, f->arcs[i].frompc - 1, &from);
		(void)place(f, f->arcs[i].selfpc, &self);
		a = &p->arcs[p->narcs++];
		a->fobj = from.obj;
		a->from = from.addr;
		a->sobj = self.obj;
		a->self = self.addr;
		a->count = f->arcs[i].count;
	}
}

/* A context's name and its index in the profile's timed. */
struct ctxname {
	uint64_t	 name;
	size_t		 at;
};

static int
cmp_ctxname(const void *x, const void *y)
{
	const struct ctxname *a = x, *b = y;

	return a->name < b->name ? -1 : a->name > b->name;
}

/*
 * The file's timed functions, arcs and calling contexts, placed at
 * their entries, in seconds by its CLOCKS pairs.  A context names its
 * parent by the parent's name, which is found among the file's; one
 * whose parent is not there (the writer had no room for it) or whose
 * stack the writer did not keep (MONX_CTX_OVER) is marked lost.
 */
static void
merge_timed(struct profile *p, const struct mfile *f)
{
	struct monx_timed m;
	struct ctxname *names, key, *hit;
	uint64_t *parent;
	struct place pl;
	struct ptimed *t;
	size_t i, first, nctx;
	double s;

	if (!f->hasclocks)
		return;
	p->timedfiles++;
	p->tclocks.missed += f->clocks.missed;
	p->tclocks.unwound += f->clocks.unwound;
	p->tclocks.unmatched += f->clocks.unmatched;
	p->tclocks.deep += f->clocks.deep;
	p->tclocks.nomem += f->clocks.nomem;
	p->tclocks.threads += f->clocks.threads;
	p->tclocks.ctxcut += f->clocks.ctxcut;
	s = (double)(f->clocks.ns1 - f->clocks.ns0) /
	    (double)(f->clocks.tick1 - f->clocks.tick0) / 1e9;
	p->timed = xgrow(p->timed, &p->timedcap, p->ntimed, f->ntimed,
	    sizeof(*p->timed));
	names = xcalloc(f->ntimed + 1, sizeof(*names));
	parent = xcalloc(f->ntimed + 1, sizeof(*parent));
	first = p->ntimed;
	nctx = 0;
	for (i = 0; i < f->ntimed; i++) {
		memcpy(&m, f->timed + i * sizeof(m), sizeof(m));
		if (m.kind != MONX_TM_FUNC && m.kind != MONX_TM_ARC &&
		    m.kind != MONX_TM_CTX)
			continue;
		t = &p->timed[p->ntimed++];
		memset(t, 0, sizeof(*t));
		(void)place(f, m.callee, &pl);
		t->obj = pl.obj;
		t->addr = pl.addr;
		t->arc = m.kind == MONX_TM_ARC;
		t->ctx = m.kind == MONX_TM_CTX;
		t->up = SIZE_MAX;
		t->cobj = OBJ_NONE;
		if (t->arc && m.caller != 0) {
			(void)place(f, m.caller, &pl);
			t->cobj = pl.obj;
			t->caddr = pl.addr;
		}
		if (t->ctx) {
			names[nctx].name = monx_ctx(m.caller, m.callee);
			names[nctx++].at = p->ntimed - 1;
			parent[p->ntimed - 1 - first] = m.caller;
		}
		t->calls = m.calls;
		t->open = m.open;
		t->incl = (double)m.incl * s;
		t->self = (double)m.self * s;
		t->min = (double)m.min * s;
		t->max = (double)m.max * s;
	}
	qsort(names, nctx, sizeof(*names), cmp_ctxname);
	for (i = first; i < p->ntimed; i++) {
		if (!p->timed[i].ctx || (key.name = parent[i - first]) == 0)
			continue;
		if (key.name == MONX_CTX_OVER) {
			p->timed[i].lost = 1;
			continue;
		}
		if ((hit = bsearch(&key, names, nctx, sizeof(*names),
		    cmp_ctxname)) != NULL && hit->at != i)
			p->timed[i].up = hit->at;
		else
			p->timed[i].lost = 1;
	}
	free(names);
	free(parent);
}

/*
 * One stack of a checked record, at *off, placed and appended.  It ends
 * at the first caller that is no user address (USERTOP, or the page at
 * 0): a frame pointer walk took a word of data for a frame there --
 * code that keeps something else in the frame pointer register, such as
 * the vDSO's clock_gettime -- and what follows was read through it; the
 * stack is then one that ends short.
 */
static void
merge_stack(struct profile *p, struct mfile *f, const unsigned char *rp,
    size_t *off)
{
	struct monx_stack s;
	struct pstack *ps;
	struct place pl;
	uint64_t pc;
	size_t i, end;

	memcpy(&s, rp + *off, sizeof(s));
	*off += sizeof(s);
	if (s.count == 0) {
		*off += (size_t)s.depth * sizeof(pc);
		return;
	}
	p->stacks = xgrow(p->stacks, &p->stackcap, p->nstacks, 1,
	    sizeof(*p->stacks));
	ps = &p->stacks[p->nstacks++];
	ps->first = p->nframes;
	ps->depth = s.depth;
	ps->count = s.count;
	ps->samples = f->weight * (double)s.count;
	ps->cut = (s.flags & MONX_STK_CUT) != 0;
	ps->kernel = (s.flags & MONX_STK_KERNEL) != 0;
	addsat(&p->stackraw, s.count);
	end = *off + (size_t)s.depth * sizeof(pc);
	for (i = 0; i < s.depth; i++) {
		pc = get64(rp + *off);
		*off += sizeof(pc);
		if (i > 0 && (pc < 4096 || pc >= USERTOP)) {
			ps->depth = (uint32_t)i;
			ps->cut = 0;
			break;
		}
		(void)place(f, i == 0 ? pc : pc - 1, &pl);
		p->frames[p->nframes].obj = pl.obj;
		p->frames[p->nframes++].addr = pl.addr;
	}
	*off = end;
}

/*
 * The file's stacks, every pc placed.  Each sample the clock took has
 * one stack or is counted as having none, so the stacks of a run can
 * hold no more samples than it took: a file that says otherwise is
 * warned about, as one whose arcs and cells disagree.  Not a part of a
 * run: it is cut while the clock runs, its stacks read a moment after
 * its histogram, so a sample taken in between is in the stacks of one
 * part and the histogram of the next; the parts together agree.
 */
static void
merge_stacks(struct profile *p, struct mfile *f)
{
	const struct monx_run *r = &f->run;
	uint64_t before = p->stackraw, taken;
	size_t i, off;

	if (f->nstks == 0 && !(f->hasrun && r->stack_limit > 0))
		return;
	p->stackfiles++;
	if (f->hasrun && f->run.stack_limit > p->stackmax)
		p->stackmax = f->run.stack_limit;
	if (f->hasrun && f->run.stack_limit > 0 && (p->stackmin == 0 ||
	    f->run.stack_limit < p->stackmin))
		p->stackmin = f->run.stack_limit;
	p->frames = xgrow(p->frames, &p->framecap, p->nframes,
	    (size_t)f->stkframes, sizeof(*p->frames));
	for (i = 0; i < f->nstks; i++)
		for (off = 0; off < f->stks[i].len; )
			merge_stack(p, f, f->stks[i].p, &off);
	taken = mfile_samples(f);
	if (f->hasrun && r->part == 0 && (p->stackraw - before > taken ||
	    r->stacks_lost > taken - (p->stackraw - before))) {
		warnx("warning: %s: its stacks hold more samples than the run "
		    "took", f->name);
		p->stacksover = 1;
	}
}

/* Remember the build-id each file gives for the program. */
static void
note_id(struct profile *p, const struct mfile *f)
{
	struct runid *r;

	if (!f->hasexec || f->exec.idlen == 0)
		return;
	p->ids = xreallocarray(p->ids, p->nids + 1, sizeof(*p->ids));
	r = &p->ids[p->nids++];
	r->file = f->name;
	r->id = xmalloc(f->exec.idlen);
	memcpy(r->id, f->exec.id, f->exec.idlen);
	r->idlen = f->exec.idlen;
}

/* What the objects of a file leave unnamed, or may name wrongly. */
static void
warn_objects(const struct mfile *f)
{
	if (f->hasrun && f->run.unloaded_lost > 0)
		warnx("warning: %s: %ju unloaded libraries not recorded",
		    f->name, (uintmax_t)f->run.unloaded_lost);
	if (f->hasrun && f->run.unsampled > 0)
		warnx("warning: %s: %ju threads could not be sampled; their "
		    "time is in no row", f->name,
		    (uintmax_t)f->run.unsampled);
	if (f->hasrun && f->run.outside_lost > 0)
		warnx("warning: %s: %ju samples outside the histogram kept "
		    "no address", f->name, (uintmax_t)f->run.outside_lost);
	if (f->shared[0] > 0 || f->shared[1] > 0)
		warnx("warning: %s: %ju samples, %ju calls at reused addresses",
		    f->name, (uintmax_t)f->shared[1],
		    (uintmax_t)f->shared[0]);
}

#define RUN_MAXLATE	((uint64_t)1 << 48)

/* A WALL record's thread i, as the profile keeps it. */
static void
merge_wthread(struct profile *p, const struct mfile *f, double per,
    const unsigned char *rp)
{
	struct monx_wallthr t;
	struct wthread *w;

	memcpy(&t, rp, sizeof(t));
	p->wthreads = xgrow(p->wthreads, &p->wthrcap, p->nwthreads, 1,
	    sizeof(*p->wthreads));
	w = &p->wthreads[p->nwthreads++];
	memset(w, 0, sizeof(*w));
	w->pid = f->hasrun ? f->run.pid : 0;
	w->tid = t.tid;
	w->cpu_ns = t.cpu_ns;
	memcpy(w->name, t.name, sizeof(t.name));
	w->gone = (t.flags & MONX_WT_GONE) != 0;
	w->period = per;
}

/* The thread of tid among the file's, from first on; its index. */
static size_t
wthread_of(struct profile *p, size_t first, uint32_t tid, double per)
{
	struct wthread *w;
	size_t i;

	for (i = p->nwthreads; i > first; i--)
		if (p->wthreads[i - 1].tid == tid)
			return i - 1;
	/* A stack of a thread the record does not list: listed now. */
	p->wthreads = xgrow(p->wthreads, &p->wthrcap, p->nwthreads, 1,
	    sizeof(*p->wthreads));
	w = &p->wthreads[p->nwthreads];
	memset(w, 0, sizeof(*w));
	w->tid = tid;
	w->period = per;
	return p->nwthreads++;
}

/*
 * The file's WALL record (PROFMODE=wall, checked by monread.c): its
 * threads, and its stacks with every pc placed as a sampled stack's.
 */
static void
merge_wall(struct profile *p, struct mfile *f)
{
	struct monx_wallhead h;
	struct monx_wallstk s;
	struct wstack *ws;
	struct place pl;
	size_t off, first, i, k;
	double per;

	if (f->wall == NULL) {
		/* A run in parts has its wall samples in its last part. */
		if (f->hasrun && f->run.part != 0 && !f->run.last)
			p->wallearly++;
		else
			p->wallnone++;
		return;
	}
	memcpy(&h, f->wall, sizeof(h));
	per = (double)h.period_ns / 1e9;
	if (p->wallfiles++ == 0)
		p->wallhz = 1 / per;
	/* A round taken stands for those the sampler missed, late, too. */
	if (h.ticks > 0 && h.late <= RUN_MAXLATE)
		per *= (double)(h.ticks + h.late) / (double)h.ticks;
	if ((double)h.ticks * per > p->wallrun)
		p->wallrun = (double)h.ticks * per;
	p->wallown += (double)h.own_ns / 1e9;
	p->walllost += h.lost;
	p->wallticks += h.ticks;
	p->walllate += h.late;
	first = p->nwthreads;
	off = sizeof(h);
	for (i = 0; i < h.nthreads; i++, off += sizeof(struct monx_wallthr))
		merge_wthread(p, f, per, f->wall + off);
	for (i = 0; i < h.nstacks; i++) {
		memcpy(&s, f->wall + off, sizeof(s));
		off += sizeof(s);
		p->wstacks = xgrow(p->wstacks, &p->wstackcap, p->nwstacks, 1,
		    sizeof(*p->wstacks));
		ws = &p->wstacks[p->nwstacks++];
		ws->thread = wthread_of(p, first, s.tid, per);
		ws->state = s.state;
		ws->sysno = s.sysno;
		ws->cut = (s.flags & MONX_STK_CUT) != 0;
		ws->secs = (double)s.count * per;
		ws->first = p->nwframes;
		ws->depth = s.depth;
		if (s.state == MONX_WS_RUN)
			p->wthreads[ws->thread].running += ws->secs;
		else
			p->wthreads[ws->thread].waiting += ws->secs;
		p->wallsecs += ws->secs;
		p->wframes = xgrow(p->wframes, &p->wframecap, p->nwframes,
		    s.depth, sizeof(*p->wframes));
		for (k = 0; k < s.depth; k++, off += sizeof(uint64_t)) {
			(void)place(f, k == 0 ? get64(f->wall + off) :
			    get64(f->wall + off) - 1, &pl);
			p->wframes[p->nwframes].obj = pl.obj;
			p->wframes[p->nwframes++].addr = pl.addr;
		}
	}
}

/*
 * The file's SLOW record (PROFSLOW, checked by monread.c): each call,
 * its start from the file's profile start (CLOCKS), its functions
 * placed at their entries.
 */
static void
merge_slow(struct profile *p, struct mfile *f)
{
	struct monx_slowhead h;
	struct monx_slow s;
	struct pslow *c;
	struct place pl;
	size_t off, i, k;

	if (f->slow == NULL)
		return;
	memcpy(&h, f->slow, sizeof(h));
	if (p->slowfiles++ == 0)
		p->slowns = h.threshold_ns;
	p->slowover += h.over;
	if (h.keep > p->slowkeep)
		p->slowkeep = h.keep;
	off = sizeof(h);
	for (i = 0; i < h.ncalls; i++) {
		memcpy(&s, f->slow + off, sizeof(s));
		off += sizeof(s);
		p->slow = xgrow(p->slow, &p->slowcap, p->nslow, 1,
		    sizeof(*p->slow));
		c = &p->slow[p->nslow++];
		memset(c, 0, sizeof(*c));
		c->start = s.start_ns >= f->clocks.ns0 ?
		    (double)(s.start_ns - f->clocks.ns0) / 1e9 : 0;
		c->dur = (double)s.dur_ns / 1e9;
		c->pid = f->hasrun ? f->run.pid : 0;
		c->tid = s.tid;
		c->cut = (s.flags & MONX_STK_CUT) != 0;
		c->first = p->nsframes;
		c->depth = s.depth;
		p->sframes = xgrow(p->sframes, &p->sframecap, p->nsframes,
		    s.depth, sizeof(*p->sframes));
		for (k = 0; k < s.depth; k++, off += sizeof(uint64_t)) {
			(void)place(f, get64(f->slow + off), &pl);
			p->sframes[p->nsframes].obj = pl.obj;
			p->sframes[p->nsframes++].addr = pl.addr;
		}
	}
}

/*
 * Add the mon.out file name, whose bytes are buf[0..len), to p; p takes
 * buf.  0, or -1 with *why set to the reason and p as it was.
 */
int
profile_add(struct profile *p, const char *name, unsigned char *buf,
    size_t len, const char **why)
{
	struct mfile f;

	memset(&f, 0, sizeof(f));
	f.name = name;
	f.buf = buf;
	f.len = len;
	if (mfile_parse(&f) != 0) {
		*why = f.why;
		mfile_free(&f);
		return -1;
	}
	if (check_hist(p, &f, why) != 0) {
		mfile_free(&f);
		return -1;
	}
	if (p->nfiles == 0) {
		p->first = name;
		p->run = 1;
	}
	join_objects(p, &f);
	join_perfmap(p, &f);
	make_spans(&f, p->nobjs);
	merge_period(p, &f);
	merge_hist(p, &f);
	merge_run(p, &f);
	merge_counts(p, &f);
	merge_arcs(p, &f);
	merge_stacks(p, &f);
	merge_timed(p, &f);
	merge_wall(p, &f);
	merge_slow(p, &f);
	note_self(p, &f);
	note_id(p, &f);
	warn_objects(&f);
	p->nfiles++;
	mfile_free(&f);
	return 0;
}

/*
 * Before any file is added: note the ITIMER_PROF samples of file name
 * and the CPU time they stand for in its process's pool (mfile_period()).
 * A file that cannot be read is left for profile_read() to say so.  The
 * bytes of the file scanned last are kept for profile_read() of the same
 * name, the files being read in the order they were scanned: a single
 * file of a hundred megabytes is read from disk once.
 */
void
profile_scan(struct profile *p, const char *name)
{
	struct mfile f;
	struct ipool *pool;
	const char *why;

	memset(&f, 0, sizeof(f));
	f.name = name;
	f.quiet = 1;
	if (mfile_slurp(name, &f.buf, &f.len, &why) != 0)
		return;
	if (mfile_parse(&f) == 0 && f.hasrun &&
	    f.run.clock == MONX_CLK_ITIMER && f.run.sample_ns > 0) {
		pool = ipool_of(p, f.run.pid, 1);
		pool->cpu += (double)f.run.cpu_ns / 1e9;
		pool->n += mfile_samples(&f);
	}
	/* The last file scanned is the last read: it is read once. */
	free(p->keptbuf);
	p->kept = name;
	p->keptbuf = f.buf;
	p->keptlen = f.len;
	f.buf = NULL;
	mfile_free(&f);
}

/*
 * Read the mon.out file name and add it to p.  0, or -1 with *why set
 * to the reason: the file is no sound mon.out, or does not match the
 * others.
 */
int
profile_read(struct profile *p, const char *name, const char **why)
{
	unsigned char *buf;
	size_t len;

	if (p->kept == name) {
		buf = p->keptbuf;
		len = p->keptlen;
		p->kept = NULL;
		p->keptbuf = NULL;
	} else if (mfile_slurp(name, &buf, &len, why) != 0)
		return -1;
	return profile_add(p, name, buf, len, why);
}

static int
cmp_place(const void *a, const void *b)
{
	const struct place *x = a, *y = b;

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

static void
add_place_to(void *into, const void *from)
{
	struct place *x = into;
	const struct place *y = from;

	addsat(&x->count, y->count);
	x->samples += y->samples;
}

static int
cmp_parc(const void *a, const void *b)
{
	const struct parc *x = a, *y = b;

	if (x->sobj != y->sobj)
		return x->sobj < y->sobj ? -1 : 1;
	if (x->self != y->self)
		return x->self < y->self ? -1 : 1;
	if (x->fobj != y->fobj)
		return x->fobj < y->fobj ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return 0;
}

static void
add_parc(void *into, const void *from)
{
	addsat(&((struct parc *)into)->count,
	    ((const struct parc *)from)->count);
}

static const struct frame *sortframes;	/* for the C11 qsort below */

/* Stacks by depth, then frame by frame, then in the kernel, then cut. */
static int
cmp_pstack(const void *a, const void *b)
{
	const struct pstack *x = a, *y = b;
	const struct frame *u, *v;
	size_t i;

	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	u = sortframes + x->first;
	v = sortframes + y->first;
	for (i = 0; i < x->depth; i++) {
		if (u[i].obj != v[i].obj)
			return u[i].obj < v[i].obj ? -1 : 1;
		if (u[i].addr != v[i].addr)
			return u[i].addr < v[i].addr ? -1 : 1;
	}
	if (x->kernel != y->kernel)
		return x->kernel < y->kernel ? -1 : 1;
	return x->cut != y->cut ? (x->cut < y->cut ? -1 : 1) : 0;
}

static void
add_pstack(void *into, const void *from)
{
	struct pstack *x = into;
	const struct pstack *y = from;

	addsat(&x->count, y->count);
	x->samples += y->samples;
}

/* Has the profile calling contexts of calls timed one by one? */
int
profile_has_contexts(const struct profile *p)
{
	size_t i;

	for (i = 0; i < p->ntimed; i++)
		if (p->timed[i].ctx)
			return 1;
	return 0;
}

/* After the last file: cells and samples summed by place. */
void
profile_finish(struct profile *p)
{
	p->ncells = sortsum(p->cells, p->ncells, sizeof(*p->cells), cmp_place,
	    add_place_to);
	p->npcs = sortsum(p->pcs, p->npcs, sizeof(*p->pcs), cmp_place,
	    add_place_to);
	p->narcs = sortsum(p->arcs, p->narcs, sizeof(*p->arcs), cmp_parc,
	    add_parc);
	if (p->arcfiles > 0 && p->arcfiles < p->nfiles)
		warnx("warning: %zu of %zu files have no arcs; their calls "
		    "are on no arc", p->nfiles - p->arcfiles, p->nfiles);
	if (p->stackfiles > 0 && p->stackfiles < p->nfiles)
		warnx("warning: %zu of %zu files have no stacks; their "
		    "samples are in no caller's inclusive time", p->nfiles -
		    p->stackfiles, p->nfiles);
	if (!p->anyrun)
		p->run = 0;
	if (p->nfiles == 0)
		p->period = p->pmin = p->pmax = (double)CLASSIC_NS / 1e9;
}

/* For the C11 qsort below: cmp_pstack(), then the order they came. */
static const struct pstack *sortstacks;

static int
cmp_pstack_at(const void *a, const void *b)
{
	uint64_t i = *(const uint64_t *)a, j = *(const uint64_t *)b;
	int c;

	if ((c = cmp_pstack(&sortstacks[i], &sortstacks[j])) != 0)
		return c;
	return i < j ? -1 : i > j;
}

/* Stack s's innermost frame as a key, or 0 if it does not fit one. */
static int
inner_key(const struct profile *p, const struct pstack *s, uint64_t *key)
{
	const struct frame *fr = &p->frames[s->first];

	if (fr->obj >= 256 || fr->addr >= 1ULL << 56)
		return 0;
	*key = (uint64_t)fr->obj << 56 | fr->addr;
	return 1;
}

/*
 * The order of p's stacks by cmp_pstack(), equal ones in the order
 * they came: their indices in v[0..n); 0 if an innermost frame does
 * not fit a key.  qsort() of a million stacks compared frame by frame
 * missed the cache twice a comparison, their frames lying anywhere.
 * They are radix-sorted by their innermost frame, then by depth (a
 * stable sort, so the first order holds within the second), which
 * orders all but the stacks alike in both; qsort() orders each run of
 * those.
 */
static int
stack_order(const struct profile *p, uint64_t *v, size_t n)
{
	uint64_t *k, *tk, *tv, a = 0, b = 0;
	size_t i, j;

	k = xcalloc(n + 1, sizeof(*k));
	for (i = 0; i < n; i++) {
		if (!inner_key(p, &p->stacks[i], &k[i])) {
			free(k);
			return 0;
		}
		v[i] = i;
	}
	tk = xcalloc(n + 1, sizeof(*tk));
	tv = xcalloc(n + 1, sizeof(*tv));
	radix_sort_pairs(k, v, tk, tv, n);
	for (i = 0; i < n; i++)
		k[i] = p->stacks[v[i]].depth;
	radix_sort_pairs(k, v, tk, tv, n);
	free(tk);
	free(tv);
	sortstacks = p->stacks;
	for (i = 0; i < n; i = j) {
		(void)inner_key(p, &p->stacks[v[i]], &a);
		for (j = i + 1; j < n && k[j] == k[i]; j++)
			if (!inner_key(p, &p->stacks[v[j]], &b) || b != a)
				break;
		if (j - i > 1)
			qsort(v + i, j - i, sizeof(*v), cmp_pstack_at);
	}
	free(k);
	return 1;
}

/* p's stacks sorted by cmp_pstack(), those equal in the order they came. */
static void
sort_stacks(struct profile *p)
{
	struct pstack *s;
	uint64_t *v;
	size_t i;

	sortframes = p->frames;
	v = xcalloc(p->nstacks + 1, sizeof(*v));
	if (!stack_order(p, v, p->nstacks)) {
		free(v);
		qsort(p->stacks, p->nstacks, sizeof(*p->stacks), cmp_pstack);
		return;
	}
	s = xcalloc(p->nstacks + 1, sizeof(*s));
	for (i = 0; i < p->nstacks; i++)
		s[i] = p->stacks[v[i]];
	free(v);
	free(p->stacks);
	p->stacks = s;
	p->stackcap = p->nstacks + 1;
}

/*
 * Stacks of the same frames made one; their frames stay put.  For the
 * outputs that read the stacks one by one (profile_finish() leaves them
 * as the files had them): the flat report needs but the places of
 * their frames.
 */
void
profile_sum_stacks(struct profile *p)
{
	if (p->stacksummed)
		return;
	sort_stacks(p);
	p->nstacks = sumsorted(p->stacks, p->nstacks, sizeof(*p->stacks),
	    cmp_pstack, add_pstack);
	p->stacksummed = 1;
}

/* Give back all p holds; p is empty again. */
void
profile_free(struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nobjs; i++) {
		free(p->objs[i].path);
		free(p->objs[i].id);
		free(p->objs[i].jittext);
	}
	for (i = 0; i < p->nids; i++)
		free(p->ids[i].id);
	free(p->objs);
	free(p->objhash);
	free(p->ids);
	free(p->timed);
	free(p->bins);
	free(p->cells);
	free(p->pcs);
	free(p->self);
	free(p->arcs);
	free(p->stacks);
	free(p->frames);
	free(p->wthreads);
	free(p->wstacks);
	free(p->wframes);
	free(p->slow);
	free(p->sframes);
	free(p->why);
	free(p->ipools);
	free(p->keptbuf);
	memset(p, 0, sizeof(*p));
}

/*
 * Give back p's cells, a million for a program of a million functions,
 * once they are counted where they belong; the totals stay.
 */
void
profile_drop_cells(struct profile *p)
{
	free(p->cells);
	p->cells = NULL;
	p->ncells = 0;
}

/* Give back p's arcs, as its cells above; arcfiles and arcsbad stay. */
void
profile_drop_arcs(struct profile *p)
{
	free(p->arcs);
	p->arcs = NULL;
	p->narcs = p->arccap = 0;
}

static void
hexid(char *buf, const unsigned char *id, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	if (len > 20)
		len = 20;
	for (i = 0; i < len; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * len] = '\0';
}

/*
 * Warn, one line per file, when a profile names a build of the program
 * other than the one prof was given.
 */
void
profile_check_id(const struct profile *p, const char *prog,
    const struct symtab *st)
{
	char want[41], got[41];
	size_t i;

	if (st->id == NULL)
		return;
	for (i = 0; i < p->nids; i++) {
		if (p->ids[i].idlen == st->idlen &&
		    memcmp(p->ids[i].id, st->id, st->idlen) == 0)
			continue;
		hexid(got, p->ids[i].id, p->ids[i].idlen);
		hexid(want, st->id, st->idlen);
		warnx("warning: %s was written by another build than %s "
		    "(build-id %s, not %s)", p->ids[i].file, prog, got, want);
	}
}

/* The name of the clock that drove the histogram. */
const char *
profile_clock(const struct profile *p)
{
	if (!p->anyrun)
		return "unknown (classic mon.out)";
	if (p->clocks)
		return "several (the files differ)";
	switch (p->sum.clock) {
	case MONX_CLK_ITIMER:
		return "setitimer ITIMER_PROF";
	case MONX_CLK_PERF:
		return "perf_event task-clock";
	case MONX_CLK_TIMER:
		return "timer_create thread CPU-time";
	default:
		return "unknown";
	}
}

/* Is (obj, addr) in libmon's code, by the SELF records? */
int
profile_in_self(const struct profile *p, size_t obj, uint64_t addr)
{
	size_t i;

	for (i = 0; i < p->nself; i++)
		if (p->self[i].obj == obj && addr >= p->self[i].lo &&
		    addr < p->self[i].hi)
			return 1;
	return 0;
}

/*
 * The stack limit of the files, in buf: "64", or "3 to 127" when files
 * merged were made with different limits.
 */
const char *
stack_limits(const struct profile *p, char *buf, size_t len)
{
	if (p->stackmin != 0 && p->stackmin != p->stackmax)
		(void)snprintf(buf, len, "%" PRIu32 " to %" PRIu32,
		    p->stackmin, p->stackmax);
	else
		(void)snprintf(buf, len, "%" PRIu32, p->stackmax);
	return buf;
}

/*
 * The sampling clock on fp: its name, the rates asked and the rate
 * measured over the CPU time, as -s and the exports' titles say it.
 */
void
profile_put_clock(FILE *fp, const struct profile *p)
{
	const struct monx_run *run = &p->sum;
	double cpu, apart;
	uint64_t n;

	if (!p->anyrun) {
		fprintf(fp, "%s, %.0f Hz assumed", profile_clock(p),
		    1e9 / (double)CLASSIC_NS);
		return;
	}
	fputs(profile_clock(p), fp);
	if (p->askmax > 0 && p->askmin < p->askmax)
		fprintf(fp, ", %.0f to %.0f Hz asked",
		    1e9 / (double)p->askmax, 1e9 / (double)p->askmin);
	else if (p->askmax > 0)
		fprintf(fp, ", %.0f Hz asked", 1e9 / (double)p->askmax);
	n = run->samples_in + run->samples_out + run->samples_lost +
	    run->dropped + run->samples_kernel;
	if (!p->run || run->cpu_ns == 0)
		return;
	/*
	 * A perf clock that sampled user mode only saw none of the run's
	 * system time: the rate is over the time it could sample.
	 */
	cpu = (double)run->cpu_ns / 1e9;
	apart = (p->wkernel - p->wksampled) * p->period;
	if (p->kfiles[K_APART] > 0 && apart > 0 && apart < cpu)
		fprintf(fp, ", %.1f Hz measured over %.2f s of CPU in user "
		    "mode (%.2f s in all)", (double)n / (cpu - apart),
		    cpu - apart, cpu);
	else
		fprintf(fp, ", %.1f Hz measured over %.2f s of CPU",
		    (double)n / cpu, cpu);
}

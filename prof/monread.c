/*
 * monread.c -- the one reader of mon.out.
 *
 * A file is read whole, then checked against its own length before
 * anything is sized from it: the header's nfns must fit in what follows
 * it, the histogram must be whole WORDs, every extension length and
 * record must lie inside the payload that carries it.  A file that ends
 * too soon is "Premature EOF"; one whose header cannot be a mon.out
 * (hpc below lpc, addresses no x86_64 process has, a broken extension)
 * is "improper format".  Both end prof with one line naming the file.
 *
 * Each file is then placed: every run-time address it holds becomes an
 * object (the main program, a shared object, or none) and a link-time
 * address inside it, using the EXEC and OBJ records.  OBJ records may
 * overlap -- the writer lists the objects mapped at the end, then those
 * unloaded while profiled, and a later load may have reused the
 * addresses of an unloaded one -- so an address belongs to the first
 * record that holds it, and counts that another object's record holds
 * too are counted for a warning.  An address in no object goes to the
 * perf map of the process the RUN record names, where a JIT may have
 * named it: each process has its own, and a file's addresses must be
 * looked up in its own process's map.  Placed data of
 * several files (a parent and its children, many runs) merge by simple
 * addition: histograms bin by bin, which requires the same range, size
 * and scale; cells and outside samples by place; run counters summed.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"
#include "prof.h"

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

/* One file, read and checked, before it is merged. */
struct mfile {
	const char		*name;
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
	int			 hasexec;
	struct fobj		 exec;
	struct fobj		*objs;
	size_t			 nobjs;
	struct monx_pc		*pcs;
	size_t			 npcs;
	uint64_t		 shared[2];	/* calls, samples at an address
						   two objects held */
	size_t			 jit;		/* its process's perf map */
};

static void __attribute__((noreturn))
improper(const struct mfile *f)
{
	errx(1, "%s: improper format", f->name);
}

static void __attribute__((noreturn))
premature(const struct mfile *f)
{
	errx(1, "%s: Premature EOF", f->name);
}

static uint64_t
get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The whole file in memory; refuses what cannot be a profile. */
static void
slurp(struct mfile *f)
{
	struct stat st;
	size_t cap;
	ssize_t n;
	int fd;

	if ((fd = open(f->name, O_RDONLY)) < 0)
		err(1, "%s", f->name);
	if (fstat(fd, &st) != 0)
		err(1, "%s", f->name);
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		err(1, "%s", f->name);
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
		errx(1, "%s: not a regular file", f->name);
	cap = S_ISREG(st.st_mode) && (uintmax_t)st.st_size < SIZE_MAX / 2 ?
	    (size_t)st.st_size + 1 : 65536;
	f->buf = xmalloc(cap);
	f->len = 0;
	for (;;) {
		if (f->len == cap) {
			if (cap > SIZE_MAX / 2)
				errx(1, "%s: file too large", f->name);
			cap *= 2;
			f->buf = xreallocarray(f->buf, cap, 1);
		}
		n = read(fd, f->buf + f->len, cap - f->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err(1, "%s", f->name);
		if (n == 0)
			break;
		f->len += (size_t)n;
	}
	(void)close(fd);
}

/* The classic part: header, cells, histogram. */
static void
parse_classic(struct mfile *f)
{
	struct hdr h;
	size_t rest;

	if (f->len < sizeof(h))
		premature(f);
	memcpy(&h, f->buf, sizeof(h));
	f->lpc = (uintptr_t)h.lpc;
	f->hpc = (uintptr_t)h.hpc;
	f->nfns = h.nfns;
	if (f->hpc < f->lpc || f->hpc >= USERTOP)
		improper(f);
	if (f->nfns > SIZE_MAX / sizeof(struct cnt))
		improper(f);
	rest = f->len - sizeof(h);
	if (f->nfns > rest / sizeof(struct cnt))
		premature(f);
	f->cells = f->buf + sizeof(h);
	rest -= f->nfns * sizeof(struct cnt);
	if (rest % sizeof(WORD) != 0)
		premature(f);
	f->hist = f->cells + f->nfns * sizeof(struct cnt);
	f->nhist = rest / sizeof(WORD);
}

/*
 * Gather the payload of the marker cells, in array order, and check
 * the ordinary cells: a negative call count is no count at all.
 */
static void
gather_ext(struct mfile *f)
{
	const unsigned char *c;
	uint64_t pc, v;
	int64_t mcnt;
	size_t i, j, n;

	n = 0;
	for (i = 0; i < f->nfns; i++) {
		c = f->cells + i * sizeof(struct cnt);
		pc = get64(c);
		memcpy(&mcnt, c + 8, sizeof(mcnt));
		if (MONX_IS_CELL(pc, mcnt))
			n++;
		else if (mcnt < 0)
			improper(f);
	}
	f->extlen = n * MONX_PAYLOAD;
	f->ext = xmalloc(f->extlen);
	for (i = 0, j = 0; i < f->nfns; i++) {
		c = f->cells + i * sizeof(struct cnt);
		pc = get64(c);
		memcpy(&mcnt, c + 8, sizeof(mcnt));
		if (!MONX_IS_CELL(pc, mcnt))
			continue;
		for (v = 0; v < MONX_PAYLOAD; v++)
			f->ext[j++] = (unsigned char)(pc >> (8 * v));
	}
}

/* An EXEC or OBJ record: struct monx_obj, build-id, path. */
static void
parse_obj(struct mfile *f, const unsigned char *p, size_t len,
    struct fobj *o)
{
	struct monx_obj mo;

	if (len < sizeof(mo))
		improper(f);
	memcpy(&mo, p, sizeof(mo));
	if ((uint64_t)mo.idlen + mo.pathlen > len - sizeof(mo))
		improper(f);
	if (mo.hi < mo.lo || (mo.hi > mo.lo && mo.lo < mo.bias) ||
	    mo.hi > USERTOP)
		improper(f);
	o->bias = mo.bias;
	o->lo = mo.lo;
	o->hi = mo.hi;
	o->id = mo.idlen > 0 ? p + sizeof(mo) : NULL;
	o->idlen = mo.idlen;
	o->path = (const char *)p + sizeof(mo) + mo.idlen;
	o->pathlen = strnlen(o->path, mo.pathlen);
	o->gidx = OBJ_NONE;
}

static void
parse_record(struct mfile *f, uint32_t type, const unsigned char *p,
    size_t len)
{
	size_t n;

	switch (type) {
	case MONX_R_RUN:
		if (len < MONX_RUN_MINLEN)
			improper(f);
		memset(&f->run, 0, sizeof(f->run));
		memcpy(&f->run, p, len < sizeof(f->run) ? len : sizeof(f->run));
		f->hasrun = 1;
		break;
	case MONX_R_EXEC:
		parse_obj(f, p, len, &f->exec);
		f->hasexec = 1;
		break;
	case MONX_R_OBJ:
		f->objs = xreallocarray(f->objs, f->nobjs + 1,
		    sizeof(*f->objs));
		parse_obj(f, p, len, &f->objs[f->nobjs++]);
		break;
	case MONX_R_PCS:
		if (len % sizeof(struct monx_pc) != 0)
			improper(f);
		n = len / sizeof(struct monx_pc);
		f->pcs = xreallocarray(f->pcs, f->npcs + n, sizeof(*f->pcs));
		memcpy(f->pcs + f->npcs, p, len);
		f->npcs += n;
		break;
	default:
		break;		/* a newer writer's record: not ours */
	}
}

/* The extension stream: a head, then records until its length. */
static void
parse_ext(struct mfile *f)
{
	struct monx_head head;
	struct monx_rec rec;
	size_t off, end, pad;

	if (f->extlen == 0)
		return;
	if (f->extlen < sizeof(head))
		improper(f);
	memcpy(&head, f->ext, sizeof(head));
	if (memcmp(head.magic, MONX_MAGIC, sizeof(head.magic)) != 0)
		improper(f);
	if (head.version != MONX_VERSION) {
		warnx("%s: extension version %u unknown, read as classic",
		    f->name, head.version);
		return;
	}
	if (head.length > MONX_MAXLEN ||
	    head.length > f->extlen - sizeof(head))
		improper(f);
	end = sizeof(head) + (size_t)head.length;
	for (off = sizeof(head); off < end; ) {
		if (end - off < sizeof(rec))
			improper(f);
		memcpy(&rec, f->ext + off, sizeof(rec));
		off += sizeof(rec);
		if (rec.len > end - off)
			improper(f);
		parse_record(f, rec.type, f->ext + off, rec.len);
		pad = ((size_t)rec.len + 7) & ~(size_t)7;
		off += pad < end - off ? pad : end - off;
	}
	if (f->hasexec && f->hpc > f->lpc && f->exec.bias > f->lpc)
		improper(f);
}

/* Read, check and decode one file; nothing is merged yet. */
static void
mfile_read(struct mfile *f, const char *name)
{
	memset(f, 0, sizeof(*f));
	f->name = name;
	slurp(f);
	parse_classic(f);
	gather_ext(f);
	parse_ext(f);
}

static void
mfile_free(struct mfile *f)
{
	free(f->buf);
	free(f->ext);
	free(f->objs);
	free(f->pcs);
}

static int
same_obj(const struct object *o, const struct fobj *fo)
{
	return strlen(o->path) == fo->pathlen &&
	    memcmp(o->path, fo->path, fo->pathlen) == 0 &&
	    o->idlen == fo->idlen &&
	    (fo->idlen == 0 || memcmp(o->id, fo->id, fo->idlen) == 0);
}

static void
set_obj(struct object *o, const struct fobj *fo)
{
	o->path = xstrndup(fo->path, fo->pathlen);
	o->idlen = fo->idlen;
	o->id = NULL;
	if (fo->idlen > 0) {
		o->id = xmalloc(fo->idlen);
		memcpy(o->id, fo->id, fo->idlen);
	}
}

/* Give each of the file's objects its index in the merged table. */
static void
join_objects(struct profile *p, struct mfile *f)
{
	size_t i, j;

	if (p->nobjs == 0) {
		p->objs = xcalloc(1, sizeof(*p->objs));
		p->nobjs = 1;
		if (f->hasexec)
			set_obj(&p->objs[OBJ_MAIN], &f->exec);
		else
			p->objs[OBJ_MAIN].path = xstrdup("");
	}
	for (i = 0; i < f->nobjs; i++) {
		if (f->hasexec && f->objs[i].bias == f->exec.bias &&
		    f->objs[i].lo == f->exec.lo) {
			f->objs[i].gidx = OBJ_MAIN;	/* the program again */
			continue;
		}
		for (j = 1; j < p->nobjs; j++)
			if (p->objs[j].jitpid == 0 &&
			    same_obj(&p->objs[j], &f->objs[i]))
				break;
		if (j == p->nobjs) {
			p->objs = xreallocarray(p->objs, p->nobjs + 1,
			    sizeof(*p->objs));
			memset(&p->objs[p->nobjs], 0, sizeof(*p->objs));
			set_obj(&p->objs[p->nobjs++], &f->objs[i]);
		}
		f->objs[i].gidx = j;
	}
}

/*
 * The perf map of the process that wrote f, shared with the other files
 * of that pid; none for a file that does not say its pid.
 */
static void
join_perfmap(struct profile *p, struct mfile *f)
{
	size_t j;

	f->jit = OBJ_NONE;
	if (!f->hasrun || f->run.pid == 0)
		return;
	for (j = 1; j < p->nobjs; j++)
		if (p->objs[j].jitpid == f->run.pid)
			break;
	if (j == p->nobjs) {
		p->objs = xreallocarray(p->objs, p->nobjs + 1,
		    sizeof(*p->objs));
		memset(&p->objs[p->nobjs], 0, sizeof(*p->objs));
		p->objs[p->nobjs].path = perfmap_path(f->run.pid);
		p->objs[p->nobjs++].jitpid = f->run.pid;
		p->nmaps++;
	}
	f->jit = j;
}

/*
 * Where a run-time pc of file f belongs; 1 when a record of another
 * object holds it too.
 */
static int
place(const struct mfile *f, uint64_t pc, struct place *pl)
{
	uint64_t bias;
	size_t i, j;

	bias = f->hasexec ? f->exec.bias : 0;
	if ((pc >= f->lpc && pc < f->hpc) ||
	    (f->hasexec && pc >= f->exec.lo && pc < f->exec.hi)) {
		pl->obj = OBJ_MAIN;
		pl->addr = pc - bias;
		return 0;
	}
	for (i = 0; i < f->nobjs; i++) {
		if (pc >= f->objs[i].lo && pc < f->objs[i].hi) {
			pl->obj = f->objs[i].gidx;
			pl->addr = pc - (pl->obj == OBJ_MAIN ? bias :
			    f->objs[i].bias);
			for (j = i + 1; j < f->nobjs; j++)
				if (pc >= f->objs[j].lo && pc < f->objs[j].hi &&
				    f->objs[j].gidx != pl->obj)
					return 1;
			return 0;
		}
	}
	/*
	 * A classic file knows only the program, as linked; in another,
	 * the address is JIT code or unknown.
	 */
	pl->obj = f->hasexec ? f->jit : OBJ_MAIN;
	pl->addr = pc;
	return 0;
}

/* Append a count at pc; the caller has made room.  what: 0 calls. */
static void
add_place(struct place *v, size_t *n, struct mfile *f, uint64_t pc,
    uint64_t count, int what)
{
	if (place(f, pc, &v[*n]) &&
	    __builtin_add_overflow(f->shared[what], count, &f->shared[what]))
		f->shared[what] = UINT64_MAX;
	v[*n].count = count;
	(*n)++;
}

/* The histogram: the first file sets its shape, the others must match. */
static void
merge_hist(struct profile *p, const struct mfile *f, const char *first)
{
	uint64_t bias, scale;
	size_t i;
	uint16_t w;

	bias = f->hasexec && f->hpc > f->lpc ? f->exec.bias : 0;
	scale = f->hasrun ? f->run.scale : 0;
	if (p->nfiles == 0) {
		p->lpc = f->lpc - bias;
		p->hpc = f->hpc - bias;
		p->nhist = f->nhist;
		p->scale = (uint32_t)scale;
		p->hist = xcalloc(f->nhist, sizeof(*p->hist));
	} else if (p->lpc != f->lpc - bias || p->hpc != f->hpc - bias ||
	    p->nhist != f->nhist || p->scale != scale)
		errx(1, "%s: histogram range or size differs from %s",
		    f->name, first);
	for (i = 0; i < f->nhist; i++) {
		memcpy(&w, f->hist + i * sizeof(w), sizeof(w));
		p->hist[i] += w;
	}
}

static void
merge_run(struct profile *p, const struct mfile *f)
{
	const struct monx_run *r = &f->run;
	struct monx_run *s = &p->sum;

	if (!f->hasrun) {
		p->run = 0;
		return;
	}
	if (!p->anyrun) {
		*s = *r;
		p->anyrun = 1;
		return;
	}
	s->cpu_ns += r->cpu_ns;
	s->samples_in += r->samples_in;
	s->samples_out += r->samples_out;
	s->samples_lost += r->samples_lost;
	s->saturated += r->saturated;
	s->overruns += r->overruns;
	s->dropped += r->dropped;
	s->cells_lost += r->cells_lost;
	s->threads += r->threads;
	s->unloaded_lost += r->unloaded_lost;
}

static void
merge_counts(struct profile *p, struct mfile *f)
{
	const unsigned char *c;
	uint64_t pc;
	int64_t mcnt;
	size_t i;

	p->cells = xreallocarray(p->cells, p->ncells + f->nfns,
	    sizeof(*p->cells));
	p->pcs = xreallocarray(p->pcs, p->npcs + f->npcs, sizeof(*p->pcs));
	for (i = 0; i < f->nfns; i++) {
		c = f->cells + i * sizeof(struct cnt);
		pc = get64(c);
		memcpy(&mcnt, c + 8, sizeof(mcnt));
		if (MONX_IS_CELL(pc, mcnt) || (pc == 0 && mcnt == 0))
			continue;
		p->rawcells++;
		if (mcnt > 0)
			p->usedcells++;
		add_place(p->cells, &p->ncells, f, pc, (uint64_t)mcnt, 0);
	}
	for (i = 0; i < f->npcs; i++)
		if (f->pcs[i].count > 0)
			add_place(p->pcs, &p->npcs, f, f->pcs[i].pc,
			    f->pcs[i].count, 1);
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
	if (f->shared[0] > 0 || f->shared[1] > 0)
		warnx("warning: %s: %ju samples, %ju calls at reused addresses",
		    f->name, (uintmax_t)f->shared[1],
		    (uintmax_t)f->shared[0]);
}

/*
 * Read the mon.out file name and add it to p.  Exits with one line on
 * any file that is not a sound mon.out or does not match the others.
 */
void
profile_read(struct profile *p, const char *name)
{
	struct mfile f;

	mfile_read(&f, name);
	if (p->nfiles == 0) {
		p->first = name;
		p->run = 1;
	}
	join_objects(p, &f);
	join_perfmap(p, &f);
	merge_hist(p, &f, p->first);
	merge_run(p, &f);
	merge_counts(p, &f);
	note_id(p, &f);
	warn_objects(&f);
	p->nfiles++;
	mfile_free(&f);
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

/* Sort by place and add up counts at the same place. */
static size_t
coalesce(struct place *v, size_t n)
{
	size_t i, k;

	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_place);
	for (i = 1, k = 0; i < n; i++) {
		if (cmp_place(&v[k], &v[i]) == 0) {
			if (__builtin_add_overflow(v[k].count, v[i].count,
			    &v[k].count))
				v[k].count = UINT64_MAX;
		} else
			v[++k] = v[i];
	}
	return k + 1;
}

/* After the last file: cells and samples summed by place. */
void
profile_finish(struct profile *p)
{
	p->ncells = coalesce(p->cells, p->ncells);
	p->npcs = coalesce(p->pcs, p->npcs);
	if (!p->anyrun)
		p->run = 0;
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

/*
 * Seconds per sample.  The clock's own count of CPU time divided by the
 * samples it took makes the report add up to the CPU time used, however
 * many ticks the kernel dropped; without it, the period asked for; a
 * classic file ticks at 100 Hz.
 */
double
profile_period(const struct profile *p)
{
	const struct monx_run *r = &p->sum;
	uint64_t n;

	n = r->samples_in + r->samples_out + r->samples_lost + r->dropped;
	if (p->run && r->cpu_ns > 0 && n > 0)
		return (double)r->cpu_ns / (double)n / 1e9;
	if (p->anyrun && r->period_ns > 0)
		return (double)r->period_ns / 1e9;
	return (double)CLASSIC_NS / 1e9;
}

/* The name of the clock that drove the histogram. */
const char *
profile_clock(const struct profile *p)
{
	if (!p->anyrun)
		return "unknown (classic mon.out)";
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

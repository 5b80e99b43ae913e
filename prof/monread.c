/*
 * monread.c -- the one reader of mon.out.
 *
 * A file is read whole, then checked against its own length before
 * anything is sized from it: the header's nfns must fit in what follows
 * it, the histogram must be whole WORDs, every extension length and
 * record must lie inside the payload that carries it: an ARCS record
 * whole arcs, a STACKS record stacks of at least one pc each, the last
 * ending where the record does.  A file that ends
 * too soon is "Premature EOF"; one whose header cannot be a mon.out
 * (hpc below lpc, addresses no x86_64 process has, a broken extension)
 * is "improper format".  Either is returned as the reason, and main()
 * ends prof with one line naming the file.  Only a regular file is
 * read, and it is opened so that a FIFO planted at its name cannot make
 * prof wait for a writer.
 *
 * Each file is then placed: every run-time address it holds becomes an
 * object (the main program, a shared object, or none) and a link-time
 * address inside it, using the EXEC and OBJ records.  OBJ records may
 * overlap -- the writer lists the objects mapped at the end, then those
 * unloaded while profiled, and a later load may have reused the
 * addresses of an unloaded one -- so an address belongs to the first
 * record that holds it, and counts that another object's record holds
 * too are counted for a warning.  The records are swept once, in order
 * of address, into spans that do not overlap, each knowing its record
 * and whether another object's record holds it too; an address is then
 * placed by a binary search, so that a file of n records and m
 * addresses costs O((n + m) log n) however its records overlap.  An
 * address in no object goes to the perf map of the process the RUN
 * record names, where a JIT may have named it: each process has its
 * own, and a file's addresses must be looked up in its own process's
 * map.  Objects of several files are joined by path and build-id
 * through a hash table.
 *
 * Placed data of several files (a parent and its children, many runs)
 * merge by addition: histograms bin by bin, which requires the same
 * range, size and scale; cells and outside samples by place; arcs by
 * their two places (the caller's at the return address less one, as a
 * cell's function is found); stacks by their frames, each placed where
 * its function is looked up (the sampled pc, then return addresses
 * less one); run counters summed.  Arcs are checked against the cells
 * they must add up to, and stacks against the samples the run took:
 * a file that contradicts itself there is warned about, not refused.  Files may have sampled at different rates, or with
 * different clocks: each file's samples are weighted by its own period
 * (its clock's CPU time over the samples it took, else the period it
 * asked for, else a classic file's 100 Hz) over the first file's, so
 * that the seconds of each add up to its own CPU time.  A perf-clock
 * file that records its user and system times has its samples stand
 * for the user part, and its system part is kept apart for the kernel's
 * row.  Where libmon's own code lay (SELF) is placed like any address.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"
#include "prof.h"

#define USERTOP		(1ULL << 56)	/* above any x86_64 user address */

static const char improper[] = "improper format";
static const char premature[] = "Premature EOF";

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
	uint64_t		 stkframes;	/* pcs in them */
	double			 period;	/* seconds a sample of its own */
	double			 weight;	/* that over profile.period */
	uint64_t		 shared[2];	/* calls, samples at an address
						   two objects held */
	size_t			 jit;		/* its process's perf map */
	int			 quiet;		/* scanned only: say nothing */
};

static uint64_t
get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Read all of fd into *buf, *len; size is a hint.  0, or -1 and errno. */
static int
read_all(int fd, off_t size, unsigned char **buf, size_t *len)
{
	size_t cap;
	ssize_t n;

	cap = size >= 0 && (uintmax_t)size < SIZE_MAX / 2 ?
	    (size_t)size + 1 : 65536;
	*buf = xmalloc(cap);
	*len = 0;
	for (;;) {
		if (*len == cap) {
			if (cap > SIZE_MAX / 2)
				return errno = EFBIG, -1;
			cap *= 2;
			*buf = xreallocarray(*buf, cap, 1);
		}
		n = read(fd, *buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		*len += (size_t)n;
	}
}

/*
 * The whole file name in *buf, *len.  O_NONBLOCK: a FIFO at the name
 * must be refused, not waited on; a regular file reads the same.
 */
static int
slurp(const char *name, unsigned char **buf, size_t *len, const char **why)
{
	struct stat st;
	int fd, rc = -1;

	*buf = NULL;
	if ((fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return *why = strerror(errno), -1;
	if (fstat(fd, &st) != 0)
		*why = strerror(errno);
	else if (S_ISDIR(st.st_mode))
		*why = strerror(EISDIR);
	else if (!S_ISREG(st.st_mode))
		*why = "not a regular file";
	else if (read_all(fd, st.st_size, buf, len) != 0)
		*why = strerror(errno);
	else
		rc = 0;
	(void)close(fd);
	if (rc != 0) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

/* The classic part: header, cells, histogram. */
static int
parse_classic(struct mfile *f)
{
	struct hdr h;
	size_t rest;

	if (f->len < sizeof(h))
		return f->why = premature, -1;
	memcpy(&h, f->buf, sizeof(h));
	f->lpc = (uintptr_t)h.lpc;
	f->hpc = (uintptr_t)h.hpc;
	f->nfns = h.nfns;
	if (f->hpc < f->lpc || f->hpc >= USERTOP)
		return f->why = improper, -1;
	if (f->nfns > SIZE_MAX / sizeof(struct cnt))
		return f->why = improper, -1;
	rest = f->len - sizeof(h);
	if (f->nfns > rest / sizeof(struct cnt))
		return f->why = premature, -1;
	f->cells = f->buf + sizeof(h);
	rest -= f->nfns * sizeof(struct cnt);
	if (rest % sizeof(WORD) != 0)
		return f->why = premature, -1;
	f->hist = f->cells + f->nfns * sizeof(struct cnt);
	f->nhist = rest / sizeof(WORD);
	return 0;
}

/* Cell i: its fnpc and its count. */
static void
cell(const struct mfile *f, size_t i, uint64_t *pc, int64_t *mcnt)
{
	const unsigned char *c = f->cells + i * sizeof(struct cnt);

	*pc = get64(c);
	memcpy(mcnt, c + 8, sizeof(*mcnt));
}

/*
 * Gather the payload of the marker cells, in array order, and check
 * the ordinary cells: a negative call count is no count at all.
 */
static int
gather_ext(struct mfile *f)
{
	uint64_t pc, v;
	int64_t mcnt;
	size_t i, j, n;

	n = 0;
	for (i = 0; i < f->nfns; i++) {
		cell(f, i, &pc, &mcnt);
		if (MONX_IS_CELL(pc, mcnt))
			n++;
		else if (mcnt < 0)
			return f->why = improper, -1;
	}
	f->extlen = n * MONX_PAYLOAD;
	f->ext = xmalloc(f->extlen);
	for (i = 0, j = 0; i < f->nfns; i++) {
		cell(f, i, &pc, &mcnt);
		if (!MONX_IS_CELL(pc, mcnt))
			continue;
		for (v = 0; v < MONX_PAYLOAD; v++)
			f->ext[j++] = (unsigned char)(pc >> (8 * v));
	}
	return 0;
}

/* An EXEC or OBJ record: struct monx_obj, build-id, path. */
static int
parse_obj(struct mfile *f, const unsigned char *p, size_t len,
    struct fobj *o)
{
	struct monx_obj mo;

	if (len < sizeof(mo))
		return f->why = improper, -1;
	memcpy(&mo, p, sizeof(mo));
	if ((uint64_t)mo.idlen + mo.pathlen > len - sizeof(mo))
		return f->why = improper, -1;
	if (mo.hi < mo.lo || (mo.hi > mo.lo && mo.lo < mo.bias) ||
	    mo.hi > USERTOP)
		return f->why = improper, -1;
	o->bias = mo.bias;
	o->lo = mo.lo;
	o->hi = mo.hi;
	o->id = mo.idlen > 0 ? p + sizeof(mo) : NULL;
	o->idlen = mo.idlen;
	o->path = (const char *)p + sizeof(mo) + mo.idlen;
	o->pathlen = strnlen(o->path, mo.pathlen);
	o->gidx = OBJ_NONE;
	return 0;
}

/*
 * An ARCS record: whole arcs, nothing over.  An arc of no calls says
 * nothing and is left out.
 */
static int
parse_arcs(struct mfile *f, const unsigned char *p, size_t len)
{
	size_t n, i;

	if (len % sizeof(struct monx_arc) != 0)
		return f->why = improper, -1;
	n = len / sizeof(struct monx_arc);
	f->arcs = xgrow(f->arcs, &f->arccap, f->narcs, n, sizeof(*f->arcs));
	for (i = 0; i < n; i++) {
		memcpy(&f->arcs[f->narcs], p + i * sizeof(struct monx_arc),
		    sizeof(struct monx_arc));
		if (f->arcs[f->narcs].count > 0)
			f->narcs++;
	}
	return 0;
}

/*
 * A STACKS record: stacks one after the other, each a struct
 * monx_stack and as many pcs as its depth says, at least one, the last
 * ending where the record ends.  Kept as it is; merging walks it again.
 */
static int
parse_stacks(struct mfile *f, const unsigned char *p, size_t len)
{
	struct monx_stack s;
	size_t off;

	for (off = 0; off < len; ) {
		if (len - off < sizeof(s))
			return f->why = improper, -1;
		memcpy(&s, p + off, sizeof(s));
		off += sizeof(s);
		if (s.depth == 0 || s.depth > (len - off) / sizeof(uint64_t))
			return f->why = improper, -1;
		off += (size_t)s.depth * sizeof(uint64_t);
		f->stkframes += s.depth;
	}
	f->stks = xgrow(f->stks, &f->stkcap, f->nstks, 1, sizeof(*f->stks));
	f->stks[f->nstks].p = p;
	f->stks[f->nstks++].len = len;
	return 0;
}

static int
parse_record(struct mfile *f, uint32_t type, const unsigned char *p,
    size_t len)
{
	size_t n;

	switch (type) {
	case MONX_R_RUN:
		if (len < MONX_RUN_MINLEN)
			return f->why = improper, -1;
		memset(&f->run, 0, sizeof(f->run));
		memcpy(&f->run, p, len < sizeof(f->run) ? len : sizeof(f->run));
		f->hasrun = 1;
		return 0;
	case MONX_R_EXEC:
		f->hasexec = 1;
		return parse_obj(f, p, len, &f->exec);
	case MONX_R_OBJ:
		f->objs = xgrow(f->objs, &f->objcap, f->nobjs, 1,
		    sizeof(*f->objs));
		return parse_obj(f, p, len, &f->objs[f->nobjs++]);
	case MONX_R_SELF:
		if (len < sizeof(f->self))
			return f->why = improper, -1;
		memcpy(&f->self, p, sizeof(f->self));
		if (f->self.hi < f->self.lo || f->self.hi > USERTOP)
			return f->why = improper, -1;
		f->hasself = f->self.hi > f->self.lo;
		return 0;
	case MONX_R_PCS:
		if (len % sizeof(struct monx_pc) != 0)
			return f->why = improper, -1;
		if ((n = len / sizeof(struct monx_pc)) == 0)
			return 0;
		f->pcs = xgrow(f->pcs, &f->pcscap, f->npcs, n, sizeof(*f->pcs));
		memcpy(f->pcs + f->npcs, p, len);
		f->npcs += n;
		return 0;
	case MONX_R_ARCS:
		return parse_arcs(f, p, len);
	case MONX_R_STACKS:
		return parse_stacks(f, p, len);
	default:
		return 0;	/* a newer writer's record: not ours */
	}
}

/* The extension stream: a head, then records until its length. */
static int
parse_ext(struct mfile *f)
{
	struct monx_head head;
	struct monx_rec rec;
	size_t off, end, pad;

	if (f->extlen == 0)
		return 0;
	if (f->extlen < sizeof(head))
		return f->why = improper, -1;
	memcpy(&head, f->ext, sizeof(head));
	if (memcmp(head.magic, MONX_MAGIC, sizeof(head.magic)) != 0)
		return f->why = improper, -1;
	if (head.version != MONX_VERSION) {
		if (!f->quiet)
			warnx("%s: extension version %u unknown, read as "
			    "classic", f->name, head.version);
		return 0;
	}
	if (head.length > MONX_MAXLEN ||
	    head.length > f->extlen - sizeof(head))
		return f->why = improper, -1;
	end = sizeof(head) + (size_t)head.length;
	for (off = sizeof(head); off < end; ) {
		if (end - off < sizeof(rec))
			return f->why = improper, -1;
		memcpy(&rec, f->ext + off, sizeof(rec));
		off += sizeof(rec);
		if (rec.len > end - off)
			return f->why = improper, -1;
		if (parse_record(f, rec.type, f->ext + off, rec.len) != 0)
			return -1;
		pad = ((size_t)rec.len + 7) & ~(size_t)7;
		off += pad < end - off ? pad : end - off;
	}
	if (f->hasexec && f->hpc > f->lpc && f->exec.bias > f->lpc)
		return f->why = improper, -1;
	return 0;
}

/*
 * How a file dealt with time in the kernel.  The perf clock samples user
 * mode only: when the file says how the CPU time split between user and
 * system (getrusage), its samples stand for the user part and the system
 * part is kept apart; an older writer's perf file does not say, and its
 * samples stand for all of it.  The timer clocks' signals land where the
 * kernel was entered from, so kernel time is in the call site's samples.
 */
static enum kmode
kernel_mode(const struct mfile *f)
{
	if (!f->hasrun)
		return K_CLASSIC;
	if (f->run.clock != MONX_CLK_PERF)
		return K_CALLSITE;
	if (f->run.user_ns > UINT64_MAX - f->run.sys_ns ||
	    f->run.user_ns + f->run.sys_ns == 0)
		return K_SPREAD;
	return K_APART;
}

/* The share of the file's CPU time that its samples saw. */
static double
user_share(const struct mfile *f)
{
	const struct monx_run *r = &f->run;

	if (kernel_mode(f) != K_APART)
		return 1;
	return (double)r->user_ns / ((double)r->user_ns + (double)r->sys_ns);
}

/* Samples the file took, lost and dropped ones too. */
static uint64_t
samples(const struct mfile *f)
{
	const struct monx_run *r = &f->run;

	return r->samples_in + r->samples_out + r->samples_lost + r->dropped;
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

/*
 * Seconds a sample of the file stands for: what its writer says one
 * stands for, the period (perf counts every one; the timer its
 * overruns); for ITIMER_PROF, which is checked at the tick, counts
 * nothing it missed and, on a busy machine, misses many, the CPU time
 * of all the files of its process over all their samples
 * (profile_scan()), so that the parts of a run share one weight.  Else,
 * from an older writer, its clock's CPU time (the part in user mode,
 * for the perf clock) over the samples it took, which the report then
 * adds up to however many ticks the kernel dropped; else, or when some
 * threads had no clock (their CPU time is in cpu_ns, not in the
 * samples), the period it asked for; a classic file ticks at 100 Hz.
 * That ratio, file by file, spread the CPU time no sample saw --
 * threads shorter than a period, a part whose samples came after its
 * CPU time -- over the functions sampled: a weight of its own keeps
 * that time apart (see unsampled_seconds()).
 */
static double
file_period(struct profile *p, const struct mfile *f)
{
	const struct monx_run *r = &f->run;
	const struct ipool *pool;
	uint64_t n;

	if (!f->hasrun)
		return (double)CLASSIC_NS / 1e9;
	if (r->sample_ns > 0 && r->clock == MONX_CLK_ITIMER &&
	    (pool = ipool_of(p, r->pid, 0)) != NULL && pool->n > 0 &&
	    pool->cpu > 0)
		return pool->cpu / (double)pool->n;
	if (r->sample_ns > 0)
		return (double)r->sample_ns / 1e9;
	/* Threads went unsampled: the CPU time is not all the samples'. */
	if (r->unsampled > 0 && r->clock != MONX_CLK_ITIMER &&
	    r->period_ns > 0)
		return (double)r->period_ns / 1e9;
	n = r->samples_in + r->samples_out + r->samples_lost + r->dropped;
	if (r->cpu_ns > 0 && n > 0 && user_share(f) > 0)
		return (double)r->cpu_ns * user_share(f) / (double)n / 1e9;
	if (r->period_ns > 0)
		return (double)r->period_ns / 1e9;
	return (double)CLASSIC_NS / 1e9;
}

/*
 * Seconds the file's run spent in the kernel that its samples did not
 * see: the system part of the perf clock's CPU time -- of the sampled
 * threads' alone when some went unsampled, in the same ratio.
 */
static double
kernel_seconds(const struct mfile *f)
{
	const struct monx_run *r = &f->run;
	uint64_t n;

	if (kernel_mode(f) != K_APART)
		return 0;
	if (r->unsampled == 0 || r->user_ns == 0)
		return (double)r->cpu_ns * (1 - user_share(f)) / 1e9;
	n = r->samples_in + r->samples_out + r->samples_lost + r->dropped;
	return (double)n * f->period * (double)r->sys_ns /
	    (double)r->user_ns;
}

/*
 * Seconds of the file's CPU time (in user mode, for the perf clock) that
 * its samples do not stand for, when each has a weight of its own: the
 * ends of threads between two samples, the whole of threads shorter
 * than a period.  Less than 0 where the samples stand for more (a part
 * whose CPU time came before it): the profile sums them.
 */
static double
unsampled_seconds(const struct mfile *f)
{
	const struct monx_run *r = &f->run;
	uint64_t n;

	if (!f->hasrun || r->sample_ns == 0)
		return 0;
	n = r->samples_in + r->samples_out + r->samples_lost + r->dropped;
	if (r->unsampled > 0 && kernel_mode(f) == K_APART && r->user_ns > 0)
		return (double)r->cpu_ns / 1e9 - (double)n * f->period -
		    kernel_seconds(f);
	return (double)r->cpu_ns * user_share(f) / 1e9 -
	    (double)n * f->period;
}

static void
mfile_free(struct mfile *f)
{
	free(f->buf);
	free(f->ext);
	free(f->objs);
	free(f->spans);
	free(f->pcs);
	free(f->arcs);
	free(f->stks);
}

/* --- the objects of all files ------------------------------------- */

/* FNV-1a over what makes two objects one. */
static size_t
obj_hash(const char *path, size_t pathlen, const unsigned char *id,
    size_t idlen, uint32_t jitpid)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < pathlen; i++)
		h = (h ^ (unsigned char)path[i]) * 0x100000001b3ULL;
	h = (h ^ 0xff) * 0x100000001b3ULL;	/* path and id apart */
	for (i = 0; i < idlen; i++)
		h = (h ^ id[i]) * 0x100000001b3ULL;
	h = (h ^ jitpid) * 0x100000001b3ULL;
	return (size_t)(h ^ h >> 32);
}

static int
obj_is(const struct object *o, const char *path, size_t pathlen,
    const unsigned char *id, size_t idlen, uint32_t jitpid)
{
	return o->jitpid == jitpid && strlen(o->path) == pathlen &&
	    memcmp(o->path, path, pathlen) == 0 && o->idlen == idlen &&
	    (idlen == 0 || memcmp(o->id, id, idlen) == 0);
}

/* Put objs[i] in the hash table; the table has room. */
static void
hash_put(struct profile *p, size_t i)
{
	const struct object *o = &p->objs[i];
	size_t k;

	k = obj_hash(o->path, strlen(o->path), o->id, o->idlen, o->jitpid);
	for (k &= p->hashcap - 1; p->objhash[k] != 0; k = (k + 1) &
	    (p->hashcap - 1))
		;
	p->objhash[k] = i + 1;
}

/* Keep the table at most half full. */
static void
hash_room(struct profile *p)
{
	size_t i;

	if (2 * p->nobjs < p->hashcap)
		return;
	free(p->objhash);
	p->hashcap = p->hashcap == 0 ? 64 : 2 * p->hashcap;
	p->objhash = xcalloc(p->hashcap, sizeof(*p->objhash));
	for (i = 1; i < p->nobjs; i++)
		hash_put(p, i);
}

/* The index of the object so described, added if it is new. */
static size_t
obj_join(struct profile *p, const char *path, size_t pathlen,
    const unsigned char *id, size_t idlen, uint32_t jitpid)
{
	struct object *o;
	size_t k, j;

	hash_room(p);
	k = obj_hash(path, pathlen, id, idlen, jitpid) & (p->hashcap - 1);
	for (; (j = p->objhash[k]) != 0; k = (k + 1) & (p->hashcap - 1))
		if (obj_is(&p->objs[j - 1], path, pathlen, id, idlen, jitpid))
			return j - 1;
	p->objs = xgrow(p->objs, &p->objcap, p->nobjs, 1, sizeof(*p->objs));
	o = &p->objs[p->nobjs];
	memset(o, 0, sizeof(*o));
	o->path = xstrndup(path, pathlen);
	o->jitpid = jitpid;
	if (idlen > 0) {
		o->id = xmalloc(idlen);
		memcpy(o->id, id, idlen);
		o->idlen = idlen;
	}
	p->objhash[k] = ++p->nobjs;
	return p->nobjs - 1;
}

/* Give each of the file's objects its index in the merged table. */
static void
join_objects(struct profile *p, struct mfile *f)
{
	const struct fobj *e = &f->exec;
	struct fobj *o;
	size_t i;

	if (p->nobjs == 0) {
		p->objs = xgrow(NULL, &p->objcap, 0, 1, sizeof(*p->objs));
		memset(&p->objs[OBJ_MAIN], 0, sizeof(*p->objs));
		p->objs[OBJ_MAIN].path = f->hasexec ?
		    xstrndup(e->path, e->pathlen) : xstrdup("");
		if (f->hasexec && e->idlen > 0) {
			p->objs[OBJ_MAIN].id = xmalloc(e->idlen);
			memcpy(p->objs[OBJ_MAIN].id, e->id, e->idlen);
			p->objs[OBJ_MAIN].idlen = e->idlen;
		}
		p->nobjs = 1;
	}
	for (i = 0; i < f->nobjs; i++) {
		o = &f->objs[i];
		if (f->hasexec && o->bias == e->bias && o->lo == e->lo)
			o->gidx = OBJ_MAIN;	/* the program again */
		else
			o->gidx = obj_join(p, o->path, o->pathlen, o->id,
			    o->idlen, 0);
	}
}

/*
 * The perf map of the process that wrote f, shared with the other files
 * of that pid; none for a file that does not say its pid.
 */
static void
join_perfmap(struct profile *p, struct mfile *f)
{
	char *path;
	size_t n = p->nobjs;

	f->jit = OBJ_NONE;
	if (!f->hasrun || f->run.pid == 0)
		return;
	path = perfmap_path(f->run.pid);
	f->jit = obj_join(p, path, strlen(path), NULL, 0, f->run.pid);
	free(path);
	if (p->nobjs > n)
		p->nmaps++;
}

/* --- placing addresses -------------------------------------------- */

/* The sweep's heap: the record that comes first in the file on top. */
static int
first_rec(const void *ctx, size_t a, size_t b)
{
	(void)ctx;
	return a < b;
}

static const struct fobj *sortobjs;	/* for the C11 qsort below */

static int
cmp_lo(const void *a, const void *b)
{
	const struct fobj *x = &sortobjs[*(const size_t *)a];
	const struct fobj *y = &sortobjs[*(const size_t *)b];

	return x->lo != y->lo ? (x->lo < y->lo ? -1 : 1) : 0;
}

static int
cmp_hi(const void *a, const void *b)
{
	const struct fobj *x = &sortobjs[*(const size_t *)a];
	const struct fobj *y = &sortobjs[*(const size_t *)b];

	return x->hi != y->hi ? (x->hi < y->hi ? -1 : 1) : 0;
}

/* The state of the sweep over a file's records. */
struct sweep {
	struct heap	 h;		/* records holding cur, dead or not */
	size_t		*bylo, *byhi;	/* records by start, by end */
	size_t		 m;		/* how many, empty ones left out */
	size_t		 i, e;		/* next in bylo, in byhi */
	unsigned char	*dead;		/* ended, though maybe in h */
	size_t		*held;		/* live records, by object */
	size_t		 live;
};

/* Append [lo, hi) of record rec, or widen the last span to it. */
static void
add_span(struct mfile *f, size_t *cap, uint64_t lo, uint64_t hi,
    size_t rec, int shared)
{
	struct span *s = f->nspans > 0 ? &f->spans[f->nspans - 1] : NULL;

	if (s != NULL && s->hi == lo && s->rec == rec && s->shared == shared) {
		s->hi = hi;
		return;
	}
	f->spans = xgrow(f->spans, cap, f->nspans, 1, sizeof(*f->spans));
	s = &f->spans[f->nspans++];
	s->lo = lo;
	s->hi = hi;
	s->rec = rec;
	s->shared = shared;
}

/* Step the sweep to address cur: records that start and end there. */
static void
sweep_to(struct sweep *w, const struct fobj *o, uint64_t cur)
{
	size_t r;

	for (; w->i < w->m && o[w->bylo[w->i]].lo <= cur; w->i++) {
		r = w->bylo[w->i];
		heap_push(&w->h, r);
		w->held[o[r].gidx == OBJ_MAIN ? 0 : o[r].gidx]++;
		w->live++;
	}
	for (; w->e < w->m && o[w->byhi[w->e]].hi <= cur; w->e++) {
		r = w->byhi[w->e];
		w->dead[r] = 1;
		w->held[o[r].gidx == OBJ_MAIN ? 0 : o[r].gidx]--;
		w->live--;
	}
	while (w->h.n > 0 && w->dead[w->h.v[0]])
		heap_pop(&w->h);
}

/*
 * Cut the file's records into spans: each address any record holds is
 * in one span, of the first record that holds it, shared when a record
 * of another object holds it too.  nobjs: objects in the profile.
 */
static void
make_spans(struct mfile *f, size_t nobjs)
{
	const struct fobj *o = f->objs;
	struct sweep w;
	uint64_t cur = 0, next;
	size_t k, top, cap = 0;

	memset(&w, 0, sizeof(w));
	w.bylo = xcalloc(f->nobjs, sizeof(*w.bylo));
	for (k = 0; k < f->nobjs; k++)
		if (o[k].lo < o[k].hi)
			w.bylo[w.m++] = k;
	w.byhi = xcalloc(w.m, sizeof(*w.byhi));
	memcpy(w.byhi, w.bylo, w.m * sizeof(*w.byhi));
	sortobjs = o;
	qsort(w.bylo, w.m, sizeof(*w.bylo), cmp_lo);
	qsort(w.byhi, w.m, sizeof(*w.byhi), cmp_hi);
	w.h.v = xcalloc(w.m, sizeof(*w.h.v));
	w.h.above = first_rec;
	w.dead = xcalloc(f->nobjs, 1);
	w.held = xcalloc(nobjs, sizeof(*w.held));
	while (w.i < w.m || w.live > 0) {
		if (w.live == 0)
			cur = o[w.bylo[w.i]].lo;
		sweep_to(&w, o, cur);
		if (w.live == 0)
			continue;
		next = o[w.byhi[w.e]].hi;
		if (w.i < w.m && o[w.bylo[w.i]].lo < next)
			next = o[w.bylo[w.i]].lo;
		top = w.h.v[0];
		add_span(f, &cap, cur, next, top, w.held[o[top].gidx ==
		    OBJ_MAIN ? 0 : o[top].gidx] != w.live);
		cur = next;
	}
	free(w.bylo);
	free(w.byhi);
	free(w.h.v);
	free(w.dead);
	free(w.held);
}

/* The span holding pc, or NULL. */
static const struct span *
find_span(const struct mfile *f, uint64_t pc)
{
	size_t lo = 0, hi = f->nspans, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (f->spans[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && pc < f->spans[lo - 1].hi ? &f->spans[lo - 1] : NULL;
}

/*
 * Where a run-time pc of file f belongs; 1 when a record of another
 * object holds it too.
 */
static int
place(const struct mfile *f, uint64_t pc, struct place *pl)
{
	const struct span *s;
	const struct fobj *o;
	uint64_t bias;

	bias = f->hasexec ? f->exec.bias : 0;
	if ((pc >= f->lpc && pc < f->hpc) ||
	    (f->hasexec && pc >= f->exec.lo && pc < f->exec.hi)) {
		pl->obj = OBJ_MAIN;
		pl->addr = pc - bias;
		return 0;
	}
	if ((s = find_span(f, pc)) != NULL) {
		o = &f->objs[s->rec];
		pl->obj = o->gidx;
		pl->addr = pc - (o->gidx == OBJ_MAIN ? bias : o->bias);
		return s->shared;
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
static struct place *
add_place(struct place *v, size_t *n, struct mfile *f, uint64_t pc,
    uint64_t count, int what)
{
	if (place(f, pc, &v[*n]) &&
	    __builtin_add_overflow(f->shared[what], count, &f->shared[what]))
		f->shared[what] = UINT64_MAX;
	v[*n].count = count;
	v[*n].samples = 0;
	return &v[(*n)++];
}

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

static void
merge_hist(struct profile *p, struct mfile *f)
{
	uint64_t bias;
	size_t i;
	uint16_t w;

	bias = f->hasexec && f->hpc > f->lpc ? f->exec.bias : 0;
	if (p->nfiles == 0) {
		p->lpc = f->lpc - bias;
		p->hpc = f->hpc - bias;
		p->nhist = f->nhist;
		p->scale = f->hasrun ? f->run.scale : 0;
		p->hist = xcalloc(f->nhist, sizeof(*p->hist));
	}
	for (i = 0; i < f->nhist; i++) {
		memcpy(&w, f->hist + i * sizeof(w), sizeof(w));
		p->hist[i] += f->weight * w;
		p->histraw += w;
	}
}

/* The file's period, and what it weighs against the first file's. */
static void
merge_period(struct profile *p, struct mfile *f)
{
	f->period = file_period(p, f);
	if (p->nfiles == 0) {
		p->period = p->pmin = p->pmax = f->period;
		p->askmin = UINT64_MAX;
	}
	if (f->period < p->pmin)
		p->pmin = f->period;
	if (f->period > p->pmax)
		p->pmax = f->period;
	f->weight = f->period / p->period;
	p->wkernel += kernel_seconds(f) / p->period;
	p->wunsampled += unsampled_seconds(f) / p->period;
	p->cpuweighed += (double)f->run.cpu_ns / 1e9 / p->period;
	p->kfiles[kernel_mode(f)]++;
	if (f->hasrun && f->run.period_ns > 0) {
		if (f->run.period_ns < p->askmin)
			p->askmin = f->run.period_ns;
		if (f->run.period_ns > p->askmax)
			p->askmax = f->run.period_ns;
	}
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
		cell(f, i, &pc, &mcnt);
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

	v = xcalloc(f->narcs + f->nfns + 1, sizeof(*v));
	for (i = 0; i < f->narcs; i++) {
		v[n][0] = f->arcs[i].selfpc;
		v[n++][1] = f->arcs[i].count;
	}
	for (i = 0; i < f->nfns; i++) {
		cell(f, i, &pc, &mcnt);
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

/* One stack of a checked record, at *off, placed and appended. */
static void
merge_stack(struct profile *p, struct mfile *f, const unsigned char *rp,
    size_t *off)
{
	struct monx_stack s;
	struct pstack *ps;
	struct place pl;
	uint64_t pc;
	size_t i;

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
	addsat(&p->stackraw, s.count);
	for (i = 0; i < s.depth; i++) {
		pc = get64(rp + *off);
		*off += sizeof(pc);
		(void)place(f, i == 0 ? pc : pc - 1, &pl);
		p->frames[p->nframes].obj = pl.obj;
		p->frames[p->nframes++].addr = pl.addr;
	}
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
	taken = r->samples_in + r->samples_out + r->samples_lost +
	    r->dropped;
	if (f->hasrun && r->part == 0 && (p->stackraw - before > taken ||
	    r->stacks_lost > taken - (p->stackraw - before)))
		warnx("warning: %s: its stacks hold more samples than the run "
		    "took", f->name);
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
	if (parse_classic(&f) != 0 || gather_ext(&f) != 0 ||
	    parse_ext(&f) != 0) {
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
	note_self(p, &f);
	note_id(p, &f);
	warn_objects(&f);
	p->nfiles++;
	mfile_free(&f);
	return 0;
}

/*
 * Before any file is added: note the ITIMER_PROF samples of file name
 * and the CPU time they stand for in its process's pool (file_period()).
 * A file that cannot be read is left for profile_read() to say so.
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
	if (slurp(name, &f.buf, &f.len, &why) != 0)
		return;
	if (parse_classic(&f) == 0 && gather_ext(&f) == 0 &&
	    parse_ext(&f) == 0 && f.hasrun &&
	    f.run.clock == MONX_CLK_ITIMER && f.run.sample_ns > 0) {
		pool = ipool_of(p, f.run.pid, 1);
		pool->cpu += (double)f.run.cpu_ns / 1e9;
		pool->n += samples(&f);
	}
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

	if (slurp(name, &buf, &len, why) != 0)
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

/* Stacks by depth, then frame by frame, then cut or not. */
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
	/* Stacks of the same frames are one; their frames stay put. */
	sortframes = p->frames;
	p->nstacks = sortsum(p->stacks, p->nstacks, sizeof(*p->stacks),
	    cmp_pstack, add_pstack);
	if (p->arcfiles > 0 && p->arcfiles < p->nfiles)
		warnx("warning: %zu of %zu files have no arcs; their calls "
		    "are on no arc", p->nfiles - p->arcfiles, p->nfiles);
	if (p->stackfiles > 0 && p->stackfiles < p->nfiles)
		warnx("warning: %zu of %zu files have no stacks; their "
		    "samples are in no inclusive time", p->nfiles -
		    p->stackfiles, p->nfiles);
	if (!p->anyrun)
		p->run = 0;
	if (p->nfiles == 0)
		p->period = p->pmin = p->pmax = (double)CLASSIC_NS / 1e9;
}

/* Give back all p holds; p is empty again. */
void
profile_free(struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nobjs; i++) {
		free(p->objs[i].path);
		free(p->objs[i].id);
	}
	for (i = 0; i < p->nids; i++)
		free(p->ids[i].id);
	free(p->objs);
	free(p->objhash);
	free(p->ids);
	free(p->hist);
	free(p->cells);
	free(p->pcs);
	free(p->self);
	free(p->arcs);
	free(p->stacks);
	free(p->frames);
	free(p->why);
	free(p->ipools);
	memset(p, 0, sizeof(*p));
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

/*
 * monread.c -- the one reader of mon.out: one file, read and checked.
 *
 * A file is read whole, then checked against its own length before
 * anything is sized from it: the header's nfns must fit in what follows
 * it, the histogram must be whole WORDs, every extension length and
 * record must lie inside the payload that carries it: an ARCS record
 * whole arcs, a STACKS record stacks of at least one pc each, the last
 * ending where the record does, a WALL record its threads and stacks
 * the same, with no more samples a stack than its sampler took rounds.  A file that ends
 * too soon is "Premature EOF"; one whose header cannot be a mon.out
 * (hpc below lpc, addresses no x86_64 process has, a broken extension)
 * is "improper format"; one whose extension says it is longer than any
 * libmon writes (MONX_MAXLEN) says that.  The reason is returned, and main()
 * ends prof with one line naming the file.  Only a regular file is
 * read, and it is opened so that a FIFO planted at its name cannot make
 * prof wait for a writer.
 *
 * What it makes of a file, struct mfile (mfile.h), is then placed
 * (place.c) and merged into the profile (merge.c).  The file's own
 * period and kernel time are worked out here too: they are what its RUN
 * record says of its run, before any other file weighs in.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"
#include "read/mfile.h"
#include "read/read.h"
#include "util/util.h"

static const char improper[] = "improper format";

/*
 * Samples a RUN record may count in all: 2^48, thousands of years of CPU
 * at any rate libmon samples, and room to sum 65536 files in 64 bits.
 */
#define RUN_MAXSAMPLES	((uint64_t)1 << 48)

/* Frames a wall stack may have: the most libmon walks, and one. */
#define WALL_MAXDEPTH	128
#define SLOW_MAXDEPTH	1024	/* a SLOW call's stack, at most */
#define SLOW_MAXCALLS	65536	/* calls a SLOW record holds, at most */

_Static_assert(MONX_MAXLEN == 64UL << 20, "parse_ext() says 64 MiB");
static const char premature[] = "Premature EOF";

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
int
mfile_slurp(const char *name, unsigned char **buf, size_t *len, const char **why)
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
void
mfile_cell(const struct mfile *f, size_t i, uint64_t *pc, int64_t *mcnt)
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
		mfile_cell(f, i, &pc, &mcnt);
		if (MONX_IS_CELL(pc, mcnt))
			n++;
		else if (mcnt < 0)
			return f->why = improper, -1;
	}
	f->extlen = n * MONX_PAYLOAD;
	f->ext = xmalloc(f->extlen);
	for (i = 0, j = 0; i < f->nfns; i++) {
		mfile_cell(f, i, &pc, &mcnt);
		if (!MONX_IS_CELL(pc, mcnt))
			continue;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* fnpc's low bytes, as they lie in the file: a million
		   arcs are four million cells, read twice (scan, read). */
		memcpy(f->ext + j, f->cells + i * sizeof(struct cnt),
		    MONX_PAYLOAD);
		j += MONX_PAYLOAD;
		(void)v;
#else
		for (v = 0; v < MONX_PAYLOAD; v++)
			f->ext[j++] = (unsigned char)(pc >> (8 * v));
#endif
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

/*
 * A JIT record: its head, then as many entries as it says, each a
 * struct monx_jit and its name padded to 8 bytes, nothing over.  A
 * name is one line of a map: not empty, no newline, no NUL.
 */
static int
parse_jit(struct mfile *f, const unsigned char *p, size_t len)
{
	struct monx_jit e;
	uint64_t i;
	size_t off, n;

	if (len < sizeof(f->jithead))
		return f->why = improper, -1;
	memcpy(&f->jithead, p, sizeof(f->jithead));
	off = sizeof(f->jithead);
	for (i = 0; i < f->jithead.entries; i++) {
		if (len - off < sizeof(e))
			return f->why = improper, -1;
		memcpy(&e, p + off, sizeof(e));
		off += sizeof(e);
		n = ((size_t)e.namelen + 7) & ~(size_t)7;
		if (e.namelen == 0 || n > len - off || e.size == 0 ||
		    e.addr > UINT64_MAX - e.size ||
		    memchr(p + off, '\n', e.namelen) != NULL ||
		    memchr(p + off, '\0', e.namelen) != NULL)
			return f->why = improper, -1;
		off += n;
	}
	if (off != len)
		return f->why = improper, -1;
	f->jitents = p + sizeof(f->jithead);
	f->jitlen = len - sizeof(f->jithead);
	return 0;
}

/*
 * A WALL record (PROFMODE=wall): its head, its threads, then its stacks,
 * the last ending where the record does.  No thread may have more
 * samples than the sampler took rounds, so that no sum overflows and no
 * report gives a thread more wall time than the run had.
 */
static const char *
wall_bad(const unsigned char *p, size_t len, struct monx_wallhead *h)
{
	struct monx_wallstk s;
	size_t off, i;

	memcpy(h, p, sizeof(*h));
	if (h->period_ns == 0 || h->ticks > RUN_MAXSAMPLES ||
	    h->nthreads > (len - sizeof(*h)) / sizeof(struct monx_wallthr))
		return "improper WALL record: head";
	off = sizeof(*h) + (size_t)h->nthreads * sizeof(struct monx_wallthr);
	for (i = 0; i < h->nstacks; i++) {
		if (len - off < sizeof(s))
			return "improper WALL record: a stack past its end";
		memcpy(&s, p + off, sizeof(s));
		off += sizeof(s);
		if (s.depth > WALL_MAXDEPTH ||
		    s.depth > (len - off) / sizeof(uint64_t))
			return "improper WALL record: a stack past its end";
		if (s.state < MONX_WS_RUN || s.state > MONX_WS_OTHER ||
		    (s.flags & ~MONX_STK_CUT) != 0 || s.count == 0 ||
		    s.count > h->ticks)
			return "improper WALL record: a stack's state or count";
		off += (size_t)s.depth * sizeof(uint64_t);
	}
	if (off != len)
		return "improper WALL record: bytes after its stacks";
	return NULL;
}

static int
parse_wall(struct mfile *f, const unsigned char *p, size_t len)
{
	struct monx_wallhead h;

	if (f->wall != NULL)
		return f->why = "improper format: two WALL records", -1;
	if (len < sizeof(h))
		return f->why = "improper WALL record: head", -1;
	if ((f->why = wall_bad(p, len, &h)) != NULL)
		return -1;
	f->wall = p;
	f->walllen = len;
	return 0;
}

/*
 * A SLOW record (PROFSLOW): its head, then its calls, each with its
 * stack, the last ending where the record does.  No more calls than
 * the head says were over the threshold.
 */
static const char *
slow_bad(const unsigned char *p, size_t len, struct monx_slowhead *h)
{
	struct monx_slow s;
	size_t off, i;

	memcpy(h, p, sizeof(*h));
	if (h->ncalls > SLOW_MAXCALLS || h->ncalls > h->over ||
	    h->ncalls > (len - sizeof(*h)) / sizeof(s))
		return "improper SLOW record: head";
	off = sizeof(*h);
	for (i = 0; i < h->ncalls; i++) {
		if (len - off < sizeof(s))
			return "improper SLOW record: a call past its end";
		memcpy(&s, p + off, sizeof(s));
		off += sizeof(s);
		if (s.depth == 0 || s.depth > SLOW_MAXDEPTH ||
		    s.depth > (len - off) / sizeof(uint64_t))
			return "improper SLOW record: a call's stack past its "
			    "end";
		if ((s.flags & ~MONX_STK_CUT) != 0)
			return "improper SLOW record: a call's flags";
		off += (size_t)s.depth * sizeof(uint64_t);
	}
	if (off != len)
		return "improper SLOW record: bytes after its calls";
	return NULL;
}

static int
parse_slow(struct mfile *f, const unsigned char *p, size_t len)
{
	struct monx_slowhead h;

	if (!f->hasclocks || f->slow != NULL)
		return f->why = "improper SLOW record: not once after a "
		    "CLOCKS record", -1;
	if (len < sizeof(h))
		return f->why = "improper SLOW record: head", -1;
	if ((f->why = slow_bad(p, len, &h)) != NULL)
		return -1;
	f->slow = p;
	f->slowlen = len;
	return 0;
}

/*
 * What is wrong with a RUN record's counts of samples, or NULL: more
 * than a run can take (their sums, here and over the files, would wrap
 * and print a report of absurd seconds), or samples in kernel mode from
 * a clock that did not sample it (they would stand for time no row
 * holds).
 */
static const char *
run_samples_bad(const struct monx_run *r)
{
	const uint64_t n[] = { r->samples_in, r->samples_out,
	    r->samples_lost, r->dropped, r->samples_kernel };
	uint64_t sum;
	size_t i;

	for (i = 0, sum = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		if (n[i] > RUN_MAXSAMPLES - sum)
			return "RUN record counts more samples than a run "
			    "can take (2^48)";
		sum += n[i];
	}
	if (r->samples_kernel > 0 && (r->clock != MONX_CLK_PERF ||
	    !(r->flags & MONX_RUN_KERNEL)))
		return "RUN record counts kernel-mode samples of a clock "
		    "that sampled user mode only";
	return NULL;
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
		if ((f->why = run_samples_bad(&f->run)) != NULL)
			return -1;
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
		/* A scan wants the RUN record; read, the file is checked. */
		return f->quiet ? 0 : parse_arcs(f, p, len);
	case MONX_R_STACKS:
		return f->quiet ? 0 : parse_stacks(f, p, len);
	case MONX_R_JIT:
		return f->quiet ? 0 : parse_jit(f, p, len);
	case MONX_R_WALL:
		return f->quiet ? 0 : parse_wall(f, p, len);
	case MONX_R_SLOW:
		return f->quiet ? 0 : parse_slow(f, p, len);
	case MONX_R_CLOCKS:
		if (len < sizeof(f->clocks))
			return f->why = improper, -1;
		memcpy(&f->clocks, p, sizeof(f->clocks));
		if (f->clocks.tick1 <= f->clocks.tick0 ||
		    f->clocks.ns1 <= f->clocks.ns0)
			return f->why = improper, -1;
		f->hasclocks = 1;
		return 0;
	case MONX_R_TIMED:
		if (!f->hasclocks || f->timed != NULL ||
		    len % sizeof(struct monx_timed) != 0)
			return f->why = improper, -1;
		f->timed = p;
		f->ntimed = len / sizeof(struct monx_timed);
		return 0;
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
	if (head.length > MONX_MAXLEN)
		return f->why = "extension longer than libmon's limit of "
		    "64 MiB (libmon(7), LIMITS)", -1;
	if (head.length > f->extlen - sizeof(head))
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
 * How a file dealt with time in the kernel.  The perf clock samples
 * kernel mode too where the kernel let it (MONX_RUN_KERNEL): its samples
 * in the kernel are counted apart, and all its samples stand for all the
 * CPU time.  Elsewhere it samples user mode only: when the file says how
 * the CPU time split between user and system (getrusage), its samples
 * stand for the user part and the system part is kept apart; an older
 * writer's perf file does not say, and its samples stand for all of it.
 * The timer clocks' signals land where the kernel was entered from, so
 * kernel time is in the call site's samples.
 */
enum kmode
mfile_kernel_mode(const struct mfile *f)
{
	if (!f->hasrun)
		return K_CLASSIC;
	if (f->run.clock != MONX_CLK_PERF)
		return K_CALLSITE;
	if (f->run.flags & MONX_RUN_KERNEL)
		return K_SAMPLED;
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

	if (mfile_kernel_mode(f) != K_APART)
		return 1;
	return (double)r->user_ns / ((double)r->user_ns + (double)r->sys_ns);
}

/* Samples the file took, lost, dropped and in the kernel too. */
uint64_t
mfile_samples(const struct mfile *f)
{
	const struct monx_run *r = &f->run;

	return r->samples_in + r->samples_out + r->samples_lost + r->dropped +
	    r->samples_kernel;
}

/*
 * Seconds a sample of the file stands for: what its writer says one
 * stands for, the period (perf counts every one; the timer its
 * overruns); for ITIMER_PROF, which is checked at the tick, counts
 * nothing it missed and, on a busy machine, misses many, the CPU time
 * of all the files of its process over all their samples (pool, from
 * profile_scan()), so that the parts of a run share one weight.  Else,
 * from an older writer, its clock's CPU time (the part in user mode,
 * for a perf clock that sampled user mode only) over the samples it
 * took, in the kernel too, which the report then
 * adds up to however many ticks the kernel dropped; else, or when some
 * threads had no clock (their CPU time is in cpu_ns, not in the
 * samples), the period it asked for; a classic file ticks at 100 Hz.
 * That ratio, file by file, spread the CPU time no sample saw --
 * threads shorter than a period, a part whose samples came after its
 * CPU time -- over the functions sampled: a weight of its own keeps
 * that time apart (see mfile_unsampled_seconds()).
 */
double
mfile_period(const struct mfile *f, const struct ipool *pool)
{
	const struct monx_run *r = &f->run;
	uint64_t n;

	if (!f->hasrun)
		return (double)CLASSIC_NS / 1e9;
	if (r->sample_ns > 0 && r->clock == MONX_CLK_ITIMER &&
	    pool != NULL && pool->n > 0 && pool->cpu > 0)
		return pool->cpu / (double)pool->n;
	if (r->sample_ns > 0)
		return (double)r->sample_ns / 1e9;
	/* Threads went unsampled: the CPU time is not all the samples'. */
	if (r->unsampled > 0 && r->clock != MONX_CLK_ITIMER &&
	    r->period_ns > 0)
		return (double)r->period_ns / 1e9;
	n = mfile_samples(f);
	if (r->cpu_ns > 0 && n > 0 && user_share(f) > 0)
		return (double)r->cpu_ns * user_share(f) / (double)n / 1e9;
	if (r->period_ns > 0)
		return (double)r->period_ns / 1e9;
	return (double)CLASSIC_NS / 1e9;
}

/*
 * Seconds the file's run spent in the kernel, shown apart: what its
 * samples in kernel mode stand for, where the perf clock took them
 * (f->period is set); else what its samples did not see: the system
 * part of the perf clock's CPU time -- of the sampled threads' alone
 * when some went unsampled, in the same ratio.
 */
double
mfile_kernel_seconds(const struct mfile *f)
{
	const struct monx_run *r = &f->run;
	uint64_t n;

	if (mfile_kernel_mode(f) == K_SAMPLED)
		return (double)r->samples_kernel * f->period;
	if (mfile_kernel_mode(f) != K_APART)
		return 0;
	if (r->unsampled == 0 || r->user_ns == 0)
		return (double)r->cpu_ns * (1 - user_share(f)) / 1e9;
	n = r->samples_in + r->samples_out + r->samples_lost + r->dropped;
	return (double)n * f->period * (double)r->sys_ns /
	    (double)r->user_ns;
}

/*
 * Seconds of the file's CPU time (in user mode, for a perf clock that
 * sampled user mode only) that its samples do not stand for, when each
 * has a weight of its own: the ends of threads between two samples, the
 * whole of threads shorter than a period.  Less than 0 where the samples stand for more (a part
 * whose CPU time came before it): the profile sums them.  f->period is
 * set.
 */
double
mfile_unsampled_seconds(const struct mfile *f)
{
	const struct monx_run *r = &f->run;
	uint64_t n;

	if (!f->hasrun || r->sample_ns == 0)
		return 0;
	n = mfile_samples(f);
	if (r->unsampled > 0 && mfile_kernel_mode(f) == K_APART &&
	    r->user_ns > 0)
		return (double)r->cpu_ns / 1e9 - (double)n * f->period -
		    mfile_kernel_seconds(f);
	return (double)r->cpu_ns * user_share(f) / 1e9 -
	    (double)n * f->period;
}

void
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

/*
 * A histogram cut short.  The classic layout runs the histogram to the
 * end of the file, so a file cut inside it (a disk that filled as the
 * program exited) reads as a shorter histogram, its last bins' samples
 * silently gone.  The RUN record's scale says how long it is: monitor()
 * takes the largest scale whose bins, 2^17 / scale bytes each, cover
 * [lpc, hpc) with the words it has, so a whole histogram holds at least
 * (hpc - lpc) * scale / 2^17 of them.  Scales 0 to 2 say nothing of the
 * length (none recorded, or profil()'s one bin).
 */
static int
hist_whole(struct mfile *f)
{
	unsigned __int128 need;

	if (!f->hasrun || f->run.scale <= 2)
		return 0;
	need = (unsigned __int128)(f->hpc - f->lpc) * f->run.scale;
	if ((unsigned __int128)f->nhist << 17 < need)
		return f->why = premature, -1;
	return 0;
}

/*
 * Parse and check the file f->buf[0..f->len): the classic part, then
 * the extension records.  0, or -1 with f->why the reason.
 */
int
mfile_parse(struct mfile *f)
{
	if (parse_classic(f) != 0 || gather_ext(f) != 0 || parse_ext(f) != 0)
		return -1;
	return hist_whole(f);
}

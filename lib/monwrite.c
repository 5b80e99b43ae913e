/*
 * monwrite.c -- the one writer of mon.out.
 *
 * The file is the classic layout (struct hdr, the cells, the histogram),
 * with the extension of monfmt.h carried in marker cells after the
 * counted ones.  It is written whole or not at all: the bytes go to an
 * unnamed file in the target's directory (O_TMPFILE), which vanishes if
 * the process ends first, and only the complete file is given the name
 * -- by a link where there is none yet, else by a link to a temporary
 * name and a rename over the old one.  Where unnamed files cannot be
 * had, a named temporary created with O_EXCL (no planted link followed)
 * is written and renamed.  On any failure the temporary is removed and
 * one line names the path and the reason; signals wait while a named
 * temporary may exist.  SIGXFSZ is ignored while writing, so a
 * file-size limit fails the write instead of killing the program.
 *
 * Where it goes (_mon_outpath): PROFDIR unset, mon.out in the current
 * directory; PROFDIR set, DIR/<pid>.<progname> with the pid of the
 * writing process, -<run> after it for a later run of the same pid, and
 * .<part> after either for a part of a profile written in snapshots
 * (snap.c chooses both).  A file that must not replace another
 * (noreplace) is given its name by a link alone, which fails with
 * EEXIST where the name is taken.  In a set-id program (AT_SECURE)
 * PROFDIR is not trusted and the file is created with the real user's
 * ids.  A part brings its own RUN record and samples outside; a whole
 * profile's are read from the statistics here.
 */
#define _GNU_SOURCE	/* program_invocation_short_name */
#include <sys/auxv.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>	/* rename */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon_private.h"

#define OBJBUF	(1u << 16)

struct out {
	int		fd;
	int		err;		/* first errno, 0 if all went well */
	size_t		len;
	unsigned char	buf[1u << 20];	/* mapped: touched as it fills */
};

/* Write p[0..n) to o's file, unless an earlier write failed. */
static void
put(struct out *o, const unsigned char *p, size_t n)
{
	size_t off;
	ssize_t k;

	for (off = 0; off < n && o->err == 0; off += (size_t)k) {
		k = write(o->fd, p + off, n - off);
		if (k < 0) {
			if (errno == EINTR) {
				k = 0;
				continue;
			}
			o->err = errno;
		} else if (k == 0)
			o->err = EIO;
	}
}

static void
flush(struct out *o)
{
	put(o, o->buf, o->len);
	o->len = 0;
}

/* Bytes p[0..n): through the buffer, or, a large array, straight out. */
static void
emit(struct out *o, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t k;

	if (n >= sizeof(o->buf)) {
		flush(o);
		put(o, s, n);
		return;
	}
	while (n > 0 && o->err == 0) {
		if (o->len == sizeof(o->buf))
			flush(o);
		k = sizeof(o->buf) - o->len;
		if (k > n)
			k = n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

/*
 * The extension stream in two pieces: the records built in map, then
 * the payload of the ARCS record that ends them, the arcs where they
 * lie.
 */
struct ext {
	const unsigned char	*seg[2];
	size_t			 len[2];
	unsigned char		*map;
	size_t			 maplen;
};

/* One marker cell, carrying the MONX_PAYLOAD bytes at six. */
static inline void
emit_marker(struct out *o, const unsigned char *six)
{
	struct cnt c;
	uint64_t v;

	v = 0;
	memcpy(&v, six, MONX_PAYLOAD);	/* little-endian: byte i at 8 * i */
	c.fnpc = (char *)(uintptr_t)(MONX_TAG << MONX_TAGSHIFT | v);
	c.mcnt = 0;
	if (sizeof(o->buf) - o->len < sizeof(c))
		flush(o);
	memcpy(o->buf + o->len, &c, sizeof(c));
	o->len += sizeof(c);
}

/*
 * The extension stream, the bytes of seg[0] then those of seg[1], as
 * marker cells: the arcs, the bulk of a large profile, are carried from
 * where they lie, not copied into the stream first.
 */
static void
emit_ext(struct out *o, const struct ext *e)
{
	const unsigned char *p;
	unsigned char six[MONX_PAYLOAD];
	size_t i, n, k;

	k = 0;
	for (i = 0; i < 2; i++) {
		p = e->seg[i];
		n = e->len[i];
		while (k > 0 && n > 0) {
			six[k++] = *p++;
			n--;
			if (k == MONX_PAYLOAD) {
				emit_marker(o, six);
				k = 0;
			}
		}
		for (; n >= MONX_PAYLOAD; p += MONX_PAYLOAD, n -= MONX_PAYLOAD)
			emit_marker(o, p);
		while (n > 0) {
			six[k++] = *p++;
			n--;
		}
	}
	if (k > 0) {
		memset(six + k, 0, MONX_PAYLOAD - k);
		emit_marker(o, six);
	}
}

static size_t
rec(unsigned char *p, uint32_t type, const void *body, uint32_t len)
{
	struct monx_rec r;
	size_t pad;

	r.type = type;
	r.len = len;
	memcpy(p, &r, sizeof(r));
	memcpy(p + sizeof(r), body, len);
	pad = (8 - len % 8) % 8;
	memset(p + sizeof(r) + len, 0, pad);
	return sizeof(r) + len + pad;
}

/* The next object dlclose() unloaded that is not mapped again. */
static int
unloaded(uint64_t *at, struct _mon_gone *g)
{
	while (_mon_gone_next(at, g))
		if (!_mon_mapped(g->o.bias, g->path))
			return 1;
	return 0;
}

/*
 * The RUN record of d from the statistics as they stand: counts since the
 * profile started.  A snapshot takes the difference of two of them.
 */
void
_mon_run_fill(struct monx_run *run, const struct _mon_out *d)
{
	memset(run, 0, sizeof(*run));
	run->clock = _mon_stats.clock;
	run->pid = getpid();
	run->period_ns = _mon_stats.period_ns;
	run->sample_ns = _mon_stats.sample_ns;
	run->own_ns = _mon_stats.own_ns;
	run->start_ns = _mon_stats.real0_ns;
	run->wall_ns = _mon_stats.wall_ns;
	run->cpu_ns = _mon_stats.cpu_ns;
	run->samples_in = atomic_load(&_mon_stats.in);
	run->samples_out = atomic_load(&_mon_stats.out);
	run->samples_lost = atomic_load(&_mon_stats.lost);
	run->saturated = atomic_load(&_mon_stats.saturated);
	run->overruns = atomic_load(&_mon_stats.overruns);
	run->dropped = atomic_load(&_mon_stats.dropped);
	run->samples_kernel = atomic_load(&_mon_stats.kernel);
	run->flags = _mon_stats.runflags;
	run->unloaded_lost = _mon_gone_lost();
	run->outside_lost = atomic_load(&_mon_stats.outlost);
	run->unsampled = d->unsampled;
	run->user_ns = _mon_stats.user_ns;
	run->sys_ns = _mon_stats.sys_ns;
	run->cells_lost = _mon_cells_lost();
	run->scale = d->scale;
	run->threads = _mon_cells_threads();
	run->tables = _mon_cells_tables();
	run->stack_limit = _mon_stack_limit;
	run->stacks_cut = _mon_stacks_cut();
	run->stacks_lost = _mon_stacks_lost();
}

/*
 * Build the extension stream into e: its records in fresh memory, the
 * arcs left where they lie.  -1 when there is no memory: the file is
 * then written classic-only.
 */
static int
build_ext(const struct _mon_out *d, struct ext *e)
{
	struct monx_head head;
	struct monx_run run;
	struct monx_pc pc;
	unsigned char *p, *calls;
	size_t cap, len, nobj, npc, arclen, stacklen, callslen, callsmap;
	size_t jitlen, walllen;

	memset(e, 0, sizeof(*e));
	/* The measured calls, as records, if any; read first, unlocked. */
	calls = NULL;
	callslen = callsmap = 0;
	if (d->timed && (_mon_calls_collect == NULL ||
	    _mon_calls_collect(&calls, &callslen, &callsmap) != 0))
		calls = NULL;
	/* A part brings its own samples outside: those since the last. */
	npc = d->run != NULL ? d->npcs : _mon_outside_count();
	nobj = _mon_objects(NULL, 0, unloaded);
	cap = sizeof(head) + 6 * sizeof(struct monx_rec) + sizeof(run) +
	    sizeof(struct monx_range) +
	    nobj + OBJBUF + npc * sizeof(pc) + 64;
	/* Arcs that would make the stream too long for readers stay out. */
	arclen = d->narcs * sizeof(struct monx_arc);
	if (cap + arclen > MONX_MAXLEN)
		arclen = 0;
	stacklen = _mon_stacks_copy(NULL, 0, d->stacks_since, NULL);
	if (cap + arclen + stacklen > MONX_MAXLEN)
		stacklen = 0;
	cap += stacklen;
	if (cap + arclen + callslen > MONX_MAXLEN)
		callslen = 0;
	cap += callslen;
	/* The wall samples (PROFMODE=wall), whole or not at all. */
	walllen = d->timed ? _mon_wall_copy(NULL, 0) : 0;
	if (walllen > 0 && cap + arclen + walllen + sizeof(struct monx_rec) >
	    MONX_MAXLEN)
		walllen = 0;
	cap += walllen + sizeof(struct monx_rec);
	/*
	 * Names of generated code: all so far, in every part, as many as
	 * the limit leaves room for (the others counted as dropped).
	 */
	jitlen = _mon_perfmap_size();
	if (jitlen > 0 && cap + arclen + sizeof(struct monx_rec) +
	    sizeof(struct monx_jithead) > MONX_MAXLEN)
		jitlen = 0;
	else if (jitlen > MONX_MAXLEN - cap - arclen - sizeof(struct monx_rec))
		jitlen = MONX_MAXLEN - cap - arclen - sizeof(struct monx_rec);
	cap += jitlen + sizeof(struct monx_rec);
	if ((p = _mon_map(cap)) == NULL) {
		_mon_unmap(calls, callsmap);
		return -1;
	}
	len = sizeof(head);

	if (d->run != NULL)
		run = *d->run;
	else
		_mon_run_fill(&run, d);
	run.arcs = arclen > 0 || d->ncells == 0;
	len += rec(p + len, MONX_R_RUN, &run, sizeof(run));
	if (calls != NULL) {
		memcpy(p + len, calls, callslen);
		len += callslen;
		_mon_unmap(calls, callsmap);
	}
	if (stacklen > 0) {
		/* With the clock running (a part), new ones wait for the next. */
		struct monx_rec r = { MONX_R_STACKS, 0 };

		r.len = (uint32_t)_mon_stacks_copy(p + len + sizeof(r),
		    stacklen, d->stacks_since, d->stacks_now);
		memcpy(p + len, &r, sizeof(r));
		len += sizeof(r) + r.len;
	}
	if (walllen > 0) {
		/* A part's rounds go on: what fits of them now. */
		struct monx_rec r = { MONX_R_WALL, 0 };

		r.len = (uint32_t)_mon_wall_copy(p + len + sizeof(r), walllen);
		memcpy(p + len, &r, sizeof(r));
		len += sizeof(r) + r.len;
	}
	if (__start_libmon_text != NULL &&
	    (uintptr_t)__stop_libmon_text > (uintptr_t)__start_libmon_text) {
		struct monx_range self = { (uintptr_t)__start_libmon_text,
		    (uintptr_t)__stop_libmon_text };

		len += rec(p + len, MONX_R_SELF, &self, sizeof(self));
	}

	if (jitlen > 0) {
		struct monx_rec r = { MONX_R_JIT, 0 };

		r.len = (uint32_t)_mon_perfmap_record(p + len + sizeof(r),
		    jitlen);
		memcpy(p + len, &r, sizeof(r));
		len += sizeof(r) + r.len;
	}

	/* Objects may have come with dlopen since we measured: bound it. */
	nobj = _mon_objects(p + len, cap - len - npc * sizeof(pc) -
	    2 * sizeof(struct monx_rec) - 8, unloaded);
	if (len + nobj + npc * sizeof(pc) + 2 * sizeof(struct monx_rec) + 8 >
	    cap)
		nobj = 0;
	len += nobj;

	if (npc > 0) {
		struct monx_rec r = { MONX_R_PCS, 0 };
		size_t at = len, k;

		len += sizeof(r);
		if (d->run != NULL) {
			k = npc;
			memcpy(p + len, d->pcs, npc * sizeof(pc));
		} else
			k = _mon_outside_copy(p + len, npc);
		len += k * sizeof(pc);
		r.len = k * sizeof(pc);
		memcpy(p + at, &r, sizeof(r));
	}
	/* Last, so that its payload, whole arcs of 24 bytes, needs no pad. */
	if (arclen > 0) {
		struct monx_rec r = { MONX_R_ARCS, (uint32_t)arclen };

		memcpy(p + len, &r, sizeof(r));
		len += sizeof(r);
		e->seg[1] = (const unsigned char *)d->arcs;
		e->len[1] = arclen;
	}
	memcpy(head.magic, MONX_MAGIC, sizeof(head.magic));
	head.version = MONX_VERSION;
	head.length = len - sizeof(head) + arclen;
	memcpy(p, &head, sizeof(head));
	e->seg[0] = e->map = p;
	e->len[0] = len;
	e->maplen = cap;
	return 0;
}

/*
 * The output name, fixed when profiling starts: a program may rewrite
 * its argv[0] (a process title) or empty its environment before it
 * exits.  In a set-id program PROFDIR is not trusted.
 */
static char	outdir[_MON_MAXPATH];
static char	outprog[256];
static int	usedir;

/* Take PROFDIR and the program's name now; 1 when PROFDIR is empty. */
int
_mon_outname_init(void)
{
	const char *dir, *prog;
	size_t k, n;

	dir = secure_getenv("PROFDIR");
	usedir = dir != NULL;
	if (dir == NULL)
		return 0;
	if (*dir == '\0')
		return 1;
	/*
	 * A relative directory is taken from where the program starts: a
	 * daemon that changes to / later still finds it.
	 */
	k = 0;
	if (*dir != '/' && getcwd(outdir, sizeof(outdir) - 1) != NULL) {
		k = strlen(outdir);
		if (k > 0 && outdir[k - 1] != '/')
			outdir[k++] = '/';
	}
	n = strlen(dir);
	if (n >= sizeof(outdir) - k)
		n = sizeof(outdir) - k - 1;	/* too long: fails at write */
	memcpy(outdir + k, dir, n);
	outdir[k + n] = '\0';
	prog = program_invocation_short_name;
	if (prog == NULL || *prog == '\0' || strchr(prog, '/') != NULL)
		prog = "a.out";
	n = strlen(prog);
	if (n >= sizeof(outprog))
		n = sizeof(outprog) - 1;
	memcpy(outprog, prog, n);
	outprog[n] = '\0';
	return 0;
}

/* Does the profile go to PROFDIR, where files of other runs may be? */
int
_mon_outname_dir(void)
{
	return usedir;
}

/*
 * Where the profile goes: mon.out, or DIR/<pid>.<program> with the pid
 * of the writing process.  With PROFDIR, run 2 and on (a pid used
 * again) add -<run> to the name; part 1 and on (snapshots) add .<part>
 * to either.  0 with the path in buf, -1 if it does not fit.  No stdio:
 * this runs at exit.
 */
int
_mon_outpath(char *buf, size_t size, unsigned int run, unsigned long part)
{
	size_t d, p, n;
	char num[2][21];
	size_t nlen[2];

	nlen[0] = nlen[1] = 0;
	if (usedir && run > 1) {
		num[0][0] = '-';
		nlen[0] = 1 + _mon_digits(num[0] + 1, run, 10);
	}
	if (part > 0) {
		num[1][0] = '.';
		nlen[1] = 1 + _mon_digits(num[1] + 1, part, 10);
	}
	if (!usedir) {
		if (size < sizeof(MON_OUT) + nlen[1])
			return -1;
		memcpy(buf, MON_OUT, sizeof(MON_OUT) - 1);
		n = sizeof(MON_OUT) - 1;
	} else {
		d = strlen(outdir);
		p = strlen(outprog);
		if (d + 22 + p + nlen[0] + nlen[1] + 1 > size)
			return -1;
		memcpy(buf, outdir, d);
		buf[d] = '/';
		n = d + 1 + _mon_digits(buf + d + 1, (uint64_t)getpid(),
		    10);
		buf[n++] = '.';
		memcpy(buf + n, outprog, p);
		n += p;
		memcpy(buf + n, num[0], nlen[0]);
		n += nlen[0];
	}
	memcpy(buf + n, num[1], nlen[1]);
	buf[n + nlen[1]] = '\0';
	return 0;
}

/*
 * A temporary name next to path: same directory, .mon.<pid>.<n>.tmp,
 * n new each time.  0, or -1 if it does not fit in size.
 */
static int
tempname(const char *path, char *tmp, size_t size)
{
	static unsigned int seq;
	const char *slash;
	size_t dirlen, n;

	slash = strrchr(path, '/');
	dirlen = slash == NULL ? 0 : (size_t)(slash - path + 1);
	if (dirlen + 5 + 20 + 1 + 20 + 5 > size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(tmp, path, dirlen);
	n = dirlen;
	memcpy(tmp + n, ".mon.", 5);
	n += 5;
	n += _mon_digits(tmp + n, (unsigned long)getpid(), 10);
	tmp[n++] = '.';
	n += _mon_digits(tmp + n, __atomic_fetch_add(&seq, 1,
	    __ATOMIC_RELAXED), 10);
	memcpy(tmp + n, ".tmp", 5);
	return 0;
}

/* A new file of a temporary name next to path, which no one else uses. */
static int
opentemp(const char *path, char *tmp, size_t size)
{
	int fd, tries;

	for (tries = 0; tries < 100; tries++) {
		if (tempname(path, tmp, size) != 0)
			return -1;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/*
 * An unnamed file in path's directory (O_TMPFILE), which vanishes if
 * the process ends before it is named: -1 where the file system has no
 * such files or no /proc can name it, and the caller then writes a named
 * temporary instead.
 */
static int
opennameless(const char *path)
{
	char dir[_MON_MAXPATH];
	const char *slash;
	size_t n;

	if ((slash = strrchr(path, '/')) == NULL) {
		dir[0] = '.';
		n = 1;
	} else if ((n = (size_t)(slash - path)) == 0)
		dir[n++] = '/';
	else if (n < sizeof(dir))
		memcpy(dir, path, n);
	else
		return -1;
	dir[n] = '\0';
	if (access("/proc/thread-self/fd", X_OK) != 0 &&
	    access("/proc/self/fd", X_OK) != 0)
		return -1;
	return open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
}

/*
 * Give the unnamed file fd the name name; 0 or -1 (EEXIST: taken).  By
 * the calling thread's own /proc entry: /proc/self is the main thread's,
 * whose descriptors can no longer be named once it has called
 * pthread_exit() and another thread writes the profile at the end.
 */
static int
nameat(int fd, const char *name)
{
	static const char *const dirs[] = { "/proc/thread-self/fd/",
	    "/proc/self/fd/" };
	char proc[40];
	size_t i, n;
	int r;

	for (i = 0, r = -1; i < 2 && r != 0; i++) {
		n = strlen(dirs[i]);
		memcpy(proc, dirs[i], n);
		n += _mon_digits(proc + n, (unsigned long)fd, 10);
		proc[n] = '\0';
		r = linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW);
		if (r != 0 && errno != ENOENT)
			break;
	}
	return r;
}

/*
 * Give the unnamed file fd the temporary's name, for the rename that
 * puts it in place over an older profile: the name exists for two
 * system calls only.
 */
static int
nametemp(int fd, const char *path, char *tmp, size_t size)
{
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (tempname(path, tmp, size) != 0)
			return -1;
		if (nameat(fd, tmp) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

static int
write_all(struct out *o, const struct _mon_out *d, const struct ext *e)
{
	struct hdr h;

	h = *d->hdr;
	h.nfns = d->ncells + (e->len[0] + e->len[1] + MONX_PAYLOAD - 1) /
	    MONX_PAYLOAD;
	emit(o, &h, sizeof(h));
	emit(o, d->cells, d->ncells * sizeof(struct cnt));
	emit_ext(o, e);
	emit(o, d->hist, d->nhist * sizeof(WORD));
	flush(o);
	return o->err;
}

/*
 * The signals that end a process by default and come from outside it
 * (not the faults a thread's own code raises, which cannot wait).
 */
static const int endsigs[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM,
	SIGVTALRM, SIGXCPU, SIGIO, SIGPWR, SIGSTKFLT,
};
#define NHELD	(sizeof(endsigs) / sizeof(endsigs[0]))

static volatile sig_atomic_t caught;

static void
catch(int sig)
{
	caught = sig;
}

/*
 * While the temporary exists, each of endsigs whose action is the
 * default is caught instead, on whichever thread it comes to, and
 * noted; old gets the actions there were.
 */
static void
hold(struct sigaction *old)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = catch;
	sigfillset(&sa.sa_mask);
	caught = 0;
	for (i = 0; i < NHELD; i++)
		if (__sigaction(endsigs[i], NULL, &old[i]) != 0 ||
		    old[i].sa_handler != SIG_DFL ||
		    __sigaction(endsigs[i], &sa, NULL) != 0)
			old[i].sa_handler = SIG_ERR;	/* left as it was */
}

/*
 * The defaults back; a signal that came meanwhile is sent again to the
 * process, which it now ends as it would have.
 */
static void
release(const struct sigaction *old)
{
	size_t i;

	for (i = 0; i < NHELD; i++)
		if (old[i].sa_handler != SIG_ERR)
			(void)__sigaction(endsigs[i], &old[i], NULL);
	if (caught != 0)
		(void)kill(getpid(), caught);
}

/*
 * A snapshot's write passed the file-size limit: the SIGXFSZ the kernel
 * sent this thread, blocked, is taken, or it would end the program
 * once the thread's mask is back.
 */
static void
xfsz_taken(void)
{
	static const struct timespec zero;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGXFSZ);
	/*
	 * The system call: sigtimedwait() is sigwait.c's, which looks up
	 * libc's with dlsym(), and the writer may run in a handler.
	 */
	(void)syscall(SYS_rt_sigtimedwait, &set, NULL, &zero, _NSIG / 8);
}

/*
 * The named temporary tmp becomes path: by a rename over what is there,
 * or, with noreplace, by a link that fails (EEXIST) where path is taken.
 */
static int
settle(const char *tmp, const char *path, int noreplace)
{
	if (!noreplace)
		return rename(tmp, path);
	if (link(tmp, path) != 0)
		return -1;
	(void)unlink(tmp);
	return 0;
}

/*
 * Write the profile d to path, whole or not at all.  0, or -1 with errno
 * set; with d->noreplace, -1 and EEXIST, quietly, where path is taken.
 */
int
_mon_write(const char *path, const struct _mon_out *d)
{
	struct sigaction ign, oldxfsz;
	struct stat st;
	struct out *o;
	struct ext ext;
	char tmp[_MON_MAXPATH];
	uid_t ofsuid = 0;
	gid_t ofsgid = 0;
	struct sigaction held[NHELD];
	sigset_t all, oldmask;
	int secure, err, saved;

	saved = errno;
	err = 0;
	secure = getauxval(AT_SECURE) != 0;
	if (secure) {
		/* Create only what the real user could create. */
		ofsgid = setfsgid(getgid());
		ofsuid = setfsuid(getuid());
	}
	/*
	 * A snapshot changes no action of the program's, which runs on and
	 * may read or set them meanwhile: SIGXFSZ waits blocked instead.
	 */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	if (!d->running)
		(void)sigaction(SIGXFSZ, &ign, &oldxfsz);

	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		_mon_warn(path, "not a regular file; left as it is", 0);
		err = EEXIST;
		goto out;
	}
	if ((o = _mon_map(sizeof(*o))) == NULL) {
		err = ENOMEM;
		_mon_warn(path, NULL, err);
		goto out;
	}
	if (build_ext(d, &ext) != 0)
		memset(&ext, 0, sizeof(ext));	/* classic only */
	/*
	 * From the temporary's creation to its rename or removal, a signal
	 * that would end the program waits: it then ends it with the file
	 * whole, not with a stray temporary.  (SIGKILL cannot wait.)  This
	 * thread blocks them; for the program's other threads, those whose
	 * action is to terminate are held aside (hold()) -- but not for a
	 * snapshot, whose unnamed file may as well vanish with the process.
	 * A snapshot's caller has blocked them already, for all of its
	 * work (lifecycle.c's part()).
	 */
	if (!d->running) {
		sigfillset(&all);
		(void)pthread_sigmask(SIG_BLOCK, &all, &oldmask);
		hold(held);
	}
	if ((o->fd = opennameless(path)) >= 0) {
		/* Nothing is named until the file is whole. */
		err = write_all(o, d, &ext);
		tmp[0] = '\0';
		if (err == 0 && nameat(o->fd, path) != 0 &&
		    (errno != EEXIST || d->noreplace ||
		    nametemp(o->fd, path, tmp, sizeof(tmp)) != 0))
			err = errno;
		if (close(o->fd) != 0 && err == 0)
			err = errno;
		if (err == 0 && tmp[0] != '\0' && rename(tmp, path) != 0) {
			err = errno;
			(void)unlink(tmp);
		}
		if (err != 0 && !(err == EEXIST && d->noreplace))
			_mon_warn(path, NULL, err);
	} else if ((o->fd = opentemp(path, tmp, sizeof(tmp))) < 0) {
		err = errno;
		_mon_warn(path, NULL, err);
	} else {
		err = write_all(o, d, &ext);
		if (close(o->fd) != 0 && err == 0)
			err = errno;
		if (err == 0 && settle(tmp, path, d->noreplace) != 0)
			err = errno;
		if (err != 0) {
			(void)unlink(tmp);
			if (!(err == EEXIST && d->noreplace))
				_mon_warn(path, NULL, err);
		}
	}
	if (!d->running) {
		release(held);
		(void)pthread_sigmask(SIG_SETMASK, &oldmask, NULL);
	} else if (err == EFBIG)
		xfsz_taken();
	_mon_unmap(ext.map, ext.maplen);
	_mon_unmap(o, sizeof(*o));
out:
	if (!d->running)
		(void)sigaction(SIGXFSZ, &oldxfsz, NULL);
	if (secure) {
		(void)setfsuid(ofsuid);
		(void)setfsgid(ofsgid);
	}
	errno = err == 0 ? saved : err;
	return err == 0 ? 0 : -1;
}

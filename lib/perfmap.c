/*
 * perfmap.c -- mon_perfmap_init(), _write(), _fini() and _copy(): code a
 * program generated, named for perf(1) and for the profile.
 *
 * perf, and prof when a profile does not say, name code that belongs to
 * no file from /tmp/perf-PID.map, one line a function:
 *
 *	START SIZE name			START and SIZE in hexadecimal
 *
 * A program that compiles code (a JIT, a regular expression or query
 * compiler, an emulator) writes a line for each piece it makes, through
 * these calls, from any thread and from a signal handler.  Each line is
 * written by one writev(2) to a descriptor opened with O_APPEND: lines
 * of several threads never mix.  The file is opened safely in a
 * directory anyone may write: no symbolic link is followed, and what is
 * not a regular file of this user's with one link is refused, as perf
 * would refuse to read it.
 *
 * Every entry is also kept here, with the CLOCK_REALTIME time it was
 * named, for the profile's JIT record (monwrite.c): prof names the code
 * from mon.out alone, on another machine, after /tmp is cleaned.  The
 * entries live in chunks of mmap'd memory that are never given back
 * (malloc is not signal-safe), however the program was built and
 * whether or not a profile runs: a profile started later, or a fork
 * child's (it inherits the chunks), names them all.  A fork child does
 * not write into its parent's map: its first line opens its own, which
 * starts with the entries it inherited, so that perf names the child's
 * samples of inherited code too.
 *
 * One lock, taken with every signal blocked (_mon_siglock), orders
 * everything: opening, writing, closing, and the writer's reading of the
 * entries.  A line costs two sigprocmask calls, an fstat (the program may
 * have closed the descriptor and opened a file of its own under its
 * number) and a writev, nothing a compiler's path notices.
 */
#include <sys/stat.h>
#include <sys/uio.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mon_private.h"

#define CHUNK		((size_t)1 << 20)	/* bytes of an ordinary chunk */
#define MAXNAME		4095			/* bytes of a name, at most */

/* A chunk of entries: each a struct monx_jit, its name, padding. */
struct chunk {
	struct chunk	*next;
	size_t		 len;		/* bytes used after this head */
	size_t		 cap;
};

/*
 * Two pids: fdpid says whether fd is this process's descriptor or a
 * copy a fork left, owner whether the entries kept are this process's
 * or were inherited -- which a child must put in its new map even when
 * its parent had closed its own (mon_perfmap_fini) before forking.
 */
static _Atomic pid_t	 lock;
static int		 fd = -1;	/* the map, opened by ... */
static pid_t		 fdpid;		/* ... this process, ... */
static dev_t		 fddev;		/* ... the file it was then */
static ino_t		 fdino;
static pid_t		 owner;		/* who kept the entries; 0: none */
static struct chunk	*first, *last;
static uint64_t		 nkept, ndropped;

static size_t
padded(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* The entry after e, in a chunk. */
static const struct monx_jit *
next_entry(const struct monx_jit *e)
{
	return (const struct monx_jit *)((const char *)(e + 1) +
	    padded(e->namelen));
}

/* The first entry of chunk c, and the end of its entries. */
static const struct monx_jit *
entries(const struct chunk *c, const struct monx_jit **end)
{
	*end = (const struct monx_jit *)((const char *)(c + 1) + c->len);
	return (const struct monx_jit *)(c + 1);
}

/* One line of the map, by one writev; 0 or -1 with errno. */
static int
put_line(int to, uint64_t addr, uint64_t size, const char *name,
    size_t namelen)
{
	struct iovec iov[3];
	char head[48];
	size_t n;
	ssize_t w;
	off_t end;

	n = _mon_digits(head, addr, 16);
	head[n++] = ' ';
	n += _mon_digits(head + n, size, 16);
	head[n++] = ' ';
	iov[0].iov_base = head;
	iov[0].iov_len = n;
	iov[1].iov_base = (void *)(uintptr_t)name;
	iov[1].iov_len = namelen;
	iov[2].iov_base = (void *)(uintptr_t)"\n";
	iov[2].iov_len = 1;
	do
		w = writev(to, iov, 3);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -1;
	if ((size_t)w != n + namelen + 1) {
		/*
		 * A short write: no room left.  The part written would join
		 * the next line, which would name this code wrongly and lose
		 * its own: taken back (only this process writes its map).
		 */
		if (w > 0 && (end = lseek(to, 0, SEEK_CUR)) >= w)
			(void)ftruncate(to, end - w);
		errno = ENOSPC;
		return -1;
	}
	return 0;
}

/* This process's map's path into buf, which has room for 64. */
static void
map_path(char *buf)
{
	size_t n;

	n = sizeof("/tmp/perf-") - 1;
	memcpy(buf, "/tmp/perf-", n);
	n += _mon_digits(buf + n, (uint64_t)getpid(), 10);
	memcpy(buf + n, ".map", sizeof(".map"));
}

/*
 * Open this process's map for appending, safely (see above); the
 * descriptor, with what it is in *st, or -1 with errno.
 */
static int
open_map(struct stat *st)
{
	char path[64];
	int f, err;

	map_path(path);
	/*
	 * O_NONBLOCK: a FIFO planted there would otherwise hold this call,
	 * the lock and so every thread (and the profile's writer) until
	 * someone reads it.  It changes nothing for a regular file.
	 */
	f = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC, 0600);
	if (f < 0)
		return -1;
	if (fstat(f, st) != 0)
		goto fail;
	if (!S_ISREG(st->st_mode) || st->st_uid != geteuid() ||
	    st->st_nlink != 1) {
		errno = EPERM;
		goto fail;
	}
	return f;
fail:
	err = errno;
	(void)close(f);
	errno = err;
	return -1;
}

/*
 * Whether fd is still the map that was opened: a program may close
 * descriptors it did not open (a daemon closes them all), and the
 * number then names a file of its own, which no line must go into and
 * which is not ours to close.
 */
static int
still_ours(void)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == fddev &&
	    st.st_ino == fdino;
}

/*
 * The map open for this process; the caller holds the lock.  A fork
 * child closes its copy of its parent's and opens its own, which starts
 * with the entries it inherited.  0; or -1 with errno, and fd still -1
 * if the map could not be opened, open if an inherited line could not
 * be written (that line is then missing; the caller says so).
 */
static int
ensure_open(void)
{
	const struct chunk *c;
	const struct monx_jit *e, *end;
	struct stat st;
	int f, r;

	if (still_ours()) {
		if (fdpid == getpid())
			return 0;
		(void)close(fd);	/* a fork's copy of the parent's */
	}
	fd = -1;
	if ((f = open_map(&st)) < 0)
		return -1;
	r = 0;
	if (owner != 0 && owner != getpid())
		for (c = first; r == 0 && c != NULL; c = c->next)
			for (e = entries(c, &end); r == 0 && e < end;
			    e = next_entry(e))
				r = put_line(f, e->addr, e->size,
				    (const char *)(e + 1), e->namelen);
	owner = getpid();
	fd = f;
	fdpid = getpid();
	fddev = st.st_dev;
	fdino = st.st_ino;
	return r;
}

/*
 * Keep an entry for the profile; the caller holds the lock.  Without
 * memory it is counted as dropped.
 */
static void
keep(uint64_t addr, uint64_t size, const char *name, size_t namelen)
{
	struct monx_jit *e;
	struct timespec ts;
	struct chunk *c;
	size_t need, len;

	need = sizeof(*e) + padded(namelen);
	if (last == NULL || last->cap - last->len < need) {
		len = sizeof(*c) + need > CHUNK ? sizeof(*c) + need : CHUNK;
		if ((c = _mon_map(len)) == NULL) {
			ndropped++;
			return;
		}
		c->cap = len - sizeof(*c);
		if (last != NULL)
			last->next = c;
		else
			first = c;
		last = c;
	}
	e = (struct monx_jit *)((char *)(last + 1) + last->len);
	e->addr = addr;
	e->size = size;
	e->time_ns = clock_gettime(CLOCK_REALTIME, &ts) == 0 ?
	    (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec : 0;
	e->namelen = (uint32_t)namelen;
	e->pad = 0;
	memcpy(e + 1, name, namelen);
	/* The chunk is fresh from mmap: its padding is zero already. */
	last->len += need;
	nkept++;
}

/*
 * Name the code: the entry kept, its line written; the caller holds the
 * lock.  The map is opened first, so that a fork child's new map starts
 * with what it inherited and not with this line twice.  The name is kept
 * whatever becomes of the line.  0, or -1 with errno if the line, or an
 * inherited one, could not be written.
 */
static int
name_code(uint64_t addr, uint64_t size, const char *name, size_t namelen)
{
	int r, err;

	if (owner == 0)
		owner = getpid();
	r = ensure_open();
	err = errno;
	keep(addr, size, name, namelen);
	if (fd >= 0 && put_line(fd, addr, size, name, namelen) != 0)
		return -1;
	errno = err;
	return r;
}

_mon_public int
mon_perfmap_init(void)
{
	sigset_t was;
	int r, err;

	err = errno;
	_mon_siglock(&lock, &was);
	if ((r = ensure_open()) != 0)
		err = errno;
	_mon_sigunlock(&lock, &was);
	errno = err;
	return r;
}

_mon_public int
mon_perfmap_write(const void *addr, size_t size, const char *name)
{
	sigset_t was;
	size_t n;
	int r, err;

	/* A name is one line of the map: not empty, no line break. */
	n = 0;
	if (name != NULL)
		while (n <= MAXNAME && name[n] != '\0' && name[n] != '\n')
			n++;
	if (name == NULL || n == 0 || n > MAXNAME || name[n] != '\0' ||
	    size == 0 || (uintptr_t)addr > UINTPTR_MAX - size) {
		errno = EINVAL;
		return -1;
	}
	err = errno;
	_mon_siglock(&lock, &was);
	if ((r = name_code((uintptr_t)addr, size, name, n)) != 0)
		err = errno;
	_mon_sigunlock(&lock, &was);
	/*
	 * The profilers told, unlocked, of a name kept whether or not its
	 * line reached the map (name_code() keeps it for the profile all
	 * the same).
	 */
	_mon_prof_jit((uintptr_t)addr, size, name);
	errno = err;
	return r;
}

_mon_public void
mon_perfmap_fini(void)
{
	sigset_t was;
	int err;

	err = errno;
	_mon_siglock(&lock, &was);
	if (still_ours())
		(void)close(fd);	/* ours, or a fork's copy: closed */
	fd = -1;
	_mon_sigunlock(&lock, &was);
	errno = err;
}

/*
 * A line of a map, s to e without its newline: START SIZE name, in
 * hexadecimal with 0x or without, as perf reads it.  1, with the name
 * at *name, or 0 if it does not parse.
 */
static int
parse_line(const char *s, const char *e, uint64_t *addr, uint64_t *size,
    const char **name)
{
	uint64_t *v[2] = { addr, size };
	int i, d, any;

	for (i = 0; i < 2; i++) {
		if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			s += 2;
		*v[i] = 0;
		for (any = 0; s < e; s++, any = 1) {
			if (*s >= '0' && *s <= '9')
				d = *s - '0';
			else if (*s >= 'a' && *s <= 'f')
				d = *s - 'a' + 10;
			else if (*s >= 'A' && *s <= 'F')
				d = *s - 'A' + 10;
			else
				break;
			if (*v[i] > UINT64_MAX >> 4)
				return 0;
			*v[i] = *v[i] << 4 | (uint64_t)d;
		}
		if (!any || s == e || (*s != ' ' && *s != '\t'))
			return 0;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
	}
	if (s == e || e - s > MAXNAME || *size == 0 ||
	    *addr > UINT64_MAX - *size)
		return 0;
	*name = s;
	return 1;
}

/*
 * Append the lines of parent_file, a parent's map, to this process's,
 * and keep them for the profile.  Lines that do not parse are skipped,
 * as perf skips them.  The file is read up to the size it had when
 * opened, and must be a regular file other than this process's own map
 * (which would grow as it is read).  The lock is taken line by line:
 * other threads name their code meanwhile.  Every line is kept even if
 * the map cannot be written.  0, or -1 with errno: the first error.
 */
_mon_public int
mon_perfmap_copy(const char *parent_file)
{
	char buf[2 * (MAXNAME + 64)], path[64], *s, *nl, *end;
	const char *name;
	struct stat st, mine;
	uint64_t addr, size;
	off_t left;
	size_t have;
	ssize_t got;
	sigset_t was;
	int from, r, err, skip, line;

	err = errno;
	if (parent_file == NULL) {
		errno = EINVAL;
		return -1;
	}
	if ((from = open(parent_file, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	map_path(path);
	if (fstat(from, &st) != 0)
		goto fail;
	if (!S_ISREG(st.st_mode) || (stat(path, &mine) == 0 &&
	    st.st_dev == mine.st_dev && st.st_ino == mine.st_ino)) {
		errno = EINVAL;
		goto fail;
	}
	r = 0;
	have = 0;
	skip = 0;		/* in a line too long to be a name's */
	for (left = st.st_size; left > 0 || have > 0; ) {
		got = 0;
		if (left > 0) {
			do
				got = read(from, buf + have, (size_t)left <
				    sizeof(buf) - 1 - have ? (size_t)left :
				    sizeof(buf) - 1 - have);
			while (got < 0 && errno == EINTR);
			if (got < 0)
				goto fail;
			left = got == 0 ? 0 : left - got;
		}
		have += (size_t)got;
		end = buf + have;
		/* The file's last line may have no newline. */
		if (left == 0 && have > 0 && end[-1] != '\n')
			*end++ = '\n';
		for (s = buf; (nl = memchr(s, '\n', (size_t)(end - s))) !=
		    NULL; s = nl + 1) {
			if (skip || !parse_line(s, nl, &addr, &size, &name)) {
				skip = 0;
				continue;
			}
			_mon_siglock(&lock, &was);
			line = name_code(addr, size, name, (size_t)(nl - name));
			if (line != 0 && r == 0) {
				r = -1;
				err = errno;
			}
			_mon_sigunlock(&lock, &was);
			/* The profilers told, as for mon_perfmap_write(). */
			*nl = '\0';
			_mon_prof_jit(addr, size, name);
			*nl = '\n';
		}
		/* A full buffer and no newline: no name is that long. */
		if (s == buf && end == buf + sizeof(buf) - 1) {
			skip = 1;
			s = end;
		}
		have = (size_t)(end - s);
		memmove(buf, s, have);
		if (left == 0)
			break;
	}
	(void)close(from);
	errno = err;
	return r;
fail:
	err = errno;
	(void)close(from);
	errno = err;
	return -1;
}

/*
 * The length of the JIT record's payload if every entry kept went into
 * it: its head and the entries.  0 when there is nothing to say.
 * Signal-safe, as is _mon_perfmap_record(): a polite termination writes
 * the profile.
 */
size_t
_mon_perfmap_size(void)
{
	const struct chunk *c;
	sigset_t was;
	size_t n = 0;

	_mon_siglock(&lock, &was);
	if (nkept > 0 || ndropped > 0)
		n = sizeof(struct monx_jithead);
	for (c = first; c != NULL; c = c->next)
		n += c->len;
	_mon_sigunlock(&lock, &was);
	return n;
}

/*
 * The JIT record's payload into p, of len bytes at least the head's:
 * the head, then as many whole entries as fit, first named first.
 * Those left out -- named since len was measured, or past a limit the
 * writer set -- are counted as dropped in this file; a later file has
 * room for them.  Its length.
 */
size_t
_mon_perfmap_record(void *p, size_t len)
{
	struct monx_jithead h;
	const struct chunk *c;
	const struct monx_jit *e, *end;
	sigset_t was;
	size_t n, k;

	_mon_siglock(&lock, &was);
	h.entries = 0;
	n = sizeof(h);
	for (c = first; c != NULL; c = c->next)
		for (e = entries(c, &end); e < end; e = next_entry(e)) {
			k = (size_t)((const char *)next_entry(e) -
			    (const char *)e);
			if (k > len - n)
				goto full;
			memcpy((char *)p + n, e, k);
			n += k;
			h.entries++;
		}
full:
	h.dropped = ndropped + (nkept - h.entries);
	memcpy(p, &h, sizeof(h));
	_mon_sigunlock(&lock, &was);
	return n;
}

/*
 * perfmap.c -- names for code a JIT compiled while the program ran, from
 * the map the JIT wrote for perf(1): /tmp/perf-PID.map.
 *
 * Each line is "START SIZE name": START and SIZE in hexadecimal, with or
 * without 0x, then blanks, then the name, the rest of the line, spaces
 * and all.  Anything running in the profiled process writes the file,
 * in a directory anyone may write, so it is taken as perf takes it -- a
 * regular file, reached through no symbolic link, owned by the user
 * running prof or by root -- and read as untrusted text: a line that
 * does not parse (no number, a number past 64 bits, a zero size, an end
 * past the address space, no name) is skipped and counted.  A name is
 * kept as the line has it; the printers print it through printable(), as
 * every name prof prints.
 *
 * A JIT that frees code and compiles other code in its place appends a
 * line for the new function, so the map holds both.  Each address
 * belongs to the last line that covers it.  The lines, sorted by start,
 * are swept once with a heap (heap.c) of those that cover the sweep's
 * address, the latest on top: the map becomes pieces that do not overlap, in
 * O(n log n) for n lines however they overlap.  A function that a later
 * one covered in part keeps the pieces left to it, and they count as
 * one function.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/read.h"
#include "util/util.h"

/* A line that parsed. */
struct pline {
	uint64_t	 start;
	uint64_t	 end;		/* one past its last byte */
	const char	*name;
	size_t		 seq;		/* its rank among such lines */
};

static int
hexdigit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A hexadecimal number at *s, before e; 0x optional.  -1 if none. */
static int
hex(char **s, const char *e, uint64_t *v)
{
	char *p = *s;
	int d, n;

	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (*v = 0, n = 0; p < e && (d = hexdigit(*p)) >= 0; p++, n++) {
		if (*v > UINT64_MAX >> 4)
			return -1;
		*v = *v << 4 | (uint64_t)d;
	}
	*s = p;
	return n > 0 ? 0 : -1;
}

/* Skip the blanks at *s; -1 if there were none. */
static int
blanks(char **s, const char *e)
{
	char *p = *s;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p == *s)
		return -1;
	*s = p;
	return 0;
}

/*
 * The line s..e, its newline left out; e may be written (the name ends
 * there).  0 if it names code.
 */
static int
parse_line(char *s, char *e, struct pline *l)
{
	uint64_t size;
	char *p;

	if (hex(&s, e, &l->start) != 0 || blanks(&s, e) != 0 ||
	    hex(&s, e, &size) != 0 || blanks(&s, e) != 0 || s == e)
		return -1;
	if (size == 0 || l->start > UINT64_MAX - size)
		return -1;
	l->end = l->start + size;
	/* A NUL would end the name early: it becomes what printable() prints. */
	for (p = s; p < e; p++)
		if (*p == '\0')
			*p = '?';
	*e = '\0';
	l->name = s;
	return 0;
}

static int
cmp_start(const void *a, const void *b)
{
	const struct pline *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
cmp_same(const void *a, const void *b)
{
	const struct pline *x = a, *y = b;
	int c;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The lines of l[0..n) with each that says what a later one says again
 * left out: a map read with the names a profile kept holds most of them
 * twice.  How many are left, in no order.
 */
static size_t
drop_repeats(struct pline *l, size_t n)
{
	size_t i, m = 0;

	if (n > 1)
		qsort(l, n, sizeof(*l), cmp_same);
	for (i = 0; i < n; i++)
		if (i + 1 == n || l[i].start != l[i + 1].start ||
		    l[i].end != l[i + 1].end ||
		    strcmp(l[i].name, l[i + 1].name) != 0)
			l[m++] = l[i];
	return m;
}

/* The sweep's heap: of two lines, the later one on top. */
static int
later(const void *ctx, size_t a, size_t b)
{
	const struct pline *l = ctx;

	return l[a].seq > l[b].seq;
}

/*
 * Cut the lines l[0..n), sorted by start, into st->funcs: pieces that do
 * not overlap, each given to the latest line covering it.  A line's
 * pieces share one entry number, in the order of their addresses.
 */
static void
cut(struct symtab *st, const struct pline *l, size_t n)
{
	struct heap h;
	struct func *f;
	uint64_t cur = 0, next;
	size_t *ent, i, top, nent = 0, m = 0, cap;

	/* As many pieces as lines, unless lines start inside others. */
	cap = n + 1;
	f = xcalloc(cap, sizeof(*f));
	ent = xcalloc(n, sizeof(*ent));
	h.v = xcalloc(n, sizeof(*h.v));
	h.n = 0;
	h.above = later;
	h.ctx = l;
	for (i = 0; i < n; i++)
		ent[i] = SIZE_MAX;
	for (i = 0; i < n || h.n > 0; ) {
		if (h.n == 0)
			cur = l[i].start;
		for (; i < n && l[i].start <= cur; i++)
			heap_push(&h, i);
		while (h.n > 0 && l[h.v[0]].end <= cur)
			heap_pop(&h);
		if (h.n == 0)
			continue;
		top = h.v[0];
		next = i < n && l[i].start < l[top].end ? l[i].start :
		    l[top].end;
		if (ent[top] == SIZE_MAX)
			ent[top] = nent++;
		if (m > 0 && f[m - 1].end == cur && f[m - 1].entry == ent[top])
			f[m - 1].end = next;
		else {
			if (m == cap) {
				cap *= 2;
				f = xreallocarray(f, cap, sizeof(*f));
			}
			memset(&f[m], 0, sizeof(*f));
			f[m].addr = cur;
			f[m].end = next;
			f[m].name = l[top].name;
			f[m].entry = ent[top];
			m++;
		}
		cur = next;
	}
	st->funcs = f;
	st->nfuncs = m;
	free(h.v);
	free(ent);
}

/*
 * Parse the map text buf[0..len) into st, empty, which takes buf
 * (buf[len] must be there to be written: the last name may end at len).
 * st gets the functions as cut() leaves them, nsyms the distinct lines
 * that parsed and nbad those skipped.
 */
void
perfmap_parse(struct symtab *st, char *buf, size_t len)
{
	struct pline *l = NULL;
	size_t n = 0, cap = 0;
	char *s, *e, *end = buf + len;

	st->strs = buf;
	st->table = "perf map";
	for (s = buf; s < end; s = e + 1) {
		if ((e = memchr(s, '\n', (size_t)(end - s))) == NULL)
			e = end;
		l = xgrow(l, &cap, n, 1, sizeof(*l));
		if (parse_line(s, e, &l[n]) == 0) {
			l[n].seq = n;
			n++;
		} else
			st->nbad++;
	}
	n = drop_repeats(l, n);
	if (n > 0)
		qsort(l, n, sizeof(*l), cmp_start);
	st->nsyms = n;
	cut(st, l, n);
	free(l);
}

/* The whole of fd, NUL-terminated; size is a hint.  -1 with errno. */
static int
slurp(int fd, off_t size, char **buf, size_t *len)
{
	size_t cap;
	ssize_t n;

	cap = size > 0 && (uintmax_t)size < SIZE_MAX / 2 ?
	    (size_t)size + 1 : 65536;
	*buf = xmalloc(cap);
	*len = 0;
	for (;;) {
		if (*len == cap - 1) {
			if (cap > SIZE_MAX / 2)
				return errno = EFBIG, -1;
			cap *= 2;
			*buf = xreallocarray(*buf, cap, 1);
		}
		n = read(fd, *buf + *len, cap - 1 - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	(*buf)[*len] = '\0';
	return 0;
}

/* Where the JIT of process pid writes its map. */
char *
perfmap_path(uint32_t pid)
{
	char buf[64];

	(void)snprintf(buf, sizeof(buf), "/tmp/perf-%" PRIu32 ".map", pid);
	return xstrdup(buf);
}

/*
 * Read the perf map at path, then the lines of names (namelen bytes,
 * NULL if none: the names a profile kept), into st, as perfmap_parse()
 * leaves it: where both name an address, the names win, being later.
 * 0 on success; -1 with *why set and st empty when there is nothing to
 * read.  A map that is not there is the common case and goes unsaid;
 * one that is there but refused or unreadable gets one warning.
 * st->path is the map's path if it was read, else NULL.
 */
int
perfmap_load(struct symtab *st, const char *path, const char *names,
    size_t namelen, const char **why)
{
	struct stat sb;
	char *buf = NULL;
	size_t len = 0;
	int fd, absent = 0;

	memset(st, 0, sizeof(*st));
	*why = NULL;
	/* O_NONBLOCK: a FIFO planted there must not hold prof up. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		*why = errno == ELOOP ? "a symbolic link" : strerror(errno);
		absent = errno == ENOENT;
	} else if (fstat(fd, &sb) != 0)
		*why = strerror(errno);
	else if (!S_ISREG(sb.st_mode))
		*why = "not a regular file";
	else if (sb.st_uid != geteuid() && sb.st_uid != 0)
		*why = "not owned by you";
	else if (slurp(fd, sb.st_size, &buf, &len) != 0)
		*why = strerror(errno);
	if (fd >= 0)
		(void)close(fd);
	if (*why != NULL) {
		free(buf);
		buf = NULL;
		len = 0;
		if (!absent)
			warnx("warning: %s: %s; not read", path, *why);
		if (names == NULL)
			return -1;
		*why = NULL;
	} else
		st->path = xstrdup(path);
	if (names != NULL) {
		/* A map whose last line has no newline ends it first. */
		buf = xreallocarray(buf, len + 1 + namelen + 1, 1);
		if (len > 0 && buf[len - 1] != '\n')
			buf[len++] = '\n';
		memcpy(buf + len, names, namelen);
		len += namelen;
		buf[len] = '\0';
	}
	perfmap_parse(st, buf, len);
	return 0;
}

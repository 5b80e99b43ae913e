/*
 * fuzz.c -- the ground both harnesses stand on: inputs as files, err(3)
 * that returns, and prof's memory given back after every input.
 *
 * err, errx, verr and verrx defined here take the place of libc's in
 * the harness (a definition in the executable wins over the shared
 * library's); they format their message into a buffer -- so that a bad
 * argument still meets the sanitizers -- and longjmp to fuzz_env.  The
 * warn family formats and returns.
 *
 * prof keeps what it builds until exit and a longjmp out of a reader
 * drops what it held, so the run script renames malloc, calloc, realloc
 * and free in prof's objects (objcopy --redefine-sym) to the fuzz_
 * versions below.  Between fuzz_begin and fuzz_end each live block is
 * kept in an open-addressing table; fuzz_end frees what is left.  A
 * block the table does not know (libc's own, from getline) is simply
 * passed on to free.
 */
#define _GNU_SOURCE	/* memfd_create */
#include <sys/mman.h>

#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

jmp_buf fuzz_env;

static int	 tracking;
static void	**live;		/* the table: NULL is an empty slot */
static size_t	 cap, used;	/* cap a power of two, or 0 */

static FILE	*devnull, *saved_out, *saved_err;

/* --- err(3) ------------------------------------------------------- */

/* The message is made, to check its arguments, and dropped. */
static void
say(const char *fmt, va_list ap)
{
	char buf[1024];

	if (fmt != NULL)
		(void)vsnprintf(buf, sizeof(buf), fmt, ap);
}

void
verr(int eval, const char *fmt, va_list ap)
{
	say(fmt, ap);
	(void)eval;
	longjmp(fuzz_env, 1);
}

void
verrx(int eval, const char *fmt, va_list ap)
{
	say(fmt, ap);
	(void)eval;
	longjmp(fuzz_env, 1);
}

void
err(int eval, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(eval, fmt, ap);
}

void
errx(int eval, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrx(eval, fmt, ap);
}

void
vwarn(const char *fmt, va_list ap)
{
	say(fmt, ap);
}

void
vwarnx(const char *fmt, va_list ap)
{
	say(fmt, ap);
}

void
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

/* --- the allocation table ------------------------------------------ */

static size_t
slot_of(const void *p)
{
	uintptr_t h = (uintptr_t)p;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 20) & (cap - 1);
}

static void
table_put(void *p)
{
	void **old;
	size_t i, n;

	if (2 * (used + 1) > cap) {
		old = live;
		n = cap;
		cap = cap == 0 ? 1024 : 2 * cap;
		if ((live = calloc(cap, sizeof(*live))) == NULL)
			abort();
		used = 0;
		for (i = 0; i < n; i++)
			if (old[i] != NULL)
				table_put(old[i]);
		free(old);
	}
	for (i = slot_of(p); live[i] != NULL; i = (i + 1) & (cap - 1))
		;
	live[i] = p;
	used++;
}

/* Take p out of the table; 0 if it was not there. */
static int
table_del(void *p)
{
	size_t i, j, k;

	if (cap == 0)
		return 0;
	for (i = slot_of(p); live[i] != p; i = (i + 1) & (cap - 1))
		if (live[i] == NULL)
			return 0;
	/* Shift back the entries of the run that follows (no tombstones). */
	for (j = i; ; ) {
		live[i] = NULL;
		for (;;) {
			j = (j + 1) & (cap - 1);
			if (live[j] == NULL) {
				used--;
				return 1;
			}
			k = slot_of(live[j]);
			if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
				continue;
			break;
		}
		live[i] = live[j];
		i = j;
	}
}

void *fuzz_malloc(size_t);
void *fuzz_calloc(size_t, size_t);
void *fuzz_realloc(void *, size_t);
void fuzz_free(void *);

void *
fuzz_malloc(size_t n)
{
	void *p;

	if ((p = malloc(n)) != NULL && tracking)
		table_put(p);
	return p;
}

void *
fuzz_calloc(size_t n, size_t size)
{
	void *p;

	if ((p = calloc(n, size)) != NULL && tracking)
		table_put(p);
	return p;
}

void *
fuzz_realloc(void *old, size_t n)
{
	void *p;
	int had;

	had = old != NULL && tracking && table_del(old);
	if ((p = realloc(old, n)) == NULL) {
		if (had)
			table_put(old);
		return NULL;
	}
	if (tracking)
		table_put(p);
	return p;
}

void
fuzz_free(void *p)
{
	if (p != NULL && tracking)
		(void)table_del(p);
	free(p);
}

void
fuzz_begin(void)
{
	tracking = 1;
}

void
fuzz_end(void)
{
	size_t i;

	tracking = 0;
	for (i = 0; i < cap; i++) {
		free(live[i]);
		live[i] = NULL;
	}
	used = 0;
	fuzz_unmute();
}

/* --- files --------------------------------------------------------- */

const char *
fuzz_file(int slot, const uint8_t *data, size_t size)
{
	static int fds[FUZZ_FILES] = { -1, -1 };
	static char paths[FUZZ_FILES][32];
	const uint8_t *p = data;
	ssize_t n;

	if (fds[slot] < 0) {
		if ((fds[slot] = memfd_create("fuzz", 0)) < 0)
			abort();
		(void)snprintf(paths[slot], sizeof(paths[slot]),
		    "/proc/self/fd/%d", fds[slot]);
	}
	if (ftruncate(fds[slot], 0) != 0)
		abort();
	while (size > 0) {
		n = pwrite(fds[slot], p, size, (off_t)(p - data));
		if (n <= 0)
			abort();
		p += n;
		size -= (size_t)n;
	}
	return paths[slot];
}

const char *
fuzz_seed(const char *dir, const char *name)
{
	static char path[4][1024];
	static int next;
	char *s = path[next++ % 4];

	(void)snprintf(s, sizeof(path[0]), "%s/seeds/%s/%s", FUZZ_DIR, dir,
	    name);
	return s;
}

void
fuzz_mute(void)
{
	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	if (saved_out == NULL) {
		saved_out = stdout;
		saved_err = stderr;
	}
	stdout = stderr = devnull;
}

void
fuzz_unmute(void)
{
	if (saved_out != NULL) {
		stdout = saved_out;
		stderr = saved_err;
	}
}

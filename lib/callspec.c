/*
 * callspec.c -- PROFCALLS: which functions the hooks of calls.c time,
 * chosen by name and decided once per function, as a .NET profiler's
 * FunctionIDMapper or Mono's callspec decides before a method first
 * runs.
 *
 *	PROFCALLS=PATTERN[,PATTERN]...	a glob each (*, ?, [...], \),
 *					one that starts with ! excludes
 *
 * The last pattern that matches a function's name decides: timed if it
 * includes, not if it excludes.  A name no pattern matches is timed
 * when the list starts with an exclusion (it takes functions away from
 * all of them), and not when it starts with an inclusion (it names the
 * ones to time).  A function whose name cannot be read (syms.c) matches
 * no pattern.  A list that does not parse is one line on stderr, and
 * every function is timed, as without it.
 *
 *	calls.c, a function's entry made  --> _mon_callspec_off(fn)
 *	   (once per thread and profile)        decisions: fn -> off,
 *	   flags |= ENT_OFF if off               under speclock; else
 *	                                         syms.c's name, matched
 *
 * A function is matched once per process: the answer is kept here,
 * for every thread and every later profile (a fork child keeps it), and
 * each thread's entry holds it, so no call looks here.  The matcher is
 * libmon's own, not fnmatch(3), which may allocate in some locales:
 * a decision can be taken in a signal handler.  Set-id programs ignore
 * PROFCALLS.
 */
#define _GNU_SOURCE	/* secure_getenv */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mon_private.h"

#define MAXPAT		64		/* patterns, at most */
#define SPECLEN		4096		/* PROFCALLS's bytes, at most */
#define DEC0		1024		/* slots of the first table */

#define NOINST		__attribute__((no_instrument_function))

struct pat {
	const char	*glob;
	int		 out;		/* an exclusion (!) */
};

/* A function decided. */
struct dec {
	uintptr_t	 fn;		/* 0: a free slot */
	uint32_t	 off;
};

static char		 spec[SPECLEN];
static struct pat	 pats[MAXPAT];
static size_t		 npats;
static int		 parsed;
static pthread_mutex_t	 speclock = PTHREAD_MUTEX_INITIALIZER;
static struct dec	*decs;			/* under speclock */
static size_t		 dmask, ndecs;

/* Functions matched against the patterns: for the tests to count. */
uint64_t _mon_callspec_matched;

/*
 * The bracket expression at p ('[' ... ']'): the length of it, or 0 if
 * it does not end.  *hit: whether c is in it, when c is not -1.
 */
static NOINST size_t
bracket(const char *p, int c, int *hit)
{
	const char *q = p + 1;
	int neg, in = 0, lo, hi, first = 1;

	if ((neg = *q == '!' || *q == '^'))
		q++;
	while (*q != '\0' && (first || *q != ']')) {
		first = 0;
		if (*q == '\\' && q[1] != '\0')
			q++;
		lo = hi = (unsigned char)*q++;
		if (*q == '-' && q[1] != '\0' && q[1] != ']') {
			q++;
			if (*q == '\\' && q[1] != '\0')
				q++;
			hi = (unsigned char)*q++;
		}
		if (c >= lo && c <= hi)
			in = 1;
	}
	if (*q != ']')
		return 0;
	*hit = in != neg;
	return (size_t)(q - p) + 1;
}

/* The length of p's first element if it matches c, else 0. */
static NOINST size_t
one(const char *p, int c)
{
	size_t n;
	int hit;

	switch (*p) {
	case '?':
		return 1;
	case '\\':
		if (p[1] != '\0')
			return (unsigned char)p[1] == c ? 2 : 0;
		return c == '\\';
	case '[':
		if ((n = bracket(p, c, &hit)) > 0)
			return hit ? n : 0;
		return c == '[';
	default:
		return (unsigned char)*p == c;
	}
}

/* Does glob p match all of s?  fnmatch(3)'s rules, with no flags. */
static NOINST int
glob(const char *p, const char *s)
{
	const char *star = NULL, *from = NULL;
	size_t n;

	for (;;) {
		if (*p == '*') {
			star = ++p;
			from = s;
			continue;
		}
		if (*s == '\0' && *p == '\0')
			return 1;
		if (*s != '\0' && *p != '\0' &&
		    (n = one(p, (unsigned char)*s)) > 0) {
			p += n;
			s++;
			continue;
		}
		/* The last star takes one more character, if it can. */
		if (star == NULL || *from == '\0')
			return 0;
		p = star;
		s = ++from;
	}
}

/* What is wrong with pattern p, or NULL. */
static NOINST const char *
pat_bad(const char *p)
{
	int hit;

	if (*p == '\0')
		return "an empty pattern; timing every function";
	for (; *p != '\0'; p++) {
		if (*p == '\\' && *++p == '\0')
			return "a pattern ends in \\; timing every function";
		if (*p == '[' && bracket(p, -1, &hit) == 0)
			return "a [ with no ]; timing every function";
	}
	return NULL;
}

/* PROFCALLS into pats: 0, or -1 with the reason said. */
static NOINST int
parse(const char *s)
{
	const char *why;
	char *p, *q;

	if (strlen(s) >= sizeof(spec)) {
		_mon_warn("PROFCALLS", "longer than 4095 bytes; timing every "
		    "function", 0);
		return -1;
	}
	memcpy(spec, s, strlen(s) + 1);
	for (p = spec; p != NULL; p = q) {
		if ((q = strchr(p, ',')) != NULL)
			*q++ = '\0';
		if (npats == MAXPAT) {
			_mon_warn("PROFCALLS", "more than 64 patterns; timing "
			    "every function", 0);
			return -1;
		}
		pats[npats].out = *p == '!';
		pats[npats].glob = p + pats[npats].out;
		if ((why = pat_bad(pats[npats].glob)) != NULL) {
			_mon_warn("PROFCALLS", why, 0);
			return -1;
		}
		npats++;
	}
	return 0;
}

/*
 * Read PROFCALLS, once per process (calls.c, at the first start): 1 if
 * it chooses functions, else 0.  Not in a set-id program.
 */
int
_mon_callspec_init(void)
{
	const char *s;

	if (!parsed) {
		parsed = 1;
		if ((s = secure_getenv("PROFCALLS")) != NULL && *s != '\0' &&
		    parse(s) != 0)
			npats = 0;
	}
	return npats > 0;
}

/* Is name's function left untimed by the patterns? */
static NOINST int
decide(const char *name)
{
	size_t i;

	_mon_callspec_matched++;
	for (i = npats; name != NULL && i > 0; i--)
		if (glob(pats[i - 1].glob, name))
			return pats[i - 1].out;
	return !pats[0].out;
}

/* The decision of fn, new and free if it is not there; NULL, no memory. */
static NOINST struct dec *
dec_slot(uintptr_t fn)
{
	struct dec *d, *o;
	size_t n, i, k;

	if (decs == NULL || (ndecs + 1) * 2 > dmask + 1) {
		n = decs == NULL ? DEC0 : (dmask + 1) * 2;
		if ((d = _mon_map(n * sizeof(*d))) == NULL)
			return NULL;
		for (i = 0; decs != NULL && i <= dmask; i++) {
			if ((o = &decs[i])->fn == 0)
				continue;
			k = _mon_hash(o->fn, (unsigned int)__builtin_ctzll(n));
			while (d[k].fn != 0)
				k = (k + 1) & (n - 1);
			d[k] = *o;
		}
		if (decs != NULL)
			_mon_unmap(decs, (dmask + 1) * sizeof(*decs));
		decs = d;
		dmask = n - 1;
	}
	k = _mon_hash(fn, (unsigned int)__builtin_ctzll(dmask + 1));
	while (decs[k].fn != 0 && decs[k].fn != fn)
		k = (k + 1) & dmask;
	return &decs[k];
}

/*
 * Is function fn not to be timed?  Matched the first time any thread
 * asks, then kept.  From calls.c as a function's entry is made, the
 * thread busy (a handler's hook records nothing), maybe in a signal
 * handler; errno is kept.  Without memory to keep it, it is timed.
 */
int
_mon_callspec_off(uintptr_t fn)
{
	struct dec *d;
	int off;

	if (npats == 0)
		return 0;
	pthread_mutex_lock(&speclock);
	if ((d = dec_slot(fn)) == NULL)
		off = 0;
	else if (d->fn == fn)
		off = (int)d->off;
	else {
		off = decide(_mon_sym_name(fn));
		/* fn last: a fork child finds the slot whole or free. */
		d->off = (uint32_t)off;
		d->fn = fn;
		ndecs++;
	}
	pthread_mutex_unlock(&speclock);
	return off;
}

/* A fork child: a thread that held the lock is not in it. */
void
_mon_callspec_fork(void)
{
	_mon_renew_mutex(&speclock);
}

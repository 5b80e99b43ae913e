/*
 * fuzz_perfmap.c -- libFuzzer harness for prof's perf map parser.
 *
 * The input is the text of a /tmp/perf-PID.map.  perfmap_parse() cuts
 * it into functions, and the harness checks what the rest of prof takes
 * for granted, trapping when it does not hold: every line is counted as
 * parsed, skipped or said again by a later line (and dropped); the
 * pieces are sorted, not empty and do not
 * overlap; their entry numbers are dense and first met in address
 * order; no name is empty, and printable() makes of each one a string
 * with no control byte that it leaves as it is.  For a map of a few lines it
 * checks the rule itself against a slow reading: each line parsed
 * alone gives its range, and at both ends of every piece, and at every
 * line's first and last byte, the piece found must be the last line's
 * that covers the address, one line's pieces sharing one entry.
 * A map is not a path prof can be handed, so regress_test.sh replays
 * the inputs through prof as the map of a forged profile's process.
 */
#include <stdlib.h>
#include <string.h>

#include "read/read.h"
#include "util/util.h"

#define FEW	64		/* lines for the slow reading */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A line parsed alone. */
struct oline {
	uint64_t	 start, end;
	char		*text;		/* its copy, which its name is in */
	const char	*name;
};

/* printable(name) holds no control byte, and is its own printable(). */
static void
check_printable(const char *name)
{
	char *s, *t;
	const char *c;

	s = printable(name);
	for (c = s; *c != '\0'; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			__builtin_trap();
	t = printable(s);
	if (strcmp(s, t) != 0)
		__builtin_trap();
	free(s);
	free(t);
}

/*
 * lines: the lines of the map, less those another later says again
 * (which the parser drops) when known (exact), else all of them.
 */
static void
check(const struct symtab *st, size_t lines, int exact)
{
	const struct func *f = st->funcs;
	size_t k, next = 0;

	if ((exact ? st->nsyms + st->nbad != lines :
	    st->nsyms + st->nbad > lines) || st->nfuncs > 2 * st->nsyms)
		__builtin_trap();
	for (k = 0; k < st->nfuncs; k++) {
		if (f[k].addr >= f[k].end)
			__builtin_trap();
		if (k > 0 && f[k - 1].end > f[k].addr)
			__builtin_trap();
		if (f[k].entry > next)
			__builtin_trap();
		if (f[k].entry == next)
			next++;
		if (f[k].name[0] == '\0')
			__builtin_trap();
		check_printable(f[k].name);
	}
}

/* Each line of data, parsed alone; how many there were (<= FEW). */
static size_t
lines_alone(const uint8_t *data, size_t size, struct oline *o)
{
	struct symtab one;
	const uint8_t *s, *e, *end = data + size;
	size_t n = 0, len;

	for (s = data; s < end && n < FEW; s = e + 1, n++) {
		if ((e = memchr(s, '\n', (size_t)(end - s))) == NULL)
			e = end;
		len = (size_t)(e - s);
		if ((o[n].text = malloc(len + 1)) == NULL)
			abort();
		memcpy(o[n].text, s, len);
		memset(&one, 0, sizeof(one));
		perfmap_parse(&one, o[n].text, len);
		one.strs = NULL;	/* o[n].text, freed below */
		o[n].name = NULL;
		if (one.nsyms == 1) {
			if (one.nfuncs != 1)
				__builtin_trap();
			o[n].start = one.funcs[0].addr;
			o[n].end = one.funcs[0].end;
			o[n].name = one.funcs[0].name;
		}
		symtab_free(&one);
	}
	return n;
}

/* The last line of o[0..n) that covers a; n if none. */
static size_t
owner(const struct oline *o, size_t n, uint64_t a)
{
	size_t j;

	for (j = n; j-- > 0; )
		if (o[j].name != NULL && o[j].start <= a && a < o[j].end)
			return j;
	return n;
}

/* The piece of st holding a must be line want's; none if want is n. */
static void
expect(const struct symtab *st, size_t *line_of, const struct oline *o,
    size_t n, uint64_t a)
{
	size_t k, want = owner(o, n, a);

	k = symtab_lookup(st, a);
	if (k == SIZE_MAX) {
		if (want != n)
			__builtin_trap();
		return;
	}
	if (want == n || strcmp(st->funcs[k].name, o[want].name) != 0)
		__builtin_trap();
	if (line_of[st->funcs[k].entry] == SIZE_MAX)
		line_of[st->funcs[k].entry] = want;
	else if (line_of[st->funcs[k].entry] != want)
		__builtin_trap();
}

/* The lines of o[0..n) that a later one says again, range and name. */
static size_t
repeats(const struct oline *o, size_t n)
{
	size_t i, j, r = 0;

	for (i = 0; i < n; i++)
		for (j = i + 1; o[i].name != NULL && j < n; j++)
			if (o[j].name != NULL && o[j].start == o[i].start &&
			    o[j].end == o[i].end &&
			    strcmp(o[j].name, o[i].name) == 0) {
				r++;
				break;
			}
	return r;
}

/* The slow reading of a map of a few lines, o[0..n), against st. */
static void
oracle(const struct symtab *st, const struct oline *o, size_t n)
{
	static size_t line_of[FEW];	/* an entry's line */
	size_t i, k;

	for (i = 0; i < FEW; i++)
		line_of[i] = SIZE_MAX;
	for (k = 0; k < st->nfuncs; k++) {
		expect(st, line_of, o, n, st->funcs[k].addr);
		expect(st, line_of, o, n, st->funcs[k].end - 1);
	}
	for (i = 0; i < n; i++) {
		if (o[i].name == NULL)
			continue;
		expect(st, line_of, o, n, o[i].start);
		expect(st, line_of, o, n, o[i].end - 1);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct oline o[FEW];
	struct symtab st;
	size_t i, lines, n = 0;
	char *buf;

	/* Lines: each newline ends one, and text after the last is one. */
	for (i = 0, lines = 0; i < size; i++)
		lines += data[i] == '\n';
	if (size > 0 && data[size - 1] != '\n')
		lines++;
	buf = xmalloc(size + 1);
	memcpy(buf, data, size);
	memset(&st, 0, sizeof(st));
	perfmap_parse(&st, buf, size);
	if (lines < FEW) {
		n = lines_alone(data, size, o);
		check(&st, lines - repeats(o, n), 1);
		oracle(&st, o, n);
	} else
		check(&st, lines, 0);
	for (i = 0; i < n; i++)
		free(o[i].text);
	symtab_free(&st);	/* buf with it */
	return 0;
}

/*
 * fuzz_elfsym.c -- libFuzzer harness for prof's ELF symbol reader.
 *
 * The input is the program prof is given.  Its functions and build-id
 * are loaded; when that succeeds, a fixed real profile (a mon.out of
 * h_burn, read once) is checked against its build-id and attributed to
 * its functions twice, without and with -g, and the report and the -s
 * statistics are printed: what a program's symbols can do to the steps
 * after the reader is fuzzed along with it.  Other objects the profile
 * names are not read (-p): their files are not the input.  The input's
 * DWARF line table is read too (dwline.c, for -F pprof, -L and -A), looked
 * up at each of its functions and walked a line at a time over each of
 * them; and the profile is printed by source line, -L and -A, from it.
 *
 * Replay a crash with prof itself, with the options of either pass:
 * prof -s -p in tests/fuzz/seeds/monread/pie.out
 * prof -s -p -g -z -a -o in tests/fuzz/seeds/monread/pie.out
 * prof -F pprof -p in tests/fuzz/seeds/monread/pie.out
 * prof -L -p in tests/fuzz/seeds/monread/pie.out
 * prof -A -p in tests/fuzz/seeds/monread/pie.out
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "model/model.h"
#include "print/print.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The fixed profile, read once and kept for every input. */
static struct profile p;

/* The line table of the input, looked up at st's functions if any. */
static void
lines(const char *path, const struct symtab *st)
{
	struct dwline dl;
	const char *why, *file;
	uint64_t a, end;
	uint32_t line;
	size_t i, n;

	if (dwline_load(&dl, path, &why) != 0)
		return;
	for (i = 0; st != NULL && i < st->nfuncs; i++) {
		(void)dwline_find(&dl, st->funcs[i].addr, &file, &line);
		/* A line at a time, as -L shares a bin out; 4096 at most. */
		for (a = st->funcs[i].addr, n = 0; a < st->funcs[i].end &&
		    n < 4096; a = end, n++) {
			(void)dwline_span(&dl, a, &file, &line, &end);
			if (end <= a)
				break;
		}
	}
	dwline_free(&dl);
}

/* The profile by source line, -L and -A, as prof prints them. */
static void
by_line(struct report *r, const struct opts *o)
{
	struct lines ls;
	struct opts lo = *o;

	lines_build(&ls, r, &p, o, NULL);
	lo.lines = 'L';
	lines_print(&ls, &lo);
	lines_free(&ls);
	lines_build(&ls, r, &p, o, NULL);
	lo.lines = 'A';
	annotate_print(&ls, &lo, NULL, 0);
	lines_free(&ls);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symtab st;
	struct report r;
	struct opts o;
	const char *path, *why;
	int locals;

	if (p.nfiles == 0) {
		if (profile_read(&p, fuzz_seed("monread", "pie.out"),
		    &why) != 0)
			abort();	/* the seed must read */
		profile_finish(&p);
	}
	path = fuzz_file(data, size);
	if (symtab_load(&st, path, &why) != 0) {
		lines(path, NULL);
		return 0;
	}
	lines(path, &st);
	profile_check_id(&p, path, &st);
	for (locals = 0; locals <= 1; locals++) {
		memset(&o, 0, sizeof(o));
		o.sort = locals ? 'a' : 't';
		o.addr = locals ? 'o' : 0;
		o.fold = !locals;
		o.zeros = locals;
		o.progonly = 1;
		o.lines = 'L';		/* the arcs kept for by_line() */
		attribute(&r, &p, &st, &o);
		report_print(&r, &o);
		report_stats(&r, &p, &st);
		by_line(&r, &o);
		report_free(&r);
	}
	symtab_free(&st);
	return 0;
}

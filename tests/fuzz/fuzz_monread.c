/*
 * fuzz_monread.c -- libFuzzer harness for prof's mon.out reader.
 *
 * The input is a mon.out file.  It goes through every step prof takes
 * after reading it, against a fixed real program (the h_burn the seeds
 * were written by): read it, read it again so that the merging of two
 * files runs too (prof prog in in), finish, check the build-ids,
 * attribute, print the report or the call graph, gprof's estimate and
 * the -s statistics, and -T's slow calls when it has them.  The options follow the input's length
 * (regress_test.sh picks them alike), so that every sort and -g, -z,
 * -x, -p, -q, -i and -e run too, and -F in each format but gmon, with
 * -M for the stack formats.  Without -p the objects the
 * file names are looked up for symbols, as prof does.
 *
 * Replay a crash with prof itself, say for a length of 37 bytes:
 * prof -s -c -g -p tests/fuzz/seeds/elf/h_burn in in
 * (lengths of 128 and more may add -q, -i and -e, of 1024 and more -F:
 * regress_test.sh's harness_opts says which)
 */
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "fuzz.h"
#include "model/model.h"
#include "print/print.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The input as profile_add() takes it: a buffer of its own. */
static unsigned char *
copy(const uint8_t *data, size_t size)
{
	unsigned char *buf = xmalloc(size);

	memcpy(buf, data, size);
	return buf;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *formats[] = { "folded", "svg", "pprof",
	    "callgrind" };
	static const char *prog;
	const char *out;
	struct profile p;
	struct symtab st;
	struct report r;
	struct opts o;
	const char *why;

	if (prog == NULL)
		prog = fuzz_seed("elf", "h_burn");
	memset(&p, 0, sizeof(p));
	memset(&o, 0, sizeof(o));
	o.sort = "tcna"[size % 4];
	o.fold = size & 4;
	o.unnamed = size & 64;
	o.zeros = size & 8;
	o.addr = size & 16 ? 'x' : 0;
	o.progonly = size & 32;
	o.graph = size & 128;
	o.incl = size & 256;
	o.estimate = size & 512;
	if (size & 1024)	/* gmon writes files: not here */
		o.format = formats[size >> 11 & 3];
	/* -M: the stack formats lay out the calling contexts. */
	o.measured = (size & 8192) && o.format != NULL &&
	    strcmp(o.format, "callgrind") != 0;
	o.stats = 1;
	if (profile_add(&p, "in", copy(data, size), size, &why) == 0 &&
	    profile_add(&p, "in", copy(data, size), size, &why) == 0) {
		profile_finish(&p);
		if (symtab_load(&st, prog, &why) != 0)
			__builtin_trap();	/* the fixed program must load */
		profile_check_id(&p, prog, &st);
		attribute(&r, &p, &st, &o);
		if (o.format == NULL)
			report_show(&r, &p, &o);
		else if (export_write(o.format, &r, &p, &o, prog, &out,
		    &why) != 0 && strcmp(o.format, "svg") != 0)
			__builtin_trap();	/* only svg may refuse */
		report_stats(&r, &p, &st);
		if (p.slowfiles > 0)	/* -T's list, PROFSLOW's calls */
			slow_print(&r, &p, &o);
		report_free(&r);
		symtab_free(&st);
	}
	profile_free(&p);
	return 0;
}

/*
 * t_dwline.c -- prof's line-table reader (prof/read/dwline.c) driven
 * as addr2line is, for the export tests to compare the two.
 *
 * usage: t_dwline file < addresses
 *
 * For each hexadecimal address on standard input, one line
 * "FILE:LINE" as addr2line -e file prints it, "??:0" where the table
 * has no row for the address, "??:LINE" where its row names no file.
 * The warning a malformed table gives goes to standard error, as prof
 * prints it; the status is 1 only when the file cannot be read.
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "read/read.h"

int
main(int argc, char **argv)
{
	struct dwline dl;
	const char *why, *file;
	char buf[128];
	uint64_t addr;
	uint32_t line;

	if (argc != 2) {
		fprintf(stderr, "usage: t_dwline file < addresses\n");
		return 2;
	}
	if (dwline_load(&dl, argv[1], &why) != 0)
		errx(1, "%s: %s", argv[1], why);
	if (dl.nbad > 0)
		warnx("%s: .debug_line: %s; %zu line table%s skipped",
		    argv[1], dl.why, dl.nbad, dl.nbad == 1 ? "" : "s");
	while (fgets(buf, sizeof(buf), stdin) != NULL) {
		addr = strtoull(buf, NULL, 16);
		if (dwline_find(&dl, addr, &file, &line) == 0)
			printf("??:0\n");
		else
			printf("%s:%" PRIu32 "\n", file != NULL ? file : "??",
			    line);
	}
	dwline_free(&dl);
	return fflush(stdout) != 0 || ferror(stdout);
}

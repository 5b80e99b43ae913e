/*
 * t_gzip.c -- prof's gzip writer (prof/export/gzip.c) driven alone,
 * for the export tests to check what gzip(1) makes of its output.
 *
 * usage: t_gzip < data > data.gz
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "export/xset.h"
#include "util/util.h"

int
main(void)
{
	unsigned char *in = NULL, *z;
	size_t len = 0, cap = 0, n;

	for (;;) {
		in = xgrow(in, &cap, len, 65536, 1);
		if ((n = fread(in + len, 1, cap - len, stdin)) == 0)
			break;
		len += n;
	}
	if (ferror(stdin))
		err(1, "stdin");
	z = gzip_encode(in, len, &n);
	if (fwrite(z, 1, n, stdout) != n || fflush(stdout) != 0)
		err(1, "stdout");
	free(z);
	free(in);
	return 0;
}

/*
 * h_explicit -- a program that profiles its own text by calling
 * monitor() itself.  make builds it twice: with -p (h_explicit) and,
 * as h_explicit_plain, without -p but linked with libmon, where it must
 * get a histogram and no call counts.
 *
 *	h_explicit	monitor() on [__executable_start, etext), burn in
 *			burn_a until the histogram holds 20 samples (or
 *			10 s of CPU), monitor(0, ...), exit 0
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include <mon.h>

#include "../lib/h_burn.h"

#define NFUNC	100

extern char __executable_start[], etext[];

static WORD *buf;
static size_t nwords;

static int
enough(void *arg)
{
	size_t s = (sizeof(struct hdr) + NFUNC * sizeof(struct cnt)) /
	    sizeof(WORD);

	(void)arg;
	return wsum(buf + s, nwords - s) >= 20;
}

int
main(void)
{
	size_t text;

	text = (size_t)(etext - __executable_start);
	nwords = (sizeof(struct hdr) + NFUNC * sizeof(struct cnt)) /
	    sizeof(WORD) + text / BARSIZE + 1;
	if ((buf = calloc(nwords, sizeof(WORD))) == NULL)
		err(1, "calloc");
	monitor((int (*)(void))__executable_start, (int (*)(void))etext, buf,
	    nwords, NFUNC);
	if (!burn_until(burn_a, enough, NULL, 10ULL * 1000000000))
		errx(1, "no samples in 10 s of CPU");
	monitor(NULL, NULL, NULL, 0, 0);
	return 0;
}

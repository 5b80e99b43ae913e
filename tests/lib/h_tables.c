/*
 * h_tables.c -- a cc -p program that gives libmon's address tables more
 * distinct addresses than their first sizes hold, through the entry
 * points the clocks and mcount use (_mon_count_test: mcount's way, from
 * C), so that a case can count what the profile kept without waiting for
 * that many real samples.
 *
 * usage: h_tables outside N	N samples, each at an address of its own
 *				outside the histogram (FAR + 2i)
 *	  h_tables calls N	N calls, each to and from an address of its own
 *				outside the text (FAR + 16i)
 *	  h_tables rounds N	the same N calls three times over, so that
 *				the table grows under arcs already counted
 *	  h_tables sort N	N arcs, a few callees from many call sites
 *				each, sorted as the writer sorts them: with
 *				a scratch array, with one of its own, and
 *				with no memory to map one; each checked
 *				against qsort's order (exit 1 if not)
 *
 * The addresses are mapped by nobody; the profile is written at exit.
 */
#include <sys/resource.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon_private.h"

#define FAR	((uintptr_t)0x300000000000)

static int
cmp_arc(const void *x, const void *y)
{
	const struct monx_arc *a = x, *b = y;

	if (a->selfpc != b->selfpc)
		return a->selfpc < b->selfpc ? -1 : 1;
	if (a->frompc != b->frompc)
		return a->frompc < b->frompc ? -1 : 1;
	return 0;
}

/*
 * n arcs into 7 callees, one far from the others, from call sites
 * whose every byte differs somewhere; in a scrambled order.
 */
static void
make_arcs(struct monx_arc *a, size_t n)
{
	uint64_t x = 88172645463325252ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		a[i].selfpc = i % 7 == 6 ? x | 1 : FAR + 16 * (x % 6);
		a[i].frompc = (x & ~(uint64_t)0xfffff) | i;
		a[i].count = i + 1;
	}
}

/*
 * Cap the address space near what is mapped now, no more maps, and
 * return the limit it had (the soft limit only: it is put back before
 * exit, when libmon maps what it writes the profile with).
 */
static struct rlimit
no_more_memory(void)
{
	struct rlimit was, rl;
	unsigned long pages;
	FILE *f;

	if ((f = fopen("/proc/self/statm", "r")) == NULL ||
	    fscanf(f, "%lu", &pages) != 1) {
		fprintf(stderr, "h_tables: /proc/self/statm unread\n");
		exit(2);
	}
	fclose(f);
	if (getrlimit(RLIMIT_AS, &was) != 0) {
		perror("h_tables: getrlimit");
		exit(2);
	}
	rl = was;
	rl.rlim_cur = pages * 4096 + (1 << 20);
	if (setrlimit(RLIMIT_AS, &rl) != 0) {
		perror("h_tables: setrlimit");
		exit(2);
	}
	return was;
}

/* Sort n arcs each way; 0 if each agrees with qsort. */
static int
sort_arcs(size_t n)
{
	static const char *const how[] = { "scratch", "mapped", "no memory" };
	struct monx_arc *a, *want, *scratch;
	struct rlimit was;
	int i, bad = 0;

	a = calloc(n, sizeof(*a));
	want = calloc(n, sizeof(*want));
	scratch = calloc(n, sizeof(*scratch));
	if (a == NULL || want == NULL || scratch == NULL) {
		fprintf(stderr, "h_tables: no memory\n");
		exit(2);
	}
	make_arcs(want, n);
	qsort(want, n, sizeof(*want), cmp_arc);
	for (i = 0; i < 3; i++) {
		make_arcs(a, n);
		if (i == 2)
			was = no_more_memory();
		_mon_arcs_sort(a, n, i == 0 ? scratch : NULL);
		if (i == 2 && setrlimit(RLIMIT_AS, &was) != 0) {
			perror("h_tables: setrlimit");
			exit(2);
		}
		if (memcmp(a, want, n * sizeof(*a)) != 0) {
			fprintf(stderr, "h_tables: %s: arcs out of order\n",
			    how[i]);
			bad = 1;
		}
	}
	return bad;
}

int
main(int argc, char *argv[])
{
	unsigned long i, n, r;

	if (argc != 3 || (n = strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: h_tables outside|calls|rounds|sort N\n");
		return 2;
	}
	if (strcmp(argv[1], "outside") == 0)
		for (i = 0; i < n; i++)
			_mon_sample(FAR + 2 * i, 1);
	else if (strcmp(argv[1], "calls") == 0)
		for (i = 0; i < n; i++)
			_mon_count_test(FAR + 16 * i, FAR + 16 * i + 5);
	else if (strcmp(argv[1], "rounds") == 0)
		for (r = 0; r < 3; r++)
			for (i = 0; i < n; i++)
				_mon_count_test(FAR + 16 * i, FAR + 16 * i + 5);
	else if (strcmp(argv[1], "sort") == 0)
		return sort_arcs(n);
	else {
		fprintf(stderr, "h_tables: %s: no such mode\n", argv[1]);
		return 2;
	}
	return 0;
}

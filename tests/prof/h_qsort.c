/*
 * h_qsort.c -- a profiled program whose comparator glibc's qsort calls:
 * qsort's own code keeps no frame pointers, so many stacks sampled in
 * it or in the comparator stop short of main, and the comparator's
 * calls are counted from a caller outside the program.
 *
 * usage: h_qsort [n [rounds]]
 *
 * Each round fills n ints with rand() and sorts them with cmp_int;
 * fill() and sort() are called once a round.
 */
#include <stdio.h>
#include <stdlib.h>

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void
fill(int *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = rand();
}

static void
sort(int *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_int);
}

int
main(int argc, char *argv[])
{
	size_t n = 200000, i;
	int rounds = 30, r;
	int *v;

	if (argc > 1)
		n = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (n == 0 || (v = malloc(n * sizeof(*v))) == NULL)
		return 1;
	srand(1);
	for (r = 0; r < rounds; r++) {
		fill(v, n);
		sort(v, n);
		for (i = 1; i < n; i++)
			if (v[i - 1] > v[i])
				return 1;
	}
	free(v);
	return 0;
}

/*
 * pgdl.c -- profiler_test's -pg (mcount) libraries loaded one after the
 * other where the first was, and the program that loads them: built
 * with -DPGDL_A, h_pgdl_a.so; with -DPGDL_B, h_pgdl_b.so, whose
 * functions lie at other offsets; else h_pgdl DIR, which sets an enter
 * hook, loads a, calls a_f, unloads a, loads b, calls b_f, and says:
 *
 *	a_f ok|bad		the enter's fn was a_f's address
 *	b_f ok|bad		and b_f's
 *	place same|other	b was loaded where a was (else the test
 *				shows nothing)
 */
#define NOINLINE	__attribute__((noinline))

#if defined(PGDL_A)
int	a_f(int);

static volatile int s;

NOINLINE int
a_f(int x)
{
	s += x;
	return s;
}
#elif defined(PGDL_B)
int	b_f(int);
int	b_pad(int);

static volatile int s;

/* Before b_f, so that b_f's mcount call is where a_f's code was. */
NOINLINE int
b_pad(int x)
{
	s ^= x;
	return s * 7 + x;
}

NOINLINE int
b_f(int x)
{
	s += x * 3;
	return s + (x << 2);
}
#else
#define _GNU_SOURCE	/* dladdr */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <mon.h>

static void *got;

static void
enter(void *data, void *fn, void *site, uintptr_t id)
{
	(void)data;
	(void)site;
	(void)id;
	got = fn;
}

/* dir/name loaded, and its function fname called: 0, or -1. */
static int
call(const char *dir, const char *name, const char *fname, void **libp,
    void **fnp)
{
	char path[4096];
	int (*f)(int);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((*libp = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL ||
	    (*(void **)&f = dlsym(*libp, fname)) == NULL) {
		fprintf(stderr, "h_pgdl: %s\n", dlerror());
		return -1;
	}
	got = NULL;
	(void)f(1);
	*fnp = (void *)f;
	printf("%s %s\n", fname, got == *fnp ? "ok" : "bad");
	return 0;
}

int
main(int argc, char **argv)
{
	mon_profiler_t h;
	void *a, *b, *fa, *fb;
	Dl_info ia, ib;
	uintptr_t basea;

	if (argc != 2)
		return 2;
	if ((h = mon_profiler_create("pgdl", NULL)) == NULL ||
	    mon_profiler_set_enter_leave(h, enter, NULL) != 0)
		return 1;
	if (call(argv[1], "h_pgdl_a.so", "a_f", &a, &fa) != 0 ||
	    dladdr(fa, &ia) == 0)
		return 1;
	basea = (uintptr_t)ia.dli_fbase;
	dlclose(a);
	if (call(argv[1], "h_pgdl_b.so", "b_f", &b, &fb) != 0 ||
	    dladdr(fb, &ib) == 0)
		return 1;
	printf("place %s\n", (uintptr_t)ib.dli_fbase == basea ? "same" :
	    "other");
	return 0;
}
#endif

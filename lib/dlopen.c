/*
 * dlopen.c -- dlopen(), so that a profiler (profiler.c) hears of each
 * object a dlopen loads.
 *
 * libc's dlopen reads its caller's return address to know who called
 * it: the caller's $ORIGIN, DT_RPATH and namespace.  So dlopen itself
 * is a jump (x86_64/dlopen_entry.S): while no profiler asks for library
 * events it goes straight to libc's, the caller's return address left
 * as it was, and costs one compare.  Once one asks, dlopen comes here:
 * libc's is called, and the objects it added -- the one named and its
 * dependencies, which the dynamic linker puts at the end of its list --
 * are told, with their load bias.  libc's then sees libmon as its
 * caller: a library that dlopens by $ORIGIN or through its own DT_RPATH
 * is then looked for from the program's (mon_profiler(3C), BUGS).
 */
#define _GNU_SOURCE	/* dl_iterate_phdr */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>

#include "mon_private.h"

typedef void *(*openfn)(const char *, int);

/* libc's, looked up before main; the entry jumps to it. */
void	*_mon_dlopen_real _mon_hidden;

__attribute__((constructor)) static void
lookup(void)
{
	int err;

	err = errno;
	_mon_dlopen_real = _mon_libc("dlopen");
	errno = err;
}

struct walk {
	unsigned long long	 adds;
	size_t			 n;		/* objects seen */
	size_t			 skip;		/* objects there before */
};

static int
count(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct walk *w = arg;

	(void)size;
	w->adds = info->dlpi_adds;
	w->n++;
	return 0;
}

static int
tell(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct walk *w = arg;

	(void)size;
	if (w->n++ >= w->skip && info->dlpi_name != NULL &&
	    *info->dlpi_name != '\0')
		_mon_prof_library(info->dlpi_name, info->dlpi_addr, 1);
	return 0;
}

/*
 * dlopen, with the objects it loads told to the profilers; errno and
 * dlerror() are libc's.  Reached from the entry when a profiler wants
 * library events, or libc's was not yet looked up.
 */
void *
_mon_dlopen_hooked(const char *file, int mode)
{
	struct walk before, after;
	void *h;
	int err;

	if (_mon_dlopen_real == NULL &&
	    (_mon_dlopen_real = _mon_libc("dlopen")) == NULL)
		return NULL;
	before.n = before.adds = 0;
	(void)dl_iterate_phdr(count, &before);
	h = ((openfn)_mon_dlopen_real)(file, mode);
	if (h == NULL || !atomic_load(&_mon_prof_libs))
		return h;
	err = errno;
	(void)_mon_texts_update();	/* its code, known to the walks */
	after.n = after.adds = 0;
	(void)dl_iterate_phdr(count, &after);
	if (after.adds != before.adds) {
		after.skip = before.n;
		after.n = 0;
		(void)dl_iterate_phdr(tell, &after);
	}
	errno = err;
	return h;
}

/*
 * dlclose.c -- dlclose(), so that a library unloaded while profiled
 * keeps its name.
 *
 * The writer lists the objects that are mapped when it runs
 * (objects.c); a library dlclose'd before then has left its samples and
 * call counts behind, by address, and nothing to name them by.  This
 * definition takes the place of libc's for a program linked with
 * libmon.  Before calling libc's own dlclose it notes the object the
 * handle refers to -- load bias, text range, build-id and path, read
 * while they are still mapped -- in a table of its own; after the call
 * it drops the note if the object is still mapped (another handle holds
 * it, or it cannot be unloaded).  The writer adds each noted object
 * that is not mapped after the ones that are.
 *
 * The table: NGONE notes in memory from mmap, one mutex around them.
 * Nothing that takes another lock is called with the mutex held, so
 * dlclose may come from any thread, from a destructor that runs inside
 * another dlclose, or while the writer reads the table.  A slot is
 * PENDING while its dlclose runs -- the writer takes it too, if the
 * object is gone by then -- and GONE after; the writer takes notes in
 * the order they were noted.  An object identical to one already GONE
 * (a plugin loaded and unloaded again and again at one address) takes
 * no second slot.  An object unloaded when every slot
 * is taken is counted, for the RUN record.  Only the object the handle
 * names is noted, not the dependencies that go with it.
 *
 * Every unload also has syms.c forget the mappings it has met
 * (_mon_sym_forget()): the next object loaded may lie where this one
 * was, and its functions' names and starts are to be read from its own
 * file.  And every dlclose() that succeeds has objects.c take the stack
 * walks' text ranges anew if the loader's loads or unloads have changed
 * (_mon_texts_update()): under the timer clocks alone it is the only
 * look after the start.
 *
 * Notes are taken from the first start of monitor() in the process,
 * since no earlier unload can leave anything in a profile.  A new
 * profile -- a start after a stop -- empties the table, and so does
 * fork() in a child that profiles on: its counts and histogram start
 * from zero, so only what the child unloads itself can be in its file.
 * exec() ends the table with the image.
 */
#define _GNU_SOURCE	/* dlinfo, RTLD_NEXT, dl_iterate_phdr */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "mon_private.h"

#define NGONE	256

enum { FREE, PENDING, GONE };

struct note {
	int		 state;
	uint64_t	 stamp;		/* the order of the notes */
	struct _mon_gone g;
};

typedef int (*closefn)(void *);

static pthread_mutex_t notelock = PTHREAD_MUTEX_INITIALIZER;
static struct note	*notes;		/* NGONE, mapped at the first start */
static size_t		 nused;		/* notes[nused..] unused this run */
static uint64_t		 unnoted;		/* unloaded with every slot taken */
static uint64_t		 stamps;	/* notes taken */
static unsigned long	 gen;		/* tables begun, to tell stale notes */
static _Atomic int	 armed;		/* monitor() has started */

struct find {
	const struct link_map	*lm;
	struct _mon_gone	*g;
};

static int
find(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find *f = arg;
	const unsigned char *id;

	(void)size;
	if (info->dlpi_addr != f->lm->l_addr || info->dlpi_name == NULL ||
	    strcmp(info->dlpi_name, f->lm->l_name) != 0)
		return 0;
	id = _mon_object_info(info, &f->g->o);
	if (id == NULL || f->g->o.idlen > sizeof(f->g->id))
		f->g->o.idlen = 0;	/* prof then checks no build-id */
	else
		memcpy(f->g->id, id, f->g->o.idlen);
	return 1;
}

/*
 * The object handle refers to, read into g while it is mapped; 0 when
 * there is nothing to note (the program itself, an object with no
 * text).  handle is read as the link map it is, as libc's dlclose reads
 * it: what is not a handle is as fatal here as there.
 */
static int
describe(void *handle, struct _mon_gone *g)
{
	struct link_map *lm;
	struct find f;
	size_t n;

	if (handle == NULL || dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 ||
	    lm == NULL || lm->l_name == NULL || *lm->l_name == '\0')
		return 0;
	if ((n = strlen(lm->l_name)) >= sizeof(g->path))
		return 0;
	f.lm = lm;
	f.g = g;
	if (dl_iterate_phdr(find, &f) == 0 || g->o.hi <= g->o.lo)
		return 0;
	memcpy(g->path, lm->l_name, n + 1);
	g->o.pathlen = (uint32_t)n;
	return 1;
}

static int
identical(const struct _mon_gone *a, const struct _mon_gone *b)
{
	return memcmp(&a->o, &b->o, sizeof(a->o)) == 0 &&
	    memcmp(a->id, b->id, a->o.idlen) == 0 &&
	    memcmp(a->path, b->path, a->o.pathlen) == 0;
}

/* Does a GONE slot other than skip hold g?  Caller holds notelock. */
static int
known(const struct _mon_gone *g, size_t skip)
{
	size_t i;

	for (i = 0; i < nused; i++)
		if (i != skip && notes[i].state == GONE &&
		    identical(&notes[i].g, g))
			return 1;
	return 0;
}

/* Note g as PENDING: its slot, or NGONE if none is free. */
static size_t
note(const struct _mon_gone *g, unsigned long *seqp)
{
	size_t i;

	pthread_mutex_lock(&notelock);
	*seqp = gen;
	for (i = 0; i < nused && notes[i].state != FREE; i++)
		continue;
	if (notes == NULL || (i == nused && nused == NGONE))
		i = NGONE;
	else {
		if (i == nused)
			nused++;
		notes[i].g = *g;
		notes[i].stamp = ++stamps;
		notes[i].state = PENDING;
	}
	pthread_mutex_unlock(&notelock);
	return i;
}

/*
 * After libc's dlclose: keep the note of slot i only if g is gone.  A
 * note taken before the current profile began went with its table.
 */
static void
confirm(size_t i, unsigned long seq, const struct _mon_gone *g, int mapped)
{
	pthread_mutex_lock(&notelock);
	if (seq == gen && i == NGONE) {
		if (!mapped && !known(g, NGONE))
			unnoted++;
	} else if (seq == gen)
		notes[i].state = mapped || known(g, i) ? FREE : GONE;
	pthread_mutex_unlock(&notelock);
}

/*
 * Where handle's object lies and its path, into g, when a profiler
 * wants to hear of its unload; 0 when not, or it is not a library.
 */
static int
wanted(void *handle, struct _mon_gone *g)
{
	struct link_map *lm;
	size_t n;

	if (!atomic_load(&_mon_prof_libs) || handle == NULL ||
	    dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || lm == NULL ||
	    lm->l_name == NULL || *lm->l_name == '\0' ||
	    (n = strlen(lm->l_name)) >= sizeof(g->path))
		return 0;
	memcpy(g->path, lm->l_name, n + 1);
	g->o.bias = lm->l_addr;
	return 1;
}

/*
 * libc's dlclose(handle), its result, dlerror() and errno unchanged,
 * with the object noted for the profile if the call unloads it, and
 * the profilers told.
 */
_mon_public int
dlclose(void *handle)
{
	static closefn real;
	struct _mon_gone g, w;
	unsigned long seq = 0;
	size_t i = NGONE;
	int noted, told, r, saved;

	if (real == NULL &&
	    (real = (closefn)dlsym(RTLD_NEXT, "dlclose")) == NULL)
		return -1;
	saved = errno;
	if ((noted = atomic_load(&armed) && describe(handle, &g)))
		i = note(&g, &seq);
	told = wanted(handle, &w);
	errno = saved;
	/*
	 * A polite termination's writer, in a handler on this thread,
	 * would walk the loader's list while the object is unmapped but
	 * still listed: the signal waits until the C library returns.
	 */
	_mon_term_inside();
	r = real(handle);
	saved = errno;
	_mon_term_outside();
	if (r == 0) {
		_mon_sym_forget();	/* its mappings may be another's now */
		_mon_texts_update();	/* and no longer code */
	}
	errno = saved;
	if (noted || told) {
		saved = errno;
		if (noted)
			confirm(i, seq, &g, _mon_mapped(g.o.bias, g.path));
		if (told && !_mon_mapped(w.o.bias, w.path))
			_mon_prof_library(w.path, (uintptr_t)w.o.bias, 0);
		errno = saved;
	}
	return r;
}

/*
 * A new profile: an empty table, and notes taken from now on.  The
 * table is mapped on the first call; without it every unload is lost.
 */
void
_mon_gone_reset(void)
{
	pthread_mutex_lock(&notelock);
	if (notes == NULL)
		notes = _mon_map(NGONE * sizeof(*notes));
	nused = 0;
	unnoted = 0;
	gen++;
	atomic_store(&armed, 1);
	pthread_mutex_unlock(&notelock);
}

/*
 * In a fork child, before anything else: the mutex may have been held
 * by a thread the child does not have, and no dlclose is under way in
 * the child, so a PENDING note will never be settled.
 */
void
_mon_gone_fork(void)
{
	size_t i;

	_mon_renew_mutex(&notelock);
	for (i = 0; i < nused; i++)
		if (notes[i].state == PENDING)
			notes[i].state = FREE;
	gen++;
}

/*
 * For the writer: the noted object with the first stamp after *after,
 * copied into g, its stamp into *after; 0 when there is none.  An
 * object unloaded again keeps the place of its first unload.
 */
int
_mon_gone_next(uint64_t *after, struct _mon_gone *g)
{
	size_t i, k;

	pthread_mutex_lock(&notelock);
	for (i = 0, k = NGONE; i < nused; i++)
		if (notes[i].state != FREE && notes[i].stamp > *after &&
		    (k == NGONE || notes[i].stamp < notes[k].stamp))
			k = i;
	if (k != NGONE) {
		*g = notes[k].g;
		*after = notes[k].stamp;
	}
	pthread_mutex_unlock(&notelock);
	return k != NGONE;
}

/* Objects unloaded this profile that found no free slot. */
uint64_t
_mon_gone_lost(void)
{
	uint64_t n;

	pthread_mutex_lock(&notelock);
	n = unnoted;
	pthread_mutex_unlock(&notelock);
	return n;
}

/* Referenced from lifecycle.c so that this file is always linked in. */
const char _mon_link_dlclose _mon_hidden = 1;

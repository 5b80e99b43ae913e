/*
 * objects.c -- what is mapped into the process, for prof to map run-time
 * addresses back to symbols: each object's load bias, its text range,
 * its ELF build-id and its path, encoded as MONX_R_EXEC (the main
 * program, first) and MONX_R_OBJ records (see monfmt.h).
 *
 * The objects mapped now come first, as the loader lists them; then
 * those the caller names -- the writer: the ones dlclose() unloaded
 * while profiled and that are not mapped again, in the order they were
 * unloaded -- in the same layout.
 * prof credits an address to the first object whose text holds it, so
 * where a later load reused an unloaded library's addresses the object
 * mapped now wins, and of two unloaded ones the first unloaded.
 *
 * The same file keeps the text ranges the stack walks look words up in
 * (_mon_in_text()), and when they are taken anew: see below NTEXT.
 */
#define _GNU_SOURCE	/* dl_iterate_phdr */
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "mon_private.h"

struct walk {
	unsigned char	*buf;
	size_t		 cap;
	size_t		 len;		/* bytes needed, may exceed cap */
	int		 first;
};

/* The NT_GNU_BUILD_ID note of an object, or NULL. */
static const unsigned char *
buildid(const struct dl_phdr_info *info, uint32_t *lenp)
{
	const ElfW(Phdr) *ph;
	const unsigned char *p, *end;
	const ElfW(Nhdr) *nh;
	size_t sz;
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		end = p + ph->p_memsz;
		while ((size_t)(end - p) >= sizeof(*nh)) {
			nh = (const ElfW(Nhdr) *)p;
			sz = sizeof(*nh) + ((nh->n_namesz + 3) & ~3u) +
			    ((nh->n_descsz + 3) & ~3u);
			if (sz > (size_t)(end - p))
				break;
			if (nh->n_type == NT_GNU_BUILD_ID &&
			    nh->n_namesz == 4 &&
			    memcmp(p + sizeof(*nh), "GNU", 4) == 0) {
				*lenp = nh->n_descsz;
				return p + sizeof(*nh) + 4;
			}
			p += sz;
		}
	}
	return NULL;
}

static void
put(struct walk *w, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (w->len + n <= w->cap)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
}

/*
 * The load bias, text range and build-id length of the object info
 * describes into o; the build-id itself, in the object's memory, is the
 * return value (NULL: none, and o->idlen is 0).
 */
const unsigned char *
_mon_object_info(const struct dl_phdr_info *info, struct monx_obj *o)
{
	const unsigned char *id;
	const ElfW(Phdr) *ph;
	int i;

	memset(o, 0, sizeof(*o));
	o->bias = info->dlpi_addr;
	o->lo = UINTPTR_MAX;
	for (i = 0; i < info->dlpi_phnum; i++) {
		ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (info->dlpi_addr + ph->p_vaddr < o->lo)
			o->lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > o->hi)
			o->hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (o->hi == 0)
		o->lo = 0;
	if ((id = buildid(info, &o->idlen)) == NULL)
		o->idlen = 0;
	return id;
}

/* One record: o, then its build-id and path, padded to 8 bytes. */
static void
put_obj(struct walk *w, uint32_t type, const struct monx_obj *o,
    const unsigned char *id, const char *path)
{
	static const unsigned char zero[8];
	struct monx_rec rec;

	rec.type = type;
	rec.len = sizeof(*o) + o->idlen + o->pathlen;
	put(w, &rec, sizeof(rec));
	put(w, o, sizeof(*o));
	put(w, id, o->idlen);
	put(w, path, o->pathlen);
	put(w, zero, (8 - rec.len % 8) % 8);
}

static int
one(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct walk *w = arg;
	struct monx_obj o;
	const unsigned char *id;
	char path[_MON_MAXPATH];
	const char *name;
	ssize_t n;

	(void)size;
	name = info->dlpi_name;
	if (w->first) {
		/* The main program has no name here; the kernel knows it. */
		if ((n = readlink("/proc/thread-self/exe", path,
		    sizeof(path))) < 0)
			n = readlink("/proc/self/exe", path, sizeof(path));
		name = path;
		if (n < 0 || (size_t)n >= sizeof(path))
			n = 0;
		path[n] = '\0';
	} else if (name == NULL || *name == '\0')
		return 0;
	id = _mon_object_info(info, &o);
	o.pathlen = strlen(name);
	put_obj(w, w->first ? MONX_R_EXEC : MONX_R_OBJ, &o, id, name);
	w->first = 0;
	return 0;
}

struct match {
	uint64_t	 bias;
	const char	*path;
};

static int
same(struct dl_phdr_info *info, size_t size, void *arg)
{
	const struct match *m = arg;

	(void)size;
	return info->dlpi_addr == m->bias && info->dlpi_name != NULL &&
	    strcmp(info->dlpi_name, m->path) == 0;
}

/* Is the object loaded from path at load bias bias mapped now? */
int
_mon_mapped(uint64_t bias, const char *path)
{
	struct match m;

	m.bias = bias;
	m.path = path;
	return dl_iterate_phdr(same, &m) != 0;
}

/*
 * Encode the records of every loaded object into buf (cap bytes), then
 * those more() gives one by one (the unloaded ones, which the writer
 * takes from dlclose.c); the return value is the length needed, which
 * may exceed cap, in which case the caller retries with a larger buffer.
 */
size_t
_mon_objects(unsigned char *buf, size_t cap,
    int (*more)(uint64_t *, struct _mon_gone *))
{
	struct _mon_gone g;
	struct walk w;
	uint64_t at;

	w.buf = buf;
	w.cap = cap;
	w.len = 0;
	w.first = 1;
	dl_iterate_phdr(one, &w);
	for (at = 0; more != NULL && more(&at, &g); )
		put_obj(&w, MONX_R_OBJ, &g.o, g.id, g.path);
	return w.len;
}

/*
 * The text ranges of the objects mapped, kept for the stack walks
 * (ring.c, sigprof.c, stacks.c, wall.c), which must know whether a word
 * is a code address before they read the bytes before it.  A signal
 * handler cannot walk the loader's list (dl_iterate_phdr()): one that
 * interrupted its own thread in dlclose() would be let through the
 * loader's lock, which is recursive, and read the program headers of an
 * object being unmapped; and dlclose() frees the object's link map with
 * that lock held, so that a handler that interrupted malloc() in one
 * thread would wait on the lock while dlclose() in another waited on
 * that malloc's arena.  So the ranges are taken at start
 * (_mon_texts_refresh()) and kept up to date from threads, never from
 * handlers (_mon_texts_update()): the perf clock's drainer before each
 * of its drains, the wall sampler at each round, and a dlclose() that
 * succeeded, as it returns.  Each looks at the loader's count of loads
 * and unloads (dlpi_adds and dlpi_subs, from the first object alone)
 * and takes the ranges anew only when it has changed.  dlopen() cannot
 * look: while no profiler wants library events it is a bare jump to
 * libc's (dlopen.c).  Under the timer clocks without the wall sampler
 * no thread looks, and code dlopen'd later is unknown to the walks until
 * the next dlclose(): a function that sets up no frame (a leaf, a system
 * call's wrapper) loses its caller where the caller lies in that code
 * (libmon(7), BUGS).
 *
 * One refresh at a time (refreshing): a look while another thread
 * refreshes is skipped.  Every reader -- a signal handler, or the
 * drainer or the sampler while a dlclose() elsewhere refreshes -- takes
 * a sequence count: odd while a refresh writes (the word is then taken
 * for no code), changed if one wrote while it read.
 *
 * The table holds NTEXT ranges at first; a process with more objects
 * (a plugin host) has it grown to twice their number, from mmap, by the
 * refresh that finds them (if the mapping fails, the objects past the
 * end stay unknown until a refresh after the next load or unload maps
 * one).  The old table is left mapped for a reader that may still be
 * in it; the new one is bigger, and is published before the count that
 * may need it, which readers load first.
 */
#define NTEXT		512

struct text {
	uintptr_t	 lo, hi;
};

struct fill {
	struct text	*t;
	unsigned int	 cap;		/* ranges t holds */
	unsigned int	 n;		/* objects with a text seen */
};

static struct text first[NTEXT];
static struct text *_Atomic texts = first;
static unsigned int textcap = NTEXT;	/* the refresher's */
static _Atomic unsigned int ntext, textseq;
static _Atomic int refreshing;
static unsigned long long loads;	/* adds + subs at the refresh */

/* The loader's loads and unloads so far, into *arg; stops at once. */
static int
count_loads(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(unsigned long long *)arg = info->dlpi_adds + info->dlpi_subs;
	return 1;
}

/* An object's text range into f, if there is room; counted anyway. */
static int
text_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct monx_obj o;
	struct fill *f = arg;

	(void)size;
	(void)_mon_object_info(info, &o);
	if (o.hi <= o.lo)
		return 0;
	if (f->n < f->cap) {
		f->t[f->n].lo = o.lo;
		f->t[f->n].hi = o.hi;
	}
	f->n++;
	return 0;
}

/* Write the ranges; into a bigger table if they do not fit. */
static void
take_texts(void)
{
	struct text *big;
	struct fill f;

	f.t = atomic_load(&texts);
	f.cap = textcap;
	f.n = 0;
	(void)dl_iterate_phdr(text_one, &f);
	if (f.n > f.cap &&
	    (big = _mon_map(2 * (size_t)f.n * sizeof(*big))) != NULL) {
		f.t = big;
		f.cap = 2 * f.n;
		f.n = 0;
		(void)dl_iterate_phdr(text_one, &f);
		atomic_store(&texts, big);
		/* After it: a fork child may not see a bigger cap first. */
		textcap = f.cap;
	}
	atomic_store(&ntext, f.n < f.cap ? f.n : f.cap);
}

/*
 * Take the text ranges anew if no one else is: always, or with lazy
 * only if the loader has loaded or unloaded since.  -1 if another
 * thread is at it, 1 if they were taken, 0 if not.
 */
static int
refresh(int lazy)
{
	unsigned long long now = 0;
	int want = 0, err, took = 0;

	if (!atomic_compare_exchange_strong(&refreshing, &want, 1))
		return -1;
	err = errno;
	(void)dl_iterate_phdr(count_loads, &now);
	if (!lazy || now != loads) {
		loads = now;
		atomic_fetch_add(&textseq, 1);
		take_texts();
		atomic_fetch_add(&textseq, 1);
		took = 1;
	}
	atomic_store(&refreshing, 0);
	errno = err;
	return took;
}

/*
 * Take the text ranges anew (at start): waits for a refresh under way
 * elsewhere.  Not in signal context.
 */
void
_mon_texts_refresh(void)
{
	while (refresh(0) < 0)
		sched_yield();
}

/*
 * Take them anew if the loader has loaded or unloaded an object since,
 * unless another thread is at it: 1 if they were taken.  Not in signal
 * context.
 */
int
_mon_texts_update(void)
{
	return refresh(1) > 0;
}

/* Is a in libmon's own code (section libmon_text)?  Async-signal-safe. */
int
_mon_in_self(uintptr_t a)
{
	return __start_libmon_text != NULL &&
	    a >= (uintptr_t)__start_libmon_text &&
	    a < (uintptr_t)__stop_libmon_text;
}

/* Does [a - 8, a) lie in the text of an object?  Async-signal-safe. */
int
_mon_in_text(uintptr_t a)
{
	const struct text *t;
	unsigned int seq, i, n;
	int in;

	seq = atomic_load(&textseq);
	if (seq & 1)
		return 0;
	/* The count first: a table published since is bigger. */
	n = atomic_load(&ntext);
	t = atomic_load(&texts);
	in = 0;
	for (i = 0; i < n && !in; i++)
		in = a >= t[i].lo + 8 && a <= t[i].hi;
	return in && atomic_load(&textseq) == seq;
}

/*
 * A fork child: a thread of the parent may have been refreshing, which
 * the child has not.  No refresh is under way; the ranges, perhaps half
 * written, stay in use (a word judged code by a stale range is read
 * through _mon_peek(), and must look like a return address) rather than
 * none at all -- the child must not call the loader to retake them, as
 * the refreshing thread may have held its lock at the fork -- and are
 * taken anew at the child's next look (_mon_texts_update()).
 */
void
_mon_texts_fork(void)
{
	atomic_store(&refreshing, 0);
	if (atomic_load(&textseq) & 1)
		atomic_fetch_add(&textseq, 1);
	loads = ~0ULL;
}

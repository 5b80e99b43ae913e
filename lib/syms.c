/*
 * syms.c -- the name of a function from its run-time address, for
 * PROFCALLS (callspec.c): read from the ELF file of the object that
 * holds it, its .symtab if it has one, else its .dynsym.
 *
 *	address --/proc/self/maps--> mapping: lo, hi, file offset, path
 *	        --the file's PT_LOADs--> bias (run-time less link-time)
 *	        --its symbols, hashed by value--> the name
 *
 * Nothing here is read until the first name is asked for, and a file is
 * read once: it is mapped whole, read-only, and kept with a hash of its
 * functions by link-time address, in memory of libmon's own (mmap), for
 * every later name in any of its mappings.  A name is looked up as a
 * call's entry is made, which may be in a signal handler: only system
 * calls that are async-signal-safe (open, read, mmap), no malloc, no
 * stdio, no lock of the loader's (dl_iterate_phdr takes one); errno is
 * left as it was.
 *
 * The same tables give the function that holds a code address
 * (_mon_sym_start(), for the -pg enter hooks of profiler.c): its
 * symbol is looked for at each address below it, a little way back.
 *
 * Both look-ups take symlock with every signal blocked: a handler's
 * -pg call that interrupted a look-up of its thread's (calls.c's, for
 * PROFCALLS) would otherwise find it held, and its function's start,
 * which profiler.c keeps for good, would be lost.  The holder is noted
 * as well: a look-up on a thread that holds the lock gives up (no name)
 * rather than wait on itself.  A fork child renews the lock
 * (_mon_sym_fork()).
 *
 * The mappings met are kept until an object is unloaded
 * (_mon_sym_forget()).
 *
 * What cannot be read -- a file gone or replaced since it was mapped
 * (" (deleted)"), one that is not ELF, no mapping (generated code, the
 * vDSO), a stripped file whose .dynsym lacks the function -- gives no
 * name, and no error: PROFCALLS's patterns then match nothing.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "mon_private.h"

#define MAXOBJ		64		/* mappings remembered */
#define LINE		512		/* a line of /proc/self/maps, at most */

#define NOINST		__attribute__((no_instrument_function))

/* An ELF file read: its functions' names, hashed by link-time address. */
struct elf {
	dev_t		 dev;
	ino_t		 ino;
	unsigned char	*map;		/* the file, whole; NULL: unreadable */
	size_t		 len;
	const Elf64_Sym	*sym;
	size_t		 nsym;
	const char	*str;
	size_t		 nstr;
	uint32_t	*hash;		/* symbol index + 1, 0: free */
	size_t		 hmask;
	const Elf64_Phdr *ph;
	size_t		 nph;
};

/* A mapping of code met: [lo, hi) of the file at off, and its ELF. */
struct obj {
	uintptr_t	 lo, hi;
	uintptr_t	 bias;
	struct elf	*elf;		/* NULL: no name there */
};

static pthread_mutex_t	 symlock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic pid_t	 symowner;	/* the thread holding symlock */
static sigset_t		 symmask;	/* its signal mask before */
static struct obj	 objs[MAXOBJ];
static size_t		 nobjs;
static struct elf	 elfs[MAXOBJ];
static size_t		 nelfs;

/* Is [off, off + n) inside a file of len bytes? */
static inline NOINST int
within(uint64_t off, uint64_t n, size_t len)
{
	return off <= len && n <= len - off;
}

/* A symbol that names a function defined in its file. */
static NOINST int
is_func(const struct elf *e, const Elf64_Sym *s)
{
	int t = ELF64_ST_TYPE(s->st_info);

	return (t == STT_FUNC || t == STT_GNU_IFUNC) &&
	    s->st_shndx != SHN_UNDEF && s->st_value != 0 &&
	    s->st_name < e->nstr;
}

/* e's functions hashed by address; a global wins over a local alias. */
static NOINST int
hash_funcs(struct elf *e)
{
	const Elf64_Sym *s, *o;
	size_t n, i, k;

	for (n = 64; n < 2 * e->nsym; n *= 2)
		;
	if ((e->hash = _mon_map(n * sizeof(*e->hash))) == NULL)
		return -1;
	e->hmask = n - 1;
	for (i = 0; i < e->nsym; i++) {
		s = &e->sym[i];
		if (!is_func(e, s))
			continue;
		k = _mon_hash(s->st_value, (unsigned int)__builtin_ctzll(n));
		for (; e->hash[k] != 0; k = (k + 1) & e->hmask) {
			o = &e->sym[e->hash[k] - 1];
			if (o->st_value == s->st_value)
				break;
		}
		if (e->hash[k] == 0 || (ELF64_ST_BIND(s->st_info) ==
		    STB_GLOBAL && ELF64_ST_BIND(o->st_info) != STB_GLOBAL))
			e->hash[k] = (uint32_t)i + 1;
	}
	return 0;
}

/* The symbol table of type want in e's section headers: 0, or -1. */
static NOINST int
find_table(struct elf *e, const Elf64_Ehdr *h, uint32_t want)
{
	const Elf64_Shdr *sh, *s, *l;
	size_t i;

	sh = (const Elf64_Shdr *)(e->map + h->e_shoff);
	for (i = 0; i < h->e_shnum; i++) {
		s = &sh[i];
		if (s->sh_type != want || s->sh_link >= h->e_shnum ||
		    s->sh_entsize != sizeof(Elf64_Sym) ||
		    !within(s->sh_offset, s->sh_size, e->len))
			continue;
		l = &sh[s->sh_link];
		if (l->sh_type != SHT_STRTAB ||
		    !within(l->sh_offset, l->sh_size, e->len) ||
		    l->sh_size == 0 || e->map[l->sh_offset + l->sh_size - 1]
		    != '\0')
			continue;
		e->sym = (const Elf64_Sym *)(e->map + s->sh_offset);
		e->nsym = s->sh_size / sizeof(Elf64_Sym);
		e->str = (const char *)(e->map + l->sh_offset);
		e->nstr = l->sh_size;
		return 0;
	}
	return -1;
}

/* e's file checked and its tables found: 0, or -1. */
static NOINST int
elf_parse(struct elf *e)
{
	const Elf64_Ehdr *h;

	if (e->len < sizeof(*h))
		return -1;
	h = (const Elf64_Ehdr *)e->map;
	if (memcmp(h->e_ident, ELFMAG, SELFMAG) != 0 ||
	    h->e_ident[EI_CLASS] != ELFCLASS64 ||
	    h->e_ident[EI_DATA] != ELFDATA2LSB ||
	    h->e_phentsize != sizeof(Elf64_Phdr) ||
	    h->e_shentsize != sizeof(Elf64_Shdr) ||
	    !within(h->e_phoff, (uint64_t)h->e_phnum * sizeof(Elf64_Phdr),
	    e->len) ||
	    !within(h->e_shoff, (uint64_t)h->e_shnum * sizeof(Elf64_Shdr),
	    e->len) || h->e_phoff % 8 != 0 || h->e_shoff % 8 != 0)
		return -1;
	e->ph = (const Elf64_Phdr *)(e->map + h->e_phoff);
	e->nph = h->e_phnum;
	if (find_table(e, h, SHT_SYMTAB) != 0 &&
	    find_table(e, h, SHT_DYNSYM) != 0)
		return -1;
	if ((uintptr_t)e->sym % 8 != 0)
		return -1;
	return hash_funcs(e);
}

/* The ELF of file path, read now if it was not; NULL if unreadable. */
static NOINST struct elf *
elf_of(const char *path)
{
	struct stat st;
	struct elf *e;
	void *m;
	size_t i;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		(void)close(fd);
		return NULL;
	}
	for (i = 0; i < nelfs; i++)
		if (elfs[i].dev == st.st_dev && elfs[i].ino == st.st_ino) {
			(void)close(fd);
			return elfs[i].map != NULL ? &elfs[i] : NULL;
		}
	if (nelfs == MAXOBJ) {
		(void)close(fd);
		return NULL;
	}
	/* Counted once whole, read or not: a fork child finds no half. */
	e = &elfs[nelfs];
	memset(e, 0, sizeof(*e));
	e->dev = st.st_dev;
	e->ino = st.st_ino;
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	(void)close(fd);
	if (m != MAP_FAILED) {
		e->map = m;
		e->len = (size_t)st.st_size;
		if (elf_parse(e) != 0) {
			(void)munmap(e->map, e->len);
			e->map = NULL;
		}
	}
	nelfs++;
	return e->map != NULL ? e : NULL;
}

/* A hex number at *s, moved past it. */
static NOINST uintptr_t
hex(const char **s)
{
	uintptr_t v = 0;
	int c;

	for (;; (*s)++) {
		c = **s;
		if (c >= '0' && c <= '9')
			v = v * 16 + (uintptr_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uintptr_t)(c - 'a' + 10);
		else
			return v;
	}
}

/*
 * A line of /proc/self/maps ("lo-hi perms off dev inode path"): its
 * mapping into o and its path into *path, if it holds a; else 0.
 */
static NOINST int
maps_line(const char *s, uintptr_t a, struct obj *o, uintptr_t *off,
    const char **path)
{
	int i;

	o->lo = hex(&s);
	if (*s++ != '-')
		return 0;
	o->hi = hex(&s);
	if (a < o->lo || a >= o->hi)
		return 0;
	while (*s == ' ')
		s++;
	for (i = 0; i < 4 && *s != '\0' && *s != ' '; i++)
		s++;			/* perms */
	while (*s == ' ')
		s++;
	*off = hex(&s);
	for (i = 0; i < 2; i++) {	/* dev, inode */
		while (*s == ' ')
			s++;
		while (*s != ' ' && *s != '\0')
			s++;
	}
	while (*s == ' ')
		s++;
	*path = s;
	return 1;
}

/*
 * The mapping of /proc/self/maps that holds a, with its path copied to
 * path (len bytes): 0, or -1 if none does.
 */
static NOINST int
maps_find(uintptr_t a, struct obj *o, uintptr_t *off, char *path,
    size_t len)
{
	static char buf[4096], line[LINE];	/* not on a handler's stack */
	const char *p;
	size_t n = 0, k;
	ssize_t got;
	int fd, found = -1;

	if ((fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	while (found != 0 && (got = read(fd, buf, sizeof(buf))) > 0)
		for (k = 0; k < (size_t)got && found != 0; k++) {
			if (buf[k] != '\n') {
				if (n < sizeof(line) - 1)
					line[n++] = buf[k];
				continue;
			}
			line[n] = '\0';
			n = 0;
			if (maps_line(line, a, o, off, &p) &&
			    strlen(p) < len) {
				memcpy(path, p, strlen(p) + 1);
				found = 0;
			}
		}
	(void)close(fd);
	return found;
}

/*
 * The bias of mapping o, at file offset off of e: run-time address
 * less link-time, from the PT_LOAD that maps off.  0, or -1.
 */
static NOINST int
bias_of(const struct elf *e, struct obj *o, uintptr_t off)
{
	const Elf64_Phdr *p;
	size_t i;

	for (i = 0; i < e->nph; i++) {
		p = &e->ph[i];
		if (p->p_type != PT_LOAD || (p->p_offset & ~(uint64_t)0xfff) >
		    off || off >= p->p_offset + p->p_filesz)
			continue;
		o->bias = o->lo - (p->p_vaddr - p->p_offset + off);
		return 0;
	}
	return -1;
}

/* The mapping that holds a, met now if it was not; NULL if none. */
static NOINST struct obj *
obj_of(uintptr_t a)
{
	static char path[4096];
	struct obj n;
	uintptr_t off;
	size_t i;

	for (i = 0; i < nobjs; i++)
		if (a >= objs[i].lo && a < objs[i].hi)
			return &objs[i];
	memset(&n, 0, sizeof(n));
	if (maps_find(a, &n, &off, path, sizeof(path)) != 0)
		return NULL;
	/* Not a file, or one gone since: no name there, ever. */
	if (path[0] == '/' && (n.elf = elf_of(path)) != NULL &&
	    bias_of(n.elf, &n, off) != 0)
		n.elf = NULL;
	if (nobjs == MAXOBJ)
		return NULL;
	objs[nobjs] = n;
	return &objs[nobjs++];
}

/*
 * Take symlock, every signal blocked: 1, or 0 if this thread holds it
 * already.
 */
static NOINST int
sym_lock(void)
{
	sigset_t all, old;
	pid_t me = _mon_gettid();

	if (atomic_load_explicit(&symowner, memory_order_relaxed) == me)
		return 0;
	sigfillset(&all);
	(void)pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_mutex_lock(&symlock);
	atomic_store_explicit(&symowner, me, memory_order_relaxed);
	symmask = old;
	return 1;
}

static NOINST void
sym_unlock(void)
{
	sigset_t old = symmask;

	atomic_store_explicit(&symowner, 0, memory_order_relaxed);
	pthread_mutex_unlock(&symlock);
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The symbol of e whose value is the link-time address v, or NULL. */
static NOINST const Elf64_Sym *
sym_at(const struct elf *e, uintptr_t v)
{
	const Elf64_Sym *s;
	size_t k;

	k = _mon_hash(v, (unsigned int)__builtin_ctzll(e->hmask + 1));
	for (; e->hash[k] != 0; k = (k + 1) & e->hmask) {
		s = &e->sym[e->hash[k] - 1];
		if (s->st_value == v)
			return s;
	}
	return NULL;
}

/*
 * The name of the function that starts at run-time address fn, or NULL
 * if none can be read.  errno is kept.  Safe in a signal handler.
 */
const char *
_mon_sym_name(uintptr_t fn)
{
	const Elf64_Sym *s = NULL;
	const struct elf *e = NULL;
	struct obj *o;
	int err;

	err = errno;
	if (!sym_lock())
		return NULL;
	if ((o = obj_of(fn)) != NULL && (e = o->elf) != NULL)
		s = sym_at(e, fn - o->bias);
	sym_unlock();
	errno = err;
	return s != NULL ? e->str + s->st_name : NULL;
}

/*
 * The run-time address of the function whose code holds pc, its symbol
 * found at most back bytes below pc and its size reaching past pc; 0 if
 * there is none.  errno is kept.  Safe in a signal handler.
 */
uintptr_t
_mon_sym_start(uintptr_t pc, size_t back)
{
	const Elf64_Sym *s;
	const struct elf *e;
	struct obj *o;
	uintptr_t v, a = 0;
	size_t d;
	int err;

	err = errno;
	if (!sym_lock())
		return 0;
	if ((o = obj_of(pc)) != NULL && (e = o->elf) != NULL) {
		v = pc - o->bias;
		for (d = 0; d <= back && d <= v && a == 0; d++)
			if ((s = sym_at(e, v - d)) != NULL &&
			    (s->st_size == 0 || d < s->st_size))
				a = pc - d;
	}
	sym_unlock();
	errno = err;
	return a;
}

/*
 * An object may have been unloaded (dlclose.c): the mappings met are
 * forgotten, and read again from /proc/self/maps as they are next
 * asked for, since another object may now lie where it was -- its
 * functions were found in the unloaded file's symbols.  The files read
 * are kept: they are known by device and inode.
 */
void
_mon_sym_forget(void)
{
	if (!sym_lock())
		return;
	nobjs = 0;
	sym_unlock();
}

/* A fork child: the thread that held symlock is not in it. */
void
_mon_sym_fork(void)
{
	_mon_renew_mutex(&symlock);
	atomic_store(&symowner, 0);
}

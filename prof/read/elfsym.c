/*
 * elfsym.c -- the functions of an ELF64 x86_64 file, and its build-id,
 * read with <elf.h> alone.
 *
 * Only the pieces needed are read (header, section headers, one symbol
 * table and its strings, the notes), each with pread after its offset
 * and size have been checked against the file's length, so a header
 * that lies can neither size an allocation nor send a read astray.
 *
 * A function is an STT_FUNC (or STT_GNU_IFUNC) symbol, or an STT_NOTYPE
 * one, defined in a section holding code.  .symtab is preferred.  A
 * stripped file has its .symtab in a separate debug file as often as
 * not (libc6-dbg and its kind), looked for where gdb looks: by build-id
 * under DEBUGDIR, then by the name in its .gnu_debuglink.  A debug file
 * is read as warily as the object, and taken only when it is the same
 * build (the same build-id, or for an object without one, the CRC its
 * debuglink gives); its code sections are SHT_NOBITS but keep their
 * flags and addresses, so its functions qualify and sit where the
 * object's do.  Otherwise the object falls back on its .dynsym.
 *
 * Symbols at one address are synonyms; an unsized one is dropped where
 * a sized one sits at the same spot.  A function covers [value, value +
 * size), or up to the next function (or the end of its section) when it
 * has no size; extents are clipped at the next function so that no byte
 * belongs to two of them.
 */
#include <sys/auxv.h>
#include <sys/stat.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/read.h"
#include "util/util.h"

#define NOTEMAX		(1u << 20)	/* notes bigger than this: no id */
#define DEBUGDIR	"/usr/lib/debug"
#define IDMAX		64		/* longer build-ids name no debug file */
#define LINKMAX		(NAME_MAX + 8)	/* debuglink: name, NUL, pad, CRC */

struct elf {
	int		 fd;
	const unsigned char *mem;	/* the image in memory, or NULL */
	uint64_t	 size;
	Elf64_Ehdr	 eh;
	Elf64_Shdr	*sh;
	size_t		 shnum;
	const char	*why;
};

/* A candidate function before synonyms and extents are settled. */
struct cand {
	uint64_t	 addr;
	uint64_t	 size;
	uint64_t	 secend;
	const char	*name;
	const char	*file;		/* a local's source file, or NULL */
	int		 local;
};

static const char corrupt[] = "truncated or corrupt ELF file";

/* Read len bytes at off, after checking they lie inside the file. */
static int
readat(struct elf *e, void *buf, uint64_t off, uint64_t len)
{
	unsigned char *p = buf;
	ssize_t n;

	if (off > e->size || len > e->size - off) {
		e->why = corrupt;
		return -1;
	}
	if (e->mem != NULL) {
		memcpy(buf, e->mem + off, len);
		return 0;
	}
	while (len > 0) {
		n = pread(e->fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e->why = n < 0 ? strerror(errno) : corrupt;
			return -1;
		}
		p += n;
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

/* A fresh buffer holding a section's bytes, plus a NUL after them. */
static unsigned char *
readsec(struct elf *e, const Elf64_Shdr *s)
{
	unsigned char *p;

	if (s->sh_type == SHT_NOBITS || s->sh_offset > e->size ||
	    s->sh_size > e->size - s->sh_offset) {
		e->why = corrupt;
		return NULL;
	}
	p = xmalloc((size_t)s->sh_size + 1);
	if (readat(e, p, s->sh_offset, s->sh_size) != 0) {
		free(p);
		return NULL;
	}
	p[s->sh_size] = '\0';
	return p;
}

static int
check_header(struct elf *e)
{
	Elf64_Ehdr *h = &e->eh;

	if (e->size < SELFMAG)
		return e->why = "not an ELF file", -1;
	if (readat(e, h, 0, e->size < sizeof(*h) ? SELFMAG : sizeof(*h)))
		return -1;
	if (memcmp(h->e_ident, ELFMAG, SELFMAG) != 0)
		return e->why = "not an ELF file", -1;
	if (e->size < sizeof(*h))
		return e->why = corrupt, -1;
	if (h->e_ident[EI_CLASS] != ELFCLASS64 ||
	    h->e_ident[EI_DATA] != ELFDATA2LSB || h->e_machine != EM_X86_64)
		return e->why = "not an ELF64 x86_64 file", -1;
	if (h->e_type != ET_EXEC && h->e_type != ET_DYN)
		return e->why = "not an executable or shared object", -1;
	return 0;
}

/* The section headers, with extended numbering understood. */
static int
read_sections(struct elf *e)
{
	Elf64_Shdr first;
	uint64_t n;

	if (e->eh.e_shoff == 0)
		return e->why = "no symbols", -1;
	if (e->eh.e_shentsize != sizeof(Elf64_Shdr))
		return e->why = corrupt, -1;
	n = e->eh.e_shnum;
	if (n == 0) {
		if (readat(e, &first, e->eh.e_shoff, sizeof(first)) != 0)
			return -1;
		n = first.sh_size;
	}
	if (n == 0 || n > e->size / sizeof(Elf64_Shdr))
		return e->why = corrupt, -1;
	e->sh = xcalloc((size_t)n, sizeof(Elf64_Shdr));
	e->shnum = (size_t)n;
	return readat(e, e->sh, e->eh.e_shoff, n * sizeof(Elf64_Shdr));
}

/* Is this symbol a function we report? */
static int
qualifies(const struct elf *e, const Elf64_Sym *s, size_t strsize)
{
	int type = ELF64_ST_TYPE(s->st_info);
	const Elf64_Shdr *sec;

	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
		return 0;
	if (s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE ||
	    s->st_shndx >= e->shnum)
		return 0;
	sec = &e->sh[s->st_shndx];
	if (!(sec->sh_flags & SHF_EXECINSTR))
		return 0;
	if (s->st_name == 0 || s->st_name >= strsize)
		return 0;
	if (s->st_size > UINT64_MAX - s->st_value)
		return 0;
	return 1;
}

static int
cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->local != y->local)
		return x->local - y->local;
	return strcmp(x->name, y->name);
}

/*
 * Candidates from the symbol table sec, linked to its string table.
 * Returns how many; *cv gets them.
 */
static ssize_t
collect(struct elf *e, struct symtab *st, const Elf64_Shdr *sec,
    struct cand **cv)
{
	const Elf64_Shdr *strsec;
	Elf64_Sym *syms;
	struct cand *c;
	const char *file;
	size_t i, n, k;

	if (sec->sh_entsize != sizeof(Elf64_Sym) ||
	    sec->sh_size % sizeof(Elf64_Sym) != 0 ||
	    sec->sh_link == 0 || sec->sh_link >= e->shnum)
		return e->why = corrupt, -1;
	strsec = &e->sh[sec->sh_link];
	if (strsec->sh_type != SHT_STRTAB)
		return e->why = corrupt, -1;
	if ((syms = (Elf64_Sym *)readsec(e, sec)) == NULL)
		return -1;
	if ((st->strs = (char *)readsec(e, strsec)) == NULL) {
		free(syms);
		return -1;
	}
	n = (size_t)(sec->sh_size / sizeof(Elf64_Sym));
	st->nsyms = n > 0 ? n - 1 : 0;
	c = xcalloc(n, sizeof(*c));
	file = NULL;
	for (i = 0, k = 0; i < n; i++) {
		/* A file's locals follow its STT_FILE symbol. */
		if (ELF64_ST_TYPE(syms[i].st_info) == STT_FILE)
			file = syms[i].st_name < strsec->sh_size ?
			    st->strs + syms[i].st_name : NULL;
		if (!qualifies(e, &syms[i], (size_t)strsec->sh_size))
			continue;
		c[k].addr = syms[i].st_value;
		c[k].size = syms[i].st_size;
		c[k].secend = e->sh[syms[i].st_shndx].sh_addr +
		    e->sh[syms[i].st_shndx].sh_size;
		c[k].name = st->strs + syms[i].st_name;
		c[k].local = ELF64_ST_BIND(syms[i].st_info) == STB_LOCAL;
		c[k].file = c[k].local ? file : NULL;
		k++;
	}
	free(syms);
	*cv = c;
	return (ssize_t)k;
}

/*
 * The order of c[0..n) by cmp_cand, as a stable sort gives it: a radix
 * sort of (address, index) pairs, a byte a pass, the bytes every address
 * shares skipped; then each run of one address by cmp_cand.  A million
 * symbols through qsort cost most of the time a table took to read.
 */
static size_t *
sort_cands(const struct cand *c, size_t n)
{
	struct ka { uint64_t k; size_t i; } *a, *b, *t;
	size_t cnt[256], *ord, i, j, k, sh, sum;

	a = xcalloc(n + 1, sizeof(*a));
	b = xcalloc(n + 1, sizeof(*b));
	for (i = 0; i < n; i++) {
		a[i].k = c[i].addr;
		a[i].i = i;
	}
	for (sh = 0; sh < 64; sh += 8) {
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[a[i].k >> sh & 0xff]++;
		if (n == 0 || cnt[a[0].k >> sh & 0xff] == n)
			continue;	/* every address shares the byte */
		for (k = 0, sum = 0; k < 256; k++) {
			j = cnt[k];
			cnt[k] = sum;
			sum += j;
		}
		for (i = 0; i < n; i++)
			b[cnt[a[i].k >> sh & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	ord = xcalloc(n + 1, sizeof(*ord));
	for (i = 0; i < n; i++)
		ord[i] = a[i].i;
	for (i = 1; i < n; i++) {	/* a run of one address: insertion */
		k = ord[i];
		for (j = i; j > 0 && c[ord[j - 1]].addr == c[k].addr &&
		    cmp_cand(&c[ord[j - 1]], &c[k]) > 0; j--)
			ord[j] = ord[j - 1];
		ord[j] = k;
	}
	free(a);
	free(b);
	return ord;
}

/*
 * Settle synonyms and extents: c[ord[0..n)], in address order, become
 * st->funcs.  In each group of one address, unsized members give way to
 * sized ones and exact duplicates are dropped.
 */
static void
settle(struct symtab *st, const struct cand *cv, const size_t *ord, size_t n)
{
	const struct cand *c, *d;
	struct func *f;
	uint64_t end, next;
	size_t i, j, k, m;
	int sized;

	f = st->funcs = xcalloc(n, sizeof(*f));
	for (i = 0, m = 0; i < n; i = j) {
		sized = 0;
		c = &cv[ord[i]];
		end = c->addr;
		for (j = i; j < n && cv[ord[j]].addr == c->addr; j++) {
			d = &cv[ord[j]];
			if (d->size > 0)
				sized = 1;
			if (d->addr + d->size > end)
				end = d->addr + d->size;
		}
		next = j < n ? cv[ord[j]].addr : UINT64_MAX;
		if (!sized)
			end = c->secend > c->addr ? c->secend : c->addr + 1;
		if (end > next)
			end = next;
		for (k = i; k < j; k++) {
			d = &cv[ord[k]];
			if (sized && d->size == 0)
				continue;
			if (m > 0 && f[m - 1].addr == d->addr &&
			    strcmp(f[m - 1].name, d->name) == 0)
				continue;
			f[m].addr = d->addr;
			f[m].end = end;
			f[m].name = d->name;
			f[m].local = d->local;
			f[m].file = d->file;
			m++;
		}
	}
	st->nfuncs = m;
}

/* The NT_GNU_BUILD_ID note among the bytes p[0..len), if any. */
static void
scan_notes(struct symtab *st, const unsigned char *p, uint64_t len)
{
	Elf64_Nhdr nh;
	uint64_t off, name, desc;

	for (off = 0; len - off >= sizeof(nh); ) {
		memcpy(&nh, p + off, sizeof(nh));
		name = ((uint64_t)nh.n_namesz + 3) & ~3ULL;
		desc = ((uint64_t)nh.n_descsz + 3) & ~3ULL;
		if (name + desc > len - off - sizeof(nh))
			return;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp(p + off + sizeof(nh), "GNU", 4) == 0 &&
		    nh.n_descsz > 0) {
			st->id = xmalloc(nh.n_descsz);
			memcpy(st->id, p + off + sizeof(nh) + name,
			    nh.n_descsz);
			st->idlen = nh.n_descsz;
			return;
		}
		off += sizeof(nh) + name + desc;
	}
}

static void
read_buildid(struct elf *e, struct symtab *st)
{
	unsigned char *p;
	size_t i;

	for (i = 0; i < e->shnum && st->id == NULL; i++) {
		if (e->sh[i].sh_type != SHT_NOTE || e->sh[i].sh_size > NOTEMAX)
			continue;
		if ((p = readsec(e, &e->sh[i])) == NULL)
			continue;	/* a bad note costs only the id */
		scan_notes(st, p, e->sh[i].sh_size);
		free(p);
	}
	e->why = NULL;
}

/* Open path as an ELF64 x86_64 file and read its section headers. */
static int
elf_open(struct elf *e, const char *path)
{
	struct stat sb;

	memset(e, 0, sizeof(*e));
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	if ((e->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return e->why = strerror(errno), -1;
	if (fstat(e->fd, &sb) != 0)
		return e->why = strerror(errno), -1;
	if (S_ISDIR(sb.st_mode))
		return e->why = strerror(EISDIR), -1;
	if (!S_ISREG(sb.st_mode))
		return e->why = "not a regular file", -1;
	e->size = (uint64_t)sb.st_size;
	if (check_header(e) != 0 || read_sections(e) != 0)
		return -1;
	return 0;
}

/* Give back what elf_open took, whatever it returned. */
static void
elf_close(struct elf *e)
{
	if (e->fd >= 0)
		(void)close(e->fd);
	free(e->sh);
}

/* The first section of a type, or NULL. */
static const Elf64_Shdr *
find_type(const struct elf *e, uint32_t type)
{
	size_t i;

	for (i = 0; i < e->shnum; i++)
		if (e->sh[i].sh_type == type)
			return &e->sh[i];
	return NULL;
}

/* Make st->funcs of the symbol table sec. */
static int
read_table(struct elf *e, struct symtab *st, const Elf64_Shdr *sec)
{
	struct cand *c;
	size_t *ord;
	ssize_t n;

	if ((n = collect(e, st, sec, &c)) < 0)
		return -1;
	ord = sort_cands(c, (size_t)n);
	settle(st, c, ord, (size_t)n);
	free(ord);
	free(c);
	if (st->nfuncs == 0)
		return e->why = "no symbols", -1;
	return 0;
}

/* Pick .symtab, else .dynsym, and make st->funcs of it. */
static int
read_functions(struct elf *e, struct symtab *st)
{
	const Elf64_Shdr *sec;

	st->table = ".symtab";
	if ((sec = find_type(e, SHT_SYMTAB)) == NULL) {
		st->table = ".dynsym";
		sec = find_type(e, SHT_DYNSYM);
	}
	if (sec == NULL)
		return e->why = "no symbols", -1;
	return read_table(e, st, sec);
}

/* The section called name, or NULL. */
static const Elf64_Shdr *
find_named(struct elf *e, const char *name)
{
	const Elf64_Shdr *s = NULL, *strsec;
	char *names;
	size_t i, k;

	k = e->eh.e_shstrndx == SHN_XINDEX ? e->sh[0].sh_link :
	    e->eh.e_shstrndx;
	if (k == SHN_UNDEF || k >= e->shnum)
		return NULL;
	strsec = &e->sh[k];
	if (strsec->sh_type != SHT_STRTAB ||
	    (names = (char *)readsec(e, strsec)) == NULL)
		return NULL;
	for (i = 0; i < e->shnum && s == NULL; i++)
		if (e->sh[i].sh_name < strsec->sh_size &&
		    strcmp(names + e->sh[i].sh_name, name) == 0)
			s = &e->sh[i];
	free(names);
	return s;
}

/*
 * A debuglink names a file, not a path: anything else could send prof
 * to read files outside the places searched, or put control bytes in
 * what -s prints.
 */
static int
plain_name(const char *s)
{
	if (strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return 0;
	for (; *s != '\0'; s++)
		if (*s == '/' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/*
 * The .gnu_debuglink of e: a file name, a NUL, padding to a multiple of
 * 4 bytes, then the CRC-32 of the debug file, little-endian.  name has
 * room for NAME_MAX + 1 bytes.
 */
static int
read_debuglink(struct elf *e, char *name, uint32_t *crc)
{
	const Elf64_Shdr *s;
	unsigned char *p;
	size_t len, off;
	int rc = -1;

	if ((s = find_named(e, ".gnu_debuglink")) == NULL ||
	    s->sh_size > LINKMAX || (p = readsec(e, s)) == NULL)
		return -1;
	len = strlen((char *)p);
	off = (len + 4) & ~(size_t)3;
	if (len > 0 && len <= NAME_MAX && off + 4 <= s->sh_size &&
	    plain_name((char *)p)) {
		memcpy(name, p, len + 1);
		*crc = (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 |
		    (uint32_t)p[off + 2] << 16 | (uint32_t)p[off + 3] << 24;
		rc = 0;
	}
	free(p);
	return rc;
}

/* The CRC-32 of the whole file (ISO 3309, as zlib and gdb have it). */
static int
file_crc(struct elf *e, uint32_t *crc)
{
	unsigned char buf[16384];
	uint64_t off, n;
	uint32_t c;

	c = 0;
	for (off = 0; off < e->size; off += n) {
		n = e->size - off < sizeof(buf) ? e->size - off : sizeof(buf);
		if (readat(e, buf, off, n) != 0)
			return -1;
		c = crc32_add(c, buf, (size_t)n);
	}
	*crc = c;
	return 0;
}

/*
 * Is the ELF file d the build st was loaded from: the same build-id, or
 * for an object without one, the CRC its debuglink gives (crc; NULL for
 * none)?
 */
static int
same_build(struct elf *d, const struct symtab *st, const uint32_t *crc)
{
	struct symtab dt;
	uint32_t c;
	int same;

	if (st->id == NULL)
		return crc != NULL && file_crc(d, &c) == 0 && c == *crc;
	memset(&dt, 0, sizeof(dt));
	read_buildid(d, &dt);
	same = dt.idlen == st->idlen && memcmp(dt.id, st->id, st->idlen) == 0;
	symtab_free(&dt);
	return same;
}

/* Is the file at path st's own separate debug file? */
static int
is_debug(const struct symtab *st, const char *path, const uint32_t *crc)
{
	struct elf d;
	int same;

	same = elf_open(&d, path) == 0 && same_build(&d, st, crc);
	elf_close(&d);
	return same;
}

/* DEBUGDIR/.build-id/xx/yyyy.debug for the build-id id. */
static int
buildid_path(char *buf, size_t size, const unsigned char *id, size_t idlen)
{
	static const char digits[] = "0123456789abcdef";
	char hex[2 * IDMAX + 1];
	size_t i;
	int n;

	if (idlen < 2 || idlen > IDMAX)
		return -1;
	for (i = 0; i < idlen; i++) {
		hex[2 * i] = digits[id[i] >> 4];
		hex[2 * i + 1] = digits[id[i] & 0xf];
	}
	hex[2 * idlen] = '\0';
	n = snprintf(buf, size, "%s/.build-id/%.2s/%s.debug", DEBUGDIR, hex,
	    hex + 2);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/*
 * The separate debug file of object e (loaded into st) into path, of
 * size PATH_MAX, looked for where gdb looks: by build-id, then by
 * debuglink name N in the object's directory D as D/N, D/.debug/N and
 * DEBUGDIR/D/N (D absolute only).  Only the same build will do.  0 when
 * one is found.
 */
static int
debug_path(struct elf *e, const struct symtab *st, char *path)
{
	static const struct {
		const char	*root;
		const char	*sub;
	} places[] = { { "", "" }, { "", "/.debug" }, { DEBUGDIR, "" } };
	char name[NAME_MAX + 1];
	const char *dir, *slash;
	uint32_t crc;
	size_t i, dlen;
	int n;

	if (buildid_path(path, PATH_MAX, st->id, st->idlen) == 0 &&
	    is_debug(st, path, NULL))
		return 0;
	if (read_debuglink(e, name, &crc) != 0)
		return -1;
	if ((slash = strrchr(st->path, '/')) != NULL) {
		dir = st->path;
		dlen = (size_t)(slash - st->path);
	} else {
		dir = ".";
		dlen = 1;
	}
	if (dlen >= PATH_MAX)
		return -1;
	for (i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		if (places[i].root[0] != '\0' && dir[0] != '/')
			continue;
		n = snprintf(path, PATH_MAX, "%s%.*s%s/%s", places[i].root,
		    (int)dlen, dir, places[i].sub, name);
		if (n >= 0 && n < PATH_MAX && is_debug(st, path, &crc))
			return 0;
	}
	return -1;
}

/*
 * A stripped object's functions from its separate debug file's .symtab
 * (debug_path()).  Anything wrong with that file -- missing, foreign,
 * corrupt -- is no error: st is left as it was, and -1 returned.
 */
static int
debug_functions(struct elf *e, struct symtab *st)
{
	char path[PATH_MAX];
	struct elf d;
	struct symtab dt;
	const Elf64_Shdr *sec;
	int rc = -1;

	if (debug_path(e, st, path) != 0)
		return -1;
	memset(&dt, 0, sizeof(dt));
	if (elf_open(&d, path) != 0 ||
	    (sec = find_type(&d, SHT_SYMTAB)) == NULL ||
	    read_table(&d, &dt, sec) != 0)
		goto out;
	st->funcs = dt.funcs;
	st->nfuncs = dt.nfuncs;
	st->strs = dt.strs;
	st->nsyms = dt.nsyms;
	st->table = ".symtab";
	st->debug = xstrdup(path);
	dt.funcs = NULL;
	dt.strs = NULL;
	rc = 0;
out:
	elf_close(&d);
	symtab_free(&dt);
	return rc;
}

/*
 * The link-time addresses [*lo, *hi) of the section called name of the
 * ELF file at path (libmon_text: libmon's code linked into a program).
 * 0, or -1 where there is none.
 */
int
elf_section_range(const char *path, const char *name, uint64_t *lo,
    uint64_t *hi)
{
	const Elf64_Shdr *s;
	struct elf e;
	int rc = -1;

	if (elf_open(&e, path) == 0 && (s = find_named(&e, name)) != NULL) {
		*lo = s->sh_addr;
		*hi = s->sh_addr + s->sh_size;
		rc = 0;
	}
	elf_close(&e);
	return rc;
}

/*
 * The separate debug file of the object st was loaded from, whatever
 * its symbols came from: for the DWARF of an object stripped of its
 * debug sections alone (objcopy --strip-debug, its .symtab kept).  A
 * path to free, or NULL.
 */
char *
symtab_debug_file(const struct symtab *st)
{
	char path[PATH_MAX];
	struct elf e;
	char *s = NULL;

	if (st->debug != NULL)
		return xstrdup(st->debug);
	if (elf_open(&e, st->path) == 0 && debug_path(&e, st, path) == 0)
		s = xstrdup(path);
	elf_close(&e);
	return s;
}

/*
 * Open the vDSO the kernel mapped into this process as an ELF image.
 * Its loaded segment is mapped whole pages, and its section headers
 * follow the segment within them; anything else makes it unreadable.
 */
static int
vdso_open(struct elf *e)
{
	const unsigned char *base;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	uint64_t end = 0, page, shend;
	size_t i;

	memset(e, 0, sizeof(*e));
	e->fd = -1;
	if ((base = (const void *)getauxval(AT_SYSINFO_EHDR)) == NULL)
		return e->why = "no vDSO in this process", -1;
	memcpy(&eh, base, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_phentsize != sizeof(ph) || eh.e_phoff > 4096 ||
	    eh.e_phnum > (4096 - eh.e_phoff) / sizeof(ph))
		return e->why = corrupt, -1;
	for (i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, base + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > end)
			end = ph.p_offset + ph.p_filesz;
	}
	page = (uint64_t)sysconf(_SC_PAGESIZE);
	if (eh.e_shoff > end + page)
		return e->why = corrupt, -1;
	shend = eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr);
	if (end == 0 || shend > (end + page - 1) / page * page)
		return e->why = corrupt, -1;
	e->mem = base;
	e->size = shend > end ? shend : end;
	if (check_header(e) != 0 || read_sections(e) != 0)
		return -1;
	return 0;
}

/*
 * Load the functions and build-id of an ELF image into st, named path:
 * the file at path, or this process's vDSO (vdso).  From its .symtab,
 * else its debug file's, else its .dynsym.  0 on success; -1 with *why
 * set to the reason, st left empty.
 */
static int
load(struct symtab *st, const char *path, int vdso, const char **why)
{
	struct elf e;
	int rc = -1;

	memset(st, 0, sizeof(*st));
	st->path = xstrdup(path);
	if ((vdso ? vdso_open(&e) : elf_open(&e, path)) == 0) {
		read_buildid(&e, st);
		if (find_type(&e, SHT_SYMTAB) == NULL &&
		    debug_functions(&e, st) == 0)
			rc = 0;
		else
			rc = read_functions(&e, st);
	}
	elf_close(&e);
	if (rc != 0) {
		*why = e.why != NULL ? e.why : corrupt;
		symtab_free(st);
	}
	return rc;
}

/* The ELF file path into st, as load() says. */
int
symtab_load(struct symtab *st, const char *path, const char **why)
{
	return load(st, path, 0, why);
}

/*
 * This process's vDSO into st, named path, as load() says.  The kernel
 * gives every process the same image: it is the profiled run's when
 * their build-ids agree, which the caller checks.
 */
int
symtab_load_vdso(struct symtab *st, const char *path, const char **why)
{
	return load(st, path, 1, why);
}

void
symtab_free(struct symtab *st)
{
	free(st->path);
	free(st->funcs);
	free(st->strs);
	free(st->id);
	free(st->debug);
	memset(st, 0, sizeof(*st));
}

/* How many functions start at or below addr: a binary search. */
size_t
symtab_upper(const struct symtab *st, uint64_t addr)
{
	return symtab_upper_in(st, addr, 0, st->nfuncs);
}

/*
 * The same, where functions below lo are known to start at or below
 * addr, and those from hi on above it.
 */
size_t
symtab_upper_in(const struct symtab *st, uint64_t addr, size_t lo,
    size_t hi)
{
	size_t mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (st->funcs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The function whose extent holds addr, or SIZE_MAX. */
size_t
symtab_lookup(const struct symtab *st, uint64_t addr)
{
	size_t n;

	n = symtab_upper(st, addr);
	if (n == 0 || addr >= st->funcs[n - 1].end)
		return SIZE_MAX;
	return n - 1;
}

/*
 * The zlib stream at sec's bytes from off, made its size plain bytes in
 * place of them.  No stream inflates more than 1032 times its size
 * (deflate's longest match for a bit or two), so a header that says
 * more lies, and is not given the memory it asks.  0, or -1 with the
 * section emptied and packed saying why.
 */
static int
inflated(struct elfsec *sec, size_t off, uint64_t size)
{
	unsigned char *out;
	size_t in = sec->size - off;

	if (size / 1032 > in || size > SIZE_MAX - 1) {
		sec->packed = "its compressed data is damaged";
		return -1;
	}
	out = xmalloc((size_t)size + 1);
	if (inflate_zlib(sec->data + off, in, out, (size_t)size) != 0) {
		free(out);
		sec->packed = "its compressed data is damaged";
		return -1;
	}
	out[size] = '\0';
	free(sec->data);
	sec->data = out;
	sec->size = (size_t)size;
	return 0;
}

/*
 * A compressed section read, made its plain bytes: an Elf64_Chdr, then
 * a zlib stream of ch_size bytes.
 */
static void
unpack(struct elfsec *sec)
{
	Elf64_Chdr ch;

	if (sec->size < sizeof(ch)) {
		sec->packed = "its compression header is cut short";
		goto none;
	}
	memcpy(&ch, sec->data, sizeof(ch));
	if (ch.ch_type != ELFCOMPRESS_ZLIB) {
		sec->packed = ch.ch_type == 2 ? "compressed with zstd, which "
		    "prof does not read" : "compressed by an unknown method";
		goto none;
	}
	if (inflated(sec, sizeof(ch), ch.ch_size) == 0)
		return;
none:
	free(sec->data);
	sec->data = NULL;
	sec->size = 0;
}

/*
 * An old-style compressed section read (.zdebug_*, as gcc -gz=zlib-gnu
 * and binutils before 2.26 wrote them), made its plain bytes: "ZLIB",
 * the plain size in 8 bytes big-endian, then a zlib stream.
 */
static void
unpack_gnu(struct elfsec *sec)
{
	uint64_t size = 0;
	size_t i;

	if (sec->size < 12 || memcmp(sec->data, "ZLIB", 4) != 0) {
		sec->packed = "its compression header is cut short or unknown";
		goto none;
	}
	for (i = 4; i < 12; i++)
		size = size << 8 | sec->data[i];
	if (inflated(sec, 12, size) == 0)
		return;
none:
	free(sec->data);
	sec->data = NULL;
	sec->size = 0;
}

/*
 * The section called name, or for a .debug_ name absent its old-style
 * compressed twin, .zdebug_; *gnu says which was found.
 */
static const Elf64_Shdr *
find_debug(struct elf *e, const char *name, int *gnu)
{
	const Elf64_Shdr *s;
	char z[64];

	*gnu = 0;
	if ((s = find_named(e, name)) != NULL ||
	    strncmp(name, ".debug_", 7) != 0 || strlen(name) + 2 > sizeof(z))
		return s;
	(void)snprintf(z, sizeof(z), ".z%s", name + 1);
	if ((s = find_named(e, z)) != NULL)
		*gnu = 1;
	return s;
}

/*
 * The sections of the ELF file at path named names[0..n), each read
 * whole into secs[i] (a NUL after its bytes), for readers of its debug
 * information.  A section compressed with zlib (SHF_COMPRESSED, as gcc
 * -gz and distributions' debug files have them) is read inflated, and
 * so is a .debug_ section found only as its old-style twin .zdebug_.  A
 * section that is absent or has no bytes in the file is left NULL; so
 * is one compressed otherwise (zstd) or whose compressed bytes are
 * damaged, with secs[i].packed saying so.  0, or -1 with *why set when
 * the file is no ELF64 x86_64 file.
 */
int
elf_sections(const char *path, const char *const *names,
    struct elfsec *secs, size_t n, const char **why)
{
	struct elf e;
	const Elf64_Shdr *s;
	size_t i;
	int rc = -1, gnu;

	memset(secs, 0, n * sizeof(*secs));
	if (elf_open(&e, path) == 0) {
		for (i = 0; i < n; i++) {
			if ((s = find_debug(&e, names[i], &gnu)) == NULL ||
			    s->sh_type == SHT_NOBITS)
				continue;
			if ((secs[i].data = readsec(&e, s)) == NULL)
				break;
			secs[i].size = (size_t)s->sh_size;
			if ((s->sh_flags & SHF_COMPRESSED) != 0)
				unpack(&secs[i]);
			else if (gnu)
				unpack_gnu(&secs[i]);
		}
		rc = i == n ? 0 : -1;
	}
	elf_close(&e);
	if (rc != 0) {
		*why = e.why != NULL ? e.why : corrupt;
		for (i = 0; i < n; i++)
			free(secs[i].data);
		memset(secs, 0, n * sizeof(*secs));
	}
	return rc;
}

/*
 * objects.c -- what is mapped into the process, for prof to map run-time
 * addresses back to symbols: each object's load bias, its text range,
 * its ELF build-id and its path, encoded as MONX_R_EXEC (the main
 * program, first) and MONX_R_OBJ records (see monfmt.h).
 */
#define _GNU_SOURCE	/* dl_iterate_phdr */
#include <elf.h>
#include <link.h>
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

static int
one(struct dl_phdr_info *info, size_t size, void *arg)
{
	static const unsigned char zero[8];
	struct walk *w = arg;
	struct monx_rec rec;
	struct monx_obj o;
	const unsigned char *id;
	const ElfW(Phdr) *ph;
	char path[4096];
	const char *name;
	ssize_t n;
	int i;

	(void)size;
	memset(&o, 0, sizeof(o));
	o.bias = info->dlpi_addr;
	o.lo = UINTPTR_MAX;
	for (i = 0; i < info->dlpi_phnum; i++) {
		ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (info->dlpi_addr + ph->p_vaddr < o.lo)
			o.lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > o.hi)
			o.hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (o.hi == 0)
		o.lo = 0;
	name = info->dlpi_name;
	if (w->first) {
		/* The main program has no name here; the kernel knows it. */
		n = readlink("/proc/self/exe", path, sizeof(path));
		name = path;
		if (n < 0 || (size_t)n >= sizeof(path))
			n = 0;
		path[n] = '\0';
	} else if (name == NULL || *name == '\0')
		return 0;
	id = buildid(info, &o.idlen);
	if (id == NULL)
		o.idlen = 0;
	o.pathlen = strlen(name);
	rec.type = w->first ? MONX_R_EXEC : MONX_R_OBJ;
	rec.len = sizeof(o) + o.idlen + o.pathlen;
	w->first = 0;
	put(w, &rec, sizeof(rec));
	put(w, &o, sizeof(o));
	put(w, id, o.idlen);
	put(w, name, o.pathlen);
	put(w, zero, (8 - rec.len % 8) % 8);
	return 0;
}

/*
 * Encode the records of every loaded object into buf (cap bytes); the
 * return value is the length needed, which may exceed cap, in which case
 * the caller retries with a larger buffer.
 */
size_t
_mon_objects(unsigned char *buf, size_t cap)
{
	struct walk w;

	w.buf = buf;
	w.cap = cap;
	w.len = 0;
	w.first = 1;
	dl_iterate_phdr(one, &w);
	return w.len;
}

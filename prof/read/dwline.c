/*
 * dwline.c -- an ELF file's DWARF line table (.debug_line, versions 2
 * to 5, 32- and 64-bit DWARF): for an address, its source file and
 * line, as addr2line -e gives them.
 *
 * dwline_load() runs the line program of every unit once and keeps
 * the rows, sorted by address, with the units' file names joined to
 * their directories; dwline_find() is then a binary search.  A file
 * without .debug_line has an empty table, which is no error; so has
 * one whose table is compressed in a way prof cannot undo (packed says
 * why), which its caller warns of.  A zlib-compressed one is read
 * inflated (elf_sections()), in SHF_COMPRESSED sections or in the
 * older .zdebug_ ones.
 *
 * Everything read is bounds-checked against its section, and every
 * step of a line program consumes a byte of it, so a hostile file can
 * neither send a read astray nor make the reader loop.  A unit that
 * breaks the rules is dropped whole, its rows and names with it, and
 * counted (nbad, why); the next is found by the unit's length, or,
 * when that lies, the units stop there.
 *
 * File names: version 5 lists the compilation directory as directory
 * 0; earlier versions leave it to the unit's DW_AT_comp_dir in
 * .debug_info, which is looked up for them.  A string given as DWARF
 * 5's DW_FORM_strx* (clang's units name their directory so) is found
 * through .debug_str_offsets, from the unit's DW_AT_str_offsets_base:
 * a line table has no base of its own, so a path of its in that form
 * takes its unit's.  A name is joined as
 * addr2line joins it: an absolute name as it is, else under its
 * directory, and a relative directory under the compilation one.
 *
 * Rows at one address: the last of its sequence stands, as binutils
 * keeps it; a sequence that starts at address 0 (or at the tombstones
 * -1 and -2) is code the linker dropped, and is left out.
 */
#include <stdlib.h>
#include <string.h>

#include "read/read.h"
#include "util/util.h"

/* Standard opcodes, extended opcodes, entry contents, forms. */
#define LNS_copy		1
#define LNS_advance_pc		2
#define LNS_advance_line	3
#define LNS_set_file		4
#define LNS_const_add_pc	8
#define LNS_fixed_advance_pc	9
#define LNE_end_sequence	1
#define LNE_set_address		2
#define LNE_define_file		3
#define LNCT_path		1
#define LNCT_directory_index	2

#define FORM_addr		0x01
#define FORM_block2		0x03
#define FORM_block4		0x04
#define FORM_data2		0x05
#define FORM_data4		0x06
#define FORM_data8		0x07
#define FORM_string		0x08
#define FORM_block		0x09
#define FORM_block1		0x0a
#define FORM_data1		0x0b
#define FORM_flag		0x0c
#define FORM_sdata		0x0d
#define FORM_strp		0x0e
#define FORM_udata		0x0f
#define FORM_ref_addr		0x10
#define FORM_ref1		0x11
#define FORM_ref2		0x12
#define FORM_ref4		0x13
#define FORM_ref8		0x14
#define FORM_ref_udata		0x15
#define FORM_indirect		0x16
#define FORM_sec_offset		0x17
#define FORM_exprloc		0x18
#define FORM_flag_present	0x19
#define FORM_strx		0x1a
#define FORM_addrx		0x1b
#define FORM_ref_sup4		0x1c
#define FORM_strp_sup		0x1d
#define FORM_data16		0x1e
#define FORM_line_strp		0x1f
#define FORM_ref_sig8		0x20
#define FORM_implicit_const	0x21
#define FORM_loclistx		0x22
#define FORM_rnglistx		0x23
#define FORM_ref_sup8		0x24
#define FORM_strx1		0x25
#define FORM_strx2		0x26
#define FORM_strx3		0x27
#define FORM_strx4		0x28
#define FORM_addrx1		0x29
#define FORM_addrx2		0x2a
#define FORM_addrx3		0x2b
#define FORM_addrx4		0x2c
#define FORM_GNU_addr_index	0x1f01
#define FORM_GNU_str_index	0x1f02
#define FORM_GNU_ref_alt	0x1f20
#define FORM_GNU_strp_alt	0x1f21

#define AT_stmt_list		0x10
#define AT_comp_dir		0x1b
#define AT_str_offsets_base	0x72

enum { S_LINE, S_LINESTR, S_STR, S_INFO, S_ABBREV, S_STROFF, NSECS };

static const char *const secnames[NSECS] = {
	".debug_line", ".debug_line_str", ".debug_str", ".debug_info",
	".debug_abbrev", ".debug_str_offsets"
};

/* A place in a section; any read past its end sets bad. */
struct cur {
	const unsigned char *p, *end;
	int		 bad;
};

/*
 * A line table's compilation unit (.debug_info): its directory, and
 * where its strings of DWARF 5's DW_FORM_strx* start in
 * .debug_str_offsets.
 */
struct cdir {
	uint64_t	 line;		/* its DW_AT_stmt_list */
	const char	*dir;		/* NULL: none read */
	uint64_t	 strbase;	/* its DW_AT_str_offsets_base */
};

/* What a load works with. */
struct ld {
	struct dwline	*dl;
	struct elfsec	 sec[NSECS];
	struct cdir	*cdirs;		/* sorted by line; NULL: not read */
	size_t		 ncdirs, cdircap;
	int		 cdirsread;
};

/* A unit's header, as its line program needs it. */
struct unit {
	unsigned	 version;
	unsigned	 offsz;		/* 4, or 8 in 64-bit DWARF */
	unsigned	 minlen;	/* minimum_instruction_length */
	int		 lbase;
	unsigned	 lrange;
	unsigned	 opbase;
	const unsigned char *oplens;	/* of opcodes 1 .. opbase - 1 */
	const char	*comp;		/* the compilation directory */
	uint64_t	 off;		/* its offset in .debug_line */
	const char	**dirs;
	size_t		 ndirs, dircap;
	size_t		 file0;		/* dl->files of its file 0 (v5) or
					   1 (earlier) */
	size_t		 nfiles;
};

static int
need(struct cur *c, uint64_t n)
{
	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	return 1;
}

/* n (<= 8) bytes, little-endian. */
static uint64_t
get(struct cur *c, unsigned n)
{
	uint64_t v = 0;
	unsigned i;

	if (!need(c, n))
		return 0;
	for (i = 0; i < n; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static void
skip(struct cur *c, uint64_t n)
{
	if (need(c, n))
		c->p += n;
}

/* An LEB128 number's bits, *shift of them read, *last its last byte. */
static uint64_t
leb(struct cur *c, unsigned *shift, unsigned char *last)
{
	uint64_t v = 0;
	unsigned char b;

	*shift = 0;
	do {
		if (!need(c, 1))
			return 0;
		b = *c->p++;
		if (*shift < 64)
			v |= (uint64_t)(b & 0x7f) << *shift;
		*shift += 7;
	} while (b & 0x80);
	*last = b;
	return v;
}

static uint64_t
uleb(struct cur *c)
{
	unsigned shift;
	unsigned char b;

	return leb(c, &shift, &b);
}

static int64_t
sleb(struct cur *c)
{
	uint64_t v;
	unsigned shift;
	unsigned char b = 0;

	v = leb(c, &shift, &b);
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return (int64_t)v;
}

/* A NUL-terminated string in place. */
static const char *
cstr(struct cur *c)
{
	const unsigned char *nul;
	const char *s;

	if (c->bad || (nul = memchr(c->p, 0, (size_t)(c->end - c->p))) ==
	    NULL) {
		c->bad = 1;
		c->p = c->end;
		return NULL;
	}
	s = (const char *)c->p;
	c->p = nul + 1;
	return s;
}

/* The string at off in a string section (a NUL follows its bytes). */
static const char *
secstr(const struct elfsec *s, uint64_t off)
{
	if (s->data == NULL || off >= s->size)
		return NULL;
	return (const char *)s->data + off;
}

/* Is form f one of DW_FORM_strx*, an index into .debug_str_offsets? */
static int
is_strx(uint64_t f)
{
	return f == FORM_strx || f == FORM_strx1 || f == FORM_strx2 ||
	    f == FORM_strx3 || f == FORM_strx4;
}

/*
 * The string of index i among a unit's, whose entries start at base in
 * .debug_str_offsets, each offsz bytes: NULL if it is not there.
 */
static const char *
strx_string(const struct ld *l, uint64_t base, uint64_t i, unsigned offsz)
{
	const struct elfsec *s = &l->sec[S_STROFF];
	struct cur c;

	if (s->data == NULL || base > s->size ||
	    i >= (s->size - base) / offsz)
		return NULL;
	c.p = s->data + base + i * offsz;
	c.end = s->data + s->size;
	c.bad = 0;
	return secstr(&l->sec[S_STR], get(&c, offsz));
}

/* The length of a unit and its offset size, from its first bytes. */
static uint64_t
unit_length(struct cur *c, unsigned *offsz)
{
	uint64_t len;

	*offsz = 4;
	len = get(c, 4);
	if (len == 0xffffffff) {
		*offsz = 8;
		len = get(c, 8);
	} else if (len >= 0xfffffff0)
		c->bad = 1;		/* reserved */
	return len;
}

/*
 * Read an attribute's value of form f into *v, and for a string form
 * the string into *s (NULL if it cannot be found).  0, or -1 for a form
 * it does not know (FORM_indirect is the caller's).
 */
static int
form_value(struct ld *l, struct cur *c, uint64_t f, unsigned offsz,
    unsigned asz, unsigned version, uint64_t *v, const char **s)
{
	*v = 0;
	*s = NULL;
	switch (f) {
	case FORM_flag_present:
	case FORM_implicit_const:
		return 0;
	case FORM_addr:
		*v = get(c, asz);
		return 0;
	case FORM_data1: case FORM_ref1: case FORM_flag: case FORM_strx1:
	case FORM_addrx1:
		*v = get(c, 1);
		return 0;
	case FORM_data2: case FORM_ref2: case FORM_strx2: case FORM_addrx2:
		*v = get(c, 2);
		return 0;
	case FORM_strx3: case FORM_addrx3:
		*v = get(c, 3);
		return 0;
	case FORM_data4: case FORM_ref4: case FORM_ref_sup4: case FORM_strx4:
	case FORM_addrx4:
		*v = get(c, 4);
		return 0;
	case FORM_data8: case FORM_ref8: case FORM_ref_sig8:
	case FORM_ref_sup8:
		*v = get(c, 8);
		return 0;
	case FORM_data16:
		skip(c, 16);
		return 0;
	case FORM_sdata:
		*v = (uint64_t)sleb(c);
		return 0;
	case FORM_udata: case FORM_ref_udata: case FORM_strx: case FORM_addrx:
	case FORM_loclistx: case FORM_rnglistx: case FORM_GNU_addr_index:
	case FORM_GNU_str_index:
		*v = uleb(c);
		return 0;
	case FORM_string:
		*s = cstr(c);
		return 0;
	case FORM_strp:
		*v = get(c, offsz);
		*s = secstr(&l->sec[S_STR], *v);
		return 0;
	case FORM_line_strp:
		*v = get(c, offsz);
		*s = secstr(&l->sec[S_LINESTR], *v);
		return 0;
	case FORM_ref_addr:
		*v = get(c, version <= 2 ? asz : offsz);
		return 0;
	case FORM_sec_offset: case FORM_strp_sup: case FORM_GNU_ref_alt:
	case FORM_GNU_strp_alt:
		*v = get(c, offsz);
		return 0;
	case FORM_block1:
		skip(c, get(c, 1));
		return 0;
	case FORM_block2:
		skip(c, get(c, 2));
		return 0;
	case FORM_block4:
		skip(c, get(c, 4));
		return 0;
	case FORM_block: case FORM_exprloc:
		skip(c, uleb(c));
		return 0;
	}
	return -1;
}

/*
 * The attribute specifications of abbreviation code in the table at
 * off of .debug_abbrev, left in *c; 0, or -1 if it is not there.  A
 * unit's own DIE is among the first of its table (compilers put it
 * first): looking no further than ABBREVMAX keeps a forged file of
 * many units over one long table from making the search quadratic.
 */
#define ABBREVMAX	64

static int
find_abbrev(struct ld *l, uint64_t off, uint64_t code, struct cur *c)
{
	const struct elfsec *s = &l->sec[S_ABBREV];
	uint64_t k, name, form;
	unsigned n;

	if (s->data == NULL || off >= s->size)
		return -1;
	c->p = s->data + off;
	c->end = s->data + s->size;
	c->bad = 0;
	for (n = 0; n < ABBREVMAX; n++) {
		if ((k = uleb(c)) == 0 || c->bad)
			return -1;
		(void)uleb(c);			/* tag */
		skip(c, 1);			/* children */
		if (k == code)
			return c->bad ? -1 : 0;
		do {
			name = uleb(c);
			form = uleb(c);
			if (form == FORM_implicit_const)
				(void)sleb(c);
		} while ((name != 0 || form != 0) && !c->bad);
	}
	return -1;
}

/*
 * The compilation directory, line table and string offsets of the unit
 * whose DIE is at *c, or nothing: the first DIE of a unit is the
 * unit's.  A directory given as DW_FORM_strx* (clang's DWARF 5) is
 * looked up once the DIE is read, since its DW_AT_str_offsets_base may
 * come after it; without one, the unit's strings start right after the
 * first table's header, as LLVM has it.
 */
static void
unit_dir(struct ld *l, struct cur *c, uint64_t abbrev, unsigned offsz,
    unsigned asz, unsigned version)
{
	struct cur a;
	uint64_t name, form, v, line = 0, dirx = 0;
	uint64_t strbase = offsz == 8 ? 16 : 8;
	const char *s, *dir = NULL;
	int hasline = 0, hasdirx = 0;

	if (find_abbrev(l, abbrev, uleb(c), &a) != 0)
		return;
	for (;;) {
		name = uleb(&a);
		form = uleb(&a);
		if ((name == 0 && form == 0) || a.bad || c->bad)
			break;
		if (form == FORM_implicit_const)
			(void)sleb(&a);
		if (form == FORM_indirect)
			form = uleb(c);
		if (form_value(l, c, form, offsz, asz, version, &v, &s) != 0)
			return;
		if (name == AT_stmt_list) {
			line = v;
			hasline = 1;
		} else if (name == AT_comp_dir && is_strx(form)) {
			dirx = v;
			hasdirx = 1;
		} else if (name == AT_comp_dir)
			dir = s;
		else if (name == AT_str_offsets_base)
			strbase = v;
	}
	if (!hasline || c->bad)
		return;
	if (hasdirx)
		dir = strx_string(l, strbase, dirx, offsz);
	l->cdirs = xgrow(l->cdirs, &l->cdircap, l->ncdirs, 1,
	    sizeof(*l->cdirs));
	l->cdirs[l->ncdirs].line = line;
	l->cdirs[l->ncdirs].dir = dir;
	l->cdirs[l->ncdirs++].strbase = strbase;
}

static int
cmp_cdir(const void *a, const void *b)
{
	const struct cdir *x = a, *y = b;

	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * Every unit's compilation directory, by its line table's offset: what
 * line tables before version 5 leave out.  What cannot be read is left
 * out; the names of those tables stay relative.
 */
static void
read_cdirs(struct ld *l)
{
	const struct elfsec *s = &l->sec[S_INFO];
	struct cur c, u;
	uint64_t len, abbrev;
	unsigned offsz, version, asz, type;

	l->cdirsread = 1;
	if (s->data == NULL)
		return;
	c.p = s->data;
	c.end = s->data + s->size;
	c.bad = 0;
	while (c.p < c.end && !c.bad) {
		len = unit_length(&c, &offsz);
		if (c.bad || len > (uint64_t)(c.end - c.p))
			break;
		u.p = c.p;
		u.end = c.p + len;
		u.bad = 0;
		c.p = u.end;
		version = (unsigned)get(&u, 2);
		if (version >= 5) {
			type = (unsigned)get(&u, 1);
			asz = (unsigned)get(&u, 1);
			abbrev = get(&u, offsz);
			if (type == 4 || type == 5)	/* skeleton, split */
				skip(&u, 8);
			else if (type != 1)		/* not a compile unit */
				continue;
		} else {
			abbrev = get(&u, offsz);
			asz = (unsigned)get(&u, 1);
		}
		if (!u.bad && version >= 2 && version <= 5 && asz <= 8)
			unit_dir(l, &u, abbrev, offsz, asz, version);
	}
	if (l->ncdirs > 1)
		qsort(l->cdirs, l->ncdirs, sizeof(*l->cdirs), cmp_cdir);
}

/* The compilation unit of the line table at off, or NULL. */
static const struct cdir *
find_cdir(struct ld *l, uint64_t off)
{
	size_t lo = 0, hi, mid;

	if (!l->cdirsread)
		read_cdirs(l);
	hi = l->ncdirs;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (l->cdirs[mid].line < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->ncdirs && l->cdirs[lo].line == off ?
	    &l->cdirs[lo] : NULL;
}

/* The compilation directory of the line table at off, or NULL. */
static const char *
comp_dir(struct ld *l, uint64_t off)
{
	const struct cdir *d = find_cdir(l, off);

	return d != NULL ? d->dir : NULL;
}

/* name under dir, itself under comp when relative, as addr2line has it. */
static char *
join(const char *comp, const char *dir, const char *name)
{
	size_t n;
	char *s;

	if (name[0] == '/')
		return xstrdup(name);
	if (dir == NULL || dir[0] == '\0') {
		dir = comp;
		comp = NULL;
	}
	if (dir == NULL || dir[0] == '\0')
		return xstrdup(name);
	if (dir[0] == '/' || comp == NULL || comp[0] == '\0' || dir == comp)
		comp = "";
	n = strlen(comp) + strlen(dir) + strlen(name) + 3;
	s = xmalloc(n);
	if (comp[0] != '\0')
		(void)snprintf(s, n, "%s/%s/%s", comp, dir, name);
	else
		(void)snprintf(s, n, "%s/%s", dir, name);
	return s;
}

/* A file of the unit, its directory index dir, joined and kept. */
static void
add_file(struct dwline *dl, struct unit *u, const char *name, uint64_t dir)
{
	const char *d = NULL;

	if (u->version >= 5) {
		if (dir < u->ndirs && dir > 0)
			d = u->dirs[dir];
		else if (dir == 0)
			d = u->comp;
	} else if (dir > 0 && dir <= u->ndirs)
		d = u->dirs[dir - 1];
	dl->files = xgrow(dl->files, &dl->filecap, dl->nfiles, 1,
	    sizeof(*dl->files));
	dl->files[dl->nfiles++] = join(u->comp, d, name);
	u->nfiles++;
}

/* Version 2-4: directories, then files, each list ended by "". */
static int
old_names(struct dwline *dl, struct cur *c, struct unit *u)
{
	const char *s;
	uint64_t dir;

	while ((s = cstr(c)) != NULL && s[0] != '\0') {
		u->dirs = xgrow(u->dirs, &u->dircap, u->ndirs, 1,
		    sizeof(*u->dirs));
		u->dirs[u->ndirs++] = s;
	}
	while ((s = cstr(c)) != NULL && s[0] != '\0') {
		dir = uleb(c);
		(void)uleb(c);			/* time */
		(void)uleb(c);			/* size */
		if (c->bad)
			break;
		add_file(dl, u, s, dir);
	}
	return c->bad ? -1 : 0;
}

/*
 * The string of index i of the unit whose line table u is, for a path
 * given as DW_FORM_strx*: the line table has no string offsets of its
 * own, but its compilation unit's (DWARF 5, 6.2.4.1).
 */
static const char *
unit_strx(struct ld *l, const struct unit *u, uint64_t i)
{
	const struct cdir *d = find_cdir(l, u->off);

	return d != NULL ? strx_string(l, d->strbase, i, u->offsz) : NULL;
}

/*
 * Version 5: a list of entries described by their format (pairs of
 * content and form); each entry's path and directory index.  dirs
 * set: the directory list, else the file list.
 */
static int
new_entries(struct ld *l, struct cur *c, struct unit *u, int dirs)
{
	uint64_t fmt[2 * 255], n, i, v, dir;
	const char *s, *path;
	unsigned nfmt, k;

	nfmt = (unsigned)get(c, 1);
	for (k = 0; k < nfmt; k++) {
		fmt[2 * k] = uleb(c);
		fmt[2 * k + 1] = uleb(c);
	}
	n = uleb(c);
	/*
	 * An entry must have a path, which takes a byte at least: no
	 * count beyond the bytes left, and no entry of no format.
	 */
	if (c->bad || n > (uint64_t)(c->end - c->p) || (n > 0 && nfmt == 0))
		return -1;
	if (dirs)
		u->dirs = xcalloc((size_t)n + 1, sizeof(*u->dirs));
	for (i = 0; i < n; i++) {
		path = NULL;
		dir = 0;
		for (k = 0; k < nfmt; k++) {
			if (form_value(l, c, fmt[2 * k + 1], u->offsz, 8,
			    u->version, &v, &s) != 0 || c->bad)
				return -1;
			if (fmt[2 * k] == LNCT_path && is_strx(fmt[2 * k + 1]))
				path = unit_strx(l, u, v);
			else if (fmt[2 * k] == LNCT_path)
				path = s;
			else if (fmt[2 * k] == LNCT_directory_index)
				dir = v;
		}
		if (path == NULL)
			return -1;
		if (dirs)
			u->dirs[u->ndirs++] = path;
		else
			add_file(l->dl, u, path, dir);
	}
	if (dirs && u->ndirs > 0)
		u->comp = u->dirs[0];
	return 0;
}

/*
 * The header of the unit at c (its length read), up to its line
 * program, which is left in prog.  off: the unit's offset.
 */
static int
unit_header(struct ld *l, struct cur *c, struct unit *u, uint64_t off,
    struct cur *prog)
{
	uint64_t hlen;
	unsigned maxops = 1;

	u->version = (unsigned)get(c, 2);
	if (c->bad || u->version < 2 || u->version > 5)
		return -1;
	if (u->version >= 5) {
		if (get(c, 1) != 8)	/* address_size */
			return -1;
		skip(c, 1);		/* segment_selector_size */
	}
	hlen = get(c, u->offsz);
	if (c->bad || hlen > (uint64_t)(c->end - c->p))
		return -1;
	prog->p = c->p + hlen;
	prog->end = c->end;
	prog->bad = 0;
	c->end = prog->p;
	u->minlen = (unsigned)get(c, 1);
	if (u->version >= 4)
		maxops = (unsigned)get(c, 1);
	skip(c, 1);			/* default_is_stmt */
	u->lbase = (int)(signed char)get(c, 1);
	u->lrange = (unsigned)get(c, 1);
	u->opbase = (unsigned)get(c, 1);
	u->oplens = c->p;
	skip(c, u->opbase > 0 ? u->opbase - 1 : 0);
	/* maxops > 1 is VLIW, which x86_64 is not. */
	if (c->bad || u->lrange == 0 || u->opbase == 0 || maxops != 1)
		return -1;
	u->file0 = l->dl->nfiles;
	u->off = off;
	if (u->version < 5) {
		u->comp = comp_dir(l, off);
		return old_names(l->dl, c, u);
	}
	if (new_entries(l, c, u, 1) != 0)
		return -1;
	return new_entries(l, c, u, 0);
}

/* The state machine's registers that rows keep. */
struct regs {
	uint64_t	 addr;
	uint64_t	 file;
	uint64_t	 line;		/* wraps below 1: then no line */
	size_t		 seq;		/* dl->rows of the sequence's first */
};

static void
reset(struct regs *r, size_t nrows)
{
	r->addr = 0;
	r->file = 1;
	r->line = 1;
	r->seq = nrows;
}

/* A row of the registers, in the unit's file numbering. */
static void
emit(struct dwline *dl, const struct unit *u, const struct regs *r)
{
	struct dwrow *w;
	uint64_t f;

	f = u->version >= 5 ? r->file : r->file - 1;
	if (dl->nrows > r->seq && dl->rows[dl->nrows - 1].addr == r->addr)
		w = &dl->rows[dl->nrows - 1];	/* the last at one address */
	else {
		dl->rows = xgrow(dl->rows, &dl->rowcap, dl->nrows, 1,
		    sizeof(*dl->rows));
		w = &dl->rows[dl->nrows++];
	}
	w->addr = r->addr;
	w->file = f < u->nfiles ? (uint32_t)(u->file0 + f) : DWL_NOFILE;
	w->line = r->line <= UINT32_MAX ? (uint32_t)r->line : 0;
}

/*
 * A sequence ends at the registers' address: its end row, unless the
 * linker dropped its code (it starts at 0 or at a tombstone, or runs
 * backwards), when its rows go.
 */
static void
end_sequence(struct dwline *dl, const struct regs *r)
{
	uint64_t start;

	if (dl->nrows == r->seq)
		return;
	start = dl->rows[r->seq].addr;
	if (start == 0 || start >= UINT64_MAX - 1 || r->addr < start) {
		dl->nrows = r->seq;
		return;
	}
	if (dl->rows[dl->nrows - 1].addr == r->addr)
		dl->nrows--;		/* a row of no bytes */
	dl->rows = xgrow(dl->rows, &dl->rowcap, dl->nrows, 1,
	    sizeof(*dl->rows));
	dl->rows[dl->nrows].addr = r->addr;
	dl->rows[dl->nrows].file = DWL_END;
	dl->rows[dl->nrows++].line = 0;
}

/* An extended opcode; -1 for one that breaks the rules. */
static int
extended(struct ld *l, struct cur *c, struct unit *u, struct regs *r)
{
	struct cur e;
	uint64_t len, dir;
	const char *s;

	len = uleb(c);
	if (!need(c, len) || len == 0)
		return -1;
	e.p = c->p;
	e.end = c->p + len;
	e.bad = 0;
	c->p = e.end;
	switch (get(&e, 1)) {
	case LNE_end_sequence:
		end_sequence(l->dl, r);
		reset(r, l->dl->nrows);
		break;
	case LNE_set_address:
		if (len != 9)
			return -1;
		r->addr = get(&e, 8);
		break;
	case LNE_define_file:
		s = cstr(&e);
		dir = uleb(&e);
		if (e.bad || u->version >= 5)
			return -1;
		add_file(l->dl, u, s, dir);
		break;
	}
	return e.bad ? -1 : 0;
}

/* The unit's line program, run; -1 if it breaks the rules. */
static int
run(struct ld *l, struct cur *c, struct unit *u)
{
	struct regs r;
	unsigned op, adj, i;

	reset(&r, l->dl->nrows);
	while (c->p < c->end && !c->bad) {
		op = *c->p++;
		if (op >= u->opbase) {
			adj = op - u->opbase;
			r.addr += (uint64_t)u->minlen * (adj / u->lrange);
			r.line += (uint64_t)(int64_t)(u->lbase +
			    (int)(adj % u->lrange));
			emit(l->dl, u, &r);
			continue;
		}
		switch (op) {
		case 0:
			if (extended(l, c, u, &r) != 0)
				return -1;
			break;
		case LNS_copy:
			emit(l->dl, u, &r);
			break;
		case LNS_advance_pc:
			r.addr += u->minlen * uleb(c);
			break;
		case LNS_advance_line:
			r.line += (uint64_t)sleb(c);
			break;
		case LNS_set_file:
			r.file = uleb(c);
			break;
		case LNS_const_add_pc:
			r.addr += (uint64_t)u->minlen *
			    ((255 - u->opbase) / u->lrange);
			break;
		case LNS_fixed_advance_pc:
			r.addr += get(c, 2);
			break;
		default:
			/* Operands of the others are ULEB128s, as many as
			 * standard_opcode_lengths says. */
			for (i = 0; i < u->oplens[op - 1]; i++)
				(void)uleb(c);
		}
	}
	/* A sequence left open has no end: its rows go. */
	l->dl->nrows = r.seq;
	return c->bad ? -1 : 0;
}

/* A unit's rows and names go: it broke the rules. */
static void
drop_unit(struct dwline *dl, size_t nrows, size_t nfiles, const char *why)
{
	dl->nrows = nrows;
	while (dl->nfiles > nfiles)
		free(dl->files[--dl->nfiles]);
	if (dl->nbad++ == 0)
		dl->why = why;
}

/* Every unit of .debug_line, run. */
static void
read_units(struct ld *l)
{
	const struct elfsec *s = &l->sec[S_LINE];
	struct dwline *dl = l->dl;
	struct cur c, uc, prog;
	struct unit u;
	uint64_t len, off;
	size_t nrows, nfiles;
	int rc;

	c.p = s->data;
	c.end = s->data + s->size;
	c.bad = 0;
	while (c.p < c.end) {
		off = (uint64_t)(c.p - s->data);
		memset(&u, 0, sizeof(u));
		len = unit_length(&c, &u.offsz);
		if (c.bad || len > (uint64_t)(c.end - c.p)) {
			drop_unit(dl, dl->nrows, dl->nfiles,
			    "a line table runs past .debug_line");
			return;
		}
		uc.p = c.p;
		uc.end = c.p + len;
		uc.bad = 0;
		c.p = uc.end;
		nrows = dl->nrows;
		nfiles = dl->nfiles;
		rc = unit_header(l, &uc, &u, off, &prog);
		if (rc == 0)
			rc = run(l, &prog, &u);
		free(u.dirs);
		if (rc != 0)
			drop_unit(dl, nrows, nfiles, "a malformed line table");
	}
}

/*
 * Rows by address; at one address, the end of a sequence before the
 * start of the next.  A sequence has one row an address (emit()).
 */
static int
cmp_row(const void *a, const void *b)
{
	const struct dwrow *x = a, *y = b;
	int ex = x->file == DWL_END, ey = y->file == DWL_END;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return ey - ex;
}

/* The rows sorted; of those at one address, the last kept. */
static void
settle(struct dwline *dl)
{
	size_t i, n = 0;

	if (dl->nrows < 2)
		return;		/* qsort wants an array, even of none */
	qsort(dl->rows, dl->nrows, sizeof(*dl->rows), cmp_row);
	for (i = 0; i < dl->nrows; i++) {
		if (n > 0 && dl->rows[n - 1].addr == dl->rows[i].addr)
			n--;
		dl->rows[n++] = dl->rows[i];
	}
	dl->nrows = n;
}

/*
 * The line table of the ELF file at path into dl, read whole.  0, with
 * dl->nbad units skipped for dl->why; or -1 with *why set, dl empty,
 * when the file is no ELF file prof reads.  A file without a line
 * table loads as an empty one.
 */
int
dwline_load(struct dwline *dl, const char *path, const char **why)
{
	struct ld l;
	size_t i;

	memset(dl, 0, sizeof(*dl));
	memset(&l, 0, sizeof(l));
	l.dl = dl;
	if (elf_sections(path, secnames, l.sec, NSECS, why) != 0)
		return -1;
	dl->packed = l.sec[S_LINE].packed;
	if (l.sec[S_LINE].data != NULL)
		read_units(&l);
	settle(dl);
	for (i = 0; i < NSECS; i++)
		free(l.sec[i].data);
	free(l.cdirs);
	return 0;
}

/*
 * The line table of the object st was loaded from: its debug file's
 * where its functions came from one, else its own -- or, where it has
 * none, its debug file's all the same (an object stripped of its debug
 * sections alone keeps its .symtab).  *path: the file read, to free.
 * As dwline_load().
 */
int
dwline_load_object(struct dwline *dl, const struct symtab *st, char **path,
    const char **why)
{
	char *dbg;

	*path = xstrdup(st->debug != NULL ? st->debug : st->path);
	if (dwline_load(dl, *path, why) != 0)
		return -1;
	if (dl->nrows > 0 || dl->packed != NULL || st->debug != NULL ||
	    (dbg = symtab_debug_file(st)) == NULL)
		return 0;
	dwline_free(dl);
	free(*path);
	*path = dbg;
	return dwline_load(dl, dbg, why);
}

/*
 * The source file and line of addr: 1 and *file (NULL when the table
 * names no file) and *line (0: none), or 0 when no row covers addr.
 * The strings stay with dl.
 */
int
dwline_find(const struct dwline *dl, uint64_t addr, const char **file,
    uint32_t *line)
{
	const struct dwrow *w;
	size_t lo = 0, hi = dl->nrows, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (dl->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || (w = &dl->rows[lo - 1])->file == DWL_END)
		return 0;
	*file = w->file < dl->nfiles ? dl->files[w->file] : NULL;
	*line = w->line;
	return 1;
}

/*
 * dwline_find(), and in *end where its row's run of code ends: the next
 * row's address, or UINT64_MAX after the last.  So a range of addresses
 * is walked a line at a time.
 */
int
dwline_span(const struct dwline *dl, uint64_t addr, const char **file,
    uint32_t *line, uint64_t *end)
{
	size_t lo = 0, hi = dl->nrows, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (dl->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*end = lo < dl->nrows ? dl->rows[lo].addr : UINT64_MAX;
	if (lo == 0 || dl->rows[lo - 1].file == DWL_END)
		return 0;
	*file = dl->rows[lo - 1].file < dl->nfiles ?
	    dl->files[dl->rows[lo - 1].file] : NULL;
	*line = dl->rows[lo - 1].line;
	return 1;
}

void
dwline_free(struct dwline *dl)
{
	size_t i;

	for (i = 0; i < dl->nfiles; i++)
		free(dl->files[i]);
	free(dl->files);
	free(dl->rows);
	memset(dl, 0, sizeof(*dl));
}

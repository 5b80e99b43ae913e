/*
 * t_expcheck.c -- read back what prof -F wrote, for the export tests.
 *
 * usage: t_expcheck folded|pprof|callgrind|gmon|svg file
 *
 * Each checker parses the whole file by the format's own rules, stops
 * with one line and status 1 at the first thing a reader would refuse,
 * and otherwise prints what the tests compare with prof's report:
 *
 *	folded		stacks N samples N
 *	pprof		types T/U ..., period N, samples N, ns N,
 *			calls N; then "calls NAME N" for each function
 *			as callee of the calls samples; "wall N", the
 *			fourth type's sum, where there is one
 *	callgrind	totals N N N, self N N, calls N, counted N (the
 *			Counted event: on each call line 0 or its calls=)
 *	gmon		hists N, rate N, samples N, arcs N, calls N
 *	svg		frames N, samples N (of the root), and every
 *			frame's width checked against the samples its
 *			tooltip (<desc>) gives
 *
 * The protobuf reader knows profile.proto's field numbers and wire
 * types; the XML reader, the well-formedness rules an SVG needs (one
 * root, nested tags that match, quoted attributes, known entities,
 * comments, CDATA, processing instructions).
 */
#include <err.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *buf;
static size_t len;
static const char *fname;

static void __attribute__((noreturn, format(printf, 1, 2)))
bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", fname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void
slurp(const char *path)
{
	FILE *fp;
	size_t cap = 1 << 16, n;

	fname = path;
	if ((fp = fopen(path, "rb")) == NULL)
		err(1, "%s", path);
	buf = malloc(cap + 1);
	while (buf != NULL && (n = fread(buf + len, 1, cap - len, fp)) > 0)
		if ((len += n) == cap)
			buf = realloc(buf, (cap *= 2) + 1);
	if (buf == NULL)
		err(1, "malloc");
	buf[len] = '\0';
	fclose(fp);
}

/* --- folded -------------------------------------------------------- */

static void
check_folded(void)
{
	char *line, *next, *sp, *f;
	uint64_t n, stacks = 0, samples = 0;
	size_t lineno = 0;

	for (line = (char *)buf; *line != '\0'; line = next) {
		lineno++;
		if ((next = strchr(line, '\n')) == NULL)
			bad("line %zu: no newline at the end", lineno);
		*next++ = '\0';
		if ((sp = strrchr(line, ' ')) == NULL || sp[1] == '\0')
			bad("line %zu: no count", lineno);
		for (f = sp + 1; *f != '\0'; f++)
			if (*f < '0' || *f > '9')
				bad("line %zu: count not a whole number",
				    lineno);
		n = strtoull(sp + 1, NULL, 10);
		if (n == 0 || sp[1] == '0')
			bad("line %zu: count zero or padded", lineno);
		*sp = '\0';
		for (f = line;; f++) {
			if (*f == ';' || *f == '\0') {
				if (f == line || f[-1] == ';')
					bad("line %zu: empty frame", lineno);
				if (*f == '\0')
					break;
			}
		}
		stacks++;
		samples += n;
	}
	printf("stacks %" PRIu64 " samples %" PRIu64 "\n", stacks, samples);
}

/* --- protobuf ------------------------------------------------------ */

struct span {
	const unsigned char	*p;
	size_t			 n;
};

static uint64_t
varint(struct span *s)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; shift < 64; shift += 7) {
		if (s->n == 0)
			bad("varint runs past its message");
		v |= (uint64_t)(*s->p & 0x7f) << shift;
		s->n--;
		if ((*s->p++ & 0x80) == 0)
			return v;
	}
	bad("varint longer than 10 bytes");
}

/* The next field of s: its number, wire type, value or bytes. */
static int
field(struct span *s, unsigned *num, uint64_t *v, struct span *sub)
{
	uint64_t key;

	if (s->n == 0)
		return 0;
	key = varint(s);
	*num = (unsigned)(key >> 3);
	if (*num == 0)
		bad("field number 0");
	switch (key & 7) {
	case 0:
		*v = varint(s);
		sub->p = NULL;
		return 1;
	case 2:
		*v = varint(s);
		if (*v > s->n)
			bad("field %u: length %" PRIu64 " past its message",
			    *num, *v);
		sub->p = s->p;
		sub->n = (size_t)*v;
		s->p += *v;
		s->n -= (size_t)*v;
		return 2;
	default:
		bad("field %u: wire type %u, not one profile.proto uses",
		    *num, (unsigned)(key & 7));
	}
}

/* What pprof needs of a profile, gathered. */
struct pprof {
	struct span	*strs;
	size_t		 nstrs;
	uint64_t	 types[8][2];
	size_t		 ntypes;
	uint64_t	*locs;		/* location ids */
	uint64_t	*locfn;		/* and their first line's function */
	uint64_t	*locmap;	/* and mapping */
	size_t		 nlocs;
	uint64_t	*fns;		/* function ids */
	uint64_t	*fnname;
	size_t		 nfns;
	uint64_t	*maps;
	size_t		 nmaps;
	uint64_t	 sums[8];
	uint64_t	 period;
	uint64_t	 deftype;
	struct span	*samples;
	size_t		 nsamples;
};

static void *
grow(void *p, size_t n, size_t size)
{
	if ((p = realloc(p, (n + 1) * size)) == NULL)
		err(1, "realloc");
	return p;
}

static void
want_len(int wt, unsigned num, const char *msg)
{
	if (wt != 2)
		bad("%s field %u: not length-delimited", msg, num);
}

static void
want_varint(int wt, unsigned num, const char *msg)
{
	if (wt != 1)
		bad("%s field %u: not a varint", msg, num);
}

/* Every field of a message of varints, and nested lines for locations. */
static void
walk_msg(struct span s, const char *msg, uint64_t *id, uint64_t *f2,
    uint64_t *f4sub)
{
	struct span sub, l;
	uint64_t v, lv;
	unsigned num, ln;
	int wt;

	*id = 0;
	while ((wt = field(&s, &num, &v, &sub)) != 0) {
		if (num == 4 && f4sub != NULL) {
			want_len(wt, num, msg);
			while ((wt = field(&sub, &ln, &lv, &l)) != 0)
				if (ln == 1)
					*f4sub = lv;
			continue;
		}
		want_varint(wt, num, msg);
		if (num == 1)
			*id = v;
		if (num == 2 && f2 != NULL)
			*f2 = v;
	}
	if (*id == 0)
		bad("%s without an id", msg);
}

static void
value_type(struct pprof *pp, struct span s)
{
	struct span sub;
	uint64_t v;
	unsigned num;
	int wt;

	if (pp->ntypes == 8)
		bad("more than 8 sample types");
	while ((wt = field(&s, &num, &v, &sub)) != 0) {
		want_varint(wt, num, "ValueType");
		if (num == 1 || num == 2)
			pp->types[pp->ntypes][num - 1] = v;
	}
	pp->ntypes++;
}

static void
profile_field(struct pprof *pp, unsigned num, int wt, uint64_t v,
    struct span sub)
{
	uint64_t id, x = 0, y = 0;

	switch (num) {
	case 1:
		want_len(wt, num, "Profile");
		value_type(pp, sub);
		break;
	case 2:
		want_len(wt, num, "Profile");
		pp->samples = grow(pp->samples, pp->nsamples, sizeof(sub));
		pp->samples[pp->nsamples++] = sub;
		break;
	case 3:
		want_len(wt, num, "Profile");
		walk_msg(sub, "Mapping", &id, NULL, NULL);
		pp->maps = grow(pp->maps, pp->nmaps, sizeof(id));
		pp->maps[pp->nmaps++] = id;
		break;
	case 4:
		want_len(wt, num, "Profile");
		walk_msg(sub, "Location", &id, &x, &y);
		pp->locs = grow(pp->locs, pp->nlocs, sizeof(id));
		pp->locfn = grow(pp->locfn, pp->nlocs, sizeof(id));
		pp->locmap = grow(pp->locmap, pp->nlocs, sizeof(id));
		pp->locfn[pp->nlocs] = y;
		pp->locmap[pp->nlocs] = x;
		pp->locs[pp->nlocs++] = id;
		break;
	case 5:
		want_len(wt, num, "Profile");
		walk_msg(sub, "Function", &id, &x, NULL);
		pp->fns = grow(pp->fns, pp->nfns, sizeof(id));
		pp->fnname = grow(pp->fnname, pp->nfns, sizeof(id));
		pp->fnname[pp->nfns] = x;
		pp->fns[pp->nfns++] = id;
		break;
	case 6:
		want_len(wt, num, "Profile");
		pp->strs = grow(pp->strs, pp->nstrs, sizeof(sub));
		pp->strs[pp->nstrs++] = sub;
		break;
	case 11:
		want_len(wt, num, "Profile");
		break;
	case 12:
		want_varint(wt, num, "Profile");
		pp->period = v;
		break;
	case 14:
		want_varint(wt, num, "Profile");
		pp->deftype = v;
		break;
	default:
		break;
	}
}

static size_t
find_id(const uint64_t *ids, size_t n, uint64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return i;
	return SIZE_MAX;
}

static void
put_str(const struct pprof *pp, uint64_t i)
{
	if (i >= pp->nstrs)
		bad("string index %" PRIu64 " past the table", i);
	fwrite(pp->strs[i].p, 1, pp->strs[i].n, stdout);
}

/* A sample: its locations exist, its values one a type. */
static void
sample(struct pprof *pp, struct span s)
{
	struct span sub, vals;
	uint64_t v, loc[2] = { 0, 0 }, vv[8];
	size_t nloc = 0, nv = 0, k;
	unsigned num;
	int wt;

	while ((wt = field(&s, &num, &v, &sub)) != 0) {
		if (num == 1 && wt == 2)
			while (sub.n > 0) {
				v = varint(&sub);
				if (find_id(pp->locs, pp->nlocs, v) == SIZE_MAX)
					bad("sample: no location %" PRIu64, v);
				if (nloc < 2)
					loc[nloc] = v;
				nloc++;
			}
		else if (num == 2 && wt == 2) {
			vals = sub;
			while (vals.n > 0) {
				if (nv == 8)
					bad("sample: too many values");
				vv[nv++] = varint(&vals);
			}
		} else if (num != 3)
			bad("sample field %u", num);
	}
	if (nv != pp->ntypes)
		bad("sample: %zu values for %zu sample types", nv, pp->ntypes);
	for (k = 0; k < nv; k++)
		pp->sums[k] += vv[k];
	if (nv >= 3 && vv[2] > 0) {
		k = find_id(pp->locs, pp->nlocs, loc[0]);
		k = find_id(pp->fns, pp->nfns, pp->locfn[k]);
		if (k == SIZE_MAX)
			bad("location %" PRIu64 ": no function", loc[0]);
		fputs("calls ", stdout);
		put_str(pp, pp->fnname[k]);
		printf(" %" PRIu64 "\n", vv[2]);
	}
}

/* Static: what it points to stays reachable until exit. */
static struct pprof pp;

static void
check_pprof(void)
{
	struct span s = { buf, len }, sub;
	uint64_t v;
	unsigned num;
	size_t i;
	int wt;

	memset(&pp, 0, sizeof(pp));
	while ((wt = field(&s, &num, &v, &sub)) != 0)
		profile_field(&pp, num, wt == 2 ? 2 : 1, v, sub);
	if (pp.nstrs == 0 || pp.strs[0].n != 0)
		bad("string_table[0] is not \"\"");
	if (pp.ntypes == 0)
		bad("no sample_type");
	for (i = 0; i < pp.nlocs; i++) {
		if (pp.locs[i] == 0 || find_id(pp.locs, i, pp.locs[i]) !=
		    SIZE_MAX)
			bad("location id 0 or twice");
		if (pp.locmap[i] != 0 &&
		    find_id(pp.maps, pp.nmaps, pp.locmap[i]) == SIZE_MAX)
			bad("location %" PRIu64 ": no mapping %" PRIu64,
			    pp.locs[i], pp.locmap[i]);
		if (find_id(pp.fns, pp.nfns, pp.locfn[i]) == SIZE_MAX)
			bad("location %" PRIu64 ": no function %" PRIu64,
			    pp.locs[i], pp.locfn[i]);
	}
	printf("types");
	for (i = 0; i < pp.ntypes; i++) {
		putchar(' ');
		put_str(&pp, pp.types[i][0]);
		putchar('/');
		put_str(&pp, pp.types[i][1]);
	}
	printf("\ndefault ");
	put_str(&pp, pp.deftype);
	printf("\nperiod %" PRIu64 "\n", pp.period);
	for (i = 0; i < pp.nsamples; i++)
		sample(&pp, pp.samples[i]);
	printf("samples %" PRIu64 " ns %" PRIu64 " calls %" PRIu64 "\n",
	    pp.sums[0], pp.sums[1], pp.sums[2]);
	if (pp.ntypes > 3)
		printf("wall %" PRIu64 "\n", pp.sums[3]);
}

/* --- callgrind ----------------------------------------------------- */

#define CG_EVENTS	3
#define CG_NAMES	(1 << 20)

static char cgdefined[CG_NAMES];	/* compressed names, by number */

/* A name spec "(n) name" or "(n)": n defined before it is used. */
static void
cg_name(const char *v, size_t lineno, int kind)
{
	char *end;
	unsigned long n;

	if (v[0] != '(')
		return;		/* a name, uncompressed */
	n = strtoul(v + 1, &end, 10);
	if (*end != ')' || n == 0 || n >= CG_NAMES / 4)
		bad("line %zu: bad name number", lineno);
	n = n * 4 + (unsigned long)kind;
	if (end[1] == ' ' && end[2] != '\0')
		cgdefined[n] = 1;
	else if (end[1] != '\0' || !cgdefined[n])
		bad("line %zu: name (%lu) used before it is defined", lineno,
		    n / 4);
}

/* A cost line: a position and CG_EVENTS numbers, summed into sum. */
static void
cg_cost(char *line, size_t lineno, uint64_t *sum)
{
	char *p = line, *end;
	int i;

	for (i = 0; i <= CG_EVENTS; i++) {
		if (*p < '0' || *p > '9')
			bad("line %zu: not a cost line", lineno);
		if (i > 0)
			sum[i - 1] += strtoull(p, &end, 10);
		else
			(void)strtoull(p, &end, 10);
		p = end;
		if (*p == ' ')
			p++;
	}
	if (*p != '\0')
		bad("line %zu: more numbers than events", lineno);
}

static int
cg_kind(const char *key)
{
	if (strcmp(key, "ob") == 0 || strcmp(key, "cob") == 0)
		return 1;
	/* fi= and fe=: lines inlined from another file, and back. */
	if (strcmp(key, "fl") == 0 || strcmp(key, "cfl") == 0 ||
	    strcmp(key, "fi") == 0 || strcmp(key, "fe") == 0)
		return 2;
	if (strcmp(key, "fn") == 0 || strcmp(key, "cfn") == 0)
		return 3;
	return 0;
}

static void
check_callgrind(void)
{
	char *line, *next, *eq;
	uint64_t self[CG_EVENTS] = { 0 }, incl[CG_EVENTS] = { 0 };
	uint64_t tot[CG_EVENTS], calls = 0, n = 0, was;
	char tl[128];
	size_t lineno = 0;
	int aftercalls = 0, events = 0, totals = 0, k;

	if (strncmp((char *)buf, "# callgrind format\n", 19) != 0)
		bad("no '# callgrind format' line");
	for (line = (char *)buf; *line != '\0'; line = next) {
		lineno++;
		if ((next = strchr(line, '\n')) == NULL)
			bad("line %zu: no newline at the end", lineno);
		*next++ = '\0';
		if (aftercalls) {
			was = incl[2];
			cg_cost(line, lineno, incl);
			if (incl[2] - was != 0 && incl[2] - was != n)
				bad("line %zu: Counted %" PRIu64 " is neither 0 "
				    "nor calls=%" PRIu64, lineno, incl[2] - was, n);
			aftercalls = 0;
		} else if (line[0] == '#' || line[0] == '\0')
			continue;
		else if (line[0] >= '0' && line[0] <= '9')
			cg_cost(line, lineno, self);
		else if (strncmp(line, "calls=", 6) == 0) {
			n = strtoull(line + 6, NULL, 10);
			if (n == 0)
				bad("line %zu: calls=0, which callgrind_annotate "
				    "takes for no call", lineno);
			calls += n;
			aftercalls = 1;
		} else if ((eq = strchr(line, '=')) != NULL &&
		    memchr(line, ':', (size_t)(eq - line)) == NULL) {
			/* A name may hold a colon: "[kernel: ...]", a::f. */
			*eq = '\0';
			if ((k = cg_kind(line)) == 0)
				bad("line %zu: unknown key %s", lineno, line);
			cg_name(eq + 1, lineno, k);
		} else if (strcmp(line, "events: Samples Nanoseconds Counted") ==
		    0)
			events = 1;
		else if (strncmp(line, "totals: ", 8) == 0) {
			memset(tot, 0, sizeof(tot));
			(void)snprintf(tl, sizeof(tl), "0 %s", line + 8);
			cg_cost(tl, lineno, tot);
			totals = 1;
		} else if (strchr(line, ':') == NULL)
			bad("line %zu: neither a header, a name nor a cost",
			    lineno);
	}
	if (aftercalls || !events || !totals)
		bad("a calls= line without its cost, or no events or totals");
	if (tot[0] != self[0] || tot[1] != self[1])
		bad("totals %" PRIu64 " are not the self costs' %" PRIu64,
		    tot[0], self[0]);
	if (self[2] != 0 || tot[2] != incl[2])
		bad("Counted: %" PRIu64 " on self lines, totals %" PRIu64
		    " not the call lines' %" PRIu64, self[2], tot[2], incl[2]);
	printf("totals %" PRIu64 " %" PRIu64 " %" PRIu64 " self %" PRIu64
	    " %" PRIu64 " calls %" PRIu64 " counted %" PRIu64 "\n", tot[0],
	    tot[1], tot[2], self[0], self[1], calls, incl[2]);
}

/* --- gmon.out ------------------------------------------------------ */

static uint64_t
get(size_t *off, size_t n)
{
	uint64_t v = 0;

	if (*off + n > len)
		bad("record cut short at byte %zu", *off);
	memcpy(&v, buf + *off, n);	/* little-endian, as gprof here */
	*off += n;
	return v;
}

/*
 * Histogram records: ranges the same or apart (gprof adds up the
 * same, refuses overlapping ones), one rate.
 */
static void
check_gmon(void)
{
	uint64_t lo[4096], hi[4096], a, b, n, rate = 0, r, samples = 0;
	uint64_t arcs = 0, calls = 0;
	size_t off = 20, nh = 0, i;

	if (len < 20 || memcmp(buf, "gmon", 4) != 0 ||
	    buf[4] != 1 || buf[5] != 0 || buf[6] != 0 || buf[7] != 0)
		bad("no gmon header of version 1");
	while (off < len) {
		switch (get(&off, 1)) {
		case 0:
			a = get(&off, 8);
			b = get(&off, 8);
			n = get(&off, 4);
			r = get(&off, 4);
			if (memcmp(buf + off, "seconds\0", 8) != 0 ||
			    buf[off + 15] != 's')
				bad("histogram dimension not seconds");
			off += 16;
			if (a >= b || n == 0 || (rate != 0 && r != rate))
				bad("histogram range, bins or rate wrong");
			rate = r;
			for (i = 0; i < nh; i++)
				if (!(a == lo[i] && b == hi[i]) &&
				    a < hi[i] && lo[i] < b)
					bad("histograms overlap");
			if (nh < 4096) {
				lo[nh] = a;
				hi[nh++] = b;
			}
			for (i = 0; i < n; i++)
				samples += get(&off, 2);
			break;
		case 1:
			(void)get(&off, 8);
			(void)get(&off, 8);
			calls += get(&off, 4);
			arcs++;
			break;
		default:
			bad("unknown record tag at byte %zu", off - 1);
		}
	}
	printf("hists %zu rate %" PRIu64 " samples %" PRIu64 " arcs %"
	    PRIu64 " calls %" PRIu64 "\n", nh, rate, samples, arcs, calls);
}

/* --- SVG ----------------------------------------------------------- */

static const char *xp;		/* where the XML reader is */

static void
xml_skip(const char *end, const char *what)
{
	const char *e = strstr(xp, end);

	if (e == NULL)
		bad("%s not closed", what);
	xp = e + strlen(end);
}

/* Text or an attribute value: every & an entity prof may write. */
static void
xml_text(const char *s, const char *end)
{
	static const char *ents[] = { "&amp;", "&lt;", "&gt;", "&quot;",
	    "&apos;", "&#10;" };
	size_t i;

	for (; s < end; s++) {
		if (*s == '<')
			bad("'<' in text");
		if (*s != '&')
			continue;
		for (i = 0; i < sizeof(ents) / sizeof(ents[0]); i++)
			if (strncmp(s, ents[i], strlen(ents[i])) == 0)
				break;
		if (i == sizeof(ents) / sizeof(ents[0]))
			bad("unknown entity");
	}
}

/* A start or end tag at xp; its name into name; 1 if it is empty. */
static int
xml_tag(char *name, size_t size, int *end)
{
	const char *s, *q;
	size_t n;

	*end = *++xp == '/';
	xp += *end;
	for (s = xp; *xp != '\0' && strchr(" \t\n/>", *xp) == NULL; xp++)
		;
	if ((n = (size_t)(xp - s)) == 0 || n >= size)
		bad("tag without a name");
	memcpy(name, s, n);
	name[n] = '\0';
	for (;;) {
		while (*xp == ' ' || *xp == '\n' || *xp == '\t')
			xp++;
		if (*xp == '>' || (xp[0] == '/' && xp[1] == '>'))
			break;
		if (*end)
			bad("attributes on an end tag");
		while (*xp != '\0' && *xp != '=' && *xp != '>' && *xp != ' ')
			xp++;
		if (xp[0] != '=' || (xp[1] != '"' && xp[1] != '\''))
			bad("attribute without a quoted value in <%s>", name);
		if ((q = strchr(xp + 2, xp[1])) == NULL)
			bad("attribute value not closed");
		xml_text(xp + 2, q);
		xp = q + 1;
	}
	if (*xp == '/') {
		xp += 2;
		return 1;
	}
	xp++;
	return 0;
}

/* Well-formed: tags nest and match, one root, nothing else outside. */
static void
check_xml(void)
{
	char stack[64][32], name[32];
	const char *t;
	size_t depth = 0, roots = 0;
	int end;

	for (xp = (const char *)buf; *xp != '\0';) {
		if (*xp != '<') {
			t = strchr(xp, '<');
			t = t != NULL ? t : xp + strlen(xp);
			xml_text(xp, t);
			if (depth == 0 && strspn(xp, " \n\t") < (size_t)(t - xp))
				bad("text outside the root");
			xp = t;
		} else if (strncmp(xp, "<?", 2) == 0)
			xml_skip("?>", "processing instruction");
		else if (strncmp(xp, "<!--", 4) == 0)
			xml_skip("-->", "comment");
		else if (strncmp(xp, "<![CDATA[", 9) == 0 && depth > 0)
			xml_skip("]]>", "CDATA");
		else if (xml_tag(name, sizeof(name), &end)) {
			if (depth == 0 && roots++ > 0)
				bad("a second root");
		} else if (end) {
			if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
				bad("</%s> closes nothing open", name);
			depth--;
		} else {
			if (depth == 0 && roots++ > 0)
				bad("a second root");
			if (depth == 64)
				bad("tags nested too deep");
			memcpy(stack[depth++], name, sizeof(name));
		}
	}
	if (depth != 0 || roots != 1)
		bad("%zu tags left open, %zu roots", depth, roots);
}

/* A number after key in [s, end), or -1. */
static double
attr(const char *s, const char *end, const char *key)
{
	const char *a = strstr(s, key);

	return a == NULL || a > end ? -1 : strtod(a + strlen(key), NULL);
}

/*
 * Every frame: the samples its tooltip gives, its box's width; the
 * root "all" gives the pixels a sample.
 */
static void
check_svg(void)
{
	const char *g, *e, *t;
	double scale = -1, w, n;
	uint64_t frames = 0, all = 0;
	int pass;

	check_xml();
	for (pass = 0; pass < 2; pass++) {
		for (g = strstr((char *)buf, "<g class=\"f\">"); g != NULL;
		    g = strstr(e, "<g class=\"f\">")) {
			/* the figures follow the name, which may say
			   "sample" itself ([unsampled: ...]) */
			if ((e = strstr(g, "</g>")) == NULL ||
			    (t = strstr(g, "&#10;")) == NULL ||
			    (t = strstr(t, " sample")) == NULL || t > e)
				bad("a frame without its samples");
			while (t > g && t[-1] >= '0' && t[-1] <= '9')
				t--;
			n = strtod(t, NULL);
			w = attr(g, e, "width=\"");
			if (n <= 0 || w <= 0)
				bad("a frame of no samples or no width");
			if (pass == 0 && strncmp(g + 19, "all&#10;", 8) == 0) {
				scale = w / n;
				all = (uint64_t)n;
			}
			if (pass == 1 && (w - n * scale > 0.011 ||
			    n * scale - w > 0.011))
				bad("a frame %.2f wide for %.0f samples, not "
				    "%.2f", w, n, n * scale);
			frames += pass;
		}
		if (scale <= 0)
			bad("no root frame \"all\"");
	}
	printf("frames %" PRIu64 " samples %" PRIu64 "\n", frames, all);
}

int
main(int argc, char *argv[])
{
	if (argc != 3)
		errx(1, "usage: t_expcheck folded|pprof|callgrind|gmon|svg "
		    "file");
	slurp(argv[2]);
	if (strcmp(argv[1], "folded") == 0)
		check_folded();
	else if (strcmp(argv[1], "pprof") == 0)
		check_pprof();
	else if (strcmp(argv[1], "callgrind") == 0)
		check_callgrind();
	else if (strcmp(argv[1], "gmon") == 0)
		check_gmon();
	else if (strcmp(argv[1], "svg") == 0)
		check_svg();
	else
		errx(1, "%s: no such format", argv[1]);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(1, "stdout");
	return 0;
}

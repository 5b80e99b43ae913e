/*
 * svg.c -- prof -F svg: a flame graph, drawn by prof itself.
 *
 * One self-contained SVG file: no font, script or style from anywhere
 * else.  Each frame is a box as wide as its samples (the whole width
 * is every sample of the stacks), on top of its caller; the root,
 * "all", at the bottom.  Boxes are coloured by object: warm hues for
 * the program, a hue of its own for each library, grey for the frames
 * of no object (the kernel's time, what no function names); a legend
 * under the graph says which is which.  The boxes hold the report's
 * samples (stacks.c): the title gives the program, their seconds,
 * libmon's overhead apart, and the clock and rate as -s gives them.
 *
 * Each frame's tooltip gives its name, seconds, share of the stacks'
 * samples and its samples, and the calls mcount counted where there are
 * some: the function's calls in all and, when the arc was counted, those
 * from the caller below it.  The text is the frame's <desc>, which the
 * script makes its <title> -- the tooltip every browser shows -- when
 * the pointer first comes over it: Chromium takes time that grows with
 * the square of the number of <title> elements to open a file, 20 s for
 * 16,000 frames, and no time for <desc>.
 *
 * A name is elided with ".." to fit its box, and left out of a box too
 * narrow for three characters: the font is monospace
 * so that prof knows how wide a name is.  Boxes narrower than MIN_PX
 * are not drawn (their samples are in their caller's width), so that a
 * graph of many thousand frames stays quick to open.
 *
 * The frames are laid out in one pass over the stacks, which are sorted
 * by their frames' names: stacks that share a caller are next to each
 * other, so a frame opens where a stack first holds it and closes when
 * the next stack does not.  A short script, inline, zooms into the
 * frame clicked: its callers span the width, its callees widen with
 * it, the rest hide; a click on "all" or Escape goes back.
 *
 * A second one searches, as flamegraph.pl's does: "Search" at the top
 * right, or Ctrl-F, asks for a regular expression (JavaScript's), the
 * boxes whose names match turn magenta, and the bottom right says what
 * share of all the samples, and how many seconds, pass through a match:
 * the widths of the matching boxes, a box inside another counted once.
 * A second click on the button clears the search; "?s=regex" after the
 * file's URL searches as it opens, and window.flameSearch(regex) from
 * outside (tests/prof/svgsearch.js runs it under node).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

#define SVG_W		1200.0	/* the picture's width */
#define PAD		10.0	/* left and right margin */
#define FRAME_H		16	/* a row of frames */
#define TOP		56	/* room for the title */
#define LEGEND_H	28
#define CHAR_W		7.3	/* monospace 12px: a character's advance */
#define MIN_PX		0.1	/* boxes narrower are not drawn */
#define NHUES		6	/* library hues, then round again */

struct svg {
	const struct xset *x;
	FILE		*fp;
	double		 scale;		/* pixels a sample */
	size_t		 maxdepth;	/* frames of the deepest stack */
	size_t		*open;		/* ids of the frames open, by depth */
	uint64_t	*start;		/* and the sample each opened at */
	char		*seen;		/* objects drawn, for the legend */
	size_t		 nseen;
};

/* Text for XML: the markup characters as entities. */
static void
put_xml(FILE *fp, const char *s, size_t n)
{
	for (; n > 0 && *s != '\0'; s++, n--) {
		switch (*s) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		default:
			fputc(*s, fp);
		}
	}
}

/* Bytes of s that hold its first n characters (UTF-8). */
static size_t
char_bytes(const char *s, size_t n)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && n-- == 0)
			break;
	return i;
}

static size_t
char_count(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* A small hash of a name, for the shade of its box. */
static unsigned
shade(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The slot of a frame's object in svg.seen: objects, then no object. */
static size_t
seen_slot(const struct svg *g, size_t id)
{
	size_t obj;

	obj = xset_object(g->x, id);
	return obj == OBJ_NONE ? g->nseen - 1 : obj;
}

/* The fill of a slot, its shade varied by h. */
static void
put_fill(const struct svg *g, size_t slot, unsigned h)
{
	static const int hues[NHUES] = { 210, 130, 275, 185, 320, 55 };

	if (slot == SIZE_MAX)		/* all */
		fputs("hsl(40,10%,84%)", g->fp);
	else if (slot == g->nseen - 1)
		fprintf(g->fp, "hsl(0,0%%,%u%%)", 72 + h % 10);
	else if (slot == OBJ_MAIN)
		fprintf(g->fp, "hsl(%u,80%%,%u%%)", h % 45, 55 + h / 45 % 12);
	else
		fprintf(g->fp, "hsl(%d,60%%,%u%%)",
		    hues[(slot - 1) % NHUES] + (int)(h % 20) - 10,
		    62 + h / 20 % 14);
}

/* The calls line of a tooltip: the function's, and from its caller. */
static void
put_calls(const struct svg *g, size_t caller, size_t id)
{
	const struct report *r = g->x->r;
	const struct row *w = xset_row(g->x, id);
	size_t k;

	if (w == NULL || w->calls == 0)
		return;
	fprintf(g->fp, "&#10;%" PRIu64 " call%s in all", w->calls,
	    w->calls == 1 ? "" : "s");
	if (caller == SIZE_MAX || caller >= r->nrows ||
	    (k = graph_find(&r->g, caller, id)) == SIZE_MAX ||
	    !r->g.arcs[k].counted)
		return;
	fprintf(g->fp, ", %" PRIu64 " from ", r->g.arcs[k].calls);
	put_xml(g->fp, g->x->labels[caller], SIZE_MAX);
}

/* A box's name, elided to fit w pixels, or nothing. */
static void
put_name(const struct svg *g, const char *name, double x, double y,
    double w)
{
	size_t fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;

	if (fit < 3)
		return;
	fprintf(g->fp, "<text x=\"%.2f\" y=\"%.0f\">", x + 3, y + 11.5);
	if (char_count(name) <= fit)
		put_xml(g->fp, name, SIZE_MAX);
	else {
		put_xml(g->fp, name, char_bytes(name, fit - 2));
		fputs("..", g->fp);
	}
	fputs("</text>", g->fp);
}

/*
 * The box of frame id at depth d (0 is "all"), over samples
 * [from, to) of the stacks; caller is the frame under it.
 */
static void
frame(struct svg *g, size_t id, size_t caller, size_t d, uint64_t from,
    uint64_t to)
{
	const char *name = id == SIZE_MAX ? "all" : g->x->labels[id];
	double x = PAD + (double)from * g->scale;
	double w = (double)(to - from) * g->scale, y;
	uint64_t n = to - from;
	size_t slot = id == SIZE_MAX ? SIZE_MAX : seen_slot(g, id);

	if (w < MIN_PX)
		return;
	if (slot != SIZE_MAX)
		g->seen[slot] = 1;
	y = TOP + (double)(g->maxdepth - d) * FRAME_H;
	fputs("<g class=\"f\"><desc>", g->fp);
	put_xml(g->fp, name, SIZE_MAX);
	if (g->x->measured)
		fprintf(g->fp, "&#10;%.6f s, %.2f%%, measured",
		    xset_seconds(g->x, (double)n), 100.0 * (double)n /
		    (double)g->x->count);
	else
		fprintf(g->fp, "&#10;%.3f s, %.2f%%, %" PRIu64 " sample%s",
		    xset_seconds(g->x, (double)n), 100.0 * (double)n /
		    (double)g->x->count, n, n == 1 ? "" : "s");
	if (id != SIZE_MAX)
		put_calls(g, caller, id);
	fprintf(g->fp, "</desc><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" "
	    "height=\"%d\" fill=\"", x, y, w, FRAME_H - 1);
	put_fill(g, slot, shade(name));
	fputs("\"/>", g->fp);
	put_name(g, name, x, y, w);
	fputs("</g>\n", g->fp);
}

/* Close the open frames deeper than keep, up to sample at. */
static void
close_to(struct svg *g, size_t *depth, size_t keep, uint64_t at)
{
	while (*depth > keep) {
		(*depth)--;
		frame(g, g->open[*depth], *depth > 0 ? g->open[*depth - 1] :
		    SIZE_MAX, *depth + 1, g->start[*depth], at);
	}
}

/* Every frame, in one pass over the sorted stacks. */
static void
frames(struct svg *g)
{
	const struct xset *x = g->x;
	const struct xstack *s;
	const size_t *id;
	uint64_t at = 0;
	size_t i, j, depth = 0;

	for (i = 0; i < x->nstacks; i++) {
		s = &x->stacks[i];
		if (s->count == 0)
			continue;
		id = x->ids + s->first;
		for (j = 0; j < depth && j < s->depth && g->open[j] == id[j];
		    j++)
			;
		close_to(g, &depth, j, at);
		for (; depth < s->depth; depth++) {
			g->open[depth] = id[depth];
			g->start[depth] = at;
		}
		at += s->count;
	}
	close_to(g, &depth, 0, at);
	frame(g, SIZE_MAX, SIZE_MAX, 0, 0, at);
}

/*
 * The zoom, inline.  A frame's callers are the boxes under it that span
 * it, its callees those above it that it spans; names are elided again
 * for the new widths, from the first line of each tooltip.
 */
static const char script[] =
"<script><![CDATA[\n"
"var L = 10, W = 1180, CW = 7.3, fr = [];\n"
"function fit(f, x, w) {\n"
"	f.r.setAttribute('x', x.toFixed(2));\n"
"	f.r.setAttribute('width', w.toFixed(2));\n"
"	var n = Math.floor((w - 6) / CW), s = f.n;\n"
"	if (f.t == null) {\n"
"		if (n < 3) return;\n"
"		f.t = document.createElementNS('http://www.w3.org/2000/svg',"
" 'text');\n"
"		f.t.setAttribute('y', f.y + 11.5);\n"
"		f.g.appendChild(f.t);\n"
"	}\n"
"	if (n < 3) s = ''; else if (s.length > n) s = s.slice(0, n - 2) +"
" '..';\n"
"	f.t.textContent = s;\n"
"	f.t.setAttribute('x', (x + 3).toFixed(2));\n"
"}\n"
"function zoom(z) {\n"
"	var e = 0.02;\n"
"	fr.forEach(function (f) {\n"
"		var show = true;\n"
"		if (z == null) fit(f, f.x, f.w);\n"
"		else if (f.y >= z.y && f.x <= z.x + e && f.x + f.w >= z.x + "
"z.w - e) fit(f, L, W);\n"
"		else if (f.y < z.y && f.x >= z.x - e && f.x + f.w <= z.x + "
"z.w + e) fit(f, L + (f.x - z.x) * W / z.w, f.w * W / z.w);\n"
"		else show = false;\n"
"		f.g.style.display = show ? '' : 'none';\n"
"	});\n"
"}\n"
"document.querySelectorAll('g.f').forEach(function (g) {\n"
"	var r = g.querySelector('rect'), f = { g: g, r: r,\n"
"	    t: g.querySelector('text'), x: +r.getAttribute('x'),\n"
"	    w: +r.getAttribute('width'), y: +r.getAttribute('y'),\n"
"	    n: g.querySelector('desc').textContent.split('\\n')[0] };\n"
"	fr.push(f);\n"
"	g.addEventListener('mouseover', function () {\n"
"		if (f.tip) return;\n"
"		f.tip = document.createElementNS('http://www.w3.org/2000/svg',"
" 'title');\n"
"		f.tip.textContent = g.querySelector('desc').textContent;\n"
"		g.insertBefore(f.tip, g.firstChild); });\n"
"	g.addEventListener('click', function () {\n"
"		zoom(f.n == 'all' && f == fr[fr.length - 1] ? null : f); });\n"
"});\n"
"document.addEventListener('keydown', function (ev) {\n"
"	if (ev.key == 'Escape') zoom(null); });\n"
"]]></script>\n";

/*
 * The search, inline: the widths are read as drawn, before any zoom;
 * the widest box is "all", the whole.
 */
static const char search_script[] =
"<script><![CDATA[\n"
"(function () {\n"
"var fs = [], all = null, on = false,\n"
"    btn = document.getElementById('search'),\n"
"    msg = document.getElementById('matched');\n"
"document.querySelectorAll('g.f').forEach(function (g) {\n"
"	var r = g.querySelector('rect'), d = g.querySelector('desc'),\n"
"	    f = { r: r, fill: r.getAttribute('fill'),\n"
"	    x: +r.getAttribute('x'), w: +r.getAttribute('width'),\n"
"	    n: d.textContent.split('\\n')[0],\n"
"	    s: parseFloat(d.textContent.split('\\n')[1]) };\n"
"	if (all == null || f.w > all.w) all = f;\n"
"	fs.push(f);\n"
"});\n"
"function clear() {\n"
"	fs.forEach(function (f) { f.r.setAttribute('fill', f.fill); });\n"
"	msg.textContent = '';\n"
"	btn.textContent = 'Search';\n"
"	on = false;\n"
"}\n"
"function search(term) {\n"
"	var re, m = [], sum = 0, end = -1;\n"
"	clear();\n"
"	try { re = new RegExp(term); } catch (e) {\n"
"		msg.textContent = 'not a regular expression: ' + term;\n"
"		return;\n"
"	}\n"
"	fs.forEach(function (f) {\n"
"		if (f == all || !re.test(f.n)) return;\n"
"		f.r.setAttribute('fill', 'rgb(230,0,230)');\n"
"		m.push(f);\n"
"	});\n"
"	m.sort(function (a, b) { return a.x - b.x || b.w - a.w; });\n"
"	m.forEach(function (f) {\n"
"		if (f.x + f.w <= end + 0.001) return;\n"
"		sum += f.w;\n"
"		end = f.x + f.w;\n"
"	});\n"
"	msg.textContent = 'Matched ' + term + ': ' +\n"
"	    (100 * sum / all.w).toFixed(1) +\n"
"	    '% of the graph (overhead apart), ' +\n"
"	    (all.s * sum / all.w).toFixed(3) + ' s';\n"
"	btn.textContent = 'Reset search';\n"
"	on = true;\n"
"}\n"
"function ask() {\n"
"	var term;\n"
"	if (on) { clear(); return; }\n"
"	term = window.prompt('Search for (regular expression):', '');\n"
"	if (term) search(term);\n"
"}\n"
"btn.addEventListener('click', ask);\n"
"document.addEventListener('keydown', function (ev) {\n"
"	if ((ev.ctrlKey || ev.metaKey) && ev.key == 'f') {\n"
"		ev.preventDefault();\n"
"		ask();\n"
"	}\n"
"});\n"
"var q = new URLSearchParams(window.location.search).get('s');\n"
"if (q) search(q);\n"
"window.flameSearch = search;\n"
"})();\n"
"]]></script>\n";

/* The search's button and the line it answers on, and its script. */
static void
search_box(const struct svg *g, double height)
{
	fprintf(g->fp, "<text id=\"search\" class=\"s\" x=\"%.0f\" "
	    "y=\"22\" text-anchor=\"end\" style=\"cursor: pointer; "
	    "pointer-events: auto\">Search</text>\n"
	    "<text id=\"matched\" class=\"s\" x=\"%.0f\" y=\"%.0f\" "
	    "text-anchor=\"end\"></text>\n",
	    SVG_W - PAD, SVG_W - PAD, height - LEGEND_H + 18.5);
	fputs(search_script, g->fp);
}

static void
head(const struct svg *g, double height)
{
	char *title = xset_title(g->x);

	fprintf(g->fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
	    "<style>text { font: 12px monospace; fill: #000; "
	    "pointer-events: none; } .h { font: 15px sans-serif; } "
	    ".s { font: 12px sans-serif; fill: #555; } "
	    "g.f:hover rect { stroke: #000; stroke-width: 0.5; } "
	    "g.f { cursor: pointer; }</style>\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fdfdf8\"/>\n"
	    "<text class=\"h\" x=\"%.0f\" y=\"22\" text-anchor=\"middle\">",
	    SVG_W, height, SVG_W, height, SVG_W / 2);
	put_xml(g->fp, title, SIZE_MAX);
	fprintf(g->fp, "</text>\n<text class=\"s\" x=\"%.0f\" y=\"42\" "
	    "text-anchor=\"middle\">", SVG_W / 2);
	if (g->x->measured)
		fputs("every call timed; a box as wide as its calls' wall "
		    "time", g->fp);
	else
		fprintf(g->fp, "%" PRIu64 " samples%s; a box as wide as its "
		    "samples", g->x->count, g->x->flat ? " (no stacks in the "
		    "files: a box a function, self time)" : ", the report's");
	fputs(", on its caller; hover for figures, click to zoom, Esc to go "
	    "back</text>\n", g->fp);
	free(title);
}

/* The legend: a swatch and a name for each kind of box drawn. */
static void
legend(const struct svg *g, double y)
{
	double x = PAD;
	char *name;
	size_t i;

	for (i = 0; i < g->nseen; i++) {
		if (!g->seen[i])
			continue;
		if (i == g->nseen - 1)
			name = xstrdup("unknown, kernel, no stack");
		else
			name = xset_objname(g->x, i);
		fprintf(g->fp, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" "
		    "height=\"12\" fill=\"", x, y);
		put_fill(g, i, 0);
		fprintf(g->fp, "\"/><text class=\"s\" x=\"%.0f\" y=\"%.0f\">",
		    x + 16, y + 10.5);
		put_xml(g->fp, name, SIZE_MAX);
		fputs("</text>\n", g->fp);
		x += 40 + CHAR_W * (double)char_count(name);
		free(name);
	}
}

int
export_svg(const struct xset *x, FILE *fp, const char **file,
    const char **why)
{
	struct svg g;
	double height;
	size_t i;

	if (x->count == 0) {
		*file = x->p->first;
		*why = "no samples in the files: no flame graph to draw";
		return -1;
	}
	memset(&g, 0, sizeof(g));
	g.x = x;
	g.fp = fp;
	g.scale = (SVG_W - 2 * PAD) / (double)x->count;
	for (i = 0; i < x->nstacks; i++)
		if (x->stacks[i].depth > g.maxdepth)
			g.maxdepth = x->stacks[i].depth;
	g.open = xcalloc(g.maxdepth + 1, sizeof(*g.open));
	g.start = xcalloc(g.maxdepth + 1, sizeof(*g.start));
	g.nseen = x->p->nobjs + 1;
	g.seen = xcalloc(g.nseen, 1);
	height = TOP + (double)(g.maxdepth + 1) * FRAME_H + LEGEND_H;
	head(&g, height);
	frames(&g);
	legend(&g, height - LEGEND_H + 8);
	fputs(script, fp);
	search_box(&g, height);
	fputs("</svg>\n", fp);
	free(g.open);
	free(g.start);
	free(g.seen);
	return 0;
}

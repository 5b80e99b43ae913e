/*
 * figures.c -- numbers as printf prints them, without printf's cost.
 *
 * The flat report and the call graph print a few figures on each of a
 * million lines.  Below the sampled functions those figures repeat
 * (0.00, the same Cumsecs), so a column remembers its last figure and
 * formats a new one only when the value changes; integers, which
 * change on every line, are written out by hand.  Either way the bytes
 * are printf's own.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "print/print.h"

/*
 * v as printf(fmt, width, prec, v) prints it, fmt one of "%*.*f" and
 * "%#*.*f"; m remembers the last, so that a repeat costs a compare.
 */
const char *
fig_fixed(struct fixed *m, const char *fmt, int width, int prec, double v)
{
	if (!m->ok || m->v != v || m->fmt != fmt || m->width != width ||
	    m->prec != prec || (v == 0 && signbit(v) != signbit(m->v))) {
		(void)snprintf(m->s, sizeof(m->s), fmt, width, prec, v);
		m->v = v;
		m->fmt = fmt;
		m->width = width;
		m->prec = prec;
		m->ok = 1;
	}
	return m->s;
}

/* v in decimal into buf (room for 21 bytes); returns its length. */
size_t
fig_u64(char *buf, uint64_t v)
{
	char t[24];
	size_t n = 0, i;

	do
		t[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	for (i = 0; i < n; i++)
		buf[i] = t[n - 1 - i];
	buf[n] = '\0';
	return n;
}

/* n spaces on fp. */
void
fig_pad(FILE *fp, int n)
{
	static const char sp[] = "                                ";

	for (; n > (int)sizeof(sp) - 1; n -= (int)sizeof(sp) - 1)
		fputs(sp, fp);
	if (n > 0)
		fwrite(sp, 1, (size_t)n, fp);
}

/* s right-aligned in width columns, as printf("%*s"). */
void
fig_right(FILE *fp, const char *s, size_t len, int width)
{
	if ((int)len < width)
		fig_pad(fp, width - (int)len);
	fwrite(s, 1, len, fp);
}

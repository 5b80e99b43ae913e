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
 * printf("%*.*f", width, prec, v) into s, for v from 0 to 10^15 and
 * prec at most 3, by integers: v is m * 2^e exactly, and v * 10^prec
 * is rounded to the nearest integer, a tie to the even one, as printf
 * rounds the exact value in the default rounding mode.  0 if v is not
 * such a value (printf does it then).  A call graph of ten million arcs
 * has a new figure on nearly every line, and printf's own conversion
 * was a tenth of -q's time.
 */
static int
fixed_fast(char *s, size_t size, int width, int prec, double v)
{
	static const uint64_t scale[] = { 1, 10, 100, 1000 };
	uint64_t bits, m, n, rem, half, q;
	char t[48];
	int e, k, i;

	if (!(v >= 0 && v < 1e15) || signbit(v) || prec < 0 || prec > 3)
		return 0;
	memcpy(&bits, &v, sizeof(bits));
	e = (int)(bits >> 52 & 0x7ff);
	m = bits & ((1ULL << 52) - 1);
	if (e == 0)
		e = -1074;
	else {
		m |= 1ULL << 52;
		e -= 1075;
	}
	m *= scale[prec];		/* below 2^63: m < 2^53, scale 1000 */
	if (e >= 0)
		n = m << e;		/* v < 10^15: no bits lost */
	else if (e <= -64)
		n = 0;			/* m < 2^63: below a half */
	else {
		n = m >> -e;
		rem = m & ((1ULL << -e) - 1);
		half = 1ULL << (-e - 1);
		if (rem > half || (rem == half && (n & 1)))
			n++;
	}
	/* The digits, last first: prec of the fraction, then the rest. */
	k = 0;
	q = n;
	for (i = 0; i < prec; i++) {
		t[k++] = (char)('0' + q % 10);
		q /= 10;
	}
	if (prec > 0)
		t[k++] = '.';
	do
		t[k++] = (char)('0' + q % 10);
	while ((q /= 10) > 0);
	if ((size_t)(width > k ? width : k) >= size)
		return 0;
	for (i = 0; i < width - k; i++)
		*s++ = ' ';
	while (k > 0)
		*s++ = t[--k];
	*s = '\0';
	return 1;
}

/*
 * v as printf(fmt, width, prec, v) prints it, fmt one of "%*.*f" and
 * "%#*.*f"; m remembers the last, so that a repeat costs a compare.
 */
const char *
fig_fixed(struct fixed *m, const char *fmt, int width, int prec, double v)
{
	if (!m->ok || m->v != v || m->fmt != fmt || m->width != width ||
	    m->prec != prec || (v == 0 && signbit(v) != signbit(m->v))) {
		if (strcmp(fmt, "%*.*f") != 0 ||
		    !fixed_fast(m->s, sizeof(m->s), width, prec, v))
			(void)snprintf(m->s, sizeof(m->s), fmt, width, prec, v);
		m->len = strlen(m->s);
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

/*
 * printable.c -- the one way prof makes text from a file fit to print.
 *
 * Symbol names, object paths and perf map lines come from files that
 * anyone could have written: a name holding ESC or BEL would reach the
 * terminal as a command.  Every such string goes through printable()
 * on its way out.  Valid UTF-8 passes, so that a path or a name in
 * another script still reads right; a control character -- C0, DEL or
 * C1, which a UTF-8 terminal obeys too -- and every byte of an invalid
 * or overlong sequence become '?', one each.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Bytes in the UTF-8 character at s that may be printed; 0 if none. */
static size_t
char_len(const unsigned char *s)
{
	static const uint32_t least[] = { 0, 0, 0xa0, 0x800, 0x10000 };
	uint32_t c;
	size_t n, i;

	if (s[0] < 0x80)
		return s[0] >= 0x20 && s[0] != 0x7f;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	c = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* the NUL at the end too */
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* least[2] leaves out C1 as well as the overlong forms. */
	if (c < least[n] || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return n;
}

/* A copy of s fit for a terminal, to be freed by the caller. */
char *
printable(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *t, *q;
	size_t n;

	t = q = xmalloc(strlen(s) + 1);
	while (*p != '\0') {
		if ((n = char_len(p)) == 0) {
			*q++ = '?';
			p++;
			continue;
		}
		memcpy(q, p, n);
		q += n;
		p += n;
	}
	*q = '\0';
	return t;
}

/* Text from a file on fp, made printable. */
void
put_text(FILE *fp, const char *s)
{
	const unsigned char *p;
	char *t;

	/* Plain ASCII, as nearly every name is, is fit as it is. */
	for (p = (const unsigned char *)s; *p >= 0x20 && *p < 0x7f; p++)
		;
	if (*p == '\0') {
		fputs(s, fp);
		return;
	}
	t = printable(s);
	fputs(t, fp);
	free(t);
}

/*
 * crc32.c -- the CRC-32 of ISO 3309, which gzip's trailer (export/gzip.c)
 * and a GNU debuglink's check of a debug file (read/elfsym.c) both use.
 */
#include "util/util.h"

/* The CRC-32 of ISO 3309 (gzip's, zlib's), continued from crc. */
uint32_t
crc32_add(uint32_t crc, const unsigned char *p, size_t n)
{
	static uint32_t table[256];
	uint32_t c;
	size_t i;
	unsigned k;

	if (table[1] == 0) {
		for (i = 0; i < 256; i++) {
			c = (uint32_t)i;
			for (k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	c = ~crc;
	for (i = 0; i < n; i++)
		c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

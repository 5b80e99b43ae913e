/*
 * real_lib.c -- the shared library of real.c: libreal.so, hashing and
 * checksums, built without -p/-pg as a distribution would ship it.
 */
#include <stddef.h>
#include <stdint.h>

#include "real.h"

/* FNV-1a over a word. */
uint32_t
lib_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* CRC-32 (IEEE), bit by bit: slow on purpose, a library's hot loop. */
uint32_t
lib_crc32(uint32_t crc, const char *s, size_t n)
{
	crc = ~crc;
	for (size_t i = 0; i < n; i++) {
		crc ^= (unsigned char)s[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

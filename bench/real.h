/*
 * real.h -- what real.c takes from its shared library, libreal.so.
 */
#ifndef BENCH_REAL_H
#define BENCH_REAL_H

#include <stddef.h>
#include <stdint.h>

uint32_t	lib_hash(const char *, size_t);
uint32_t	lib_crc32(uint32_t, const char *, size_t);

#endif

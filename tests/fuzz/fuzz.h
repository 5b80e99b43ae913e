/*
 * fuzz.h -- what the libFuzzer harnesses share (fuzz.c).
 *
 * prof's readers return a reason on a bad file and every structure
 * they fill has its free function, so a harness is a plain entry point:
 * it calls the steps, frees what they built, and returns.  Only the ELF
 * reader wants a path (it reads with pread): fuzz_file hands it the
 * input as a memfd under /proc/self/fd.  The report goes to stdout and
 * the warnings to stderr; tests/fuzz/run closes both (-close_fd_mask).
 */
#ifndef _FUZZ_H
#define _FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The path of a memfd now holding data[0..size). */
const char	*fuzz_file(const uint8_t *, size_t);

/* A fixed input of the harness: a seed file, by folder and name. */
const char	*fuzz_seed(const char *, const char *);

#endif /* !_FUZZ_H */

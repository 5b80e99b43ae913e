/*
 * fuzz.h -- what the two libFuzzer harnesses share (fuzz.c).
 *
 * prof's readers take a path and end the program through err(3) on a
 * bad file.  A harness hands them its input as a memfd under
 * /proc/self/fd, catches err() and errx() with a longjmp back to
 * fuzz_env, and frees at the end of every input whatever prof allocated
 * during it, so that neither an exit nor the memory prof keeps until
 * exit stops the fuzzer.
 *
 * Usage, in LLVMFuzzerTestOneInput:
 *
 *	path = fuzz_file(0, data, size);
 *	fuzz_begin();
 *	if (setjmp(fuzz_env) == 0)
 *		... prof's steps on path ...
 *	fuzz_end();
 */
#ifndef _FUZZ_H
#define _FUZZ_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#define FUZZ_FILES	2	/* memfds a harness may fill at once */

extern jmp_buf	fuzz_env;	/* where err() and errx() return to */

/* The path of memfd slot (< FUZZ_FILES), now holding data[0..size). */
const char	*fuzz_file(int, const uint8_t *, size_t);

/* Track prof's allocations from here ... */
void		 fuzz_begin(void);
/* ... and free every one still live; tracking stops. */
void		 fuzz_end(void);

/* stdout and stderr FILEs to /dev/null (fd 2 stays for the reports). */
void		 fuzz_mute(void);
void		 fuzz_unmute(void);

/* A fixed input of the harness: a seed file, by name. */
const char	*fuzz_seed(const char *, const char *);

#endif /* !_FUZZ_H */

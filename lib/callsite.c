/*
 * callsite.c -- reading the code around a call of mcount or __fentry__:
 * which instruction made it, and where its function starts.
 *
 * mcount.c asks, of a call its fast path cannot count, whether gcc
 * pushed r10 before it (a nested function's); profiler.c asks, once per
 * function, where the function of a -pg call starts, for the enter
 * hooks.  The call's return address (self) is all either has: the bytes
 * before it are read, safely where they lie on another page.  Built
 * with -mgeneral-regs-only, as mcount.c is: its slow path runs with the
 * vector registers of the function called live.
 */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "mon_private.h"

#define BACK	1024	/* bytes before an mcount call its symbol may be */
#define PAGE	4096	/* the least a page is */

/*
 * The n bytes of code before self into b: 1, or 0 if they cannot be
 * read.  They are read safely when some are on the page before.
 */
int
_mon_code_before(uintptr_t self, unsigned char *b, size_t n)
{
	size_t i;
	int err, ok;

	if ((self & (PAGE - 1)) >= n) {
		for (i = 0; i < n; i++)
			b[i] = ((const unsigned char *)self)[(ptrdiff_t)i -
			    (ptrdiff_t)n];
		return 1;
	}
	err = errno;
	ok = _mon_peek(getpid(), self - n, b, n);
	errno = err;
	return ok;
}

/*
 * Where in b, the n bytes before self, the mcount or __fentry__ call
 * that returns to self starts, or -1 if it is none we know.  The call
 * is 5 bytes (call rel32), or 6: through the GOT, or with an addr32
 * prefix where the link editor made that a direct call.
 */
int
_mon_call_at(const unsigned char *b, int n)
{
	if (b[n - 5] == 0xe8)
		return b[n - 6] == 0x67 ? n - 6 : n - 5;
	if (b[n - 6] == 0xff && b[n - 5] == 0x15)
		return n - 6;
	return -1;
}

/*
 * Where, in b, starts the function whose __fentry__ call starts at
 * b[i]: before the call gcc puts nothing but an endbr64 (-fcf-protection)
 * and, in a GNU C nested function, a push of r10, its static chain
 * (*nested then 1).  They come in either order: the push first where
 * the nested function's address is taken (called through a trampoline),
 * the endbr64 first elsewhere.  At most 6 bytes are looked at.
 */
int
_mon_fentry_start(const unsigned char *b, int i, int *nested)
{
	int endbr, k;

	*nested = endbr = 0;
	for (k = 0; k < 2; k++)
		if (!*nested && i >= 2 && b[i - 2] == 0x41 &&
		    b[i - 1] == 0x52) {			/* pushq %r10 */
			*nested = 1;
			i -= 2;
		} else if (!endbr && i >= 4 && b[i - 4] == 0xf3 &&
		    b[i - 3] == 0x0f && b[i - 2] == 0x1e && b[i - 1] == 0xfa) {
			endbr = 1;			/* endbr64 */
			i -= 4;
		}
	return i;
}

/*
 * The start of the function whose mcount or __fentry__ call returns to
 * self, for profiler.c's enter hooks, once per function; *nested says
 * whether gcc pushed r10 before the call (the call site is then the
 * word above, _mon_count()'s up).  __fentry__ is the function's first
 * call, before anything but an endbr64 and that push: the function
 * starts there.  mcount comes after a prologue of any length: the
 * function is the one whose symbol, at most BACK bytes before the call,
 * holds it (syms.c); where none does, the call stands for it.  self
 * itself when the code before it cannot be read or ends in no call we
 * know.
 */
uintptr_t
_mon_fn_of(uintptr_t self, int fentry, int *nested)
{
	unsigned char b[16];
	uintptr_t call, fn;
	int i;

	*nested = 0;
	if (!_mon_code_before(self, b, sizeof(b)) ||
	    (i = _mon_call_at(b, 16)) < 0)
		return self;
	call = self - 16 + (uintptr_t)i;
	if (!fentry)
		return (fn = _mon_sym_start(call, BACK)) != 0 ? fn : call;
	return self - 16 + (uintptr_t)_mon_fentry_start(b, i, nested);
}


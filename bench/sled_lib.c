/*
 * sled_lib.c -- libsled.so: a megabyte of straight-line code, so that a
 * sampling profiler sees a new pc in nearly every sample.
 *
 * sled() runs 64 functions laid end to end, sled_0 to sled_63, each 4096
 * four-byte additions long (16 KiB): 262144 distinct instruction
 * addresses, the last function returning.  A program living in a large
 * library (libc, libstdc++, libcrypto) touches that many distinct pcs
 * over a long run; this one does it in seconds.
 */
unsigned long	sled(unsigned long);

__asm__(
	"	.text\n"
	"	.p2align 12\n"
	"	.globl	sled\n"
	"	.type	sled, @function\n"
	"sled:	movq	%rdi, %rax\n"
	"	.altmacro\n"
	"	.macro	sledfn n\n"
	"	.type	sled_\\n, @function\n"
	"sled_\\n:\n"
	"	.rept	4096\n"
	"	addq	$1, %rax\n"
	"	.endr\n"
	"	.size	sled_\\n, . - sled_\\n\n"
	"	.endm\n"
	"	.set	i, 0\n"
	"	.rept	64\n"
	"	sledfn	%i\n"
	"	.set	i, i + 1\n"
	"	.endr\n"
	"	ret\n"
	"	.size	sled, 3\n"
	"	.noaltmacro\n"
);

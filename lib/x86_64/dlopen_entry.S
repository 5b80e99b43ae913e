/*
 * dlopen -- libc's, reached by a jump while no profiler wants library
 * events, so that libc's dlopen sees its caller's return address, not
 * libmon's (dlopen.c says why it reads it); else _mon_dlopen_hooked.
 * (Not dlopen.S: dlopen.o is dlopen.c's.)
 */
	.section libmon_text, "ax", @progbits
	.globl	dlopen
	.type	dlopen, @function
	.p2align 4
dlopen:
	.cfi_startproc
	movl	_mon_prof_libs(%rip), %eax
	testl	%eax, %eax
	jnz	1f
	movq	_mon_dlopen_real(%rip), %rax
	testq	%rax, %rax
	jz	1f
	jmp	*%rax
1:	jmp	_mon_dlopen_hooked
	.cfi_endproc
	.size	dlopen, . - dlopen

/*
 * Referenced from lifecycle.c so that this file, and dlopen.c through
 * it, are always linked in: a sanitizer runtime ahead of libmon defines
 * dlopen too, and would leave the program's calls no reason to.
 */
	.section .rodata
	.globl	_mon_link_dlopen_entry
	.hidden	_mon_link_dlopen_entry
_mon_link_dlopen_entry:
	.byte	1

	.section .note.GNU-stack, "", @progbits

/*
 * vfork -- libc's, with the process that called it noted for exit().
 *
 * The child runs on the parent's stack and memory until it execs or
 * exits, and its calls overwrite the stack slot of the return address:
 * the address is held in rdi across the system call instead (each
 * process has registers of its own), as in the C library's own.
 * _mon_vforker is the process that calls it, and _mon_vforking counts
 * the vforks in progress: the parent takes its own off once it resumes,
 * the child never does (vfork.c says why they are needed).  The child
 * runs on the parent thread's memory, its thread-local storage
 * included, but not on its rseq registration: until the parent resumes,
 * the thread counts calls that miss its own table in mcount.c's spill
 * (_mon_spillid), not in the table of an id the child does not hold.
 * (Not vfork.S: libmon.a's members need names of their own, and vfork.o
 * is vfork.c's.)
 */
	.section libmon_text, "ax", @progbits
	.globl	vfork
	.type	vfork, @function
	.p2align 4
vfork:
	.cfi_startproc
	movl	$39, %eax		/* SYS_getpid */
	syscall
	movl	%eax, _mon_vforker(%rip)
	lock incl _mon_vforking(%rip)
	movq	%fs:_mon_tls@tpoff+24, %rsi	/* the thread's id, kept */
	leaq	_mon_spillid(%rip), %rdx
	movq	%rdx, %fs:_mon_tls@tpoff+24
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	.cfi_register rip, rdi
	movl	$58, %eax		/* SYS_vfork */
	syscall
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rip, 0
	testq	%rax, %rax
	jz	1f			/* the child: return 0 */
	movq	%rsi, %fs:_mon_tls@tpoff+24
	lock decl _mon_vforking(%rip)
	cmpq	$-4095, %rax
	jae	2f
1:	ret
2:	negq	%rax
	movq	%rax, %rdi
	jmp	_mon_vfork_failed	/* errno, and -1 to our caller */
	.cfi_endproc
	.size	vfork, . - vfork

	/* Named by lifecycle.c, so that this vfork is always linked in. */
	.section .rodata
	.globl	_mon_link_vfork_entry
	.hidden	_mon_link_vfork_entry
_mon_link_vfork_entry:
	.byte	1

	.section .note.GNU-stack, "", @progbits

/*
 * h_nullframe.c -- system calls made with the frame pointer at a frame
 * of zeros, as code built without frame pointers leaves it when it uses
 * rbp for its own data (glibc's __malloc_fork_unlock_parent in fork()).
 *
 * usage: h_nullframe
 *
 * caller() calls nullfp_syscalls() until its thread's CPU clock has
 * advanced by 0.3 s.  nullfp_syscalls(), in assembly, keeps no frame
 * pointer: it points rbp at two zero words it pushed and makes getppid
 * system calls in a loop.  A frame-pointer walk from there reads a
 * null return address (the kernel's walk stores it in the chain), and
 * the words at the stack pointer start with zeros: the caller is found
 * only by searching past them for the return address into caller().
 */
#include <err.h>
#include <time.h>

#include "h_burn.h"

void	nullfp_syscalls(long);

__asm__(
"	.text\n"
"	.globl	nullfp_syscalls\n"
"	.type	nullfp_syscalls, @function\n"
"nullfp_syscalls:\n"
"	pushq	%rbp\n"
"	pushq	$0\n"
"	pushq	$0\n"
"	movq	%rsp, %rbp\n"
"	movq	%rdi, %r8\n"
"1:	movl	$110, %eax\n"		/* getppid */
"	syscall\n"
"	decq	%r8\n"
"	jnz	1b\n"
"	addq	$16, %rsp\n"
"	popq	%rbp\n"
"	ret\n"
"	.size	nullfp_syscalls, .-nullfp_syscalls\n");

void
caller(void)
{
	double t0 = thread_cpu();

	do
		nullfp_syscalls(1000);
	while (thread_cpu() - t0 < 0.3);
}

int
main(void)
{
	caller();
	return 0;
}

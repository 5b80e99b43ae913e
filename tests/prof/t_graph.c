/*
 * t_graph.c -- a program whose functions the call-graph tests know to
 * the byte, as t_syms's are for the flat report.
 *
 * One 64-byte slot each from driver on, so that forged arcs and stacks
 * can put a call or a frame in any function:
 *
 *	0  driver		calls both callers, ping, sorter
 *	1  cheap_caller		calls work often, with little to do
 *	2  costly_caller	calls work seldom, with much to do
 *	3  work			the function whose time is to be placed
 *	4  ping			ping and pong call each other
 *	5  pong
 *	6  leaf			called by work
 *	7  sorter		calls a library that calls back compare
 *	8  compare		the callback
 *	9  libmon_part		stands for libmon's code (a SELF record)
 *
 * A caller is looked up at its return address less one: slot n + 16
 * is a return address inside function n, slot n + 0 the entry of a
 * callee, and slot n + 5 its cell, as -pg code has it.  The program
 * itself does nothing.
 */

#define FN(name)							\
	"	.p2align 6\n"						\
	"	.globl	" name "\n"					\
	"	.type	" name ", @function\n"				\
	name ":	ret\n"							\
	"	.fill	63, 1, 0xcc\n"					\
	"	.size	" name ", 64\n"

__asm__(
	"	.text\n"
	"	.p2align 8\n"
	FN("driver")
	FN("cheap_caller")
	FN("costly_caller")
	FN("work")
	FN("ping")
	FN("pong")
	FN("leaf")
	FN("sorter")
	FN("compare")
	FN("libmon_part")
	"	.p2align 6\n"
);

int
main(void)
{
	return 0;
}

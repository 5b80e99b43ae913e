/*
 * h_binsplit.c -- a hot loop in the histogram bin of a function that
 * never runs: pre() is four nops and a return, hot() follows it at once,
 * its loop in pre()'s 8-byte bin (a function built at -O1 or -Os is not
 * aligned, so ordinary builds do this).  All the CPU time is hot()'s by
 * construction; the histogram cannot tell the two apart, the stacks'
 * exact pcs can.
 */
__asm__(".text\n"
    ".p2align 4\n"
    ".globl pre\n"
    ".type pre, @function\n"
    "pre:\n"
    "	nop\n	nop\n	nop\n	nop\n	ret\n"
    ".size pre, .-pre\n"
    ".globl hot\n"
    ".type hot, @function\n"
    "hot:\n"
    "1:	dec %rdi\n"
    "	jnz 1b\n"
    "	ret\n"
    ".size hot, .-hot\n");

void	pre(void);
void	hot(long);

int
main(void)
{
	int i;

	pre();
	for (i = 0; i < 10; i++)
		hot(100000000L);
	return 0;
}

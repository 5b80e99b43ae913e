/*
 * h_stacks -- a cc -p program whose samples fall in known call stacks,
 * for stacks_test.sh.
 *
 *	h_stacks chain MS	main -> outer -> middle -> inner, which
 *				spins MS ms of CPU
 *	h_stacks deep N MS	main -> down(N) -> down(N-1) ... down(0),
 *				which spins MS ms
 *	h_stacks frameless MS	main -> framer, which calls frameless()
 *				until MS ms of CPU are spent: a leaf
 *				written in assembly with no frame of its
 *				own, as a C library leaf or the body of a
 *				leaf gcc -pg -O2 builds is
 *	h_stacks badframe MS	spins MS ms with a frame pointer that
 *				points 16 MiB above the stack, where
 *				nothing is mapped, as hand-written code
 *				may leave it
 *	h_stacks onstack MS	main -> raiser, which raises SIGUSR1 once;
 *				its handler, on an alternate stack, calls
 *				inhandler(), which spins MS ms
 *	h_stacks syscalls MS	main -> syscaller, which writes a byte to
 *				/dev/null until MS ms of CPU are spent,
 *				most of them in the kernel, through the C
 *				library's write(); a thread started and
 *				joined first makes the process one that
 *				libc's wrappers make a frame for
 *	h_stacks naps MS	main -> napper, which calls nanosleep() for
 *				no time (timer slack 1 ns) until MS ms of
 *				CPU are spent, most in the kernel: libc's
 *				nanosleep calls __clock_nanosleep, two
 *				wrappers with no frame pointer, the second
 *				with a frame (a second thread made first)
 */
#include <sys/prctl.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "h_spin.h"

static volatile long sink;

void
inner(long ms)
{
	SPIN(ms * MS);
}

void
middle(long ms)
{
	inner(ms);
	sink++;		/* not a tail call */
}

void
outer(long ms)
{
	middle(ms);
	sink++;
}

void
down(int n, long ms)
{
	if (n > 0)
		down(n - 1, ms);
	else
		SPIN(ms * MS);
	sink++;
}

/* A leaf with no frame: 1,000,000 rounds of a multiply. */
unsigned long frameless(unsigned long);
__asm__(
    "	.text\n"
    "	.globl frameless\n"
    "	.type frameless, @function\n"
    "frameless:\n"
    "	movq %rdi, %rax\n"
    "	movl $1000000, %ecx\n"
    "1:	imulq $3, %rax, %rax\n"
    "	decl %ecx\n"
    "	jnz 1b\n"
    "	ret\n"
    "	.size frameless, .-frameless\n");

void
framer(long ms)
{
	uint64_t end = SPIN_NOW(THREAD) + (uint64_t)ms * MS;

	while (SPIN_NOW(THREAD) < end)
		sink += (long)frameless((unsigned long)sink);
}

/* Spin with %rbp holding bad, the frame pointer restored after. */
void
badframe(long ms, unsigned long bad)
{
	uint64_t end = SPIN_NOW(THREAD) + (uint64_t)ms * MS;

	while (SPIN_NOW(THREAD) < end)
		__asm__ volatile(
		    "pushq %%rbp\n\t"
		    "movq %0, %%rbp\n\t"
		    "movl $2000000, %%ecx\n"
		    "1:\tdecl %%ecx\n\t"
		    "jnz 1b\n\t"
		    "popq %%rbp"
		    : : "r"(bad) : "rcx", "cc", "memory");
}

static void *
nothing(void *arg)
{
	return arg;
}

void
syscaller(long ms)
{
	uint64_t end;
	pthread_t t;
	int fd, i;

	/* Once a process has had two threads, libc's cancellable system
	 * call wrappers keep a frame of their own (with no frame pointer). */
	if (pthread_create(&t, NULL, nothing, NULL) != 0 ||
	    pthread_join(t, NULL) != 0) {
		perror("h_stacks: pthread_create");
		exit(1);
	}
	end = SPIN_NOW(THREAD) + (uint64_t)ms * MS;
	if ((fd = open("/dev/null", O_WRONLY)) < 0) {
		perror("h_stacks: /dev/null");
		exit(1);
	}
	while (SPIN_NOW(THREAD) < end)
		for (i = 0; i < 256; i++)
			if (write(fd, "x", 1) != 1) {
				perror("h_stacks: write");
				exit(1);
			}
	(void)close(fd);
	sink++;
}

void
napper(long ms)
{
	struct timespec none = { 0, 0 };
	uint64_t end;
	pthread_t t;
	int i;

	if (pthread_create(&t, NULL, nothing, NULL) != 0 ||
	    pthread_join(t, NULL) != 0) {
		perror("h_stacks: pthread_create");
		exit(1);
	}
	/* A sleep of no time returns at once, not at the next slack. */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	end = SPIN_NOW(THREAD) + (uint64_t)ms * MS;
	while (SPIN_NOW(THREAD) < end)
		for (i = 0; i < 64; i++)
			if (nanosleep(&none, NULL) != 0) {
				perror("h_stacks: nanosleep");
				exit(1);
			}
	sink++;
}

static long handler_ms;

void
inhandler(long ms)
{
	SPIN(ms * MS);
}

static void
onusr1(int sig)
{
	(void)sig;
	inhandler(handler_ms);
}

void
raiser(long ms)
{
	static char altstack[1 << 16];
	struct sigaction sa;
	stack_t ss;

	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = altstack;
	ss.ss_size = sizeof(altstack);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onusr1;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaltstack(&ss, NULL) != 0 || sigaction(SIGUSR1, &sa, NULL) != 0) {
		perror("h_stacks");
		exit(1);
	}
	handler_ms = ms;
	raise(SIGUSR1);
	sink++;
}

int
main(int argc, char *argv[])
{
	char here;

	if (argc == 3 && strcmp(argv[1], "chain") == 0)
		outer(atol(argv[2]));
	else if (argc == 4 && strcmp(argv[1], "deep") == 0)
		down(atoi(argv[2]), atol(argv[3]));
	else if (argc == 3 && strcmp(argv[1], "frameless") == 0)
		framer(atol(argv[2]));
	else if (argc == 3 && strcmp(argv[1], "badframe") == 0)
		badframe(atol(argv[2]),
		    ((unsigned long)&here + (16UL << 20)) & ~15UL);
	else if (argc == 3 && strcmp(argv[1], "onstack") == 0)
		raiser(atol(argv[2]));
	else if (argc == 3 && strcmp(argv[1], "naps") == 0)
		napper(atol(argv[2]));
	else if (argc == 3 && strcmp(argv[1], "syscalls") == 0)
		syscaller(atol(argv[2]));
	else {
		fprintf(stderr, "usage: h_stacks chain MS | deep N MS |"
		    " frameless MS | badframe MS | onstack MS | syscalls MS |"
		    " naps MS\n");
		return 2;
	}
	return 0;
}

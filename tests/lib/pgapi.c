/*
 * pgapi.c -- the -pg program profiler_test drives: built with -pg (mcount)
 * or -pg -mfentry (__fentry__), by gcc and clang, and linked with libmon,
 * it sets a handle's enter, leave and filter hooks and makes calls in
 * known ways, from main and NTHR threads at once.  At exit it says, on
 * stdout:
 *
 *	did NAME N		calls it made of NAME
 *	enter NAME N		enters the handle was given for NAME
 *	filter NAME N		times the filter was asked of NAME
 *	fn NAME ok|bad		the address the hooks gave is NAME's own
 *	leaves N		leaves given (-pg gives none)
 *	sites bad N		calls whose site was not the caller's
 *	vector ok|bad		arguments in vector registers arrived whole
 *				(vsum's in ymm, where the CPU has AVX)
 *	msabi ok|bad		xmm6 to xmm15, which an ms_abi function
 *				keeps for its caller, kept across msf's
 *				hooked call
 *	errno kept|changed	across a hooked call
 *
 * The filter turns off_fn down and gives each function its index in
 * names[] as its ID; the enter hook calls in_cb, a -pg function, whose
 * calls it must then not see, and clobbers the vector registers (it
 * formats a double and clears a buffer, through the C library's vector
 * code), so that a call whose arguments it did not keep is seen; it
 * also zeroes xmm6 to xmm15 outright, which a function of Microsoft's
 * calling convention (ms_abi) keeps for its caller: msprobe (below)
 * calls msf with values in them, from before its prologue could save
 * them.
 *
 * The filter also sends its own thread SIGUSR1, whose handler calls
 * hsig, a -pg function: libmon asks the filter with every signal
 * blocked, so the handler runs as libmon unblocks them, in the middle
 * of the hooked call that asked -- and its call of hsig is given all
 * the same (the handler interrupts no callback).
 */
#include <errno.h>
#include <immintrin.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <mon.h>

#define NOINLINE	__attribute__((noinline))
#define NTHR		4
#define WORK		2000

static volatile int sink;

NOINLINE void in_cb(void) { sink++; }
NOINLINE void off_fn(void) { sink++; }
NOINLINE void hsig(void) { sink++; }
NOINLINE double dbl(double a, double b, double c) { return a * b + c; }
/* The empty asm keeps gcc -O2 from making the recursion a loop. */
NOINLINE int
rec(int n)
{
	int r;

	if (n == 0)
		return 0;
	r = rec(n - 1);
	__asm__ volatile("" : "+r"(r));
	return r + 1;
}
NOINLINE void leaf(void);

/*
 * msf (ms_abi) called by msprobe(in, out) with xmm6 to xmm15 loaded
 * from in[6..15] and stored after to out[6..15]; in assembly, so that
 * the values are there whatever the compiler does.
 */
__attribute__((ms_abi)) NOINLINE int msf(int, int);
__attribute__((ms_abi)) NOINLINE int
msf(int a, int b)
{
	sink += a;
	return a + b;
}
void	msprobe(const double *, double *);
__asm__(
	".text\n"
	".globl msprobe\n"
	".type msprobe, @function\n"
	"msprobe:\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	movq %rdi, %rbx\n"
	"	movq %rsi, %r12\n"
	"	subq $40, %rsp\n"		/* ms_abi's 32 bytes, aligned */
	"	.irp i, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n"
	"	movsd \\i*8(%rbx), %xmm\\i\n"
	"	.endr\n"
	"	movl $1, %ecx\n"
	"	movl $2, %edx\n"
	"	call msf\n"
	"	.irp i, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n"
	"	movsd %xmm\\i, \\i*8(%r12)\n"
	"	.endr\n"
	"	addq $40, %rsp\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	ret\n"
	".size msprobe, .-msprobe\n");

/* Arguments in the whole of ymm0 and ymm1, where the CPU has AVX. */
#define AVX	__attribute__((target("avx"), noinline))
AVX double
vsum(__m256d a, __m256d b)
{
	double t[4];

	_mm256_storeu_pd(t, _mm256_add_pd(a, b));
	return t[0] + t[1] + t[2] + t[3];
}

static AVX int
avx_calls(int n)
{
	int i, bad = 0;

	for (i = 0; i < n; i++)
		if (vsum(_mm256_set_pd(1, 2, 3, i), _mm256_set_pd(10, 20, 30,
		    40)) != 106 + i)
			bad = 1;
	return bad;
}

/* An over-aligned local beside a variable-length array: gcc keeps the
   arguments' pointer in r10 across mcount (DRAP). */
NOINLINE int
realign(int n)
{
	int v[n + 1];
	_Alignas(64) int a[4];

	v[n] = n;
	a[n & 3] = n;
	return v[n] + a[n & 3];
}

static void *names[] = { (void *)leaf, (void *)in_cb, (void *)off_fn,
    (void *)dbl, (void *)rec, (void *)realign, (void *)vsum, (void *)hsig,
    (void *)msf };
static const char *const label[] = { "leaf", "in_cb", "off_fn", "dbl",
    "rec", "realign", "vsum", "hsig", "msf" };
#define NNAMES	(sizeof(names) / sizeof(names[0]))

static _Atomic long enters[NNAMES], filters[NNAMES], leaves, badsites;
static _Atomic long unknown;
static _Atomic int fnbad[NNAMES];
static __thread uintptr_t lastsite;	/* given for leaf, this thread */
static int errclobber;
static long did[NNAMES];
static _Atomic long hsigs;		/* hsig's calls, from the handler */

/* The handler's call of hsig; errno as it found it. */
static void
onsig(int sig)
{
	int e;

	(void)sig;
	e = errno;
	hsig();
	atomic_fetch_add(&hsigs, 1);
	errno = e;
}

static int
index_of(void *fn)
{
	size_t i;

	for (i = 0; i < NNAMES; i++)
		if (names[i] == fn)
			return (int)i;
	return -1;
}

static int
filter(void *data, void *fn, uintptr_t *id)
{
	int i;

	(void)data;
	if ((i = index_of(fn)) < 0)
		return 0;	/* main, start_thread's: not ours */
	atomic_fetch_add(&filters[i], 1);
	*id = (uintptr_t)i;
	if (names[i] != (void *)hsig)
		pthread_kill(pthread_self(), SIGUSR1);
	return names[i] != (void *)off_fn;
}

static void
enter(void *data, void *fn, void *site, uintptr_t id)
{
	char buf[64];
	static _Thread_local char junk[4096];

	(void)data;
	if (id >= NNAMES) {
		atomic_fetch_add(&unknown, 1);
		return;
	}
	if (fn != names[id])
		fnbad[id] = 1;
	atomic_fetch_add(&enters[id], 1);
	if (id == 0)
		lastsite = (uintptr_t)site;
	in_cb();
	/* Clobber the vector registers, and errno. */
	snprintf(buf, sizeof(buf), "%.17g", (double)id / 3.0);
	memset(junk, buf[0], sizeof(junk));
	__asm__ volatile("pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\t"
	    "pxor %%xmm8, %%xmm8\n\tpxor %%xmm9, %%xmm9\n\t"
	    "pxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
	    "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\t"
	    "pxor %%xmm14, %%xmm14\n\tpxor %%xmm15, %%xmm15" ::: "xmm6",
	    "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
	    "xmm14", "xmm15");
	errno = EDOM;
}

static void
leave(void *data, void *fn, void *site, uintptr_t id)
{
	(void)data;
	(void)fn;
	(void)site;
	(void)id;
	atomic_fetch_add(&leaves, 1);
}

NOINLINE void
leaf(void)
{
	if ((uintptr_t)__builtin_return_address(0) != lastsite)
		atomic_fetch_add(&badsites, 1);
	sink++;
}

static int vecbad, msbad;

/* n calls of msf, each checked for xmm6 to xmm15 kept. */
static void
ms_calls(int n)
{
	double in[16], out[16];
	int i, k;

	for (i = 0; i < n; i++) {
		for (k = 6; k < 16; k++)
			in[k] = k + i + 0.5;
		msprobe(in, out);
		for (k = 6; k < 16; k++)
			if (out[k] != in[k])
				msbad = 1;
	}
}

static void
calls(int n)
{
	double d;
	int i;

	for (i = 0; i < n; i++) {
		leaf();
		off_fn();
		d = dbl(1.5, (double)i, 0.25);
		if (d != 1.5 * i + 0.25)
			vecbad = 1;
		if (realign(i & 15) != 2 * (i & 15))
			vecbad = 1;
	}
}

static void *
thread(void *arg)
{
	(void)arg;
	calls(WORK);
	return NULL;
}

int
main(void)
{
	struct sigaction sa;
	mon_profiler_t h;
	pthread_t t[NTHR];
	size_t i;
	int k, e;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onsig;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) != 0) {
		perror("sigaction");
		return 1;
	}
	if ((h = mon_profiler_create("pgapi", NULL)) == NULL ||
	    mon_profiler_set_call_filter(h, filter) != 0 ||
	    mon_profiler_set_enter_leave(h, enter, leave) != 0) {
		perror("mon_profiler");
		return 1;
	}
	for (k = 0; k < NTHR; k++)
		if (pthread_create(&t[k], NULL, thread, NULL) != 0)
			return 1;
	calls(WORK);
	if (__builtin_cpu_supports("avx")) {
		vecbad |= avx_calls(WORK);
		did[6] = WORK;
	}
	ms_calls(WORK);
	did[8] = WORK;
	errno = 0;
	if (rec(10) != 10)
		vecbad = 1;
	e = errno;
	errclobber = e != 0;
	for (k = 0; k < NTHR; k++)
		pthread_join(t[k], NULL);
	did[0] = did[2] = did[3] = did[5] = (NTHR + 1) * (long)WORK;
	did[4] = 11;
	did[7] = atomic_load(&hsigs);
	for (i = 0; i < NNAMES; i++) {
		if (i != 1)
			printf("did %s %ld\n", label[i], did[i]);
		printf("enter %s %ld\n", label[i], atomic_load(&enters[i]));
		printf("filter %s %ld\n", label[i], atomic_load(&filters[i]));
		if (i != 1 && i != 2)
			printf("fn %s %s\n", label[i],
			    fnbad[i] ? "bad" : "ok");
	}
	printf("leaves %ld\n", atomic_load(&leaves));
	printf("sites bad %ld\n", atomic_load(&badsites));
	printf("vector %s\n", vecbad ? "bad" : "ok");
	printf("msabi %s\n", msbad ? "bad" : "ok");
	printf("errno %s\n", errclobber ? "changed" : "kept");
	return 0;
}

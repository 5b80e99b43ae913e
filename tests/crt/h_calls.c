/*
 * h_calls -- a cc -p program whose functions are called a known number
 * of times, built by make with each compiler and start-up route (see
 * local.mk).  crt_test.sh reads the counts back from mon.out.
 *
 *	h_calls counts N	leaf() N times, once() once, fib(20)
 *	h_calls threads T N	T threads call tleaf() N times each
 *	h_calls pointers T N	T threads make N calls each from one call
 *				site through a pointer, to pt0() ... pt7()
 *				in turn
 *	h_calls signal K	leaf() in a loop until a SIGVTALRM handler
 *				that calls sigleaf() and leaf() has run K
 *				times; prints "loops L" and "signals S"
 *	h_calls qsort N		qsort() N numbers with bycmp(); prints
 *				"compares C", the calls it counted itself
 *	h_calls realign N	vsum() of 1 to 10 N times, through a stack
 *				gcc realigns; prints "sum S"
 *	h_calls nested N	nestleaf(), nested in nested(), N times;
 *				prints "nested SUM", or "nested none" when
 *				the compiler (clang) has no nested functions
 *	h_calls pid		prints "pid P"
 *	h_calls exit CODE	exit(CODE)
 *	h_calls _exit		_exit(0)
 *	h_calls abort		abort()
 *	h_calls kill		raise(SIGUSR1) with its default action
 *
 * Every result is stored in a volatile sink, so that no call to a
 * function without side effects is optimised away.
 */
#include <sys/time.h>

#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mon.h>	/* from the specs file's include path, too */

volatile long sink;
static volatile sig_atomic_t nsig;
static long per_thread;

long
leaf(long x)
{
	return x * 3 + 1;
}

long
once(long x)
{
	return x ^ 0x5a;
}

long
fib(int n)
{
	long r;

	if (n < 2)
		return n;
	r = fib(n - 1) + fib(n - 2);
	sink = r;	/* no call is in tail position */
	return r;
}

long
tleaf(long x)
{
	return x + 7;
}

void *
worker(void *arg)
{
	long i, s = 0;

	(void)arg;
	for (i = 0; i < per_thread; i++)
		s += tleaf(i);
	sink = s;
	return NULL;
}

long
sigleaf(long x)
{
	return x - 1;
}

void
onsig(int sig)
{
	/* leaf() too: its cell may be mid-update in the code we interrupt. */
	sink = sigleaf(sig) + leaf(sig);
	nsig++;
}

static long ncmp;

int
bycmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	ncmp++;
	return x < y ? -1 : x > y;
}

static int
sorts(long n)
{
	long *v, i;

	if (n < 1 || (v = malloc((size_t)n * sizeof(*v))) == NULL)
		errx(2, "qsort: bad count");
	for (i = 0; i < n; i++)
		v[i] = (i * 7919) % n;
	qsort(v, (size_t)n, sizeof(*v), bycmp);
	printf("compares %ld\n", ncmp);
	free(v);
	return 0;
}

static int
counts(long n)
{
	long i;

	for (i = 0; i < n; i++)
		sink = leaf(i);
	sink = once(n);
	sink = fib(20);
	return 0;
}

/*
 * Arguments past the registers, an over-aligned local and a
 * variable-length array: gcc -pg realigns the stack and, after the
 * mcount call, reaches the arguments through r10, which it trusts
 * mcount to keep.
 */
double
vsum(int n, ...)
{
	_Alignas(64) volatile char pad[64];
	volatile char vla[n];
	va_list ap;
	double s;
	int i;

	pad[0] = vla[0] = (char)n;
	va_start(ap, n);
	for (s = 0, i = 0; i < n; i++)
		s += va_arg(ap, double);
	va_end(ap);
	return s + pad[0] - vla[0];
}

static int
realign(long n)
{
	double s;
	long i;

	for (s = 0, i = 0; i < n; i++)
		s += vsum(10, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0,
		    10.0);
	printf("sum %.0f\n", s);
	return 0;
}

#ifdef __clang__
static int
nested(long n)
{
	(void)n;
	printf("nested none\n");
	return 0;
}
#else
/*
 * A GNU C nested function: gcc -mfentry pushes its static chain, r10,
 * before the __fentry__ call, so that the call site is a word further
 * up the stack.
 */
static int
nested(long n)
{
	long i, acc;

	__attribute__((noinline)) long nestleaf(long x)
	{
		return acc += x;
	}
	for (acc = 0, i = 0; i < n; i++)
		sink = nestleaf(i);
	printf("nested %ld\n", acc);
	return 0;
}
#endif

/* Eight callees of one call site, each of its own size: apart in text. */
#define PT(k)								\
long									\
pt##k(long x)								\
{									\
	return x * (k + 3) + k;						\
}
PT(0) PT(1) PT(2) PT(3) PT(4) PT(5) PT(6) PT(7)

static long (*const pt[8])(long) = { pt0, pt1, pt2, pt3, pt4, pt5, pt6,
    pt7 };

void *
ptrworker(void *arg)
{
	long (*volatile const *f)(long) = pt;
	long i, s = 0;

	(void)arg;
	for (i = 0; i < per_thread; i++)
		s += f[i & 7](i);	/* the one call site */
	sink = s;
	return NULL;
}

static int
threads(int t, long n, void *(*fn)(void *))
{
	pthread_t tid[64];
	int i;

	if (t < 1 || t > 64)
		errx(2, "1 to 64 threads");
	per_thread = n;
	for (i = 0; i < t; i++)
		if ((errno = pthread_create(&tid[i], NULL, fn, NULL)) != 0)
			err(1, "pthread_create");
	for (i = 0; i < t; i++)
		pthread_join(tid[i], NULL);
	return 0;
}

static int
signals(int k)
{
	static const struct itimerval off;
	struct itimerval it;
	struct sigaction sa;
	long loops;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onsig;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGVTALRM, &sa, NULL) != 0)
		err(1, "sigaction");
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 1000;
	it.it_value.tv_usec = 1000;
	if (setitimer(ITIMER_VIRTUAL, &it, NULL) != 0)
		err(1, "setitimer");
	for (loops = 0; nsig < k; loops++)
		sink = leaf(loops);
	if (setitimer(ITIMER_VIRTUAL, &off, NULL) != 0)
		err(1, "setitimer");
	printf("loops %ld\nsignals %d\n", loops, (int)nsig);
	return 0;
}

int
main(int argc, char *argv[])
{
	const char *m;

	if (argc < 2)
		errx(2, "usage: h_calls mode [args]");
	m = argv[1];
	if (strcmp(m, "counts") == 0 && argc == 3)
		return counts(atol(argv[2]));
	if (strcmp(m, "threads") == 0 && argc == 4)
		return threads(atoi(argv[2]), atol(argv[3]), worker);
	if (strcmp(m, "pointers") == 0 && argc == 4)
		return threads(atoi(argv[2]), atol(argv[3]), ptrworker);
	if (strcmp(m, "signal") == 0 && argc == 3)
		return signals(atoi(argv[2]));
	if (strcmp(m, "qsort") == 0 && argc == 3)
		return sorts(atol(argv[2]));
	if (strcmp(m, "realign") == 0 && argc == 3)
		return realign(atol(argv[2]));
	if (strcmp(m, "nested") == 0 && argc == 3)
		return nested(atol(argv[2]));
	sink = leaf(1);
	if (strcmp(m, "pid") == 0) {
		printf("pid %ld\n", (long)getpid());
		return 0;
	}
	if (strcmp(m, "exit") == 0 && argc == 3)
		exit(atoi(argv[2]));
	if (strcmp(m, "_exit") == 0)
		_exit(0);
	if (strcmp(m, "abort") == 0)
		abort();
	if (strcmp(m, "kill") == 0) {
		raise(SIGUSR1);
		return 0;
	}
	errx(2, "%s: unknown mode, or wrong arguments (file: %s)", m,
	    MON_OUT);
}

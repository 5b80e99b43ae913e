/*
 * pgmix_fi.c -- pgmix's code built with -finstrument-functions: each
 * function's first call has libmon decide it, as pgmix's mmap sends a
 * signal.
 */
#define NOINLINE	__attribute__((noinline))

void	fi_calls(int);

static volatile int sink;

NOINLINE static void fi_a(void) { sink++; }
NOINLINE static void fi_b(void) { sink++; }
NOINLINE static void fi_c(void) { sink++; }

void
fi_calls(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		fi_a();
		fi_b();
		fi_c();
	}
}

/*
 * h_bigtext.c -- a cc -p program with 20 MiB of text that runs many
 * threads at once, each calling a function of its own text and taking
 * memory with malloc, as a large server does: what libmon takes for its
 * call-count tables must leave the program's memory alone.
 *
 * usage: h_bigtext NTHREADS
 *
 * Prints "mallocs failed F of N" and "threads failed T"; exit status 0.
 * Threads get 256 KiB stacks and malloc one arena, so that the
 * program's own address space is small and known: about 30 MiB, plus
 * 1 MiB a thread.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXTHR	1000
#define MALLOC	(1024 * 1024)

/* 20 MiB of text that is never run, after the functions. */
__asm__(
	"	.text\n"
	"	.p2align 12\n"
	"bigtext_pad:\n"
	"	.fill	20 << 20, 1, 0xcc\n"
);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int arrived, go, failed;

static int
work(int x)
{
	return x * 3 + 1;
}

static void *
thread(void *arg)
{
	char *p;

	(void)work((int)(long)arg);
	/* Every thread holds its table and its memory at the same time. */
	if ((p = malloc(MALLOC)) != NULL)
		memset(p, 1, 4096);
	pthread_mutex_lock(&lock);
	failed += p == NULL;
	arrived++;
	pthread_cond_broadcast(&cond);
	while (!go)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	free(p);
	return NULL;
}

int
main(int argc, char *argv[])
{
	pthread_t t[MAXTHR];
	pthread_attr_t attr;
	int i, n, made;

	n = argc == 2 ? atoi(argv[1]) : 0;
	if (n < 1 || n > MAXTHR) {
		fprintf(stderr, "usage: h_bigtext NTHREADS (1 to %d)\n", MAXTHR);
		return 2;
	}
	(void)mallopt(M_ARENA_MAX, 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (i = made = 0; i < n; i++)
		if (pthread_create(&t[made], &attr, thread, (void *)(long)i) ==
		    0)
			made++;
	pthread_mutex_lock(&lock);
	while (arrived < made)
		pthread_cond_wait(&cond, &lock);
	go = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	printf("mallocs failed %d of %d\nthreads failed %d\n", failed, made,
	    n - made);
	return 0;
}

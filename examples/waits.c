/*
 * waits.c -- a small server whose time goes mostly to waiting, for the
 * README's wall-time profile (PROFMODE=wall, prof -w).
 *
 * The main thread takes 400 requests from a pipe a client thread fills
 * every 2 ms and queues them; four workers take them from the queue
 * (a mutex and a condition variable), parse each on the CPU, then wait
 * for a backend that answers in 5 ms (poll on a pipe no one writes).
 */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define REQUESTS	400
#define WORKERS		4

static pthread_mutex_t	lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	more = PTHREAD_COND_INITIALIZER;
static int		queued, done, reqfd[2], backend[2];
static volatile double	sink;

/* The CPU part of a request: about half a millisecond. */
static void
parse(void)
{
	double s = 0;
	int i;

	for (i = 0; i < 300000; i++)
		s += i * 0.5;
	sink = s;
}

static void
ask_backend(void)
{
	struct pollfd p = { backend[0], POLLIN, 0 };

	(void)poll(&p, 1, 5);
}

static void *
worker(void *unused)
{
	(void)unused;
	for (;;) {
		pthread_mutex_lock(&lock);
		while (queued == 0 && !done)
			pthread_cond_wait(&more, &lock);
		if (queued == 0) {
			pthread_mutex_unlock(&lock);
			return NULL;
		}
		queued--;
		pthread_mutex_unlock(&lock);
		parse();
		ask_backend();
	}
}

static void *
client(void *unused)
{
	struct timespec gap = { 0, 2000000 };
	int i;

	(void)unused;
	for (i = 0; i < REQUESTS; i++) {
		nanosleep(&gap, NULL);
		if (write(reqfd[1], "r", 1) != 1)
			break;
	}
	close(reqfd[1]);
	return NULL;
}

int
main(void)
{
	pthread_t w[WORKERS], c;
	char r;
	int i, n;

	if (pipe(reqfd) != 0 || pipe(backend) != 0)
		return 1;
	for (i = 0; i < WORKERS; i++)
		pthread_create(&w[i], NULL, worker, NULL);
	pthread_create(&c, NULL, client, NULL);
	for (n = 0; read(reqfd[0], &r, 1) == 1; n++) {
		pthread_mutex_lock(&lock);
		queued++;
		pthread_cond_signal(&more);
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_broadcast(&more);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < WORKERS; i++)
		pthread_join(w[i], NULL);
	pthread_join(c, NULL);
	printf("%d requests served\n", n);
	return 0;
}

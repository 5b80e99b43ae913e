/*
 * t_exec -- an unprofiled program for signals_test to exec: it judges
 * what it was handed (signals, arguments, environment) and says so by
 * its exit status.
 *
 *	t_exec burn MS		unblock every signal, spin MS ms of CPU,
 *				exit 0 (a pending SIGPROF kills it first)
 *	t_exec count MS		the same with a SIGPROF handler: exit with
 *				the number of SIGPROFs received
 *	t_exec env NAME VALUE	exit 0 if NAME is VALUE in environ, else 1
 *	t_exec args N ...	exit 0 if N arguments "a0000" .. follow,
 *				and no more; else 1
 *	t_exec ignored		exit 0 if SIGPROF's action is SIG_IGN, 1
 *				if SIG_DFL, else 2
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h_spin.h"

static volatile sig_atomic_t got;

static void
count(int sig)
{
	(void)sig;
	got++;
}

static void
spin(uint64_t ns)
{
	SPIN(ns);
}

static int
burn(const char *ms, int counting)
{
	struct sigaction sa;
	sigset_t none;

	if (counting) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = count;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGPROF, &sa, NULL) != 0)
			return 100;
	}
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) != 0)
		return 101;
	spin(strtoull(ms, NULL, 10) * MS);
	return counting ? got : 0;
}

static int
args(int n, char *argv[])
{
	char want[32];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "a%04d", i);
		if (argv[i] == NULL || strcmp(argv[i], want) != 0)
			return 1;
	}
	return argv[n] == NULL ? 0 : 1;
}

int
main(int argc, char *argv[])
{
	const char *v;

	if (argc == 3 && strcmp(argv[1], "burn") == 0)
		return burn(argv[2], 0);
	if (argc == 3 && strcmp(argv[1], "count") == 0)
		return burn(argv[2], 1);
	if (argc == 4 && strcmp(argv[1], "env") == 0)
		return (v = getenv(argv[2])) != NULL &&
		    strcmp(v, argv[3]) == 0 ? 0 : 1;
	if (argc == 2 && strcmp(argv[1], "ignored") == 0) {
		struct sigaction sa;

		if (sigaction(SIGPROF, NULL, &sa) != 0)
			return 2;
		return sa.sa_handler == SIG_IGN ? 0 :
		    sa.sa_handler == SIG_DFL ? 1 : 2;
	}
	if (argc >= 3 && strcmp(argv[1], "args") == 0)
		return args(atoi(argv[2]), argv + 3);
	fprintf(stderr, "usage: t_exec burn|count MS | env NAME VALUE | "
	    "args N a0000 ... | ignored\n");
	return 2;
}

/*
 * h_dropfork.c -- a profiled server that drops its privileges and then
 * forks a worker, as servers started by root do.
 *
 * usage: h_dropfork
 *
 * Run as root, it becomes nobody (uid and gid 65534, no supplementary
 * groups) after profiling has started, then forks: the child runs
 * worker() for 0.3 s of its CPU time and exits, the parent waits.  Where
 * the perf clock samples kernel mode, that was decided at the start,
 * as root; the child must still be sampled, in user mode if the kernel
 * now refuses it kernel mode.
 */
#include <sys/wait.h>

#include <err.h>
#include <grp.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "h_burn.h"

void
worker(void)
{
	double t0 = thread_cpu();

	do
		BURN(100000);
	while (thread_cpu() - t0 < 0.3);
}

int
main(void)
{
	pid_t pid;
	int status;

	if (setgroups(0, NULL) != 0 || setgid(65534) != 0 ||
	    setuid(65534) != 0)
		err(1, "cannot become nobody");
	if ((pid = fork()) < 0)
		err(1, "fork");
	if (pid == 0) {
		worker();
		exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return 1;
	return 0;
}

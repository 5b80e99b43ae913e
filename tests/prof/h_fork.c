/*
 * h_fork.c -- a profiled program that forks, for prof's merging test.
 *
 * Before the fork common() is called 5 times; then the child calls
 * common() 3 times and child_only() 20 times, the parent parent_only()
 * 10 times.  With PROFDIR set each process writes its own file, and
 * prof over both must count common 8 (not 13: what the child inherited
 * is the parent's), child_only 20 and parent_only 10.
 */
#include <sys/wait.h>

#include <stdlib.h>
#include <unistd.h>

#include "h_burn.h"

void
common(void)
{
	BURN(20000);
}

void
parent_only(void)
{
	BURN(20000);
}

void
child_only(void)
{
	BURN(20000);
}

int
main(void)
{
	pid_t pid;
	int i, status;

	for (i = 0; i < 5; i++)
		common();
	if ((pid = fork()) < 0)
		return 1;
	if (pid == 0) {
		for (i = 0; i < 3; i++)
			common();
		for (i = 0; i < 20; i++)
			child_only();
		exit(0);
	}
	for (i = 0; i < 10; i++)
		parent_only();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return 1;
	return 0;
}

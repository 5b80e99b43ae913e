/*
 * t_hasperf -- may this process open a perf_event task-clock on itself,
 * as libmon's perf clock does?  For faults_test: where the kernel
 * refuses (perf_event_paranoid 3, a seccomp filter such as t_noperf's),
 * a PROFCLOCK=perf run must record the clock it fell back to, and the
 * test must know that from the kernel, not from libmon.
 *
 * usage: t_hasperf	exit 0 if it may; 1, the reason on stderr, if not
 */
#include <sys/syscall.h>

#include <linux/perf_event.h>
#include <stdio.h>
#include <unistd.h>

int
main(void)
{
	/* User time only, as perf_event_paranoid 2 lets a process have. */
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.exclude_kernel = 1,
	};
	int fd;

	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		perror("t_hasperf: perf_event_open");
		return 1;
	}
	close(fd);
	return 0;
}

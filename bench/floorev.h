/*
 * floorev.h -- the kernel's part of libmon's default clock, with no
 * profiler: the bench programs' -DFLOOR builds (threads.c, forkexec.c)
 * open events as lib/ring.c opens them, and never read them.
 *
 * floor_arm(prog, var, period) opens, on each CPU, a task-clock of the
 * calling thread sampling every period ns -- or every $var ns, where the
 * environment sets var -- with the user call stack and 128 bytes of
 * stack, kernel mode too where this user may have it, inherited by every
 * thread it makes after (not by fork children, as libmon's), its samples
 * into a ring of 64 data pages.  Unlike libmon's the rings are never
 * read: once full, the kernel counts what it cannot write instead of
 * writing it.  0, or -1 with a line on stderr (prog: ...) where
 * perf_event_open() is refused.
 *
 * The kernel arms a timer for such an event each time its thread is
 * switched in, and programs the CPU's timer anew when that one is the
 * next to expire, as it is for a period shorter than the tick -- under a
 * hypervisor, an exit from the guest each time.
 */
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int
floor_arm(const char *prog, const char *var, uint64_t period)
{
	struct perf_event_attr a;
	const char *per;
	long cpu, ncpu;
	size_t len;
	int fd, kernel;

	len = (size_t)(1 + 64) * (size_t)sysconf(_SC_PAGESIZE);
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	kernel = 1;
	if ((per = getenv(var)) != NULL)
		period = strtoull(per, NULL, 10);
	if (period == 0) {
		fprintf(stderr, "%s: %s: not a period in ns\n", prog, var);
		return -1;
	}
	for (cpu = 0; cpu < ncpu; cpu++) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.sample_period = period;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		    PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER;
		a.sample_max_stack = 64;
		a.sample_stack_user = 128;
		a.exclude_callchain_kernel = 1;
		a.exclude_kernel = !kernel;
		a.exclude_hv = 1;
		a.inherit = a.inherit_thread = a.inherit_stat = 1;
		a.remove_on_exec = 1;
		a.watermark = 1;
		a.wakeup_watermark = (uint32_t)(len - len / 65);
		fd = (int)syscall(SYS_perf_event_open, &a, 0, (int)cpu, -1,
		    PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && kernel && (errno == EACCES || errno == EPERM)) {
			kernel = 0;	/* user mode alone, as libmon */
			cpu--;
			continue;
		}
		if (fd < 0 && errno == ENODEV)
			continue;	/* an offline CPU */
		if (fd < 0) {
			fprintf(stderr, "%s: perf_event_open: %s\n", prog,
			    strerror(errno));
			return -1;
		}
		if (mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    0) == MAP_FAILED) {
			fprintf(stderr, "%s: mmap of a ring: %s\n", prog,
			    strerror(errno));
			return -1;
		}
		close(fd);
	}
	return 0;
}

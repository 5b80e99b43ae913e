/*
 * t_noperf -- run a command where the kernel refuses perf_event_open(2),
 * as it does under perf_event_paranoid 3 (the Debian and Ubuntu default)
 * or a container's seccomp profile: the suite runs under it once, so
 * that every test meets the refusal for real and libmon's fallback,
 * not a switch of its own, is what is tested.
 *
 * usage: t_noperf command [arg ...]
 *
 * It sets no_new_privs (which a filter needs without CAP_SYS_ADMIN) and
 * installs a seccomp filter that fails perf_event_open with EACCES and
 * allows every other call, then execs the command.  Both are inherited
 * by every process the command starts and cannot be lifted; one price
 * of no_new_privs is that exec ignores set-user-ID and set-group-ID
 * bits, so tests of set-ID programs must see it and skip.  Plain C, no
 * libmon: the tool must not profile itself.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <err.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

/* x32 calls are numbered from this bit; the filter refuses both ABIs'. */
#define X32_BIT		0x40000000U

#define LOAD(field)	BPF_STMT(BPF_LD | BPF_W | BPF_ABS,		\
			    offsetof(struct seccomp_data, field))
#define IF_EQ(k, skip)	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (skip), 0)
#define RET(v)		BPF_STMT(BPF_RET | BPF_K, (v))

static void
deny_perf(void)
{
	struct sock_filter code[] = {
		/* The suite is x86_64 (x32 calls say so too): let others by. */
		LOAD(arch),
		IF_EQ(AUDIT_ARCH_X86_64, 1),
		RET(SECCOMP_RET_ALLOW),
		LOAD(nr),
		IF_EQ(__NR_perf_event_open, 2),
		IF_EQ(X32_BIT | __NR_perf_event_open, 1),
		RET(SECCOMP_RET_ALLOW),
		RET(SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
	};
	struct sock_fprog prog = {
		.len = sizeof(code) / sizeof(code[0]),
		.filter = code,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		err(126, "prctl(PR_SET_NO_NEW_PRIVS)");
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
		err(126, "prctl(PR_SET_SECCOMP)");
}

int
main(int argc, char *argv[])
{
	if (argc < 2) {
		fprintf(stderr, "usage: t_noperf command [arg ...]\n");
		return 2;
	}
	deny_perf();
	execvp(argv[1], argv + 1);
	err(errno == ENOENT ? 127 : 126, "%s", argv[1]);
}

/*
 * monitor_test -- monitor(3C): the buffer, the scale, the arguments it
 * refuses, where the file goes (PROFDIR), how it is written (mode, no
 * links followed, never partial), restarts, fork and exec, and the
 * extension records.
 *
 * This program is not compiled with -p: it profiles the burners of
 * h_burn.h by calling monitor() itself, in a forked child that reports
 * through shared memory.  Call counts come from the cc -p helper
 * h_monitor.  Files are read with the one reader, h_monread.h.
 */
#define _GNU_SOURCE	/* program_invocation_short_name */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <atf-c.h>
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mon.h>

#include "h_monread.h"
#include "h_support.h"

#define BUFW		32768		/* WORDs in the shared buffer */
#define ENOUGH		40		/* samples the burner waits for */
#define EXIT_CODE	7		/* how the children end */

typedef int (*pcfn)(void);

/* What a child does, and what it saw. */
struct mrun {
	/* set by the parent */
	uintptr_t	lo, hi;
	size_t		nwords, nfunc;
	int		stop_at_exit;	/* leave the stop to atexit() */
	int		stops;		/* explicit stops (default 1) */
	int		profdir;	/* 0 unset, 1 set to dir */
	char		dir[PATH_MAX];
	char		profhz[16];
	int		umask;		/* -1 to leave it */
	rlim_t		fsize;		/* RLIMIT_FSIZE, 0 to leave it */
	int		xfsz_ignored;
	int		drop_dac;	/* no root override of permissions */
	uint64_t	burn_ns;	/* burn this long, not to ENOUGH */
	/* set by the child */
	pid_t		pid;
	int		start_errno;
	int		reached;
	int		sigprof_taken;	/* a SIGPROF action was installed */
	uint64_t	cpu_before, cpu_after, burned;
	WORD		buf[BUFW];
};

static struct mrun *cur;

static size_t
ssiz(size_t nfunc)
{
	return (sizeof(struct hdr) + nfunc * sizeof(struct cnt)) /
	    sizeof(WORD);
}

/* The classic scale monitor() derives for nwords of histogram. */
static unsigned int
classic_scale(size_t nwords, uintptr_t lo, uintptr_t hi)
{
	uintptr_t text = (hi - lo + 1) / 2;

	if (nwords < text)
		return (unsigned int)((double)nwords * 65536.0 / (double)text);
	return 0xffff;
}

/* A run over the burners, one WORD of histogram per 8 bytes of text. */
static struct mrun *
newrun(void)
{
	struct mrun *r;

	r = shared(sizeof(*r));
	/* 4 KiB: the classic scale comes out at exactly 0x4000. */
	r->lo = (uintptr_t)burn_a - 256;
	r->hi = r->lo + 4096;
	ATF_REQUIRE(r->hi > (uintptr_t)burn_c_end);
	r->nfunc = 16;
	r->nwords = ssiz(r->nfunc) + (r->hi - r->lo) / BARSIZE;
	r->stops = 1;
	r->umask = -1;
	ATF_REQUIRE(r->nwords <= BUFW);
	return r;
}

static int
enough_hist(void *arg)
{
	struct mrun *r = arg;
	size_t s = ssiz(r->nfunc);

	return wsum(r->buf + s, r->nwords - s) >= ENOUGH;
}

static void
stop_at_exit(void)
{
	monitor(NULL, NULL, NULL, 0, 0);
}

static int
drop_dac(void)
{
	struct __user_cap_header_struct h;
	struct __user_cap_data_struct d[2];
	uint32_t mask;

	if (geteuid() != 0)
		return 0;
	memset(&h, 0, sizeof(h));
	h.version = _LINUX_CAPABILITY_VERSION_3;
	if (syscall(SYS_capget, &h, d) != 0)
		return -1;
	mask = 1u << CAP_DAC_OVERRIDE | 1u << CAP_DAC_READ_SEARCH;
	d[0].effective &= ~mask;
	d[0].permitted &= ~mask;
	return (int)syscall(SYS_capset, &h, d);
}

/* The environment and limits a run asks for.  0 or an exit code. */
static int
setup(struct mrun *r)
{
	struct sigaction sa;
	struct rlimit rl;

	if (r->profdir)
		setenv("PROFDIR", r->dir, 1);
	else
		unsetenv("PROFDIR");
	if (r->profhz[0] != '\0')
		setenv("PROFHZ", r->profhz, 1);
	if (r->umask >= 0)
		umask((mode_t)r->umask);
	if (r->xfsz_ignored) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_IGN;
		if (sigaction(SIGXFSZ, &sa, NULL) != 0)
			return 101;
	}
	if (r->fsize != 0) {
		rl.rlim_cur = rl.rlim_max = r->fsize;
		if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
			return 102;
	}
	if (r->drop_dac && drop_dac() != 0)
		return 103;
	return 0;
}

/*
 * The common child: start on [lo, hi), burn in burn_a, stop (or leave
 * it to atexit), end with EXIT_CODE.
 */
static int
child_profile(void *arg)
{
	struct mrun *r = arg;
	struct sigaction sa;
	uint64_t t0;
	int e, i;

	cur = r;
	if ((e = setup(r)) != 0)
		return e;
	r->pid = getpid();
	if (r->stop_at_exit && atexit(stop_at_exit) != 0)
		return 104;
	r->cpu_before = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	errno = 0;
	monitor((pcfn)r->lo, (pcfn)r->hi, r->buf, r->nwords, r->nfunc);
	r->start_errno = errno;
	if (sigaction(SIGPROF, NULL, &sa) == 0)
		r->sigprof_taken = (sa.sa_flags & SA_SIGINFO) ||
		    sa.sa_handler != SIG_DFL;
	t0 = thread_ns();
	if (r->burn_ns != 0 || r->start_errno != 0) {
		burn_for(burn_a, r->burn_ns);
		r->reached = 1;
	} else
		r->reached = burn_until(burn_a, enough_hist, r, CPU_CAP_NS);
	r->burned = thread_ns() - t0;
	if (!r->stop_at_exit)
		for (i = 0; i < r->stops; i++)
			monitor(NULL, NULL, NULL, 0, 0);
	r->cpu_after = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	return EXIT_CODE;
}

/* Run the common child and require that it profiled as asked. */
static void
profile(struct mrun *r, struct child *c)
{
	run_child(child_profile, r, c);
	REQUIRE_EXIT(c, EXIT_CODE);
	ATF_REQUIRE_EQ_MSG(r->start_errno, 0, "monitor: %s",
	    strerror(r->start_errno));
	ATF_REQUIRE_MSG(r->reached, "no %d samples in %llu s of CPU", ENOUGH,
	    CPU_CAP_NS / 1000000000);
}

static void
readmon(const char *path, struct mon_file *m)
{
	char why[256];

	ATF_REQUIRE_MSG(mon_read(path, m, why, sizeof(why)) == 0,
	    "%s: %s", path, why);
}

/* The names in dir other than skip, space-separated; "" if none. */
static void
listdir(const char *dir, const char *skip, char *out, size_t size)
{
	struct dirent *e;
	DIR *d;

	out[0] = '\0';
	ATF_REQUIRE_MSG((d = opendir(dir)) != NULL, "%s: %s", dir,
	    strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0 ||
		    (skip != NULL && strcmp(e->d_name, skip) == 0))
			continue;
		strncat(out, e->d_name, size - strlen(out) - 2);
		strcat(out, " ");
	}
	closedir(d);
}

static int
exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* An absolute path under the test's working directory. */
static void
workpath(char *out, size_t size, const char *name)
{
	char cwd[PATH_MAX];

	ATF_REQUIRE(getcwd(cwd, sizeof(cwd)) != NULL);
	ATF_REQUIRE((size_t)snprintf(out, size, "%s/%s", cwd, name) < size);
}

/* One line on stderr, naming what. */
static void
check_one_line(const struct child *c, const char *what)
{
	ATF_CHECK_EQ_MSG(nlines(c->err), 1, "%d lines on stderr: %s",
	    nlines(c->err), c->err);
	ATF_CHECK_MSG(strstr(c->err, what) != NULL, "stderr does not name "
	    "%s: %s", what, c->err);
}

ATF_TC(stop_leaves_buffer_as_image);
ATF_TC_HEAD(stop_leaves_buffer_as_image, tc)
{
	atf_tc_set_md_var(tc, "descr", "After monitor(0, ...) the caller's "
	    "buffer is laid out as mon.out: a header with lowpc, highpc and "
	    "nfunc, nfunc cells, and the histogram the file holds");
}
ATF_TC_BODY(stop_leaves_buffer_as_image, tc)
{
	struct mon_file b, f;
	struct child c;
	struct mrun *r;
	char why[256];

	r = newrun();
	profile(r, &c);
	ATF_REQUIRE_MSG(mon_parse(r->buf, r->nwords * sizeof(WORD), &b, why,
	    sizeof(why)) == 0, "the buffer is no mon.out image: %s", why);
	readmon(MON_OUT, &f);
	ATF_CHECK_MSG((uintptr_t)b.hdr.lpc == r->lo, "buffer lpc %p, "
	    "lowpc %#jx", (void *)b.hdr.lpc, (uintmax_t)r->lo);
	ATF_CHECK_MSG((uintptr_t)b.hdr.hpc == r->hi, "buffer hpc %p, "
	    "highpc %#jx", (void *)b.hdr.hpc, (uintmax_t)r->hi);
	ATF_CHECK_EQ_MSG(b.hdr.nfns, r->nfunc, "buffer nfns %zu, nfunc %zu",
	    b.hdr.nfns, r->nfunc);
	ATF_CHECK_EQ_MSG(b.nhist, f.nhist, "buffer histogram %zu WORDs, "
	    "file %zu", b.nhist, f.nhist);
	ATF_CHECK_MSG(b.nhist == f.nhist && memcmp(b.hist, f.hist,
	    b.nhist * sizeof(WORD)) == 0, "buffer and file histograms differ");
	ATF_CHECK_MSG(mon_samples(&b, 0, b.nhist) >= ENOUGH, "buffer "
	    "histogram holds %ju samples", (uintmax_t)mon_samples(&b, 0,
	    b.nhist));
	ATF_CHECK_EQ_MSG(mon_calls(&b, 1, UINTPTR_MAX), 0, "calls counted "
	    "in a program not built with -p");
	mon_free(&b);
	mon_free(&f);
}

ATF_TC(classic_scale);
ATF_TC_HEAD(classic_scale, tc)
{
	atf_tc_set_md_var(tc, "descr", "One histogram WORD per 8 bytes of "
	    "text gives the classic scale of about 0x4000, and samples land "
	    "in the counters that scale gives");
}
ATF_TC_BODY(classic_scale, tc)
{
	struct mon_file f;
	struct child c;
	struct mrun *r;
	unsigned int want;
	size_t i0, i1;
	uint64_t all, in;

	r = newrun();
	profile(r, &c);
	readmon(MON_OUT, &f);
	ATF_REQUIRE_MSG(f.has_run, "no RUN record");
	want = classic_scale(r->nwords - ssiz(r->nfunc), r->lo, r->hi);
	ATF_REQUIRE_MSG(want >= 0x3ff0 && want <= 0x4000, "test set-up: "
	    "scale %#x", want);
	ATF_CHECK_EQ_MSG(f.run.scale, want, "RUN scale %#x, classic %#x",
	    f.run.scale, want);
	i0 = mon_index(&f, (uintptr_t)burn_a, want);
	i1 = mon_index(&f, (uintptr_t)burn_a_end - 1, want);
	all = mon_samples(&f, 0, f.nhist);
	in = mon_samples(&f, i0, i1);
	ATF_CHECK_MSG(all >= ENOUGH && in == all, "%ju of %ju samples in "
	    "counters %zu..%zu where burn_a is", (uintmax_t)in,
	    (uintmax_t)all, i0, i1);
	mon_free(&f);
}

ATF_TC(large_buffer_scale_ffff);
ATF_TC_HEAD(large_buffer_scale_ffff, tc)
{
	atf_tc_set_md_var(tc, "descr", "A histogram with a WORD for every 2 "
	    "bytes of text gets scale 0xffff");
}
ATF_TC_BODY(large_buffer_scale_ffff, tc)
{
	struct mon_file f;
	struct child c;
	struct mrun *r;

	r = newrun();
	r->nwords = ssiz(r->nfunc) + (r->hi - r->lo + 1) / 2;
	profile(r, &c);
	readmon(MON_OUT, &f);
	ATF_REQUIRE_MSG(f.has_run, "no RUN record");
	ATF_CHECK_EQ_MSG(f.run.scale, 0xffff, "RUN scale %#x", f.run.scale);
	ATF_CHECK_EQ_MSG(f.nhist, (r->hi - r->lo + 1) / 2, "histogram of "
	    "%zu WORDs", f.nhist);
	mon_free(&f);
}

/* An invalid start: EINVAL, nothing armed, no file after a stop. */
static void
check_einval(struct mrun *r)
{
	char names[1024];
	struct child c;

	r->burn_ns = 1;
	run_child(child_profile, r, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_CHECK_EQ_MSG(r->start_errno, EINVAL, "errno %d (%s), not EINVAL",
	    r->start_errno, strerror(r->start_errno));
	ATF_CHECK_MSG(!r->sigprof_taken, "a SIGPROF action was installed");
	listdir(".", NULL, names, sizeof(names));
	ATF_CHECK_MSG(names[0] == '\0', "files appeared: %s", names);
}

ATF_TC(einval_lowpc_not_below_highpc);
ATF_TC_HEAD(einval_lowpc_not_below_highpc, tc)
{
	atf_tc_set_md_var(tc, "descr", "lowpc at or above highpc sets errno "
	    "to EINVAL and profiles nothing");
}
ATF_TC_BODY(einval_lowpc_not_below_highpc, tc)
{
	struct mrun *r;

	r = newrun();
	r->hi = r->lo;
	check_einval(r);
	r = newrun();
	r->lo = r->hi + 16;
	check_einval(r);
}

ATF_TC(einval_buffer_too_small);
ATF_TC_HEAD(einval_buffer_too_small, tc)
{
	atf_tc_set_md_var(tc, "descr", "A buffer with no room past the "
	    "header and nfunc cells sets errno to EINVAL and profiles "
	    "nothing");
}
ATF_TC_BODY(einval_buffer_too_small, tc)
{
	struct mrun *r;

	r = newrun();
	r->nwords = ssiz(r->nfunc);
	check_einval(r);
}

ATF_TC(einval_null_buffer);
ATF_TC_HEAD(einval_null_buffer, tc)
{
	atf_tc_set_md_var(tc, "descr", "A NULL buffer sets errno to EINVAL "
	    "and profiles nothing");
}

static int
child_null_buffer(void *arg)
{
	struct mrun *r = arg;
	struct sigaction sa;

	unsetenv("PROFDIR");
	errno = 0;
	monitor((pcfn)r->lo, (pcfn)r->hi, NULL, r->nwords, r->nfunc);
	r->start_errno = errno;
	if (sigaction(SIGPROF, NULL, &sa) == 0)
		r->sigprof_taken = (sa.sa_flags & SA_SIGINFO) ||
		    sa.sa_handler != SIG_DFL;
	monitor(NULL, NULL, NULL, 0, 0);
	return EXIT_CODE;
}

ATF_TC_BODY(einval_null_buffer, tc)
{
	char names[1024];
	struct child c;
	struct mrun *r;

	r = newrun();
	run_child(child_null_buffer, r, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_CHECK_EQ_MSG(r->start_errno, EINVAL, "errno %d (%s), not EINVAL",
	    r->start_errno, strerror(r->start_errno));
	ATF_CHECK_MSG(!r->sigprof_taken, "a SIGPROF action was installed");
	listdir(".", NULL, names, sizeof(names));
	ATF_CHECK_MSG(names[0] == '\0', "files appeared: %s", names);
}

ATF_TC(profdir_unset_writes_cwd);
ATF_TC_HEAD(profdir_unset_writes_cwd, tc)
{
	atf_tc_set_md_var(tc, "descr", "With PROFDIR unset the profile is "
	    "mon.out in the current directory, and nothing else is left");
}
ATF_TC_BODY(profdir_unset_writes_cwd, tc)
{
	char names[1024];
	struct mon_file f;
	struct child c;
	struct mrun *r;

	r = newrun();
	profile(r, &c);
	ATF_CHECK_EQ_MSG(c.errlen, 0, "stderr: %s", c.err);
	listdir(".", NULL, names, sizeof(names));
	ATF_CHECK_STREQ_MSG(names, "mon.out ", "files: %s", names);
	readmon(MON_OUT, &f);
	ATF_CHECK_MSG(f.has_run && f.run.pid == (uint32_t)r->pid, "the file "
	    "is not the child's");
	mon_free(&f);
}

ATF_TC(profdir_empty_writes_nothing);
ATF_TC_HEAD(profdir_empty_writes_nothing, tc)
{
	atf_tc_set_md_var(tc, "descr", "With PROFDIR set and empty nothing "
	    "is profiled and no file is written");
}
ATF_TC_BODY(profdir_empty_writes_nothing, tc)
{
	char names[1024];
	struct child c;
	struct mrun *r;

	r = newrun();
	r->profdir = 1;
	r->burn_ns = 100 * MS;
	run_child(child_profile, r, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_CHECK_MSG(!r->sigprof_taken, "a SIGPROF action was installed");
	ATF_CHECK_EQ_MSG(wsum(r->buf, r->nwords), 0, "the buffer was used");
	listdir(".", NULL, names, sizeof(names));
	ATF_CHECK_MSG(names[0] == '\0', "files appeared: %s", names);
	ATF_CHECK_EQ_MSG(c.errlen, 0, "stderr: %s", c.err);
}

ATF_TC(profdir_names_pid_progname);
ATF_TC_HEAD(profdir_names_pid_progname, tc)
{
	atf_tc_set_md_var(tc, "descr", "With PROFDIR set to a directory the "
	    "profile is DIR/pid.progname, with the pid of the process that "
	    "writes it");
}
ATF_TC_BODY(profdir_names_pid_progname, tc)
{
	char names[1024], want[256], path[PATH_MAX + 300];
	struct mon_file f;
	struct child c;
	struct mrun *r;

	r = newrun();
	r->profdir = 1;
	workpath(r->dir, sizeof(r->dir), "prof");
	ATF_REQUIRE(mkdir(r->dir, 0755) == 0);
	profile(r, &c);
	snprintf(want, sizeof(want), "%ld.%s ", (long)r->pid,
	    program_invocation_short_name);
	listdir(r->dir, NULL, names, sizeof(names));
	ATF_CHECK_STREQ_MSG(names, want, "files in PROFDIR: %s", names);
	ATF_CHECK_MSG(!exists(MON_OUT), "mon.out written too");
	snprintf(path, sizeof(path), "%s/%ld.%s", r->dir, (long)r->pid,
	    program_invocation_short_name);
	if (exists(path)) {
		readmon(path, &f);
		ATF_CHECK_MSG(f.has_run && f.run.pid == (uint32_t)r->pid,
		    "RUN pid is not the writer's");
		mon_free(&f);
	}
}

/* PROFDIR names something unusable: one line, status kept, no debris. */
static void
check_bad_profdir(struct mrun *r, const char *look, const char *keep)
{
	char names[1024];
	struct child c;

	r->profdir = 1;
	r->stop_at_exit = 1;
	profile(r, &c);
	check_one_line(&c, r->dir);
	listdir(look, keep, names, sizeof(names));
	ATF_CHECK_MSG(names[0] == '\0', "files left in %s: %s", look, names);
}

ATF_TC(profdir_missing_warns);
ATF_TC_HEAD(profdir_missing_warns, tc)
{
	atf_tc_set_md_var(tc, "descr", "A PROFDIR that does not exist draws "
	    "one line on stderr naming it; the exit status is the program's "
	    "and no file is left");
}
ATF_TC_BODY(profdir_missing_warns, tc)
{
	struct mrun *r;

	r = newrun();
	workpath(r->dir, sizeof(r->dir), "missing");
	check_bad_profdir(r, ".", NULL);
}

ATF_TC(profdir_not_directory_warns);
ATF_TC_HEAD(profdir_not_directory_warns, tc)
{
	atf_tc_set_md_var(tc, "descr", "A PROFDIR that is a regular file "
	    "draws one line on stderr naming it; the exit status is the "
	    "program's and no file is left");
}
ATF_TC_BODY(profdir_not_directory_warns, tc)
{
	struct mrun *r;
	int fd;

	r = newrun();
	workpath(r->dir, sizeof(r->dir), "plain");
	ATF_REQUIRE((fd = open(r->dir, O_CREAT | O_WRONLY, 0644)) >= 0);
	close(fd);
	check_bad_profdir(r, ".", "plain");
}

ATF_TC(profdir_not_writable_warns);
ATF_TC_HEAD(profdir_not_writable_warns, tc)
{
	atf_tc_set_md_var(tc, "descr", "A PROFDIR the process cannot write "
	    "draws one line on stderr naming it; the exit status is the "
	    "program's and no file is left");
}

static int
child_probe_unwritable(void *arg)
{
	struct mrun *r = arg;
	char probe[PATH_MAX + 8];
	int fd;

	if (drop_dac() != 0)
		return 1;
	snprintf(probe, sizeof(probe), "%s/probe", r->dir);
	if ((fd = open(probe, O_CREAT | O_WRONLY, 0644)) >= 0) {
		close(fd);
		unlink(probe);
		return 2;
	}
	return 0;
}

ATF_TC_BODY(profdir_not_writable_warns, tc)
{
	struct child c;
	struct mrun *r;

	r = newrun();
	workpath(r->dir, sizeof(r->dir), "ro");
	ATF_REQUIRE(mkdir(r->dir, 0555) == 0);
	run_child(child_probe_unwritable, r, &c);
	if (!WIFEXITED(c.status) || WEXITSTATUS(c.status) != 0)
		atf_tc_skip("cannot make a directory this process cannot "
		    "write");
	r->drop_dac = 1;
	check_bad_profdir(r, r->dir, NULL);
	(void)chmod(r->dir, 0755);
}

static int
child_two_stops(void *arg)
{
	struct mrun *r = arg;
	int e;

	if ((e = setup(r)) != 0)
		return e;
	r->pid = getpid();
	errno = 0;
	monitor((pcfn)r->lo, (pcfn)r->hi, r->buf, r->nwords, r->nfunc);
	r->start_errno = errno;
	r->reached = burn_until(burn_a, enough_hist, r, CPU_CAP_NS);
	monitor(NULL, NULL, NULL, 0, 0);
	if (rename(MON_OUT, "first.out") != 0)
		return 110;
	/* The buffer is the program's again: freed and reused. */
	memset(r->buf, 0xa5, r->nwords * sizeof(WORD));
	burn_for(burn_a, 50 * MS);
	monitor(NULL, NULL, NULL, 0, 0);
	return EXIT_CODE;
}

ATF_TC(second_stop_touches_nothing);
ATF_TC_HEAD(second_stop_touches_nothing, tc)
{
	atf_tc_set_md_var(tc, "descr", "A second monitor(0, ...) finds "
	    "profiling stopped: it neither reads nor writes the buffer, "
	    "which the program may have freed, and writes no file");
}
ATF_TC_BODY(second_stop_touches_nothing, tc)
{
	struct child c;
	struct mrun *r;
	size_t i;

	r = newrun();
	run_child(child_two_stops, r, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_REQUIRE_MSG(r->reached, "too few samples");
	ATF_REQUIRE_MSG(exists("first.out"), "the first stop wrote nothing");
	ATF_CHECK_MSG(!exists(MON_OUT), "the second stop wrote a file");
	for (i = 0; i < r->nwords; i++)
		if (r->buf[i] != 0xa5a5)
			break;
	ATF_CHECK_MSG(i == r->nwords, "the second stop wrote word %zu of "
	    "the buffer", i);
}

struct unload {
	struct mrun	r;
	char		lib[PATH_MAX];
	int		closed;		/* what dlclose returned */
};

/* A library dlclose'd in a profile; then a profile of its own. */
static int
child_unload(void *arg)
{
	struct unload *u = arg;
	struct mrun *r = &u->r;
	void *h;

	unsetenv("PROFDIR");
	r->pid = getpid();
	errno = 0;
	monitor((pcfn)r->lo, (pcfn)r->hi, r->buf, r->nwords, r->nfunc);
	r->start_errno = errno;
	if ((h = dlopen(u->lib, RTLD_NOW)) == NULL)
		return 112;
	u->closed = dlclose(h);
	monitor(NULL, NULL, NULL, 0, 0);
	if (rename(MON_OUT, "first.out") != 0)
		return 110;
	monitor((pcfn)r->lo, (pcfn)r->hi, r->buf, r->nwords, r->nfunc);
	r->start_errno |= errno;
	monitor(NULL, NULL, NULL, 0, 0);
	return EXIT_CODE;
}

/* How many OBJ records of m name path. */
static size_t
listed(const struct mon_file *m, const char *path)
{
	size_t i, n;

	for (i = n = 0; i < m->nobjs; i++)
		if (strcmp(m->objs[i].path, path) == 0)
			n++;
	return n;
}

ATF_TC(new_profile_forgets_unloaded);
ATF_TC_HEAD(new_profile_forgets_unloaded, tc)
{
	atf_tc_set_md_var(tc, "descr", "A library dlclose'd while profiled "
	    "is listed in the profile, and not in the next one, begun by a "
	    "start after the stop");
}
ATF_TC_BODY(new_profile_forgets_unloaded, tc)
{
	struct mon_file a, b;
	struct unload *u;
	struct child c;

	u = shared(sizeof(*u));
	u->r = *newrun();
	ATF_REQUIRE((size_t)snprintf(u->lib, sizeof(u->lib), "%s/%s",
	    atf_tc_get_config_var(tc, "srcdir"), "h_dlib_plain.so") <
	    sizeof(u->lib));
	run_child(child_unload, u, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_REQUIRE_EQ_MSG(u->r.start_errno, 0, "monitor failed");
	ATF_REQUIRE_EQ_MSG(u->closed, 0, "dlclose failed");
	readmon("first.out", &a);
	readmon(MON_OUT, &b);
	ATF_CHECK_EQ_MSG(listed(&a, u->lib), 1, "the first profile lists "
	    "%s %zu times", u->lib, listed(&a, u->lib));
	ATF_CHECK_EQ_MSG(listed(&b, u->lib), 0, "the second profile lists "
	    "%s %zu times", u->lib, listed(&b, u->lib));
	mon_free(&a);
	mon_free(&b);
}

struct restart {
	struct mrun	r;		/* the second start */
	WORD		first[BUFW];	/* the first start's buffer */
	size_t		nfirst;
};

static int
enough_first(void *arg)
{
	struct restart *s = arg;
	size_t k = ssiz(s->r.nfunc);

	return wsum(s->first + k, s->nfirst - k) >= ENOUGH;
}

static int
child_restart(void *arg)
{
	struct restart *s = arg;
	struct mrun *r = &s->r;

	unsetenv("PROFDIR");
	r->pid = getpid();
	errno = 0;
	monitor((pcfn)((uintptr_t)burn_a - 256), (pcfn)burn_a_end, s->first,
	    s->nfirst, r->nfunc);
	r->start_errno = errno;
	if (!burn_until(burn_a, enough_first, s, CPU_CAP_NS))
		return 111;
	monitor((pcfn)r->lo, (pcfn)r->hi, r->buf, r->nwords, r->nfunc);
	r->start_errno |= errno;
	r->reached = burn_until(burn_b, enough_hist, r, CPU_CAP_NS);
	monitor(NULL, NULL, NULL, 0, 0);
	return EXIT_CODE;
}

ATF_TC(restart_replaces_histogram);
ATF_TC_HEAD(restart_replaces_histogram, tc)
{
	atf_tc_set_md_var(tc, "descr", "A second start replaces the "
	    "histogram: the file has the last range and only the samples "
	    "taken after it");
}
ATF_TC_BODY(restart_replaces_histogram, tc)
{
	struct restart *s;
	struct mon_file f;
	struct child c;
	unsigned int scale;
	uint64_t a, b;

	s = shared(sizeof(*s));
	s->r = *newrun();
	s->nfirst = ssiz(s->r.nfunc) + 64;
	run_child(child_restart, s, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_REQUIRE_EQ_MSG(s->r.start_errno, 0, "monitor failed");
	ATF_REQUIRE_MSG(s->r.reached, "too few samples after the restart");
	readmon(MON_OUT, &f);
	ATF_CHECK_MSG((uintptr_t)f.hdr.lpc == s->r.lo &&
	    (uintptr_t)f.hdr.hpc == s->r.hi, "the file's range is not the "
	    "second start's");
	ATF_CHECK_EQ_MSG(f.nhist, s->r.nwords - ssiz(s->r.nfunc), "the "
	    "file's histogram is %zu WORDs", f.nhist);
	scale = classic_scale(f.nhist, s->r.lo, s->r.hi);
	a = mon_samples(&f, mon_index(&f, (uintptr_t)burn_a, scale),
	    mon_index(&f, (uintptr_t)burn_a_end - 1, scale));
	b = mon_samples(&f, mon_index(&f, (uintptr_t)burn_b, scale),
	    mon_index(&f, (uintptr_t)burn_b_end - 1, scale));
	ATF_CHECK_MSG(b >= ENOUGH, "%ju samples of burn_b", (uintmax_t)b);
	ATF_CHECK_EQ_MSG(a, 0, "%ju samples of burn_a, taken before the "
	    "restart, are in the file", (uintmax_t)a);
	mon_free(&f);
}

/* The mode of mon.out written under umask u. */
static mode_t
mode_under(int u)
{
	struct child c;
	struct stat st;
	struct mrun *r;

	(void)unlink(MON_OUT);
	r = newrun();
	r->umask = u;
	profile(r, &c);
	ATF_REQUIRE_MSG(stat(MON_OUT, &st) == 0, "no mon.out");
	return st.st_mode & 07777;
}

ATF_TC(file_mode_umask);
ATF_TC_HEAD(file_mode_umask, tc)
{
	atf_tc_set_md_var(tc, "descr", "The file's mode is 0666 less the "
	    "umask");
}
ATF_TC_BODY(file_mode_umask, tc)
{
	mode_t m;

	m = mode_under(0);
	ATF_CHECK_MSG(m == 0666, "mode %04o under umask 0", (unsigned)m);
	m = mode_under(027);
	ATF_CHECK_MSG(m == 0640, "mode %04o under umask 027", (unsigned)m);
}

ATF_TC(planted_symlink_not_followed);
ATF_TC_HEAD(planted_symlink_not_followed, tc)
{
	atf_tc_set_md_var(tc, "descr", "A symbolic link planted at mon.out "
	    "is not followed: the link and its target are left alone and "
	    "one line on stderr says so");
}
ATF_TC_BODY(planted_symlink_not_followed, tc)
{
	char got[64], names[1024];
	struct child c;
	struct stat st;
	struct mrun *r;
	ssize_t n;
	int fd;

	ATF_REQUIRE((fd = open("victim", O_CREAT | O_WRONLY, 0644)) >= 0);
	ATF_REQUIRE(write(fd, "keep\n", 5) == 5);
	close(fd);
	ATF_REQUIRE(symlink("victim", MON_OUT) == 0);
	r = newrun();
	profile(r, &c);
	check_one_line(&c, MON_OUT);
	ATF_REQUIRE((fd = open("victim", O_RDONLY)) >= 0);
	n = read(fd, got, sizeof(got));
	close(fd);
	ATF_CHECK_MSG(n == 5 && memcmp(got, "keep\n", 5) == 0, "the link's "
	    "target was written");
	ATF_CHECK_MSG(lstat(MON_OUT, &st) == 0 && S_ISLNK(st.st_mode),
	    "the link was replaced");
	listdir(".", NULL, names, sizeof(names));
	ATF_CHECK_MSG(strlen(names) == strlen("victim mon.out "), "files: "
	    "%s", names);

	/* A dangling link: its target must not be created. */
	ATF_REQUIRE(unlink(MON_OUT) == 0 && unlink("victim") == 0);
	ATF_REQUIRE(symlink("created", MON_OUT) == 0);
	r = newrun();
	profile(r, &c);
	check_one_line(&c, MON_OUT);
	ATF_CHECK_MSG(!exists("created"), "the dangling link was followed");
}

ATF_TC(fsize_limit_no_partial_file);
ATF_TC_HEAD(fsize_limit_no_partial_file, tc)
{
	atf_tc_set_md_var(tc, "descr", "A file that cannot be written whole "
	    "(RLIMIT_FSIZE) is not written at all: no mon.out, no temporary, "
	    "one line on stderr, the exit status kept");
}
ATF_TC_BODY(fsize_limit_no_partial_file, tc)
{
	char names[1024];
	struct child c;
	struct mrun *r;

	r = newrun();
	r->fsize = 512;
	r->xfsz_ignored = 1;
	r->stop_at_exit = 1;
	profile(r, &c);
	check_one_line(&c, MON_OUT);
	listdir(".", NULL, names, sizeof(names));
	ATF_CHECK_MSG(names[0] == '\0', "files left: %s", names);
}

ATF_TC(fsize_limit_does_not_kill);
ATF_TC_HEAD(fsize_limit_does_not_kill, tc)
{
	atf_tc_set_md_var(tc, "descr", "With SIGXFSZ at its default action, "
	    "a file-size limit hit while writing does not kill the program: "
	    "the exit status is its own and no file is left");
}
ATF_TC_BODY(fsize_limit_does_not_kill, tc)
{
	char names[1024];
	struct child c;
	struct mrun *r;

	r = newrun();
	r->fsize = 512;
	r->stop_at_exit = 1;
	profile(r, &c);
	check_one_line(&c, MON_OUT);
	listdir(".", NULL, names, sizeof(names));
	ATF_CHECK_MSG(names[0] == '\0', "files left: %s", names);
}

/* The helper's output: "fn NAME ADDR" and "pid NAME PID" lines. */
struct facts {
	char		names[32][32];
	uintptr_t	vals[32];
	int		n;
};

static void
run_helper(const char *tc_srcdir, const char *name, const char *arg,
    const char *profdir, struct facts *fx)
{
	char path[PATH_MAX], line[256], key[32], what[32];
	int fds[2], status;
	uintptr_t v;
	pid_t pid;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", tc_srcdir, name);
	ATF_REQUIRE(pipe(fds) == 0);
	fflush(NULL);
	ATF_REQUIRE((pid = fork()) != -1);
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		if (profdir != NULL)
			setenv("PROFDIR", profdir, 1);
		else
			unsetenv("PROFDIR");
		execl(path, name, arg, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	ATF_REQUIRE((fp = fdopen(fds[0], "r")) != NULL);
	memset(fx, 0, sizeof(*fx));
	while (fgets(line, sizeof(line), fp) != NULL && fx->n < 32) {
		if (sscanf(line, "%31s %31s %ji", key, what,
		    (intmax_t *)&v) != 3)
			continue;
		snprintf(fx->names[fx->n], sizeof(fx->names[0]), "%s", what);
		fx->vals[fx->n++] = v;
	}
	fclose(fp);
	ATF_REQUIRE(waitpid(pid, &status, 0) == pid);
	ATF_REQUIRE_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "%s %s: status %#x", name, arg, status);
}

static uintptr_t
fact(const struct facts *fx, const char *name)
{
	int i;

	for (i = 0; i < fx->n; i++)
		if (strcmp(fx->names[i], name) == 0)
			return fx->vals[i];
	atf_tc_fail("the helper did not report %s", name);
	return 0;
}

/* Calls to the function at addr: its cell is a few bytes in. */
static long
calls_of(const struct mon_file *m, uintptr_t addr)
{
	return mon_calls(m, addr, addr + 16);
}

/*
 * main's cell: clang saves registers before calling mcount, so its
 * fnpc may lie past the first 16 bytes; main is far longer than 64.
 */
static long
calls_of_main(const struct mon_file *m, uintptr_t addr)
{
	return mon_calls(m, addr, addr + 64);
}

ATF_TC(fork_files_add_up);
ATF_TC_HEAD(fork_files_add_up, tc)
{
	atf_tc_set_md_var(tc, "descr", "After fork() the parent and the "
	    "child each write their own file, and the two add up exactly to "
	    "the calls made; the child's holds only the child's work");
}
ATF_TC_BODY(fork_files_add_up, tc)
{
	char dir[PATH_MAX], pf[PATH_MAX + 64], cf[PATH_MAX + 64];
	struct mon_file p, k;
	struct facts fx;
	unsigned int scale;
	uintptr_t pre, kid, both, mainf, a0, a1, b0, b1;
	uint64_t pa, ka, kb;

	workpath(dir, sizeof(dir), "prof");
	ATF_REQUIRE(mkdir(dir, 0755) == 0);
	run_helper(atf_tc_get_config_var(tc, "srcdir"), "h_monitor", "fork",
	    dir, &fx);
	snprintf(pf, sizeof(pf), "%s/%ld.h_monitor", dir,
	    (long)fact(&fx, "parent"));
	snprintf(cf, sizeof(cf), "%s/%ld.h_monitor", dir,
	    (long)fact(&fx, "child"));
	readmon(pf, &p);
	readmon(cf, &k);
	pre = fact(&fx, "pre");
	kid = fact(&fx, "kid");
	both = fact(&fx, "both");
	mainf = fact(&fx, "main");
	ATF_CHECK_EQ_MSG(calls_of(&p, pre), 3, "parent: pre %ld",
	    calls_of(&p, pre));
	ATF_CHECK_EQ_MSG(calls_of(&k, pre), 0, "child: pre %ld, made before "
	    "the fork", calls_of(&k, pre));
	ATF_CHECK_EQ_MSG(calls_of(&p, kid), 0, "parent: kid %ld",
	    calls_of(&p, kid));
	ATF_CHECK_EQ_MSG(calls_of(&k, kid), 5, "child: kid %ld",
	    calls_of(&k, kid));
	ATF_CHECK_EQ_MSG(calls_of(&p, both) + calls_of(&k, both), 18,
	    "both: parent %ld + child %ld, not 11 + 7", calls_of(&p, both),
	    calls_of(&k, both));
	ATF_CHECK_EQ_MSG(calls_of(&k, both), 7, "child: both %ld",
	    calls_of(&k, both));
	ATF_CHECK_EQ_MSG(calls_of_main(&p, mainf) + calls_of_main(&k, mainf),
	    1, "main: parent %ld + child %ld", calls_of_main(&p, mainf),
	    calls_of_main(&k, mainf));
	ATF_CHECK_MSG(p.has_run && p.run.pid == fact(&fx, "parent"),
	    "the parent's file has another pid");
	ATF_CHECK_MSG(k.has_run && k.run.pid == fact(&fx, "child"),
	    "the child's file has another pid");

	/* Samples: burn_a before the fork, burn_b in the child only. */
	ATF_REQUIRE(p.has_run && k.has_run);
	scale = p.run.scale;
	a0 = mon_index(&p, fact(&fx, "burn_a"), scale);
	a1 = mon_index(&p, fact(&fx, "burn_a_end") - 1, scale);
	b0 = mon_index(&p, fact(&fx, "burn_b"), scale);
	b1 = mon_index(&p, fact(&fx, "burn_b_end") - 1, scale);
	pa = mon_samples(&p, a0, a1);
	ka = mon_samples(&k, a0, a1);
	kb = mon_samples(&k, b0, b1);
	ATF_REQUIRE_MSG(pa > 0, "the parent's burn_a has no samples");
	ATF_CHECK_EQ_MSG(ka, 0, "the child's file repeats %ju samples of "
	    "the parent's burn_a", (uintmax_t)ka);
	ATF_CHECK_MSG(kb > 0, "the child was not sampled after the fork");
	mon_free(&p);
	mon_free(&k);
}

ATF_TC(buffers_get_cells_in_start_order);
ATF_TC_HEAD(buffers_get_cells_in_start_order, tc)
{
	atf_tc_set_md_var(tc, "descr", "A later start adds its nfunc cells as "
	    "capacity: at stop the buffers' cell areas hold the file's cells "
	    "in start order, and the file holds every call");
}
ATF_TC_BODY(buffers_get_cells_in_start_order, tc)
{
	static const char *fn[] = { "f1", "f2", "f3", "f4", "f5", "f6" };
	struct mon_file f, b1, b2;
	struct facts fx;
	char why[256];
	int i;

	run_helper(atf_tc_get_config_var(tc, "srcdir"), "h_monitor",
	    "buffers", NULL, &fx);
	readmon(MON_OUT, &f);
	for (i = 0; i < 6; i++)
		ATF_CHECK_EQ_MSG(calls_of(&f, fact(&fx, fn[i])), i + 1,
		    "%s: %ld calls, not %d", fn[i],
		    calls_of(&f, fact(&fx, fn[i])), i + 1);
	ATF_REQUIRE_MSG(mon_read("buf1.img", &b1, why, sizeof(why)) == 0,
	    "the first buffer is no mon.out image: %s", why);
	ATF_REQUIRE_MSG(mon_read("buf2.img", &b2, why, sizeof(why)) == 0,
	    "the second buffer is no mon.out image: %s", why);
	ATF_CHECK_EQ_MSG(b1.hdr.nfns, 2, "first buffer: nfns %zu, nfunc 2",
	    b1.hdr.nfns);
	ATF_CHECK_EQ_MSG(b2.hdr.nfns, 4, "second buffer: nfns %zu, nfunc 4",
	    b2.hdr.nfns);
	ATF_REQUIRE(f.ncells >= 6);
	ATF_CHECK_MSG(b1.ncells == 2 && memcmp(b1.cells, f.cells,
	    2 * sizeof(struct cnt)) == 0, "the first buffer's cells are not "
	    "the file's first two");
	ATF_CHECK_MSG(b2.ncells == 4 && memcmp(b2.cells, f.cells + 2,
	    4 * sizeof(struct cnt)) == 0, "the second buffer's cells are not "
	    "the file's next four");
	mon_free(&f);
	mon_free(&b1);
	mon_free(&b2);
}

static int
child_exec(void *arg)
{
	struct mrun *r = arg;
	int e;

	if ((e = setup(r)) != 0)
		return e;
	monitor((pcfn)r->lo, (pcfn)r->hi, r->buf, r->nwords, r->nfunc);
	burn_for(burn_a, 20 * MS);
	execl("/bin/sh", "sh", "-c", "i=0; while [ $i -lt 800000 ]; do "
	    "i=$((i+1)); done; exit 0", (char *)NULL);
	return 112;
}

ATF_TC(exec_busy_program_completes);
ATF_TC_HEAD(exec_busy_program_completes, tc)
{
	atf_tc_set_md_var(tc, "descr", "A CPU-bound program exec'd by a "
	    "profiled process runs to completion: it is not killed by "
	    "SIGPROF, whichever clock sampled");
}
ATF_TC_BODY(exec_busy_program_completes, tc)
{
	static const char *clocks[] = { "", "itimer", "timer" };
	struct child c;
	struct mrun *r;
	size_t i;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (clocks[i][0] != '\0')
			setenv("PROFCLOCK", clocks[i], 1);
		r = newrun();
		run_child(child_exec, r, &c);
		ATF_CHECK_MSG(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		    "PROFCLOCK=%s: the exec'd sh ended with status %#x%s",
		    clocks[i], c.status, WIFSIGNALED(c.status) &&
		    WTERMSIG(c.status) == SIGPROF ? " (SIGPROF)" : "");
		unsetenv("PROFCLOCK");
	}
}

ATF_TC(run_record);
ATF_TC_HEAD(run_record, tc)
{
	atf_tc_set_md_var(tc, "descr", "The file's RUN record gives the "
	    "clock, the period asked for (PROFHZ), the CPU time covered, the "
	    "writer's pid, the scale and the samples the histogram holds");
}
ATF_TC_BODY(run_record, tc)
{
	static const char *hz[] = { "", "500" };
	static const uint64_t period[] = { 1000000, 2000000 };
	struct mon_file f;
	struct child c;
	struct mrun *r;
	size_t i;

	for (i = 0; i < 2; i++) {
		(void)unlink(MON_OUT);
		r = newrun();
		snprintf(r->profhz, sizeof(r->profhz), "%s", hz[i]);
		profile(r, &c);
		readmon(MON_OUT, &f);
		ATF_REQUIRE_MSG(f.has_ext && f.has_run, "no RUN record");
		ATF_CHECK_MSG(f.run.clock == MONX_CLK_ITIMER ||
		    f.run.clock == MONX_CLK_PERF ||
		    f.run.clock == MONX_CLK_TIMER, "clock %u", f.run.clock);
		ATF_CHECK_EQ_MSG(f.run.period_ns, period[i], "PROFHZ=%s: "
		    "period %ju ns", hz[i], (uintmax_t)f.run.period_ns);
		ATF_CHECK_MSG(f.run.cpu_ns >= r->burned &&
		    f.run.cpu_ns <= r->cpu_after - r->cpu_before, "cpu_ns %ju: "
		    "burned %ju, %ju in all", (uintmax_t)f.run.cpu_ns,
		    (uintmax_t)r->burned,
		    (uintmax_t)(r->cpu_after - r->cpu_before));
		ATF_CHECK_EQ_MSG(f.run.pid, (uint32_t)r->pid, "pid %u, writer "
		    "%ld", f.run.pid, (long)r->pid);
		ATF_CHECK_EQ_MSG(f.run.samples_in, mon_samples(&f, 0, f.nhist),
		    "samples_in %ju, histogram holds %ju",
		    (uintmax_t)f.run.samples_in,
		    (uintmax_t)mon_samples(&f, 0, f.nhist));
		ATF_CHECK_EQ_MSG(f.run.scale, classic_scale(f.nhist, r->lo,
		    r->hi), "scale %#x", f.run.scale);
		mon_free(&f);
	}
}

/* The program's own ELF file: its build-id and a symbol's value. */
struct elfinfo {
	unsigned char	id[64];
	size_t		idlen;
	uint64_t	sym;
	int		found;
};

static void
elf_look(const char *path, const char *name, struct elfinfo *ei)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh, *s, *strs;
	const Elf64_Nhdr *nh;
	const Elf64_Sym *sy;
	const unsigned char *p, *q, *end;
	struct stat st;
	size_t i, j;
	int fd;

	memset(ei, 0, sizeof(*ei));
	ATF_REQUIRE((fd = open(path, O_RDONLY)) >= 0);
	ATF_REQUIRE(fstat(fd, &st) == 0);
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	ATF_REQUIRE(p != MAP_FAILED);
	eh = (const Elf64_Ehdr *)p;
	ATF_REQUIRE(memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh->e_ident[EI_CLASS] == ELFCLASS64);
	sh = (const Elf64_Shdr *)(p + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		s = &sh[i];
		if (s->sh_type == SHT_NOTE) {
			q = p + s->sh_offset;
			end = q + s->sh_size;
			while (q + sizeof(*nh) <= end) {
				nh = (const Elf64_Nhdr *)q;
				if (nh->n_type == NT_GNU_BUILD_ID &&
				    nh->n_namesz == 4 &&
				    nh->n_descsz <= sizeof(ei->id) &&
				    memcmp(q + sizeof(*nh), "GNU", 4) == 0) {
					ei->idlen = nh->n_descsz;
					memcpy(ei->id, q + sizeof(*nh) + 4,
					    ei->idlen);
				}
				q += sizeof(*nh) + ((nh->n_namesz + 3) & ~3u) +
				    ((nh->n_descsz + 3) & ~3u);
			}
		}
		if (s->sh_type == SHT_SYMTAB) {
			strs = &sh[s->sh_link];
			sy = (const Elf64_Sym *)(p + s->sh_offset);
			for (j = 0; j < s->sh_size / sizeof(*sy); j++)
				if (strcmp((const char *)p + strs->sh_offset +
				    sy[j].st_name, name) == 0) {
					ei->sym = sy[j].st_value;
					ei->found = 1;
				}
		}
	}
	munmap((void *)p, (size_t)st.st_size);
}

ATF_TC(exec_record);
ATF_TC_HEAD(exec_record, tc)
{
	atf_tc_set_md_var(tc, "descr", "The file's EXEC record names the "
	    "program, carries its NT_GNU_BUILD_ID, and its bias maps a "
	    "function's run-time address to its link-time address");
}
ATF_TC_BODY(exec_record, tc)
{
	char exe[PATH_MAX];
	struct elfinfo ei;
	struct mon_file f;
	struct child c;
	struct mrun *r;

	ATF_REQUIRE(realpath("/proc/self/exe", exe) != NULL);
	elf_look(exe, "burn_a", &ei);
	ATF_REQUIRE_MSG(ei.idlen > 0, "this program has no build-id");
	ATF_REQUIRE_MSG(ei.found, "no symbol burn_a in %s", exe);
	r = newrun();
	profile(r, &c);
	readmon(MON_OUT, &f);
	ATF_REQUIRE_MSG(f.has_exec, "no EXEC record");
	ATF_CHECK_STREQ_MSG(f.exec.path, exe, "EXEC path");
	ATF_CHECK_MSG(f.exec.o.idlen == ei.idlen && memcmp(f.exec.id, ei.id,
	    ei.idlen) == 0, "the build-id is not the program's");
	ATF_CHECK_MSG((uintptr_t)burn_a - f.exec.o.bias == ei.sym,
	    "burn_a at %p less bias %#jx is %#jx, the symbol says %#jx",
	    (void *)burn_a, (uintmax_t)f.exec.o.bias,
	    (uintmax_t)((uintptr_t)burn_a - f.exec.o.bias),
	    (uintmax_t)ei.sym);
	ATF_CHECK_MSG(f.exec.o.lo <= (uintptr_t)burn_a &&
	    (uintptr_t)burn_a < f.exec.o.hi, "burn_a is outside the EXEC "
	    "text range");
	mon_free(&f);
}

/* Threads and clocks: burn_b in a thread made before or after the start. */
struct thr {
	struct mrun	r;
	int		before;		/* made before monitor() */
	volatile int	started, go;
	int		reached_a, reached_b;
	size_t		a0, a1, b0, b1;	/* the burners' counters */
};

static int
enough_tb(void *arg)
{
	struct thr *t = arg;
	size_t s = ssiz(t->r.nfunc);

	return wsum(t->r.buf + s + t->b0, t->b1 - t->b0 + 1) >= ENOUGH / 2;
}

static int
enough_ta(void *arg)
{
	struct thr *t = arg;
	size_t s = ssiz(t->r.nfunc);

	return wsum(t->r.buf + s + t->a0, t->a1 - t->a0 + 1) >= ENOUGH / 2;
}

static void *
thread_b(void *arg)
{
	struct thr *t = arg;

	t->started = 1;
	while (!t->go)
		burn_c(1000);
	t->reached_b = burn_until(burn_b, enough_tb, t, CPU_CAP_NS);
	return NULL;
}

static int
child_threads(void *arg)
{
	struct thr *t = arg;
	struct mrun *r = &t->r;
	pthread_t th;
	int e;

	if ((e = setup(r)) != 0)
		return e;
	if (t->before) {
		/* Running, not merely created, when monitor() starts. */
		if (pthread_create(&th, NULL, thread_b, t) != 0)
			return 120;
		while (!t->started)
			burn_c(1000);
	}
	errno = 0;
	monitor((pcfn)r->lo, (pcfn)r->hi, r->buf, r->nwords, r->nfunc);
	r->start_errno = errno;
	if (!t->before && pthread_create(&th, NULL, thread_b, t) != 0)
		return 121;
	t->go = 1;
	t->reached_a = burn_until(burn_a, enough_ta, t, CPU_CAP_NS);
	pthread_join(th, NULL);
	monitor(NULL, NULL, NULL, 0, 0);
	return EXIT_CODE;
}

static void
check_threads(int before)
{
	static const char *clocks[] = { "perf", "timer", "itimer" };
	struct mon_file f;
	struct child c;
	struct thr *t;
	unsigned int scale;
	size_t i;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		(void)unlink(MON_OUT);
		t = shared(sizeof(*t));
		t->r = *newrun();
		t->before = before;
		scale = classic_scale(t->r.nwords - ssiz(t->r.nfunc), t->r.lo,
		    t->r.hi);
		t->a0 = (((uintptr_t)burn_a - t->r.lo) * scale) >> 17;
		t->a1 = (((uintptr_t)burn_a_end - 1 - t->r.lo) * scale) >> 17;
		t->b0 = (((uintptr_t)burn_b - t->r.lo) * scale) >> 17;
		t->b1 = (((uintptr_t)burn_b_end - 1 - t->r.lo) * scale) >> 17;
		setenv("PROFCLOCK", clocks[i], 1);
		run_child(child_threads, t, &c);
		unsetenv("PROFCLOCK");
		REQUIRE_EXIT(&c, EXIT_CODE);
		ATF_REQUIRE_EQ_MSG(t->r.start_errno, 0, "monitor failed");
		readmon(MON_OUT, &f);
		ATF_REQUIRE(f.has_run);
		if (i < 2 && f.run.clock == MONX_CLK_ITIMER) {
			/* No such clock here: nothing to judge. */
			mon_free(&f);
			continue;
		}
		ATF_CHECK_MSG(t->reached_a, "PROFCLOCK=%s: the main thread got "
		    "%ju samples", clocks[i], (uintmax_t)mon_samples(&f,
		    t->a0, t->a1));
		ATF_CHECK_MSG(t->reached_b, "PROFCLOCK=%s: the thread made %s "
		    "the start got %ju samples", clocks[i], before ? "before" :
		    "after", (uintmax_t)mon_samples(&f, t->b0, t->b1));
		mon_free(&f);
	}
}

ATF_TC(threads_before_start_sampled);
ATF_TC_HEAD(threads_before_start_sampled, tc)
{
	atf_tc_set_md_var(tc, "descr", "Threads that exist when monitor() "
	    "starts are sampled, whichever clock is in use");
}
ATF_TC_BODY(threads_before_start_sampled, tc)
{
	check_threads(1);
}

ATF_TC(threads_after_start_sampled);
ATF_TC_HEAD(threads_after_start_sampled, tc)
{
	atf_tc_set_md_var(tc, "descr", "Threads created after monitor() "
	    "starts are sampled, whichever clock is in use");
}
ATF_TC_BODY(threads_after_start_sampled, tc)
{
	check_threads(0);
}

static volatile sig_atomic_t own_calls;

static void
own_handler(int sig)
{
	(void)sig;
	own_calls++;
}

struct own {
	struct mrun	r;
	int		read_back;	/* sigaction() gave it back */
	int		installed;	/* in place after the stop */
	unsigned long	calls;
};

static int
child_own_action(void *arg)
{
	struct own *o = arg;
	struct mrun *r = &o->r;
	struct sigaction sa, cur;
	struct itimerval it;
	int e;

	if ((e = setup(r)) != 0)
		return e;
	errno = 0;
	monitor((pcfn)r->lo, (pcfn)r->hi, r->buf, r->nwords, r->nfunc);
	r->start_errno = errno;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = own_handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL) != 0 ||
	    sigaction(SIGPROF, NULL, &cur) != 0)
		return 130;
	o->read_back = cur.sa_handler == own_handler;
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 10000;
	it.it_value.tv_usec = 10000;
	if (setitimer(ITIMER_PROF, &it, NULL) != 0)
		return 131;
	r->reached = burn_until(burn_a, enough_hist, r, CPU_CAP_NS);
	burn_for(burn_a, 100 * MS);
	memset(&it, 0, sizeof(it));
	(void)setitimer(ITIMER_PROF, &it, NULL);
	o->calls = own_calls;
	monitor(NULL, NULL, NULL, 0, 0);
	if (sigaction(SIGPROF, NULL, &cur) != 0)
		return 132;
	o->installed = !(cur.sa_flags & SA_SIGINFO) &&
	    cur.sa_handler == own_handler;
	return EXIT_CODE;
}

ATF_TC(own_sigprof_action_kept);
ATF_TC_HEAD(own_sigprof_action_kept, tc)
{
	atf_tc_set_md_var(tc, "descr", "With a per-thread clock, a SIGPROF "
	    "action the program sets while profiled reads back as set, gets "
	    "the program's own timer signals while sampling goes on, and is "
	    "in place after the stop");
}
ATF_TC_BODY(own_sigprof_action_kept, tc)
{
	struct mon_file f;
	struct child c;
	struct own *o;

	o = shared(sizeof(*o));
	o->r = *newrun();
	run_child(child_own_action, o, &c);
	REQUIRE_EXIT(&c, EXIT_CODE);
	ATF_REQUIRE_EQ_MSG(o->r.start_errno, 0, "monitor failed");
	readmon(MON_OUT, &f);
	ATF_REQUIRE(f.has_run);
	if (f.run.clock == MONX_CLK_ITIMER) {
		mon_free(&f);
		atf_tc_skip("no per-thread clock here");
	}
	ATF_CHECK_MSG(o->r.reached, "sampling stopped: %ju samples",
	    (uintmax_t)mon_samples(&f, 0, f.nhist));
	ATF_CHECK_MSG(o->read_back, "sigaction() does not give back the "
	    "action just set");
	ATF_CHECK_MSG(o->calls > 0, "the program's handler never ran");
	ATF_CHECK_MSG(o->installed, "the program's action is not in place "
	    "after the stop");
	mon_free(&f);
}

ATF_TC(profhz_invalid_warns);
ATF_TC_HEAD(profhz_invalid_warns, tc)
{
	atf_tc_set_md_var(tc, "descr", "A PROFHZ that is not a rate from 1 "
	    "to 100000 draws one line on stderr naming it, and 1000 Hz is "
	    "asked for instead");
}
ATF_TC_BODY(profhz_invalid_warns, tc)
{
	static const char *bad[] = { "fast", "0", "100001", "-5", "12x" };
	struct mon_file f;
	struct child c;
	struct mrun *r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		(void)unlink(MON_OUT);
		r = newrun();
		snprintf(r->profhz, sizeof(r->profhz), "%s", bad[i]);
		profile(r, &c);
		check_one_line(&c, "PROFHZ");
		readmon(MON_OUT, &f);
		ATF_CHECK_MSG(f.has_run && f.run.period_ns == 1000000,
		    "PROFHZ=%s: period %ju ns", bad[i],
		    (uintmax_t)f.run.period_ns);
		mon_free(&f);
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, stop_leaves_buffer_as_image);
	ATF_TP_ADD_TC(tp, classic_scale);
	ATF_TP_ADD_TC(tp, large_buffer_scale_ffff);
	ATF_TP_ADD_TC(tp, einval_lowpc_not_below_highpc);
	ATF_TP_ADD_TC(tp, einval_buffer_too_small);
	ATF_TP_ADD_TC(tp, einval_null_buffer);
	ATF_TP_ADD_TC(tp, profdir_unset_writes_cwd);
	ATF_TP_ADD_TC(tp, profdir_empty_writes_nothing);
	ATF_TP_ADD_TC(tp, profdir_names_pid_progname);
	ATF_TP_ADD_TC(tp, profdir_missing_warns);
	ATF_TP_ADD_TC(tp, profdir_not_directory_warns);
	ATF_TP_ADD_TC(tp, profdir_not_writable_warns);
	ATF_TP_ADD_TC(tp, second_stop_touches_nothing);
	ATF_TP_ADD_TC(tp, restart_replaces_histogram);
	ATF_TP_ADD_TC(tp, new_profile_forgets_unloaded);
	ATF_TP_ADD_TC(tp, file_mode_umask);
	ATF_TP_ADD_TC(tp, planted_symlink_not_followed);
	ATF_TP_ADD_TC(tp, fsize_limit_no_partial_file);
	ATF_TP_ADD_TC(tp, fsize_limit_does_not_kill);
	ATF_TP_ADD_TC(tp, fork_files_add_up);
	ATF_TP_ADD_TC(tp, buffers_get_cells_in_start_order);
	ATF_TP_ADD_TC(tp, exec_busy_program_completes);
	ATF_TP_ADD_TC(tp, run_record);
	ATF_TP_ADD_TC(tp, exec_record);
	ATF_TP_ADD_TC(tp, threads_before_start_sampled);
	ATF_TP_ADD_TC(tp, threads_after_start_sampled);
	ATF_TP_ADD_TC(tp, own_sigprof_action_kept);
	ATF_TP_ADD_TC(tp, profhz_invalid_warns);
	return atf_no_error();
}

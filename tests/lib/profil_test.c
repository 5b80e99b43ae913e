/*
 * profil_test -- profil(2) as libmon provides it: the classic index
 * formula, the off and all-in-one scales, what is left out, saturation,
 * every thread sampled, and the process left as it was found.
 *
 * Every case arms the clock in a forked child (run_child) that reports
 * through shared memory; the parent judges.  Both <unistd.h> and
 * <mon.h> are included on purpose: they must agree on the prototype.
 */
#include <sys/time.h>
#include <sys/wait.h>

#include <atf-c.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <mon.h>

#include "h_support.h"

#define NW		1024		/* counters in most buffers */
#define ENOUGH		40		/* samples a burner waits for */

_Static_assert(__builtin_types_compatible_p(__typeof__(profil),
    int (unsigned short *, size_t, size_t, unsigned int)),
    "profil() must have glibc's prototype");

struct hist {
	unsigned int	scale;
	uintptr_t	off;
	size_t		nwords;		/* handed to profil */
	int		ret;		/* profil's return value */
	int		reached;	/* the burner saw ENOUGH samples */
	WORD		buf[NW];
};

/*
 * profil(NULL, 0, 0, 0), called through a pointer: glibc declares the
 * buffer nonnull, and a literal NULL would draw a warning.
 */
static int
profil_stop(void)
{
	int (*volatile fn)(unsigned short *, size_t, size_t, unsigned int) =
	    profil;

	return fn(NULL, 0, 0, 0);
}

static struct hist *
newhist(unsigned int scale, uintptr_t off, size_t nwords)
{
	struct hist *h;

	h = shared(sizeof(*h));
	h->scale = scale;
	h->off = off;
	h->nwords = nwords;
	return h;
}

static int
enough_samples(void *arg)
{
	struct hist *h = arg;

	return wsum(h->buf, h->nwords) >= ENOUGH;
}

/* profil(), burn in burn_a until ENOUGH samples or the cap, profil off. */
static int
child_burn_a(void *arg)
{
	struct hist *h = arg;

	h->ret = profil(h->buf, h->nwords * sizeof(WORD), h->off, h->scale);
	if (h->ret != 0)
		return 0;
	h->reached = burn_until(burn_a, enough_samples, h, CPU_CAP_NS);
	(void)profil_stop();
	return 0;
}

/* profil(), burn in burn_a for a fixed CPU time, profil off. */
static int
child_burn_a_fixed(void *arg)
{
	struct hist *h = arg;

	h->ret = profil(h->buf, h->nwords * sizeof(WORD), h->off, h->scale);
	if (h->ret != 0)
		return 0;
	burn_for(burn_a, 300 * MS);
	(void)profil_stop();
	return 0;
}

/* The classic counter index of pc. */
static size_t
classic_index(uintptr_t pc, uintptr_t off, unsigned int scale)
{
	return (size_t)(((unsigned __int128)(pc - off) * scale) >> 17);
}

/*
 * With burn_a at 256 bytes past the offset, every sample must be in the
 * counters that the classic formula gives for [burn_a, burn_a_end).
 */
static void
check_index(unsigned int scale)
{
	struct child c;
	struct hist *h;
	size_t i0, i1;
	uint64_t all, in;

	h = newhist(scale, (uintptr_t)burn_a - 256, NW);
	run_child(child_burn_a, h, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(h->ret, 0, "profil returned %d", h->ret);
	ATF_REQUIRE_MSG(h->reached, "no %d samples in %llu s of CPU", ENOUGH,
	    CPU_CAP_NS / 1000000000);
	i0 = classic_index((uintptr_t)burn_a, h->off, scale);
	i1 = classic_index((uintptr_t)burn_a_end - 1, h->off, scale);
	all = wsum(h->buf, NW);
	in = wsum(h->buf + i0, i1 - i0 + 1);
	ATF_CHECK_EQ_MSG(in, all, "scale %#x: %ju of %ju samples in counters"
	    " %zu..%zu where burn_a is", scale, (uintmax_t)in,
	    (uintmax_t)all, i0, i1);
}

ATF_TC(prototype_matches_glibc);
ATF_TC_HEAD(prototype_matches_glibc, tc)
{
	atf_tc_set_md_var(tc, "descr", "profil() as declared by both "
	    "<unistd.h> and <mon.h> is libmon's: scale 2 with offset 0 "
	    "counts every sample in the first counter");
}
ATF_TC_BODY(prototype_matches_glibc, tc)
{
	struct child c;
	struct hist *h;

	h = newhist(2, 0, 1);
	run_child(child_burn_a, h, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(h->ret, 0, "profil returned %d", h->ret);
	ATF_CHECK_MSG(h->reached, "buf[0] is %u after %llu s of CPU: the "
	    "profil() linked in does not count every pc in buf[0]",
	    h->buf[0], CPU_CAP_NS / 1000000000);
}

ATF_TC(index_scale_0x10000);
ATF_TC_HEAD(index_scale_0x10000, tc)
{
	atf_tc_set_md_var(tc, "descr", "Scale 0x10000 gives one counter per "
	    "2 bytes: a sample at pc goes to ((pc - offset) * scale) >> 17");
}
ATF_TC_BODY(index_scale_0x10000, tc)
{
	check_index(0x10000);
}

ATF_TC(index_scale_0x4000);
ATF_TC_HEAD(index_scale_0x4000, tc)
{
	atf_tc_set_md_var(tc, "descr", "Scale 0x4000 gives one counter per "
	    "8 bytes: a sample at pc goes to ((pc - offset) * scale) >> 17");
}
ATF_TC_BODY(index_scale_0x4000, tc)
{
	check_index(0x4000);
}

ATF_TC(index_scale_0x20000);
ATF_TC_HEAD(index_scale_0x20000, tc)
{
	atf_tc_set_md_var(tc, "descr", "Scale 0x20000 gives one counter per "
	    "byte: a sample at pc goes to ((pc - offset) * scale) >> 17");
}
ATF_TC_BODY(index_scale_0x20000, tc)
{
	check_index(0x20000);
}

ATF_TC(index_scale_0xffff);
ATF_TC_HEAD(index_scale_0xffff, tc)
{
	atf_tc_set_md_var(tc, "descr", "Scale 0xffff rounds the classic way: "
	    "a sample at pc goes to ((pc - offset) * 0xffff) >> 17");
}
ATF_TC_BODY(index_scale_0xffff, tc)
{
	check_index(0xffff);
}

ATF_TC(pc_below_offset_ignored);
ATF_TC_HEAD(pc_below_offset_ignored, tc)
{
	atf_tc_set_md_var(tc, "descr", "Samples whose pc is below the offset "
	    "are not counted anywhere in the buffer");
}
ATF_TC_BODY(pc_below_offset_ignored, tc)
{
	struct child c;
	struct hist *h;

	/* Past the burners, in padding where nothing runs. */
	h = newhist(0x10000, (uintptr_t)burn_c_end + 4096, 64);
	run_child(child_burn_a_fixed, h, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(h->ret, 0, "profil returned %d", h->ret);
	ATF_CHECK_EQ_MSG(wsum(h->buf, NW), 0, "%ju samples counted for a "
	    "range above every pc that ran", (uintmax_t)wsum(h->buf, NW));
}

ATF_TC(pc_beyond_buffer_ignored);
ATF_TC_HEAD(pc_beyond_buffer_ignored, tc)
{
	atf_tc_set_md_var(tc, "descr", "Samples whose counter would lie past "
	    "the end of the buffer are not counted and nothing past it is "
	    "written");
}
ATF_TC_BODY(pc_beyond_buffer_ignored, tc)
{
	struct child c;
	struct hist *h;

	/* burn_a would be counter 16 of a 16-counter buffer. */
	h = newhist(0x10000, (uintptr_t)burn_a - 32, 16);
	run_child(child_burn_a_fixed, h, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(h->ret, 0, "profil returned %d", h->ret);
	ATF_CHECK_EQ_MSG(wsum(h->buf, 16), 0, "%ju samples counted in the "
	    "buffer", (uintmax_t)wsum(h->buf, 16));
	ATF_CHECK_EQ_MSG(wsum(h->buf + 16, NW - 16), 0, "%ju written past "
	    "the end of the buffer", (uintmax_t)wsum(h->buf + 16, NW - 16));
}

struct offres {
	int		ret[2];
	int		handler_changed[2];
	int		timer_set[2];
	uint64_t	counted[2];
};

static int
child_off(void *arg)
{
	static WORD buf[NW];
	struct offres *r = arg;
	struct sigaction sa;
	struct itimerval it;
	unsigned int scale;

	for (scale = 0; scale <= 1; scale++) {
		memset(buf, 0, sizeof(buf));
		r->ret[scale] = profil(buf, sizeof(buf),
		    (uintptr_t)burn_a - 256, scale);
		if (sigaction(SIGPROF, NULL, &sa) != 0 ||
		    getitimer(ITIMER_PROF, &it) != 0)
			return 2;
		r->handler_changed[scale] = (sa.sa_flags & SA_SIGINFO) ||
		    sa.sa_handler != SIG_DFL;
		r->timer_set[scale] = it.it_value.tv_sec != 0 ||
		    it.it_value.tv_usec != 0;
		burn_for(burn_a, 200 * MS);
		r->counted[scale] = wsum(buf, NW);
	}
	return 0;
}

ATF_TC(scale_0_or_1_is_off);
ATF_TC_HEAD(scale_0_or_1_is_off, tc)
{
	atf_tc_set_md_var(tc, "descr", "Scale 0 or 1 turns profiling off: "
	    "no handler, no timer, nothing counted");
}
ATF_TC_BODY(scale_0_or_1_is_off, tc)
{
	struct offres *r;
	struct child c;
	int s;

	r = shared(sizeof(*r));
	run_child(child_off, r, &c);
	REQUIRE_EXIT(&c, 0);
	for (s = 0; s <= 1; s++) {
		ATF_CHECK_EQ_MSG(r->ret[s], 0, "scale %d: profil returned %d",
		    s, r->ret[s]);
		ATF_CHECK_MSG(!r->handler_changed[s], "scale %d: a SIGPROF "
		    "handler was installed", s);
		ATF_CHECK_MSG(!r->timer_set[s], "scale %d: ITIMER_PROF is "
		    "armed", s);
		ATF_CHECK_EQ_MSG(r->counted[s], 0, "scale %d: %ju samples "
		    "counted", s, (uintmax_t)r->counted[s]);
	}
}

ATF_TC(scale_2_counts_all_in_first);
ATF_TC_HEAD(scale_2_counts_all_in_first, tc)
{
	atf_tc_set_md_var(tc, "descr", "Scale 2 counts every pc at or above "
	    "the offset, however far, in the first counter");
}
ATF_TC_BODY(scale_2_counts_all_in_first, tc)
{
	struct child c;
	struct hist *h;

	/* 1 MiB below burn_a: the classic formula would say counter 16. */
	h = newhist(2, (uintptr_t)burn_a - 0x100000, 32);
	run_child(child_burn_a, h, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(h->ret, 0, "profil returned %d", h->ret);
	ATF_CHECK_MSG(h->reached && h->buf[0] >= ENOUGH, "buf[0] is %u after "
	    "%llu s of CPU", h->buf[0], CPU_CAP_NS / 1000000000);
	ATF_CHECK_EQ_MSG(wsum(h->buf + 1, NW - 1), 0, "%ju samples outside "
	    "buf[0]", (uintmax_t)wsum(h->buf + 1, NW - 1));
}

static volatile sig_atomic_t mine_called;

static void
mine(int sig)
{
	(void)sig;
	mine_called = 1;
}

struct restore {
	int		ret_on, ret_off;
	int		taken;		/* the action replaced while on */
	int		timer_ours;	/* the timer replaced while on */
	int		back_handler, back_flags, back_mask;
	struct itimerval before, after;
};

static int
child_restore(void *arg)
{
	static WORD buf[NW];
	struct restore *r = arg;
	struct sigaction sa, cur;
	struct itimerval it, now;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = mine;
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_sec = 7;
	it.it_value.tv_sec = 9;
	if (sigaction(SIGPROF, &sa, NULL) != 0 ||
	    setitimer(ITIMER_PROF, &it, NULL) != 0)
		return 2;
	r->before = it;

	r->ret_on = profil(buf, sizeof(buf), (uintptr_t)burn_a - 256, 0x10000);
	if (getitimer(ITIMER_PROF, &now) != 0)
		return 3;
	r->taken = kernel_handler(SIGPROF) != (void *)mine;
	r->timer_ours = now.it_interval.tv_sec != 7;
	burn_for(burn_a, 50 * MS);

	r->ret_off = profil_stop();
	if (sigaction(SIGPROF, NULL, &cur) != 0 ||
	    getitimer(ITIMER_PROF, &r->after) != 0)
		return 4;
	r->back_handler = !(cur.sa_flags & SA_SIGINFO) &&
	    cur.sa_handler == mine;
	r->back_flags = (cur.sa_flags & (SA_NODEFER | SA_RESTART |
	    SA_SIGINFO)) == SA_NODEFER;
	r->back_mask = sigismember(&cur.sa_mask, SIGUSR2) == 1 &&
	    sigismember(&cur.sa_mask, SIGINT) == 0;
	return 0;
}

ATF_TC(stop_restores_action_and_timer);
ATF_TC_HEAD(stop_restores_action_and_timer, tc)
{
	atf_tc_set_md_var(tc, "descr", "profil(NULL, 0, 0, 0) stops "
	    "sampling and puts back the SIGPROF action and the ITIMER_PROF "
	    "timer that were there before");
}
ATF_TC_BODY(stop_restores_action_and_timer, tc)
{
	struct restore *r;
	struct child c;

	r = shared(sizeof(*r));
	run_child(child_restore, r, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(r->ret_on, 0, "profil returned %d", r->ret_on);
	ATF_REQUIRE_MSG(r->taken && r->timer_ours, "profil did not install "
	    "its own handler and timer");
	ATF_CHECK_EQ_MSG(r->ret_off, 0, "profil(NULL...) returned %d",
	    r->ret_off);
	ATF_CHECK_MSG(r->back_handler, "the previous handler is not back");
	ATF_CHECK_MSG(r->back_flags, "the previous sa_flags are not back");
	ATF_CHECK_MSG(r->back_mask, "the previous sa_mask is not back");
	ATF_CHECK_MSG(r->after.it_interval.tv_sec == 7 &&
	    r->after.it_interval.tv_usec == 0, "timer interval %ld.%06ld, "
	    "not the previous 7 s", (long)r->after.it_interval.tv_sec,
	    (long)r->after.it_interval.tv_usec);
	ATF_CHECK_MSG(r->after.it_value.tv_sec <= 9 &&
	    (r->after.it_value.tv_sec > 0 || r->after.it_value.tv_usec > 0),
	    "timer value %ld.%06ld, not what was left of the previous 9 s",
	    (long)r->after.it_value.tv_sec, (long)r->after.it_value.tv_usec);
}

struct threads {
	struct hist	h;
	size_t		ia0, ia1, ib0, ib1; /* burn_a's, burn_b's */
	int		reached_a, reached_b;
};

static int
enough_a(void *arg)
{
	struct threads *t = arg;

	return wsum(t->h.buf + t->ia0, t->ia1 - t->ia0 + 1) >= ENOUGH / 2;
}

static int
enough_b(void *arg)
{
	struct threads *t = arg;

	return wsum(t->h.buf + t->ib0, t->ib1 - t->ib0 + 1) >= ENOUGH / 2;
}

static void *
thread_a(void *arg)
{
	struct threads *t = arg;

	t->reached_a = burn_until(burn_a, enough_a, t, CPU_CAP_NS);
	return NULL;
}

static void *
thread_b(void *arg)
{
	struct threads *t = arg;

	t->reached_b = burn_until(burn_b, enough_b, t, CPU_CAP_NS);
	return NULL;
}

static int
child_threads(void *arg)
{
	struct threads *t = arg;
	pthread_t a, b;

	t->h.ret = profil(t->h.buf, sizeof(t->h.buf), t->h.off, t->h.scale);
	if (t->h.ret != 0)
		return 0;
	if (pthread_create(&a, NULL, thread_a, t) != 0 ||
	    pthread_create(&b, NULL, thread_b, t) != 0)
		return 2;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	(void)profil_stop();
	return 0;
}

ATF_TC(every_thread_sampled);
ATF_TC_HEAD(every_thread_sampled, tc)
{
	atf_tc_set_md_var(tc, "descr", "Samples come from every thread: two "
	    "threads burning in two functions both show up in the histogram");
}
ATF_TC_BODY(every_thread_sampled, tc)
{
	struct threads *t;
	struct child c;

	t = shared(sizeof(*t));
	t->h.scale = 0x10000;
	t->h.off = (uintptr_t)burn_a - 256;
	t->ia0 = classic_index((uintptr_t)burn_a, t->h.off, t->h.scale);
	t->ia1 = classic_index((uintptr_t)burn_a_end - 1, t->h.off,
	    t->h.scale);
	t->ib0 = classic_index((uintptr_t)burn_b, t->h.off, t->h.scale);
	t->ib1 = classic_index((uintptr_t)burn_b_end - 1, t->h.off,
	    t->h.scale);
	ATF_REQUIRE(t->ib1 < NW);
	run_child(child_threads, t, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(t->h.ret, 0, "profil returned %d", t->h.ret);
	ATF_CHECK_MSG(t->reached_a, "the thread in burn_a got %ju samples",
	    (uintmax_t)wsum(t->h.buf + t->ia0, t->ia1 - t->ia0 + 1));
	ATF_CHECK_MSG(t->reached_b, "the thread in burn_b got %ju samples",
	    (uintmax_t)wsum(t->h.buf + t->ib0, t->ib1 - t->ib0 + 1));
}

struct restart {
	WORD		buf[1];
	int		ret;
	int		reached;
	ssize_t		nread;
	int		err;
	int		fds[2];
};

static int
enough_interrupts(void *arg)
{
	struct restart *r = arg;

	return r->buf[0] >= ENOUGH / 2;
}

static void *
burner_blocking_sigprof(void *arg)
{
	struct restart *r = arg;
	sigset_t s;

	/* Every SIGPROF must now go to the thread blocked in read(). */
	sigemptyset(&s);
	sigaddset(&s, SIGPROF);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	r->reached = burn_until(burn_a, enough_interrupts, r, CPU_CAP_NS);
	(void)write(r->fds[1], "x", 1);
	return NULL;
}

static int
child_restart(void *arg)
{
	struct restart *r = arg;
	pthread_t t;
	char ch;

	if (pipe(r->fds) != 0)
		return 2;
	/* Scale 2, offset 0: buf[0] counts every sample, wherever it hit. */
	r->ret = profil(r->buf, sizeof(r->buf), 0, 2);
	if (r->ret != 0)
		return 0;
	if (pthread_create(&t, NULL, burner_blocking_sigprof, r) != 0)
		return 3;
	r->nread = read(r->fds[0], &ch, 1);
	r->err = errno;
	pthread_join(t, NULL);
	(void)profil_stop();
	return 0;
}

ATF_TC(blocking_read_restarts);
ATF_TC_HEAD(blocking_read_restarts, tc)
{
	atf_tc_set_md_var(tc, "descr", "The handler is installed with "
	    "SA_RESTART: a read() blocked on a pipe while samples hit its "
	    "thread completes instead of failing with EINTR");
}
ATF_TC_BODY(blocking_read_restarts, tc)
{
	struct restart *r;
	struct child c;

	r = shared(sizeof(*r));
	run_child(child_restart, r, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(r->ret, 0, "profil returned %d", r->ret);
	ATF_REQUIRE_MSG(r->reached, "only %u samples hit the reading thread",
	    r->buf[0]);
	ATF_CHECK_MSG(r->nread == 1, "read returned %zd (%s) after %u "
	    "samples hit it", r->nread, strerror(r->err), r->buf[0]);
}

struct errnores {
	struct hist	h;
	unsigned long	clobbered;
};

static int
enough_keep_errno(void *arg)
{
	struct errnores *r = arg;

	if (errno != EDOM)
		r->clobbered++;
	errno = EDOM;
	return wsum(r->h.buf, NW) >= ENOUGH;
}

static int
child_errno(void *arg)
{
	struct errnores *r = arg;

	r->h.ret = profil(r->h.buf, sizeof(r->h.buf), r->h.off, r->h.scale);
	if (r->h.ret != 0)
		return 0;
	errno = EDOM;
	r->h.reached = burn_until(burn_a, enough_keep_errno, r, CPU_CAP_NS);
	(void)profil_stop();
	return 0;
}

ATF_TC(errno_kept);
ATF_TC_HEAD(errno_kept, tc)
{
	atf_tc_set_md_var(tc, "descr", "A sample never changes the errno of "
	    "the code it interrupts");
}
ATF_TC_BODY(errno_kept, tc)
{
	struct errnores *r;
	struct child c;

	r = shared(sizeof(*r));
	r->h.scale = 2;
	r->h.off = 0;
	run_child(child_errno, r, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(r->h.ret, 0, "profil returned %d", r->h.ret);
	ATF_REQUIRE_MSG(r->h.reached, "too few samples");
	ATF_CHECK_EQ_MSG(r->clobbered, 0, "errno changed %lu times over %ju "
	    "samples", r->clobbered, (uintmax_t)wsum(r->h.buf, NW));
}

struct satres {
	WORD		buf[4];
	int		ret;
	int		reached;
	int		went_down;
	WORD		last;
};

static int
full(void *arg)
{
	struct satres *r = arg;
	WORD v = r->buf[0];

	if (v < r->last)
		r->went_down = 1;
	r->last = v;
	return v == 0xffff;
}

static int
child_saturate(void *arg)
{
	struct satres *r = arg;

	r->buf[0] = 0xfff0;
	r->last = r->buf[0];
	r->ret = profil(r->buf, sizeof(r->buf), 0, 2);
	if (r->ret != 0)
		return 0;
	r->reached = burn_until(burn_a, full, r, CPU_CAP_NS);
	/* At 100 Hz or more, this is at least 20 samples past full. */
	burn_for(burn_a, 200 * MS);
	(void)full(r);
	(void)profil_stop();
	return 0;
}

ATF_TC(counters_saturate);
ATF_TC_HEAD(counters_saturate, tc)
{
	atf_tc_set_md_var(tc, "descr", "A counter stops at 0xffff instead of "
	    "wrapping to zero");
}
ATF_TC_BODY(counters_saturate, tc)
{
	struct satres *r;
	struct child c;

	r = shared(sizeof(*r));
	run_child(child_saturate, r, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(r->ret, 0, "profil returned %d", r->ret);
	ATF_REQUIRE_MSG(r->reached, "the counter never got from 0xfff0 to "
	    "0xffff (now %#x)", r->buf[0]);
	ATF_CHECK_MSG(!r->went_down, "the counter went down: it wrapped");
	ATF_CHECK_EQ_MSG(r->buf[0], 0xffff, "counter %#x after more samples",
	    r->buf[0]);
	ATF_CHECK_MSG(r->buf[1] == 0 && r->buf[2] == 0 && r->buf[3] == 0,
	    "overflow spilled into the next counters");
}

struct forkres {
	struct hist	h;
	int		child_reached;
	uint64_t	before;		/* counts when the child began */
};

static int
enough_more(void *arg)
{
	struct forkres *r = arg;

	return wsum(r->h.buf, NW) >= r->before + ENOUGH;
}

static int
child_fork(void *arg)
{
	struct forkres *r = arg;
	int status;
	pid_t pid;

	r->h.ret = profil(r->h.buf, sizeof(r->h.buf), r->h.off, r->h.scale);
	if (r->h.ret != 0)
		return 0;
	r->h.reached = burn_until(burn_a, enough_samples, &r->h, CPU_CAP_NS);
	if ((pid = fork()) == -1)
		return 2;
	if (pid == 0) {
		/* The buffer is shared memory: the child counts into it. */
		r->before = wsum(r->h.buf, NW);
		r->child_reached = burn_until(burn_a, enough_more, r,
		    CPU_CAP_NS);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || status != 0)
		return 3;
	(void)profil_stop();
	return 0;
}

ATF_TC(fork_child_sampled);
ATF_TC_HEAD(fork_child_sampled, tc)
{
	atf_tc_set_md_var(tc, "descr", "Profiling stays on in the child "
	    "after fork(): the child's samples are counted");
}
ATF_TC_BODY(fork_child_sampled, tc)
{
	struct forkres *r;
	struct child c;

	r = shared(sizeof(*r));
	r->h.scale = 2;
	r->h.off = 0;
	r->h.nwords = NW;
	run_child(child_fork, r, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(r->h.ret, 0, "profil returned %d", r->h.ret);
	ATF_REQUIRE_MSG(r->h.reached, "the parent got too few samples");
	ATF_CHECK_MSG(r->child_reached, "the child got %ju samples in %llu s "
	    "of CPU", (uintmax_t)(wsum(r->h.buf, NW) - r->before),
	    CPU_CAP_NS / 1000000000);
}

struct rate {
	int		ret;
	struct itimerval it[2];
};

static int
child_rate(void *arg)
{
	static WORD buf[NW];
	static const char *hz[] = { "", "500" };
	struct rate *r = arg;
	int i;

	for (i = 0; i < 2; i++) {
		if (hz[i][0] != '\0')
			setenv("PROFHZ", hz[i], 1);
		r->ret |= profil(buf, sizeof(buf), (uintptr_t)burn_a, 0x10000);
		if (getitimer(ITIMER_PROF, &r->it[i]) != 0)
			return 2;
		(void)profil_stop();
	}
	return 0;
}

ATF_TC(rate_from_profhz);
ATF_TC_HEAD(rate_from_profhz, tc)
{
	atf_tc_set_md_var(tc, "descr", "The timer asks for PROFHZ samples "
	    "per CPU-second, 1000 when it is unset");
}
ATF_TC_BODY(rate_from_profhz, tc)
{
	static const long want[] = { 1000, 2000 };
	struct child c;
	struct rate *r;
	int i;

	r = shared(sizeof(*r));
	unsetenv("PROFHZ");
	run_child(child_rate, r, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(r->ret, 0, "profil failed");
	for (i = 0; i < 2; i++)
		ATF_CHECK_MSG(r->it[i].it_interval.tv_sec == 0 &&
		    r->it[i].it_interval.tv_usec == want[i], "%s: interval "
		    "%ld.%06ld s, not %ld us", i == 0 ? "PROFHZ unset" :
		    "PROFHZ=500", (long)r->it[i].it_interval.tv_sec,
		    (long)r->it[i].it_interval.tv_usec, want[i]);
}

struct takeover {
	WORD		mon[4096];	/* monitor()'s buffer */
	struct hist	h;		/* profil()'s */
	size_t		nmon;
	int		reached;
	uint64_t	mon_before, mon_after;
};

static size_t
mon_hist_off(void)
{
	return (sizeof(struct hdr) + 4 * sizeof(struct cnt)) / sizeof(WORD);
}

static int
child_takeover(void *arg)
{
	struct takeover *t = arg;
	size_t o = mon_hist_off();

	unsetenv("PROFDIR");
	monitor((int (*)(void))((uintptr_t)burn_a - 256),
	    (int (*)(void))((uintptr_t)burn_a + 3840), t->mon, t->nmon, 4);
	burn_for(burn_a, 50 * MS);
	t->h.ret = profil(t->h.buf, sizeof(t->h.buf), t->h.off, t->h.scale);
	t->mon_before = wsum(t->mon + o, t->nmon - o);
	t->reached = burn_until(burn_a, enough_samples, &t->h, CPU_CAP_NS);
	t->mon_after = wsum(t->mon + o, t->nmon - o);
	(void)profil_stop();
	monitor(NULL, NULL, NULL, 0, 0);
	return 0;
}

ATF_TC(takes_over_monitor_histogram);
ATF_TC_HEAD(takes_over_monitor_histogram, tc)
{
	atf_tc_set_md_var(tc, "descr", "profil() called while monitor() "
	    "profiles sends the samples to its own buffer: the process has "
	    "one histogram");
}
ATF_TC_BODY(takes_over_monitor_histogram, tc)
{
	struct takeover *t;
	struct child c;

	t = shared(sizeof(*t));
	t->nmon = 4096;
	t->h.scale = 0x10000;
	t->h.off = (uintptr_t)burn_a - 256;
	t->h.nwords = NW;
	run_child(child_takeover, t, &c);
	REQUIRE_EXIT(&c, 0);
	ATF_REQUIRE_EQ_MSG(t->h.ret, 0, "profil returned %d", t->h.ret);
	ATF_CHECK_MSG(t->reached, "profil's buffer got %ju samples",
	    (uintmax_t)wsum(t->h.buf, NW));
	ATF_CHECK_EQ_MSG(t->mon_after, t->mon_before, "monitor's histogram "
	    "went on counting: %ju, then %ju", (uintmax_t)t->mon_before,
	    (uintmax_t)t->mon_after);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, prototype_matches_glibc);
	ATF_TP_ADD_TC(tp, index_scale_0x10000);
	ATF_TP_ADD_TC(tp, index_scale_0x4000);
	ATF_TP_ADD_TC(tp, index_scale_0x20000);
	ATF_TP_ADD_TC(tp, index_scale_0xffff);
	ATF_TP_ADD_TC(tp, pc_below_offset_ignored);
	ATF_TP_ADD_TC(tp, pc_beyond_buffer_ignored);
	ATF_TP_ADD_TC(tp, scale_0_or_1_is_off);
	ATF_TP_ADD_TC(tp, scale_2_counts_all_in_first);
	ATF_TP_ADD_TC(tp, stop_restores_action_and_timer);
	ATF_TP_ADD_TC(tp, every_thread_sampled);
	ATF_TP_ADD_TC(tp, blocking_read_restarts);
	ATF_TP_ADD_TC(tp, errno_kept);
	ATF_TP_ADD_TC(tp, counters_saturate);
	ATF_TP_ADD_TC(tp, fork_child_sampled);
	ATF_TP_ADD_TC(tp, rate_from_profhz);
	ATF_TP_ADD_TC(tp, takes_over_monitor_histogram);
	return atf_no_error();
}

/*
 * h_support.h -- what the atf-c programs of tests/lib share besides the
 * burners of h_burn.h: a way to run a piece of a test in a forked child
 * with its stderr captured, and memory that child and parent share.
 */
#ifndef H_SUPPORT_H
#define H_SUPPORT_H

#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <atf-c.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h_burn.h"

/* Memory that a forked child and its parent both see. */
static inline void *
shared(size_t n)
{
	void *p;

	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
	    -1, 0);
	ATF_REQUIRE_MSG(p != MAP_FAILED, "mmap: %s", strerror(errno));
	return p;
}

struct child {
	int	status;
	char	err[16384];	/* what it wrote on stderr */
	size_t	errlen;
};

/*
 * Run fn(arg) in a forked child whose stderr goes to c->err, and wait
 * for it.  The child ends with exit(fn(arg)), so atexit handlers run as
 * in a program that returns from main.  A child reports what it saw
 * through shared() memory; the parent judges.
 */
static inline void
run_child(int (*fn)(void *), void *arg, struct child *c)
{
	char sink[512];
	int fds[2];
	ssize_t n;
	pid_t pid;

	memset(c, 0, sizeof(*c));
	ATF_REQUIRE(pipe(fds) == 0);
	fflush(NULL);
	pid = fork();
	ATF_REQUIRE_MSG(pid != -1, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		if (dup2(fds[1], STDERR_FILENO) < 0)
			_exit(120);
		close(fds[1]);
		exit(fn(arg));
	}
	close(fds[1]);
	for (;;) {
		if (c->errlen < sizeof(c->err) - 1)
			n = read(fds[0], c->err + c->errlen,
			    sizeof(c->err) - 1 - c->errlen);
		else
			n = read(fds[0], sink, sizeof(sink));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (c->errlen < sizeof(c->err) - 1)
			c->errlen += (size_t)n;
	}
	close(fds[0]);
	c->err[c->errlen] = '\0';
	while (waitpid(pid, &c->status, 0) < 0)
		ATF_REQUIRE_MSG(errno == EINTR, "waitpid: %s", strerror(errno));
	/* Pass on what it said, for whoever reads the test's log. */
	if (c->errlen > 0)
		fprintf(stderr, "child stderr: %s", c->err);
}

/* The child ran to exit(code). */
#define REQUIRE_EXIT(c, code)						\
	ATF_REQUIRE_MSG(WIFEXITED((c)->status) &&			\
	    WEXITSTATUS((c)->status) == (code),				\
	    "child: status %#x, expected exit %d; stderr: %s",		\
	    (c)->status, (code), (c)->err)

/*
 * The handler of sig the kernel has in place, libmon's sigaction()
 * bypassed: while a signal clock samples, sigaction() gives the program
 * its own action back.
 */
static inline void *
kernel_handler(int sig)
{
	struct {
		void	*handler;
		unsigned long flags;
		void	*restorer;
		uint64_t mask;
	} k;

	if (syscall(SYS_rt_sigaction, sig, NULL, &k, sizeof(k.mask)) != 0)
		return NULL;
	return k.handler;
}

/* Lines in s. */
static inline int
nlines(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		if (*s == '\n')
			n++;
	return n;
}

#endif /* !H_SUPPORT_H */

/*
 * demangle.c -- -C: C++ names made readable by c++filt(1).
 *
 * prof links no demangler of its own.  The names go to c++filt in one
 * batch, one a line, through a temporary file (so neither side can block
 * the other on a full pipe), and come back one a line on a pipe.  When
 * c++filt is not on PATH, or does not answer line for line, one warning
 * says so and the names stay as they are.
 */
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/read.h"
#include "util/util.h"

#define FILTER	"c++filt"

/* The full path of c++filt along PATH, in buf; 0 if found. */
static int
find_filter(char *buf, size_t size)
{
	const char *path, *p, *end;
	size_t len;
	int n;

	if ((path = getenv("PATH")) == NULL)
		path = "/usr/bin:/bin";
	for (p = path; ; p = end + 1) {
		end = strchr(p, ':');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (len == 0)
			n = snprintf(buf, size, "./%s", FILTER);
		else
			n = snprintf(buf, size, "%.*s/%s", (int)len, p, FILTER);
		if (n > 0 && (size_t)n < size && access(buf, X_OK) == 0)
			return 0;
		if (end == NULL)
			return -1;
	}
}

/* The names, one a line, in a fresh unlinked file; NULL on failure. */
static FILE *
write_names(const char **names, size_t n)
{
	FILE *fp;
	size_t i;

	if ((fp = tmpfile()) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		fprintf(fp, "%s\n", strchr(names[i], '\n') == NULL ?
		    names[i] : "_");
	if (fflush(fp) != 0 || ferror(fp) || fseek(fp, 0, SEEK_SET) != 0) {
		fclose(fp);
		return NULL;
	}
	return fp;
}

/* Run the filter on in; its output on a pipe.  -1 on failure. */
static pid_t
start_filter(const char *path, FILE *in, int *out)
{
	int fd[2];
	pid_t pid;

	if (pipe(fd) != 0)
		return -1;
	fflush(stdout);
	if ((pid = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		if (dup2(fileno(in), 0) < 0 || dup2(fd[1], 1) < 0)
			_exit(127);
		close(fd[0]);
		close(fd[1]);
		execl(path, FILTER, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	*out = fd[0];
	return pid;
}

/* Read n lines from fd into got[]; 0 if exactly n came. */
static int
read_names(int fd, char **got, size_t n)
{
	FILE *fp;
	char *line = NULL;
	size_t cap = 0, i = 0;
	ssize_t len;
	int rc = 0;

	if ((fp = fdopen(fd, "r")) == NULL) {
		close(fd);
		return -1;
	}
	while ((len = getline(&line, &cap, fp)) > 0) {
		if (i == n) {
			rc = -1;
			break;
		}
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		got[i++] = xstrdup(line);
	}
	free(line);
	fclose(fp);
	return rc == 0 && i == n ? 0 : -1;
}

/* Wait for the filter; 0 if it exited with status 0. */
static int
reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/*
 * Replace each of names[0..n) by its demangled form where it has one;
 * the new strings are never freed, like the rest of the report.
 */
void
demangle(const char **names, size_t n)
{
	char path[PATH_MAX], **got;
	FILE *in;
	pid_t pid;
	size_t i;
	int fd, rc;

	if (find_filter(path, sizeof(path)) != 0) {
		warnx("-C: %s not found on PATH; names are left mangled",
		    FILTER);
		return;
	}
	if (n == 0)
		return;
	got = xcalloc(n, sizeof(*got));
	rc = -1;
	if ((in = write_names(names, n)) != NULL) {
		if ((pid = start_filter(path, in, &fd)) > 0) {
			rc = read_names(fd, got, n);
			if (reap(pid) != 0)
				rc = -1;
		}
		fclose(in);
	}
	for (i = 0; i < n; i++) {
		if (rc == 0 && strchr(names[i], '\n') == NULL &&
		    strcmp(got[i], names[i]) != 0)
			names[i] = got[i];
		else
			free(got[i]);
	}
	if (rc != 0)
		warnx("-C: %s failed; names are left mangled", FILTER);
	free(got);
}

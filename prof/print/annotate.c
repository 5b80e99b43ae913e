/*
 * annotate.c -- -A, each source file with samples listed line by line:
 *
 *	  Seconds  %Time    Calls   Line  Source
 *	#    0.20   49.6             52  	for (...) ...
 *
 * Seconds and %Time are the line's (of the flat report's total), Calls
 * the calls made from it; lines with neither have blank figures.  A
 * line with at least HOT percent of the time is marked with a # in the
 * first column; under a line that made calls, one line per callee says
 * how many went to which.  Files come by their time, the largest first
 * -- those with samples; one with calls alone (the C library's file that
 * calls main) only when named, as the files named are listed, in the
 * order named.  A file is looked for where the line table says it is,
 * then under -S's directory: its path below it, then shorter and
 * shorter tails of its path; only a regular file is read.  One that
 * cannot be found gets one line saying where it was looked for, then
 * its lines' figures without their text, and one changed since the
 * object was built a line saying its lines may have moved; the other
 * files are listed still.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "print/print.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

#define HOT	5.0		/* percent of the time that marks a line */

/* A source file: its rows, ix[first .. first + n), by line. */
struct sfile {
	const char	*path;
	size_t		 obj;		/* the object of its first row */
	size_t		 first, n;
	double		 samples;
	uint64_t	 calls;
};

/* What the listing works from. */
struct ann {
	struct lines	*ls;
	const struct opts *o;
	size_t		*ix;		/* rows with a file, by path, line */
	size_t		 nix;
	size_t		*callat;	/* by row: its first call, or
					   ls->ncalls */
	double		 pct;
};

static const struct lines *sort_ls;

static int
cmp_ix(const void *x, const void *y)
{
	const struct lrow *a = &sort_ls->rows[*(const size_t *)x];
	const struct lrow *b = &sort_ls->rows[*(const size_t *)y];
	int c;

	if ((c = strcmp(a->file, b->file)) != 0)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int
cmp_ftime(const void *x, const void *y)
{
	const struct sfile *a = x, *b = y;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* The files of the rows, each with its rows; by time, largest first. */
static struct sfile *
gather(struct ann *an, size_t *nf)
{
	struct lines *ls = an->ls;
	struct sfile *f = NULL;
	const struct lrow *w;
	size_t cap = 0, n = 0, i;

	an->ix = xcalloc(ls->nrows + 1, sizeof(*an->ix));
	for (i = 0; i < ls->nrows; i++)
		if (ls->rows[i].file != NULL)
			an->ix[an->nix++] = i;
	sort_ls = ls;
	if (an->nix > 1)
		qsort(an->ix, an->nix, sizeof(*an->ix), cmp_ix);
	for (i = 0; i < an->nix; i++) {
		w = &ls->rows[an->ix[i]];
		if (n == 0 || strcmp(f[n - 1].path, w->file) != 0) {
			f = xgrow(f, &cap, n, 1, sizeof(*f));
			memset(&f[n], 0, sizeof(*f));
			f[n].path = w->file;
			f[n].obj = w->obj;
			f[n++].first = i;
		}
		f[n - 1].n++;
		f[n - 1].samples += w->samples;
		addsat(&f[n - 1].calls, w->calls);
	}
	if (n > 1)
		qsort(f, n, sizeof(*f), cmp_ftime);
	*nf = n;
	return f;
}

/*
 * path opened, if it is a regular file: a name from a line table may
 * be a device or a FIFO, which would never end or never open.
 */
static FILE *
open_regular(const char *path)
{
	struct stat sb;
	FILE *fp;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return NULL;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		errno = ENOENT;
		return NULL;
	}
	if ((fp = fdopen(fd, "r")) == NULL)
		close(fd);
	return fp;
}

/*
 * Open path, or one like it under -S's directory; NULL, errno set.  The
 * path opened in *used, to free.
 */
static FILE *
open_source(const char *path, const char *dir, char **used)
{
	const char *tail;
	char *buf;
	FILE *fp;
	int e;

	*used = NULL;
	if ((fp = open_regular(path)) != NULL || dir == NULL) {
		if (fp != NULL)
			*used = xstrdup(path);
		return fp;
	}
	e = errno;
	buf = xmalloc(strlen(dir) + strlen(path) + 2);
	for (tail = path; tail != NULL; tail = strchr(tail, '/')) {
		while (*tail == '/')
			tail++;
		if (*tail == '\0')
			break;
		sprintf(buf, "%s/%s", dir, tail);
		if ((fp = open_regular(buf)) != NULL)
			break;
	}
	if (fp == NULL) {
		free(buf);
		errno = e;
	} else
		*used = buf;
	return fp;
}

/*
 * Say so if the source at src changed after the object obj was built:
 * the line table's numbers are the old text's.
 */
static void
newer_note(const struct ann *an, const char *src, size_t obj)
{
	const struct profile *p = an->ls->p;
	struct stat ss, os;

	if (obj >= p->nobjs || p->objs[obj].path == NULL ||
	    stat(src, &ss) != 0 || stat(p->objs[obj].path, &os) != 0 ||
	    ss.st_mtime <= os.st_mtime)
		return;
	fputs("(", stdout);
	put_text(stdout, src);
	fputs(" changed after ", stdout);
	put_text(stdout, p->objs[obj].path);
	fputs(" was built: its lines may have moved)\n", stdout);
}

/* A line of source, its tabs kept, anything else unfit made fit. */
static void
put_source(char *text)
{
	char *tab;

	while ((tab = strchr(text, '\t')) != NULL) {
		*tab = '\0';
		put_text(stdout, text);
		putchar('\t');
		text = tab + 1;
	}
	put_text(stdout, text);
}

/* The figures of one line (rows ix[k .. k + n)), and its callees. */
static void
put_figures(const struct ann *an, size_t k, size_t n, uint32_t line,
    char *text)
{
	const struct lines *ls = an->ls;
	const struct lrow *w;
	const struct lcall *c;
	double s = 0;
	uint64_t calls = 0;
	size_t i, j;

	for (i = k; i < k + n; i++) {
		s += ls->rows[an->ix[i]].samples;
		addsat(&calls, ls->rows[an->ix[i]].calls);
	}
	if (n == 0 || (s <= 0 && calls == 0))
		printf("%26s", "");
	else {
		printf("%c%8.2f%7.1f", s * an->pct >= HOT ? '#' : ' ',
		    s * ls->r->period, s * an->pct);
		if (calls > 0)
			printf(" %9" PRIu64, calls);
		else
			printf("%10s", "");
	}
	printf(" %6" PRIu32 "  ", line);
	if (text != NULL)
		put_source(text);
	putchar('\n');
	for (i = k; i < k + n; i++) {
		w = &ls->rows[an->ix[i]];
		for (j = an->callat[an->ix[i]]; j < ls->ncalls &&
		    ls->calls[j].row == an->ix[i]; j++) {
			c = &ls->calls[j];
			printf("%16s %9" PRIu64 "         call%s to ", "",
			    c->calls, c->calls == 1 ? "" : "s");
			put_text(stdout, c->callee != NULL ? c->callee : "??");
			if (n > 1 && w->func != NULL) {
				fputs(" from ", stdout);
				put_text(stdout, w->func);
			}
			putchar('\n');
		}
	}
}

/* How many rows from ix[k] on are of line `line'. */
static size_t
run_of(const struct ann *an, const struct sfile *f, size_t k, uint32_t line)
{
	size_t n = 0;

	while (k + n < f->first + f->n &&
	    an->ls->rows[an->ix[k + n]].line == line)
		n++;
	return n;
}

/* One file listed: its text with the figures, or the figures alone. */
static void
list_file(const struct ann *an, const struct sfile *f)
{
	char *text = NULL, *used;
	size_t cap = 0, k = f->first, n;
	ssize_t len;
	uint32_t line = 0;
	FILE *fp;

	putchar('\n');
	put_text(stdout, line_file_name(f->path));
	printf(": %.2f s, %.1f%% of the time; %" PRIu64 " call%s made "
	    "from it\n", f->samples * an->ls->r->period,
	    f->samples * an->pct, f->calls, f->calls == 1 ? "" : "s");
	if ((fp = open_source(f->path, an->o->srcdir, &used)) == NULL) {
		fputs("(source not found at ", stdout);
		put_text(stdout, f->path);
		printf(": %s", strerror(errno));
		if (an->o->srcdir != NULL) {
			fputs(", nor under ", stdout);
			put_text(stdout, an->o->srcdir);
		} else
			fputs("; -S names a directory to look in", stdout);
		fputs("; its lines' figures follow)\n", stdout);
	} else {
		newer_note(an, used, f->obj);
		free(used);
	}
	printf("  Seconds  %%Time     Calls   Line  Source\n");
	/* Line 0: code the table gives no line. */
	if ((n = run_of(an, f, k, 0)) > 0) {
		put_figures(an, k, n, 0, NULL);
		k += n;
	}
	while (fp != NULL && (len = getline(&text, &cap, fp)) >= 0) {
		/* A line's end, and a CRLF file's carriage return. */
		if (len > 0 && text[len - 1] == '\n')
			text[--len] = '\0';
		if (len > 0 && text[len - 1] == '\r')
			text[--len] = '\0';
		n = run_of(an, f, k, ++line);
		put_figures(an, k, n, line, text);
		k += n;
	}
	/* Lines past the end of the file, or of a file not found. */
	for (; k < f->first + f->n; k += n) {
		n = run_of(an, f, k, an->ls->rows[an->ix[k]].line);
		put_figures(an, k, n, an->ls->rows[an->ix[k]].line, NULL);
	}
	free(text);
	if (fp != NULL)
		fclose(fp);
}

/* Does source name `name' stand for file path (a tail of it)? */
static int
names(const char *path, const char *name)
{
	size_t lp = strlen(path), ln = strlen(name);

	if (strcmp(path, name) == 0)
		return 1;
	while (ln > 2 && name[0] == '.' && name[1] == '/')
		name += 2, ln -= 2;
	return ln < lp && strcmp(path + lp - ln, name) == 0 &&
	    path[lp - ln - 1] == '/';
}

/*
 * -A: the files of ls listed, or only those of names[0 .. nnames).  A
 * name no file with samples answers to gets one line saying so.
 */
void
annotate_print(struct lines *ls, const struct opts *o,
    const char *const *want, size_t nwant)
{
	struct ann an;
	struct sfile *f;
	struct stat sb;
	size_t nf, i, k, quiet = 0;
	int found;

	memset(&an, 0, sizeof(an));
	an.ls = ls;
	an.o = o;
	an.pct = ls->total > 0 ? 100.0 / ls->total : 0;
	lines_sort(ls, 'n');
	an.callat = xcalloc(ls->nrows + 1, sizeof(*an.callat));
	for (i = 0; i < ls->nrows; i++)
		an.callat[i] = ls->ncalls;
	for (i = ls->ncalls; i-- > 0;)
		an.callat[ls->calls[i].row] = i;
	if (o->srcdir != NULL && stat(o->srcdir, &sb) != 0)
		warn("-S %s", o->srcdir);
	else if (o->srcdir != NULL && !S_ISDIR(sb.st_mode))
		warnx("-S %s: not a directory", o->srcdir);
	f = gather(&an, &nf);
	for (i = 0; i < nf && nwant == 0; i++) {
		if (f[i].samples > 0)
			list_file(&an, &f[i]);
		else
			quiet++;
	}
	if (quiet == 1)
		printf("\n(1 file with calls but no time not listed:"
		    " name it to list it)\n");
	else if (quiet > 1)
		printf("\n(%zu files with calls but no time not listed:"
		    " name one to list it)\n", quiet);
	for (k = 0; k < nwant; k++) {
		for (i = 0, found = 0; i < nf; i++)
			if (names(f[i].path, want[k])) {
				list_file(&an, &f[i]);
				found = 1;
			}
		if (!found) {
			putchar('\n');
			put_text(stdout, want[k]);
			printf(": no samples and no calls in it\n");
		}
	}
	free(f);
	free(an.ix);
	free(an.callat);
}

/* Is name a source file of the line table dl (for main: -A's names)? */
int
annotate_names(const struct dwline *dl, const char *name)
{
	size_t i;

	for (i = 0; i < dl->nfiles; i++)
		if (dl->files[i] != NULL && names(dl->files[i], name))
			return 1;
	return 0;
}

/*
 * h_gmonapi -- glibc's profiling calls made on libmon, for
 * gmonapi_test.sh.  Built with -p, and as h_gmonapi_plain without it.
 *
 *	h_gmonapi control MS	moncontrol(0); warm() spins MS and calls
 *				leaf() 1000 times; moncontrol(1); work()
 *				spins MS and calls leaf() 10 times
 *	h_gmonapi_plain startup MS
 *				monstartup() over the program's text,
 *				work() spins MS, _mcleanup() writes
 *	h_gmonapi sprofil	sprofil() says what it is
 *
 * Each part's own CPU time goes to the file "facts" ("key ns").
 */
#include <sys/gmon.h>

#include <err.h>
#include <errno.h>
#include <mon.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/h_spin.h"

void	_mcleanup(void);
int	sprofil(void *, int, void *, unsigned int);

extern char __executable_start[], etext[];

static FILE *facts;

void
leaf(void)
{
	spin_sink++;
}

void
warm(uint64_t ns)
{
	int i;

	for (i = 0; i < 1000; i++)
		leaf();
	SPIN(ns);
}

void
work(uint64_t ns)
{
	int i;

	for (i = 0; i < 10; i++)
		leaf();
	SPIN(ns);
}

/* fn(ns), its thread CPU time noted as key. */
static void
timed(const char *key, void (*fn)(uint64_t), uint64_t ns)
{
	uint64_t t0;

	t0 = SPIN_NOW(THREAD);
	fn(ns);
	fprintf(facts, "%s %ju\n", key, (uintmax_t)(SPIN_NOW(THREAD) - t0));
}

int
main(int argc, char *argv[])
{
	uint64_t ns;
	int r;

	if (argc < 2)
		errx(2, "usage: h_gmonapi control MS | startup MS | sprofil");
	if ((facts = fopen("facts", "w")) == NULL)
		err(1, "facts");
	ns = argc > 2 ? strtoull(argv[2], NULL, 10) * MS : 0;
	if (strcmp(argv[1], "control") == 0) {
		moncontrol(0);
		timed("warm_ns", warm, ns);
		moncontrol(1);
		timed("work_ns", work, ns);
	} else if (strcmp(argv[1], "startup") == 0) {
		monstartup((unsigned long)__executable_start,
		    (unsigned long)etext);
		timed("work_ns", work, ns);
		_mcleanup();
	} else if (strcmp(argv[1], "sprofil") == 0) {
		errno = 0;
		r = sprofil(NULL, 0, NULL, 0);
		printf("sprofil: %d, errno %s\n", r,
		    errno == ENOSYS ? "ENOSYS" : strerror(errno));
	} else
		errx(2, "%s: unknown mode", argv[1]);
	if (fclose(facts) != 0)
		err(1, "facts");
	printf("done\n");
	return 0;
}

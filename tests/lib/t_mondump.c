/*
 * t_mondump -- print a mon.out in a stable text form for the shell
 * tests, one fact per line, so that awk can pick what a case judges:
 *
 *	lpc 0x...			hpc 0x...
 *	cells N				then "cell 0xFNPC COUNT" for each
 *	hist NWORDS SUM			then "bin INDEX COUNT", nonzero only
 *	ext 0|1
 *	run.FIELD VALUE			one line per field of the RUN record
 *	exec.bias 0x... exec.lo 0x... exec.hi 0x... exec.id HEX exec.path P
 *	obj 0xBIAS 0xLO 0xHI HEXID PATH	one per MONX_R_OBJ record
 *	pc 0xPC COUNT			one per sample outside the histogram
 *	arc 0xFROM 0xSELF COUNT		one per arc, in the file's order
 *	stack COUNT FLAGS 0xPC,0xPC...	one per stack, innermost pc first
 *	clocks.FIELD VALUE		one line per field of CLOCKS
 *	timed KIND 0xCALLER 0xCALLEE CALLS INCL SELF MIN MAX OPEN UNWOUND
 *					one per TIMED entry (KIND func, arc
 *					or ctx), the times in ns; a ctx's
 *					CALLER is its parent's name, and
 *					its own name follows UNWOUND
 *
 * A file that is not exactly what the runtime writes (see h_monread.h)
 * is an error: one line on stderr and exit status 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "h_monread.h"

static void
hex(const unsigned char *p, size_t n)
{
	size_t i;

	if (n == 0)
		printf("-");
	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
}

static void
run(const struct monx_run *r)
{
	printf("run.clock %" PRIu32 "\n", r->clock);
	printf("run.pid %" PRIu32 "\n", r->pid);
	printf("run.period_ns %" PRIu64 "\n", r->period_ns);
	printf("run.cpu_ns %" PRIu64 "\n", r->cpu_ns);
	printf("run.samples_in %" PRIu64 "\n", r->samples_in);
	printf("run.samples_out %" PRIu64 "\n", r->samples_out);
	printf("run.samples_lost %" PRIu64 "\n", r->samples_lost);
	printf("run.saturated %" PRIu64 "\n", r->saturated);
	printf("run.overruns %" PRIu64 "\n", r->overruns);
	printf("run.cells_lost %" PRIu64 "\n", r->cells_lost);
	printf("run.scale %" PRIu32 "\n", r->scale);
	printf("run.threads %" PRIu32 "\n", r->threads);
	printf("run.tables %" PRIu32 "\n", r->tables);
	printf("run.dropped %" PRIu64 "\n", r->dropped);
	printf("run.unloaded_lost %" PRIu64 "\n", r->unloaded_lost);
	printf("run.outside_lost %" PRIu64 "\n", r->outside_lost);
	printf("run.unsampled %" PRIu32 "\n", r->unsampled);
	printf("run.user_ns %" PRIu64 "\n", r->user_ns);
	printf("run.sys_ns %" PRIu64 "\n", r->sys_ns);
	printf("run.part %" PRIu32 "\n", r->part);
	printf("run.last %" PRIu32 "\n", r->last);
	printf("run.stacks_lost %" PRIu64 "\n", r->stacks_lost);
	printf("run.stacks_cut %" PRIu64 "\n", r->stacks_cut);
	printf("run.stack_limit %" PRIu32 "\n", r->stack_limit);
	printf("run.arcs %" PRIu32 "\n", r->arcs);
	printf("run.sample_ns %" PRIu64 "\n", r->sample_ns);
	printf("run.own_ns %" PRIu64 "\n", r->own_ns);
	printf("run.start_ns %" PRIu64 "\n", r->start_ns);
	printf("run.wall_ns %" PRIu64 "\n", r->wall_ns);
	printf("run.samples_kernel %" PRIu64 "\n", r->samples_kernel);
	printf("run.flags %" PRIu32 "\n", r->flags);
}

static void
stacks(const unsigned char *p, size_t len)
{
	struct monx_stack st;
	uint64_t pc;
	size_t off;
	uint32_t i;

	for (off = 0; off < len;) {
		memcpy(&st, p + off, sizeof(st));
		off += sizeof(st);
		printf("stack %" PRIu64 " %" PRIu32 " ", st.count, st.flags);
		for (i = 0; i < st.depth; i++, off += sizeof(pc)) {
			memcpy(&pc, p + off, sizeof(pc));
			printf("%s%#" PRIx64, i > 0 ? "," : "", pc);
		}
		printf("\n");
	}
}

static void
clocks(const struct monx_clocks *c)
{
	printf("clocks.clock %" PRIu32 "\n", c->clock);
	printf("clocks.depth %" PRIu32 "\n", c->depth);
	printf("clocks.threads %" PRIu32 "\n", c->threads);
	printf("clocks.ticks %" PRIu64 "\n", c->tick1 - c->tick0);
	printf("clocks.ns %" PRIu64 "\n", c->ns1 - c->ns0);
	printf("clocks.missed %" PRIu64 "\n", c->missed);
	printf("clocks.unwound %" PRIu64 "\n", c->unwound);
	printf("clocks.unmatched %" PRIu64 "\n", c->unmatched);
	printf("clocks.deep %" PRIu64 "\n", c->deep);
	printf("clocks.nomem %" PRIu64 "\n", c->nomem);
	printf("clocks.ctxcut %" PRIu32 "\n", c->ctxcut);
}

/* The timed entries, their ticks in ns by the CLOCKS pairs. */
static void
timed(const struct mon_file *m)
{
	const struct monx_timed *t;
	double f;
	size_t i;

	f = (double)(m->clocks.ns1 - m->clocks.ns0) /
	    (double)(m->clocks.tick1 - m->clocks.tick0);
	for (i = 0; i < m->ntimed; i++) {
		t = &m->timed[i];
		printf("timed %s %#" PRIx64 " %#" PRIx64 " %" PRIu64
		    " %.0f %.0f %.0f %.0f %" PRIu32 " %" PRIu64,
		    t->kind == MONX_TM_FUNC ? "func" :
		    t->kind == MONX_TM_ARC ? "arc" : "ctx", t->caller,
		    t->callee, t->calls, t->incl * f, t->self * f,
		    t->min * f, t->max * f, t->open, t->unwound);
		if (t->kind == MONX_TM_CTX)
			printf(" %#" PRIx64, monx_ctx(t->caller, t->callee));
		putchar('\n');
	}
}

static void
dump(const struct mon_file *m)
{
	uint64_t sum;
	size_t i;

	printf("lpc %p\nhpc %p\n", (void *)m->hdr.lpc, (void *)m->hdr.hpc);
	printf("cells %zu\n", m->ncells);
	for (i = 0; i < m->ncells; i++)
		printf("cell %#" PRIxPTR " %ld\n",
		    (uintptr_t)m->cells[i].fnpc, m->cells[i].mcnt);
	sum = mon_samples(m, 0, m->nhist);
	printf("hist %zu %" PRIu64 "\n", m->nhist, sum);
	for (i = 0; i < m->nhist; i++)
		if (m->hist[i] != 0)
			printf("bin %zu %u\n", i, m->hist[i]);
	printf("ext %d\n", m->has_ext);
	if (m->has_run)
		run(&m->run);
	if (m->has_exec) {
		printf("exec.bias %#" PRIx64 "\n", m->exec.o.bias);
		printf("exec.lo %#" PRIx64 "\n", m->exec.o.lo);
		printf("exec.hi %#" PRIx64 "\n", m->exec.o.hi);
		printf("exec.id ");
		hex(m->exec.id, m->exec.o.idlen);
		printf("\nexec.path %s\n", m->exec.path);
	}
	for (i = 0; i < m->nobjs; i++) {
		printf("obj %#" PRIx64 " %#" PRIx64 " %#" PRIx64 " ",
		    m->objs[i].o.bias, m->objs[i].o.lo, m->objs[i].o.hi);
		hex(m->objs[i].id, m->objs[i].o.idlen);
		printf(" %s\n", m->objs[i].path);
	}
	for (i = 0; i < m->npcs; i++)
		printf("pc %#" PRIx64 " %" PRIu64 "\n", m->pcs[i].pc,
		    m->pcs[i].count);
	for (i = 0; i < m->narcs; i++)
		printf("arc %#" PRIx64 " %#" PRIx64 " %" PRIu64 "\n",
		    m->arcs[i].frompc, m->arcs[i].selfpc, m->arcs[i].count);
	stacks(m->stacks, m->stacklen);
	if (m->has_clocks) {
		clocks(&m->clocks);
		timed(m);
	}
}

int
main(int argc, char *argv[])
{
	struct mon_file m;
	char why[4200];

	if (argc != 2) {
		fprintf(stderr, "usage: t_mondump file\n");
		return 2;
	}
	if (mon_read(argv[1], &m, why, sizeof(why)) != 0) {
		fprintf(stderr, "t_mondump: %s: %s\n", argv[1], why);
		return 1;
	}
	dump(&m);
	mon_free(&m);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("t_mondump: stdout");
		return 1;
	}
	return 0;
}

/*
 * real.c -- a workload shaped like a program: many functions, recursion,
 * a shared library and several threads.
 *
 *	real [nthreads [rounds]]
 *
 * Each thread (default 4) does rounds (default 40) rounds of: make a
 * text of pseudo-random words and arithmetic expressions; count the
 * words in a hash table keyed by libreal.so's lib_hash(); sort the
 * distinct words by count with qsort(); parse every expression by
 * recursive descent into a tree, evaluate it recursively and free it;
 * and checksum the text with libreal.so's lib_crc32().  The checksum
 * of all of it is printed, and how many times gen_expr() was called,
 * which the bench compares with the call counts the profilers report.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real.h"

#define TEXTLEN		(1 << 16)
#define NBUCKET		4096
#define NEXPR		300

struct word {
	const char	*s;
	size_t		 n;
	long		 count;
	struct word	*next;
};

struct table {
	struct word	*bucket[NBUCKET];
	struct word	 pool[TEXTLEN / 2];
	size_t		 used;
};

struct node {
	int		 op;		/* 0 for a number */
	long		 val;
	struct node	*l, *r;
};

struct ctx {
	uint64_t	 rng;
	char		 text[TEXTLEN];
	size_t		 len;
	const char	*p;		/* the parser's position */
	struct table	 tab;
	struct word	*sorted[TEXTLEN / 2];
	uint64_t	 sum;
	uint64_t	 nexpr;		/* calls of gen_expr() */
};

static long rounds;

static uint32_t
next_rand(struct ctx *c)
{
	c->rng ^= c->rng << 13;
	c->rng ^= c->rng >> 7;
	c->rng ^= c->rng << 17;
	return (uint32_t)(c->rng >> 16);
}

static void
put_word(struct ctx *c)
{
	static const char syll[][4] = { "ka", "lo", "mi", "nu", "pe", "ra",
	    "si", "to", "ve", "zo", "an", "el" };
	int k = 1 + next_rand(c) % 3;

	/* Zipf-ish: short words are common. */
	while (k-- > 0 && c->len < TEXTLEN - 8) {
		memcpy(c->text + c->len, syll[next_rand(c) % 12], 2);
		c->len += 2;
	}
	c->text[c->len++] = ' ';
}

static void
gen_text(struct ctx *c)
{
	c->len = 0;
	while (c->len < TEXTLEN - 8)
		put_word(c);
	c->text[c->len] = '\0';
}

static struct word *
lookup(struct table *t, const char *s, size_t n)
{
	struct word **b = &t->bucket[lib_hash(s, n) % NBUCKET], *w;

	for (w = *b; w != NULL; w = w->next)
		if (w->n == n && memcmp(w->s, s, n) == 0)
			return w;
	w = &t->pool[t->used++];
	w->s = s;
	w->n = n;
	w->count = 0;
	w->next = *b;
	*b = w;
	return w;
}

static void
count_words(struct ctx *c)
{
	const char *s = c->text, *e;

	memset(c->tab.bucket, 0, sizeof(c->tab.bucket));
	c->tab.used = 0;
	while (*s != '\0') {
		e = strchr(s, ' ');
		lookup(&c->tab, s, (size_t)(e - s))->count++;
		s = e + 1;
	}
}

static int
by_count(const void *a, const void *b)
{
	const struct word *x = *(struct word *const *)a;
	const struct word *y = *(struct word *const *)b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->n < y->n ? -1 : x->n > y->n;
}

static void
sort_words(struct ctx *c)
{
	for (size_t i = 0; i < c->tab.used; i++)
		c->sorted[i] = &c->tab.pool[i];
	qsort(c->sorted, c->tab.used, sizeof(c->sorted[0]), by_count);
	c->sum += (uint64_t)c->sorted[0]->count * 31 + c->tab.used;
}

/* An expression of depth at most d: "(a op b)" or a number. */
static void
gen_expr(struct ctx *c, char *buf, size_t *len, int d)
{
	static const char ops[] = "+-*";

	c->nexpr++;
	if (d == 0 || next_rand(c) % 4 == 0) {
		*len += (size_t)sprintf(buf + *len, "%u", next_rand(c) % 100);
		return;
	}
	buf[(*len)++] = '(';
	gen_expr(c, buf, len, d - 1);
	buf[(*len)++] = ops[next_rand(c) % 3];
	gen_expr(c, buf, len, d - 1);
	buf[(*len)++] = ')';
}

static struct node *
new_node(int op, long val, struct node *l, struct node *r)
{
	struct node *n = malloc(sizeof(*n));

	if (n == NULL)
		abort();
	n->op = op;
	n->val = val;
	n->l = l;
	n->r = r;
	return n;
}

static struct node *parse_expr(struct ctx *);

static struct node *
parse_number(struct ctx *c)
{
	long v = 0;

	while (*c->p >= '0' && *c->p <= '9')
		v = v * 10 + (*c->p++ - '0');
	return new_node(0, v, NULL, NULL);
}

static struct node *
parse_expr(struct ctx *c)
{
	struct node *l, *r;
	int op;

	if (*c->p != '(')
		return parse_number(c);
	c->p++;
	l = parse_expr(c);
	op = *c->p++;
	r = parse_expr(c);
	c->p++;		/* ')' */
	return new_node(op, 0, l, r);
}

static long
eval(const struct node *n)
{
	long l, r;

	if (n->op == 0)
		return n->val;
	l = eval(n->l);
	r = eval(n->r);
	switch (n->op) {
	case '+':
		return l + r;
	case '-':
		return l - r;
	default:
		return (l * r) % 1000003;
	}
}

static void
free_tree(struct node *n)
{
	if (n == NULL)
		return;
	free_tree(n->l);
	free_tree(n->r);
	free(n);
}

static void
calc(struct ctx *c)
{
	char buf[1 << 14];
	struct node *t;
	size_t len;

	for (int i = 0; i < NEXPR; i++) {
		len = 0;
		gen_expr(c, buf, &len, 10);
		buf[len] = '\0';
		c->p = buf;
		t = parse_expr(c);
		c->sum += (uint64_t)eval(t);
		free_tree(t);
	}
}

static void
checksum(struct ctx *c)
{
	c->sum += lib_crc32((uint32_t)c->sum, c->text, c->len);
}

static void *
worker(void *arg)
{
	struct ctx *c = arg;

	for (long r = 0; r < rounds; r++) {
		gen_text(c);
		count_words(c);
		sort_words(c);
		calc(c);
		checksum(c);
	}
	return NULL;
}

int
main(int argc, char *argv[])
{
	struct ctx *c[64];
	pthread_t tid[64];
	uint64_t sum = 0, nexpr = 0;
	long n;
	int i;

	n = argc > 1 ? atol(argv[1]) : 4;
	rounds = argc > 2 ? atol(argv[2]) : 40;
	if (n < 1 || n > 64 || rounds < 1) {
		fprintf(stderr, "usage: real [nthreads [rounds]]\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		if ((c[i] = calloc(1, sizeof(*c[i]))) == NULL)
			return 1;
		c[i]->rng = 0x9e3779b97f4a7c15u * (uint64_t)(i + 1);
		if (pthread_create(&tid[i], NULL, worker, c[i]) != 0) {
			fprintf(stderr, "real: pthread_create failed\n");
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		sum = sum * 1000003 + c[i]->sum;
		nexpr += c[i]->nexpr;
		free(c[i]);
	}
	printf("real: %ld threads gen_expr %llu checksum %llx\n", n,
	    (unsigned long long)nexpr, (unsigned long long)sum);
	return 0;
}

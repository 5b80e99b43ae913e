/*
 * sqlite.c -- a real program for the bench: SQLite at work in memory.
 *
 *	sqlite [scale]
 *
 * Drives the SQLite amalgamation (linked in, built with the same flags
 * as this file) through the kinds of statement an application runs:
 * tables filled by prepared inserts in transactions, indexes built
 * after the fact, joins, LIKE scans over text, aggregates with GROUP
 * BY and ORDER BY, updates and deletes.  All text and numbers come from
 * a fixed pseudo-random sequence, so every build does the same work and
 * reads the same answers; each answer's text is hashed, and the hash is
 * printed as the checksum the bench compares across builds:
 *
 *	rows 12345 checksum 3f2a...
 *
 * scale (default 1) multiplies the rows of every table.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite3.h"

#define NCUST	4000		/* customers a unit of scale */
#define NPROD	500		/* products */
#define NORDER	60000		/* orders */
#define NQUERY	14		/* rounds of the query mix */

static sqlite3		*db;
static uint64_t		 rng = 0x2545f4914f6cdd1dULL;
static uint64_t		 hash = 0xcbf29ce484222325ULL;
static long		 nrows;

static const char *const syl[] = {
	"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "an", "el",
	"or", "us", "bri", "dex", "fon", "gal", "hur", "jin", "kem", "lat",
};
static const char *const cities[] = {
	"Aberdeen", "Bordeaux", "Calgary", "Dresden", "Eindhoven", "Florence",
	"Granada", "Helsinki", "Innsbruck", "Jaipur", "Kyoto", "Lisbon",
	"Malmo", "Nantes", "Osaka", "Porto", "Quebec", "Riga", "Seville",
	"Tallinn", "Utrecht", "Valencia", "Wroclaw", "Xalapa", "Zagreb",
};

static void
die(const char *what)
{
	fprintf(stderr, "sqlite: %s: %s\n", what, sqlite3_errmsg(db));
	exit(1);
}

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A word of 2 to 5 syllables into buf, which holds at least 16. */
static void
word(char *buf)
{
	int n = 2 + (int)(next() % 4);

	buf[0] = '\0';
	while (n-- > 0)
		strcat(buf, syl[next() % (sizeof(syl) / sizeof(syl[0]))]);
}

/* A note of several words, into buf of size len. */
static void
note(char *buf, size_t len)
{
	char w[16];
	int n = 3 + (int)(next() % 8);

	buf[0] = '\0';
	while (n-- > 0 && strlen(buf) + sizeof(w) + 1 < len) {
		word(w);
		if (buf[0] != '\0')
			strcat(buf, " ");
		strcat(buf, w);
	}
}

static void
exec(const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die(sql);
}

static sqlite3_stmt *
prepare(const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(sql);
	return st;
}

/* Step an insert or update to its end and make it ready again. */
static void
done(sqlite3_stmt *st)
{
	if (sqlite3_step(st) != SQLITE_DONE)
		die("step");
	sqlite3_reset(st);
}

/* Run a query, hashing the text of every column of every row. */
static void
query(const char *sql)
{
	sqlite3_stmt *st = prepare(sql);
	const unsigned char *s;
	int i, n, rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n = sqlite3_column_count(st);
		for (i = 0; i < n; i++) {
			s = sqlite3_column_text(st, i);
			for (; s != NULL && *s != '\0'; s++)
				hash = (hash ^ *s) * 0x100000001b3ULL;
			hash = (hash ^ '|') * 0x100000001b3ULL;
		}
		nrows++;
	}
	if (rc != SQLITE_DONE)
		die(sql);
	sqlite3_finalize(st);
}

static void
fill_customers(long n)
{
	sqlite3_stmt *st = prepare("INSERT INTO customer VALUES (?, ?, ?, ?)");
	char name[16];
	long i;

	exec("BEGIN");
	for (i = 1; i <= n; i++) {
		word(name);
		sqlite3_bind_int64(st, 1, i);
		sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3,
		    cities[next() % (sizeof(cities) / sizeof(cities[0]))], -1,
		    SQLITE_STATIC);
		sqlite3_bind_int(st, 4, (int)(next() % 1000));
		done(st);
	}
	exec("COMMIT");
	sqlite3_finalize(st);
}

static void
fill_products(long n)
{
	sqlite3_stmt *st = prepare("INSERT INTO product VALUES (?, ?, ?, ?)");
	char name[16], kind[16];
	long i;

	exec("BEGIN");
	for (i = 1; i <= n; i++) {
		word(name);
		word(kind);
		sqlite3_bind_int64(st, 1, i);
		sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, kind + strlen(kind) - 2, -1,
		    SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 4, (double)(next() % 10000) / 100);
		done(st);
	}
	exec("COMMIT");
	sqlite3_finalize(st);
}

/* Orders in transactions of a thousand, as an application batches. */
static void
fill_orders(long n, long ncust, long nprod)
{
	sqlite3_stmt *st = prepare(
	    "INSERT INTO orders (cust, prod, qty, day, note) "
	    "VALUES (?, ?, ?, ?, ?)");
	char text[96];
	long i;

	for (i = 0; i < n; i++) {
		if (i % 1000 == 0)
			exec(i == 0 ? "BEGIN" : "COMMIT; BEGIN");
		note(text, sizeof(text));
		sqlite3_bind_int64(st, 1, 1 + (long)(next() % (uint64_t)ncust));
		sqlite3_bind_int64(st, 2, 1 + (long)(next() % (uint64_t)nprod));
		sqlite3_bind_int(st, 3, 1 + (int)(next() % 20));
		sqlite3_bind_int(st, 4, (int)(next() % 730));
		sqlite3_bind_text(st, 5, text, -1, SQLITE_TRANSIENT);
		done(st);
	}
	exec("COMMIT");
	sqlite3_finalize(st);
}

static void
build(long scale)
{
	exec("CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT,"
	    " city TEXT, score INTEGER)");
	exec("CREATE TABLE product (id INTEGER PRIMARY KEY, name TEXT,"
	    " kind TEXT, price REAL)");
	exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, cust INTEGER,"
	    " prod INTEGER, qty INTEGER, day INTEGER, note TEXT)");
	fill_customers(NCUST * scale);
	fill_products(NPROD * scale);
	fill_orders(NORDER * scale, NCUST * scale, NPROD * scale);
	exec("CREATE INDEX orders_cust ON orders (cust)");
	exec("CREATE INDEX orders_prod ON orders (prod, day)");
	exec("CREATE INDEX customer_city ON customer (city, score)");
	exec("ANALYZE");
}

/* One round of the query mix; r varies the constants. */
static void
queries(int r)
{
	char sql[512];

	query("SELECT c.city, count(*), sum(o.qty * p.price)"
	    " FROM orders o JOIN customer c ON c.id = o.cust"
	    " JOIN product p ON p.id = o.prod"
	    " GROUP BY c.city ORDER BY 3 DESC");
	snprintf(sql, sizeof(sql), "SELECT count(*), sum(qty) FROM orders"
	    " WHERE note LIKE '%%%s%%'", syl[r % 20]);
	query(sql);
	snprintf(sql, sizeof(sql), "SELECT name FROM customer"
	    " WHERE name LIKE '%s%%' ORDER BY name LIMIT 50", syl[(r + 7) % 20]);
	query(sql);
	snprintf(sql, sizeof(sql), "SELECT p.kind, count(*), avg(o.qty),"
	    " max(o.day) FROM orders o JOIN product p ON p.id = o.prod"
	    " WHERE o.day BETWEEN %d AND %d GROUP BY p.kind"
	    " ORDER BY 2 DESC, 1", r * 40, r * 40 + 200);
	query(sql);
	snprintf(sql, sizeof(sql), "SELECT c.name, sum(o.qty) AS n"
	    " FROM customer c JOIN orders o ON o.cust = c.id"
	    " WHERE c.city = '%s' GROUP BY c.id ORDER BY n DESC, c.name"
	    " LIMIT 20", cities[r % 25]);
	query(sql);
	query("SELECT length(note) / 10 AS b, count(*) FROM orders"
	    " GROUP BY b ORDER BY b");
	snprintf(sql, sizeof(sql), "SELECT upper(substr(note, 1, 8)), qty"
	    " FROM orders WHERE prod = %d ORDER BY day", 1 + r * 37 % NPROD);
	query(sql);
	snprintf(sql, sizeof(sql), "UPDATE customer SET score = score + 1"
	    " WHERE id IN (SELECT cust FROM orders WHERE day = %d)", r * 11);
	exec(sql);
	query("SELECT city, avg(score), min(name), max(name) FROM customer"
	    " GROUP BY city ORDER BY city");
	snprintf(sql, sizeof(sql), "DELETE FROM orders WHERE day = %d",
	    729 - r);
	exec(sql);
}

int
main(int argc, char *argv[])
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	int r;

	if (scale < 1 || scale > 1000) {
		fprintf(stderr, "usage: sqlite [scale]\n");
		return 2;
	}
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		die("open");
	build(scale);
	for (r = 0; r < NQUERY; r++)
		queries(r);
	query("SELECT count(*), sum(qty), total(day) FROM orders");
	if (sqlite3_close(db) != SQLITE_OK)
		die("close");
	printf("rows %ld checksum %016llx\n", nrows,
	    (unsigned long long)hash);
	return 0;
}

# Row 14: SQLite against perf -- the SQLite amalgamation (sqlite3.c
# and sqlite3.h of the npm package better-sqlite3, the version SQLPKG
# pins, so that every run measures the same SQLite), driven by
# bench/sqlite.c, held to perf (bench/lib/perf.sh).  The sources are
# fetched once with `npm pack` into bench/cache (ignored by git) and
# reused from there; without npm or a network the row's cells read n/a
# and the bench goes on.  Its object files are compiled once into
# bench/out/sqlite and kept while the source, the compiler and the
# flags are the same (about a minute each).

SQLPKG=better-sqlite3@12.11.1	# the npm package with SQLite 3.53.2
SQLSCALE=1		# the driver's scale (2-3 s unprofiled)
SQLDEFS="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
CACHE=bench/cache	# where the amalgamation is kept

job sqlite sqlite "base mon pg perf" "$SQLSCALE"
on_build build_sqlite

sqlite_finish() {
	running sqlite && perf_finish sqlite
	top5 sqlite
}
on_finish sqlite_finish

# The amalgamation into $CACHE, fetched once; 1 and $sqwhy if it cannot.
# Row 30 asks too: after a failure it gets the same answer, not a second
# npm pack of up to five minutes.
fetch_sqlite() {
	[ -z "$sqfailed" ] || return 1
	fetch_sqlite1 && return 0
	sqfailed=1
	return 1
}

fetch_sqlite1() {
	[ -s "$CACHE/sqlite3.c" ] && [ -s "$CACHE/sqlite3.h" ] && return 0
	if ! command -v npm >/dev/null 2>&1; then
		sqwhy="no npm to fetch SQLite"
		sqlog="no npm on PATH"
		return 1
	fi
	log "bench: fetching SQLite: npm pack $SQLPKG (once; kept in $CACHE)"
	t=$O/npm
	rm -rf "$t"
	mkdir -p "$t" "$CACHE"
	to=""
	command -v timeout >/dev/null 2>&1 && to="timeout 300"
	if ! (cd "$t" && $to npm pack "$SQLPKG") >"$t/log" 2>&1; then
		sqwhy="SQLite not fetched"
		sqlog="npm pack $SQLPKG failed: $(grep -m 1 . "$t/log")"
		sqlog="$sqlog (all of it in $t/log)"
		return 1
	fi
	# The sources are in the package; older versions kept them in a
	# tarball of their own there.
	p=package/deps/sqlite3
	tar xzf "$t"/*.tgz -C "$t" $p/sqlite3.c $p/sqlite3.h >>"$t/log" 2>&1 ||
	    { tar xzf "$t"/*.tgz -C "$t" package/deps/sqlite3.tar.gz &&
	    tar xzf "$t/package/deps/sqlite3.tar.gz" -C "$t/package/deps" \
	    sqlite3/sqlite3.c sqlite3/sqlite3.h; } >>"$t/log" 2>&1
	if [ ! -s "$t/$p/sqlite3.c" ] || [ ! -s "$t/$p/sqlite3.h" ]; then
		sqwhy="SQLite not fetched"
		sqlog="no sqlite3.c in $SQLPKG (see $t/log)"
		return 1
	fi
	mv "$t/$p/sqlite3.h" "$CACHE/sqlite3.h" &&
	    mv "$t/$p/sqlite3.c" "$CACHE/sqlite3.c" && rm -rf "$t"
}

# sqlite_objects [KIND...]: sqlite3.c compiled with the driver's flags,
# for each KIND (default plain and pg): plain unprofiled, pg with -pg
# (gcc emits the same code for -p), pgg with -pg -g (row 30's line
# reports); kept in $O/sqlite while the source, the compiler and the
# flags are the same.
sqlite_objects() {
	[ $# -gt 0 ] || set -- plain pg
	sd=$O/sqlite
	mkdir -p "$sd"
	key="$($CC --version 2>&1 | head -n 1) $CFLAGS $SQLDEFS"
	key="$key $(cksum <"$CACHE/sqlite3.c")"
	if [ "$(cat "$sd/key" 2>/dev/null)" != "$key" ]; then
		rm -f "$sd"/*.o
		echo "$key" >"$sd/key"
	fi
	for so in "$@"; do
		[ -f "$sd/sqlite3.$so.o" ] && continue
		case $so in
		plain)	sf="" ;;
		pg)	sf=-pg ;;
		pgg)	sf="-pg -g" ;;
		esac
		log "bench: compiling sqlite3.c, $so (once; kept in $sd)"
		$CC $CFLAGS $sf -pthread $SQLDEFS -c -o "$sd/tmp.o" \
		    "$CACHE/sqlite3.c" >>"$O/build.log" 2>&1 &&
		    mv "$sd/tmp.o" "$sd/sqlite3.$so.o" || return 1
	done
}

# Row 14's three builds, or its cells n/a with one line saying why.
build_sqlite() {
	wants sqlite || return 0
	sqwhy=""
	if ! fetch_sqlite; then
		log "bench: row 14 (SQLite) skipped: $sqlog"
	elif ! sqlite_objects; then
		sqwhy="sqlite3.c: build failed"
		fail "$sqwhy (see $O/build.log)"
	fi
	if [ -n "$sqwhy" ]; then
		for v in base mon pg; do
			rec "sqlite $v na $sqwhy"
		done
		return
	fi
	for v in base mon pg; do
		so=pg
		[ $v = base ] && so=plain
		build sqlite $v bench/sqlite.c -I"$CACHE" \
		    "$O/sqlite/sqlite3.$so.o" -lm
	done
}

table <<'AWK'
END {
	row(14, "CPU s, sqlite: SQLite in memory (bench/sqlite.c)",
	    cell("sqlite", "base", "cpu", "%.3f"),
	    cell("sqlite", "mon", "cpu", "%.3f"),
	    cell("sqlite", "pg", "cpu", "%.3f"),
	    ratio("sqlite", "mon", "cpu"), ratio("sqlite", "pg", "cpu"),
	    "<= 1.3x")
	perfrows(14, "sqlite")
	goal(verdict("row 14, sqlite, libmon <= 1.3x", "sqlite", "mon", "cpu",
	    1.3))
	goal(target("row 14, sqlite, libmon's top 10 shares >= 9 of perf's",
	    "sqlite", "mon", "overlap", 9, 1))
	goal(target("row 14, sqlite, libmon's L1 distance to perf <= 15" \
	    " points", "sqlite", "mon", "l1", 15))
	note("14. `sqlite`: the SQLite amalgamation (`sqlite3.c` of the npm")
	note("   package named above, fetched once with `npm pack` into")
	note("   `bench/cache`), compiled with the flags of its driver,")
	note("   `bench/sqlite.c`, and the defines above: an in-memory")
	note("   database, tables filled by prepared inserts in transactions,")
	note("   indexes, joins, LIKE scans, GROUP BY and ORDER BY aggregates,")
	note("   updates and deletes.  Held to perf: `perf record -e")
	note("   cpu-clock` (user and kernel mode) on the unprofiled build,")
	note("   once a round in turn with the other builds, the samples of")
	note("   all rounds pooled as the shares each round's reports are held")
	note("   to (one run's shares move with the load on the machine, more")
	note("   than sampling alone makes).  Names are matched by one rule for all")
	note("   (bench/agree.awk): a shared object's function is `name")
	note("   (object)`, every kernel symbol is the kernel's one row (prof's")
	note("   `[kernel: system calls and faults]`), clone suffixes such as")
	note("   `.part.0` are dropped, names of one address are one.  Each")
	note("   report's shares are its own: prof's %Time leaves libmon's code")
	note("   out; gprof's %time is of the program's text alone, as it sees")
	note("   no library and no kernel.  The overlap is how many of a")
	note("   report's top 10 are in perf's top 10; the L1 distance is the")
	note("   sum, in points, of the differences of the shares over the")
	note("   union of perf's, libmon's and gprof's top 20 (median of the")
	note("   rounds).  The next two lines split that distance, from one")
	note("   more perf run of each build: perf on the profiled build, its")
	note("   profiler's code left out (libmon.a's functions; glibc's")
	note("   mcount and profil handler), against the reference -- how")
	note("   much compiling with -p/-pg changed where the program spends")
	note("   its time; and the report of that same run against perf's")
	note("   samples of it -- how far the report is from its own run.  In")
	note("   the unprofiled column, each of perf's runs against the others")
	note("   pooled (median): the distance chance alone puts between two")
	note("   runs of one build.")
}
AWK

# Row 30: time by source line -- prof -L beside gprof -b -l (issue 30).
# Accuracy: bench/lines.c's three loops on three lines of main, built
# with -g three ways; each run measures its loops on the thread CPU
# clock and names their lines with __LINE__, and the error is the
# report's largest distance from that split (bench/lines.awk).  Speed:
# the report step alone on a large program, row 14's SQLite compiled
# once more with -g (the job "sqlines", which BENCH_ONLY names as an
# extra), prof -L against gprof -b -l -p.  gprof -l looks up the line
# of every byte of text, minutes on SQLite, so it is timed in the first
# LGREPS rounds only, prof -L in the first LREPS.

LREPS=3			# prof -L runs on SQLite (a fraction of a second)
LGREPS=1		# gprof -l runs on SQLite (minutes each)

job lines lines "base mon pg" ""
noreport lines
extra sqlines

build_lines30() {
	build3 lines bench/lines.c -g
	picked sqlines && build_sqlines
}
on_build build_lines30

# The run's truth, "F:L S F:L S F:L S", in $ltruth, its split recorded
# as row 4's is; then the report by line of a profiled build.
lines_figures() {
	ltruth=$(sed -n 's/^truth \(.*\) cpu .*/\1/p' "$out")
	set -- $ltruth
	[ $# -eq 6 ] || return 0
	set -- $(awk -v a="$2" -v b="$4" -v c="$6" 'BEGIN { s = a + b + c
	    if (s > 0) printf "%.2f %.2f %.2f", 100 * a / s, 100 * b / s,
		100 * c / s }')
	rec "$mj $mv ta $1"
	rec "$mj $mv tb $2"
	rec "$mj $mv tc $3"
	case $mv in
	mon|pg)	lines_report ;;
	esac
}
on_run lines lines_figures

# prof -L or gprof -b -l -p on the run, held to $ltruth.
lines_report() {
	lb=$(job_bin "$mj" "$mv")
	if [ $mv = mon ]; then
		[ -x "$PROF" ] || { rec "$mj $mv rna no $PROF"; return 0; }
		lf=prof lo=$d/mon.out
		set -- "$PROF" -L "$lb" "$lo"
	else
		command -v gprof >/dev/null 2>&1 ||
		    { rec "$mj $mv rna no gprof"; return 0; }
		lf=gprof lo=$d/gmon.out
		set -- gprof -b -l -p "$lb" "$lo"
	fi
	[ -s "$lo" ] || { rec "$mj $mv rna no ${lo##*/} written"; return 0; }
	if ! "$@" >"$d/lines.$mr" 2>"$d/report.err.$mr"; then
		rec "$mj $mv rna $lf failed"
		return 0
	fi
	set -- $(awk -f bench/lines.awk -v fmt=$lf -v truth="$ltruth" \
	    "$d/lines.$mr")
	if [ $# -ne 5 ]; then
		rec "$mj $mv rna no time on the loops' lines"
		return 0
	fi
	rec "$mj $mv pa $1"
	rec "$mj $mv pb $2"
	rec "$mj $mv pc $3"
	rec "$mj $mv err $4"
	rec "$mj $mv cov $5"
}

# SQLite with -g: row 14's driver and amalgamation, sqlite3.c compiled
# with -pg -g once (sqlite_objects) and linked both ways.
build_sqlines() {
	if ! fetch_sqlite; then
		log "bench: row 30's SQLite skipped: $sqlog"
		rec "sqlines mon na $sqwhy"
		rec "sqlines pg na $sqwhy"
		return
	fi
	if ! sqlite_objects pgg; then
		fail "sqlite3.c -g: build failed (see $O/build.log)"
		rec "sqlines mon na build failed"
		rec "sqlines pg na build failed"
		return
	fi
	for v in mon pg; do
		if [ $v = mon ]; then
			[ -f "$LIBMON" ] ||
			    { rec "sqlines mon na no $LIBMON"; continue; }
			set -- -p "$LIBMON"
		else
			set -- -pg
		fi
		$CC $CFLAGS -g $1 -pthread -o "$B/sqlines.$v" bench/sqlite.c \
		    -I"$CACHE" "$O/sqlite/sqlite3.pgg.o" -lm $2 \
		    >>"$O/build.log" 2>&1 && continue
		fail "sqlines.$v: build failed (see $O/build.log)"
		rec "sqlines $v na build failed"
	done
}

# Each build of it runs once, before the rounds, for the profile the
# reports read.
sqlines_prepare() {
	for v in mon pg; do
		[ -x "$B/sqlines.$v" ] || continue
		d=$R/sqlines.$v
		mkdir -p "$d"
		rm -f "$d/mon.out" "$d/gmon.out"
		line=$("$RUNNER" -d "$d" -o "$d/stdout" -e "$d/stderr" -- \
		    "$PWD/$B/sqlines.$v" "$SQLSCALE" </dev/null)
		st=$(field status "$line")
		if [ "${st:-127}" != 0 ]; then
			fail "sqlines.$v: exit status ${st:-unknown}"
			rec "sqlines $v na run failed (status ${st:-?})"
			rm -f "$B/sqlines.$v"
		fi
	done
	if [ -x "$B/sqlines.mon" ] && [ ! -x "$PROF" ]; then
		rec "sqlines mon na no $PROF"
		rm -f "$B/sqlines.mon"
	fi
	if [ -x "$B/sqlines.pg" ] && ! command -v gprof >/dev/null 2>&1; then
		rec "sqlines pg na no gprof"
		rm -f "$B/sqlines.pg"
	fi
}

# sqlines_report VAR ROUND: one timed report by line, CPU seconds.
sqlines_report() {
	v=$1 lr=$2
	[ -x "$B/sqlines.$v" ] || return 0
	d=$R/sqlines.$v
	if [ $v = mon ]; then
		set -- "$PWD/$PROF" -L "$PWD/$B/sqlines.mon" mon.out
	else
		set -- gprof -b -l -p "$PWD/$B/sqlines.pg" gmon.out
	fi
	line=$("$RUNNER" -d "$d" -o "$d/lines" -e "$d/report.err.$lr" -- "$@" \
	    </dev/null)
	st=$(field status "$line")
	if [ "${st:-127}" != 0 ]; then
		rec "sqlines $v na report failed (status ${st:-?})"
		rm -f "$B/sqlines.$v"
		return 0
	fi
	rec "sqlines $v ltime $(field cpu "$line")"
}

sqlines_prepare_if() {
	picked sqlines && sqlines_prepare
}
sqlines_rounds() {
	picked sqlines || return 0
	[ $1 -le $LREPS ] && sqlines_report mon "$1"
	[ $1 -le $LGREPS ] && sqlines_report pg "$1"
	return 0
}
on_start sqlines_prepare_if
on_round sqlines_rounds

table <<'AWK'
END {
	row(30, "%time of lines a/b/c, of the three (truth ~50/30/20)",
	    split3("lines", "base", 0), split3("lines", "mon", 1),
	    split3("lines", "pg", 1), "-", "-", "-")
	row(30, "largest error vs the run's clock, points, by line", "-",
	    cell("lines", "mon", "err", "%.1f", 1),
	    cell("lines", "pg", "err", "%.1f", 1), "-", "-", "<= 3")
	row(30, "  %time of the three lines together, of the report's", "-",
	    cell("lines", "mon", "cov", "%.1f", 1),
	    cell("lines", "pg", "cov", "%.1f", 1), "-", "-", "-")
	row(30, "report by line, CPU s, SQLite -g, ratio vs gprof", "-",
	    cell("sqlines", "mon", "ltime", "%.3f"),
	    cell("sqlines", "pg", "ltime", "%.3f"),
	    ratio("sqlines", "mon", "ltime", "sqlines", "pg"),
	    ratio("sqlines", "pg", "ltime", "sqlines", "pg"), "-")
	goal(target("row 30, lines, prof -L's largest error <= 3 points",
	    "lines", "mon", "err", 3))
	note("30. `lines`: bench/lines.c runs three loops on three lines")
	note("   of main, 5, 3 and 2 tenths of the work in 40 alternating")
	note("   rounds, built with -g; each line names itself with __LINE__")
	note("   and each loop is timed on the thread CPU clock, so the lines")
	note("   and their split are known without the line table.  libmon's")
	note("   build is reported by `prof -L`, glibc's by `gprof -b -l -p`;")
	note("   a line is matched by file name and number, the rows of one")
	note("   line summed (gprof -l has a row for each run of addresses),")
	note("   and the three lines' shares are of their sum")
	note("   (bench/lines.awk).  The error is the largest distance, in")
	note("   points, from that run's measured split (median of the runs);")
	note("   the unprofiled column is the measured split.  Each tool")
	note("   samples at its own rate: glibc's profil at 100 Hz, some 100")
	note("   samples a run, libmon at 1000 Hz.  Report time: row 14's")
	note("   SQLite, compiled once more with -pg -g and linked both ways,")
	note("   run once; timed is the report step alone, as CPU seconds,")
	note("   `prof -L` (median of 3 rounds) against `gprof -b -l -p` (one")
	note("   round: it looks up the line of every byte of text, minutes")
	note("   here).")
}
AWK

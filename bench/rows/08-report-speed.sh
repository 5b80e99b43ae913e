# Row 8: report speed -- a generated program of NFUNCS functions
# (bench/manyfuncs.awk), run once by each build; what is timed is the
# report step, prof against gprof -b -p, in the first MANYREPS rounds.
# It is no job of the rounds: BENCH_ONLY names it "many".

NFUNCS=50000		# functions of the generated program
MANYREPS=3		# report runs (gprof takes seconds each)
tablevar nfuncs $NFUNCS
extra many

build_many_if() {
	picked many && build_many
}
on_build build_many_if

# Row 8's program: generated, compiled once with -pg (gcc emits the same
# code for -p and -pg) and kept in $O while the source is unchanged,
# linked both ways.
build_many() {
	awk -v n=$NFUNCS -f bench/manyfuncs.awk >"$O/many.c.new"
	if ! cmp -s "$O/many.c.new" "$O/many.c"; then
		mv "$O/many.c.new" "$O/many.c"
		rm -f "$O/many.o"
	fi
	rm -f "$O/many.c.new"
	if [ ! -f "$O/many.o" ]; then
		log "bench: compiling $NFUNCS functions (once; kept in $O)"
		$CC -O0 -pg -c -o "$O/many.o.tmp" "$O/many.c" \
		    >>"$O/build.log" 2>&1 && mv "$O/many.o.tmp" "$O/many.o"
	fi
	if [ ! -f "$O/many.o" ]; then
		fail "many.o: build failed (see $O/build.log)"
		rec "many mon na build failed"
		rec "many pg na build failed"
		return
	fi
	if ! $CC -pg -o "$B/many.pg" "$O/many.o" >>"$O/build.log" 2>&1; then
		fail "many.pg: link failed"
		rec "many pg na build failed"
	fi
	if [ ! -f "$LIBMON" ]; then
		rec "many mon na no $LIBMON"
	elif ! $CC -p -o "$B/many.mon" "$O/many.o" "$LIBMON" \
	    >>"$O/build.log" 2>&1; then
		fail "many.mon: link failed"
		rec "many mon na build failed"
	fi
}

# Row 8: each build of the generated program runs once; its report step
# is what is timed, in the first MANYREPS rounds.
many_prepare() {
	for v in mon pg; do
		[ -x "$B/many.$v" ] || continue
		d=$R/many.$v
		mkdir -p "$d"
		rm -f "$d/mon.out" "$d/gmon.out"
		line=$("$RUNNER" -d "$d" -o "$d/stdout" -e "$d/stderr" -- \
		    "$PWD/$B/many.$v" </dev/null)
		st=$(field status "$line")
		if [ "${st:-127}" != 0 ]; then
			fail "many.$v: exit status ${st:-unknown}"
			rec "many $v na run failed (status ${st:-?})"
			rm -f "$B/many.$v"
		fi
	done
	if [ -x "$B/many.mon" ] && [ ! -x "$PROF" ]; then
		rec "many mon na no $PROF"
		rm -f "$B/many.mon"
	fi
	if [ -x "$B/many.pg" ] && ! command -v gprof >/dev/null 2>&1; then
		rec "many pg na no gprof"
		rm -f "$B/many.pg"
	fi
}

many_report() {
	v=$1 rep=$2
	[ -x "$B/many.$v" ] || return 0
	d=$R/many.$v
	if [ $v = mon ]; then
		set -- "$PWD/$PROF" "$PWD/$B/many.mon" mon.out
	else
		set -- gprof -b -p "$PWD/$B/many.pg" gmon.out
	fi
	line=$("$RUNNER" -d "$d" -o "$d/report" -e "$d/report.err" -- "$@" \
	    </dev/null)
	st=$(field status "$line")
	if [ "${st:-127}" != 0 ]; then
		rec "many $v na report failed (status ${st:-?})"
		rm -f "$B/many.$v"
		return 0
	fi
	rec "many $v rtime $(field cpu "$line")"
	if [ $v = mon ]; then
		rec "many $v rows $($FLAT -v fmt=prof "$d/report" | wc -l)"
	else
		rec "many $v rows $($FLAT -v fmt=gprof "$d/report" | wc -l)"
	fi
}

many_prepare_if() {
	picked many && many_prepare
}
many_rounds() {
	picked many && [ $1 -le $MANYREPS ] || return 0
	for v in $(rotate $(($1 % 2)) mon pg); do
		many_report "$v" "$1"
	done
}
on_start many_prepare_if
on_round many_rounds

table <<'AWK'
END {
	row(8, sprintf("report CPU s, %d functions, ratio vs gprof",
	    nfuncs), "-",
	    cell("many", "mon", "rtime", "%.3f"),
	    cell("many", "pg", "rtime", "%.3f"),
	    ratio("many", "mon", "rtime", "many", "pg"),
	    ratio("many", "pg", "rtime", "many", "pg"), "-")
	row(8, "rows in the report", "-", cell("many", "mon", "rows", "%.0f"),
	    cell("many", "pg", "rows", "%.0f"), "-", "-", "-")
	note("8. A generated program of that many functions and one caller")
	note("   for each hundred (bench/manyfuncs.awk), every function called")
	note("   20 times, compiled once at -O0 with -pg (gcc emits the same")
	note("   code for -p) and linked both ways.  Timed is the report step")
	note("   alone, as CPU seconds: `prof prog mon.out` against")
	note("   `gprof -b -p prog gmon.out`, output to a file; median of the")
	note("   first 3 rounds (gprof takes seconds here).")
}
AWK

# Row 25: mcount at the floor -- row 1's leaf() x CALLS1 in one thread
# and row 2's fib(FIBN) x FIBREPS, each built through libmon's specs
# file with -p, with -pg and with -pg -mfentry, and each of these
# compilations again linked with the empty hook (bench/floor.S) instead
# of libmon: CPU seconds, libmon over its floor (bench/lib/build.sh says
# how the builds are made).  The unprofiled and glibc -pg builds run
# alongside, and the -pg build under the timer clock (montpg).

for j in fcalls:calls:"1 $CALLS1" ffib:fib:"$FIBN $FIBREPS"; do
	set -- $(echo "$j" | tr ':' ' ')
	jn=$1 jp=$2
	shift 2
	job $jn $jp "base pg monp hookp monpg hookpg monfe hookfe monmc hookmc montpg" "$*"
	jobenv $jn montpg PROFCLOCK=timer
	noreport $jn
done
on_run fcalls calls_made

# leaf()'s calls as prof counts them in libmon's builds.
leaf_calls25() {
	case $mv in
	mon?*)	;;
	*)	return 0 ;;
	esac
	[ -x "$PROF" ] && [ -s "$d/mon.out" ] || return 0
	$PROF "$(job_bin "$mj" "$mv")" "$d/mon.out" >"$d/report.$mr" \
	    2>"$d/report.err.$mr" || return 0
	$FLAT -v fmt=prof "$d/report.$mr" >"$d/flat.$mr"
	rec "$mj $mv calls $(col "$d/flat.$mr" leaf 5)"
}
on_run fcalls leaf_calls25

build_floor25() {
	for v in monp hookp monpg hookpg monfe hookfe monmc hookmc; do
		build calls $v bench/calls.c
		build fib $v bench/fib.c
	done
}
on_build build_floor25

table <<'AWK'
END {
	nf25 = split("p pg fe mc", fv25, " ")
	ff25["p"] = "-p"
	ff25["pg"] = "-pg"
	ff25["fe"] = "-pg -mfentry"
	ff25["mc"] = "-pg -mno-fentry (mcount)"
	for (jj25 = 1; jj25 <= 2; jj25++) {
		j = jj25 == 1 ? "fcalls" : "ffib"
		for (k25 = 1; k25 <= nf25; k25++) {
			v = fv25[k25]
			w = sprintf("fib(%d) x %d", fibn, fibreps)
			if (j == "fcalls")
				w = sprintf("leaf() x %dM", calls1 / 1e6)
			pg = pr = "-"
			if (v == "pg") {
				pg = cell(j, "pg", "cpu", "%.3f")
				pr = ratio(j, "pg", "cpu", j, "hook" v)
			}
			row(25, sprintf("CPU s, %s, %s; unprofiled / floor," \
			    " ratios over the floor", w, ff25[v]),
			    cell(j, "base", "cpu", "%.3f") " / " \
			    cell(j, "hook" v, "cpu", "%.3f"),
			    cell(j, "mon" v, "cpu", "%.3f"), pg,
			    ratio(j, "mon" v, "cpu", j, "hook" v), pr,
			    v == "mc" ? "-" : "<= 1.15x")
			if (v == "pg")
				row(25, "  the same, libmon PROFCLOCK=timer",
				    "-", cell(j, "montpg", "cpu", "%.3f"), "-",
				    ratio(j, "montpg", "cpu", j, "hookpg"),
				    "-", "-")
			if (j == "fcalls")
				ex25 = exact25(j, "mon" v, ex25)
			if (v != "mc")
				goal(ratio25(sprintf("row 25, %s, %s, libmon" \
				    " <= 1.15x the empty hook", w, ff25[v]), j,
				    "mon" v, "hook" v, 1.15))
		}
	}
	goal("row 25, libmon's count of leaf() exact with -p, -pg," \
	    " -pg -mfentry and -pg -mno-fentry: " ex25)
	note("25. `calls` of row 1 and `fib` of row 2, built through")
	note("   `-specs=lib/mon-build.specs` with `-p`, `-pg`,")
	note("   `-pg -mfentry` and `-pg -mno-fentry` as a user builds (the")
	note("   specs file adds `-mfentry -fno-omit-frame-pointer` unless")
	note("   told `-mno-fentry`: that last build calls `mcount`, as")
	note("   `cc -p ... -lmon` does), and the same compilations")
	note("   linked, without `-p`, with `bench/floor.S` (`mcount`,")
	note("   `_mcount`, `__fentry__` each a bare `ret`) instead of")
	note("   libmon: the floor any build with those flags stands on.")
	note("   CPU seconds, the least of the runs; libmon over its floor.")
	note("   The -pg build runs under the timer clock too (row 23 says")
	note("   why): the cost of counting with that clock's apart.")
	note("   Each libmon build's count of `leaf()` must equal the calls")
	note("   made in every run.")
}

# Whether build v of job j counted the calls made in every run: r, the
# verdict so far, kept unless this one is worse.
function exact25(j, v, r,    i) {
	if (r == "")
		r = "PASS"
	if (!has(j, v, "calls") || !has(j, "base", "made"))
		return r == "MISS" ? r : "n/a"
	for (i = 1; i <= n[j, v, "calls"]; i++)
		if (val[j, v, "calls", i] + 0 != med(j, "base", "made"))
			r = "MISS"
	return r
}

# Build v's cost against build f's, at most limit.
function ratio25(text, j, v, f, limit,    x) {
	if (!has(j, v, "cpu") || !has(j, f, "cpu"))
		return sprintf("%s: n/a", text)
	x = med(j, v, "cpu") / med(j, f, "cpu")
	return sprintf("%s: %s (%.3fx)", text, x <= limit ? "PASS" : "MISS", x)
}
AWK

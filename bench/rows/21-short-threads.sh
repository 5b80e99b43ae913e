# Row 21: threads shorter than a sampling period -- bench/shortthr.c
# starts 1000 threads one after another, each spinning 0.5 ms in task(),
# after 0.3 s of mainwork() on the main thread; each part times itself
# on its own thread's CPU clock.  libmon runs once more a round with the
# timer clock (VAR mont).  The error is the report's distance from the
# run's own truth, in per cent of it.

SHORTARGS="1000 500 300"	# threads, us each, ms of mainwork

job short shortthr "base mon mont pg" "$SHORTARGS"
jobenv short mont PROFCLOCK=timer

build_shortthr() {
	build3 shortthr bench/shortthr.c -fno-inline
}
on_build build_shortthr

# The run's truth: "task T mainwork M", in seconds.
short_truth() {
	truth=$(sed -n 's/^task \([0-9.]*\) mainwork \([0-9.]*\)$/\1 \2/p' \
	    "$out")
	set -- $truth
	[ $# -eq 2 ] && rec "$mj $mv tt $1" && rec "$mj $mv tm $2"
}
on_run short short_truth

# The report's seconds for task and mainwork, and each one's error.
short_flat() {
	set -- $(col "$1" task 3) $(col "$1" mainwork 3) $truth
	rec "$mj $mv pt $1"
	rec "$mj $mv pm $2"
	[ $# -eq 4 ] || return 0
	rec "$mj $mv et $(awk -v p=$1 -v t=$3 'BEGIN {
	    d = p - t; if (d < 0) d = -d; printf "%.1f", 100 * d / t }')"
	rec "$mj $mv em $(awk -v p=$2 -v t=$4 'BEGIN {
	    d = p - t; if (d < 0) d = -d; printf "%.1f", 100 * d / t }')"
}
on_flat short short_flat

table <<'AWK'
END {
	row(21, "task s reported (measured), 1000 threads of 0.5 ms",
	    short2("base", "tt", "tt"), short2("mon", "pt", "tt"),
	    short2("pg", "pt", "tt"), "-", "-", "-")
	row(21, "task, error % of measured", "-",
	    cell("short", "mon", "et", "%.1f", 1),
	    cell("short", "pg", "et", "%.1f", 1), "-", "-", "<= 10")
	row(21, "task s, libmon PROFCLOCK=timer (measured)", "-",
	    short2("mont", "pt", "tt"), "-", "-", "-", "-")
	row(21, "task, error %, libmon PROFCLOCK=timer", "-",
	    cell("short", "mont", "et", "%.1f", 1), "-", "-", "-", "<= 10")
	row(21, "mainwork s reported (measured), main thread",
	    short2("base", "tm", "tm"), short2("mon", "pm", "tm"),
	    short2("pg", "pm", "tm"), "-", "-", "-")
	row(21, "mainwork, error % of measured", "-",
	    cell("short", "mon", "em", "%.1f", 1),
	    cell("short", "pg", "em", "%.1f", 1), "-", "-", "-")
	row(21, "mainwork, error %, libmon PROFCLOCK=timer", "-",
	    cell("short", "mont", "em", "%.1f", 1), "-", "-", "-", "-")
	goal(target("row 21, short threads' task within 10% of its thread" \
	    " CPU, perf clock", "short", "mon", "et", 10))
	goal(target("row 21, short threads' task within 10% of its thread" \
	    " CPU, timer clock", "short", "mont", "et", 10))
	note("21. `shortthr`: the main thread spins 0.3 s in `mainwork`, then")
	note("   starts 1000 threads one after another, each spinning 0.5 ms")
	note("   in `task` -- shorter than a sampling period.  Each part is")
	note("   timed on its own thread's CPU clock, the truth a report is")
	note("   held to; the error is in per cent of that run's own truth.")
	note("   libmon runs once more a round with `PROFCLOCK=timer`.")
}

# Row 21's seconds of build v: key k, with the same runs' truth t after
# it when k is a report's.
function short2(v, k, t,    s) {
	if (!has("short", v, k))
		return why("short", v, k, k != t)
	s = sprintf("%.3f", med("short", v, k))
	if (k != t && has("short", v, t))
		s = s sprintf(" (%.3f)", med("short", v, t))
	return s
}
AWK

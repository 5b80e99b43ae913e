# Row 4: accuracy -- burn's part_a, part_b and part_c take 50/30/20 of
# the work, in 1 and 4 threads; each run measures its own split on the
# thread CPU clock, and the error is the report's largest distance from
# it.  Rows 6 and 7 run the same program.

job burn1 burn "base mon pg" "1"
job burn4 burn "base mon pg" "4"

build_burn() {
	build3 burn bench/burn.c
}
on_build build_burn

# The run's measured split: "truth A B C cpu S ...".
burn_truth() {
	truth=$(sed -n 's/^truth \([0-9.]* [0-9.]* [0-9.]*\) .*/\1/p' "$out")
	set -- $truth
	[ $# -eq 3 ] && rec "$mj $mv ta $1" && rec "$mj $mv tb $2" &&
	    rec "$mj $mv tc $3"
}
on_run 'burn*' burn_truth

# The report's split, and its error against this run's own.
burn_error() {
	set -- $(col "$1" part_a 2) $(col "$1" part_b 2) \
	    $(col "$1" part_c 2) $truth
	rec "$mj $mv pa $1"
	rec "$mj $mv pb $2"
	rec "$mj $mv pc $3"
	[ $# -eq 6 ] && rec "$mj $mv err $(awk -v a=$1 -v b=$2 -v c=$3 \
	    -v x=$4 -v y=$5 -v z=$6 'function d(p, q) {
		return p > q ? p - q : q - p
	    } BEGIN {
		m = d(a, x); if (d(b, y) > m) m = d(b, y)
		if (d(c, z) > m) m = d(c, z); printf "%.2f", m
	    }')"
}
on_flat 'burn*' burn_error

table <<'AWK'
END {
	for (t = 1; t <= 4; t *= 4) {
		j = "burn" t
		th = sprintf("%d thread%s", t, t > 1 ? "s" : "")
		row(4, "%time a/b/c (truth 50/30/20), " th,
		    split3(j, "base", 0), split3(j, "mon", 1),
		    split3(j, "pg", 1), "-", "-", "-")
		row(4, "largest error, points, " th, "-",
		    cell(j, "mon", "err", "%.1f", 1),
		    cell(j, "pg", "err", "%.1f", 1), "-", "-", "-")
	}
	note("4. `burn`: `part_a`, `part_b`, `part_c` run one inlined loop")
	note("   (bench/spin.h) for 5, 3 and 2 tenths of the work, in 40")
	note("   alternating rounds per thread.  Each run times every piece on")
	note("   the thread CPU clock; the error is the largest distance, in")
	note("   points, between a profiler's %time and that run's measured")
	note("   split.  The unprofiled column is the measured split.")
}

function split3(j, v, from,    p) {
	p = from ? "p" : "t"
	if (!has(j, v, p "a"))
		return why(j, v, p "a", from)
	return sprintf("%.1f/%.1f/%.1f", med(j, v, p "a"), med(j, v, p "b"),
	    med(j, v, p "c"))
}
AWK

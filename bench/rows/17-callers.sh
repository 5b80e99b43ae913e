# Row 17: inclusive time -- bench/callers.c: cheap_caller() makes 90% of
# work()'s calls, costly_caller() gets 90% of its time.  Each caller is
# timed whole on the thread CPU clock; the call graph's inclusive %time
# of each is held to that.  Row 18 takes its figures alike.

job callers callers "base mon pg" ""

build_callers() {
	build3 callers bench/callers.c
}
on_build build_callers

# The measured inclusive shares: "truth F1 X F2 Y cpu ...".
incl_truth() {
	set -- $(sed -n 's/^truth \([a-z_]* [0-9.]* [a-z_]* [0-9.]*\) .*/\1/p' \
	    "$out")
	[ $# -eq 4 ] && rec "$mj $mv t1 $2" && rec "$mj $mv t2 $4"
	truth="$1 $2 $3 $4"
}

# incl_graph GRAPH: the inclusive %time of the truth's F1 and F2 in the
# call graph, and the larger distance from their measured shares.
incl_graph() {
	incl_metrics "$1" $truth
}
incl_metrics() {
	g=$1
	shift
	[ $# -eq 4 ] || return 0
	i1=$(awk -v fn="$1" -f bench/graph.awk "$g" |
	    awk '$1 == "incl" { print $2; exit }')
	i2=$(awk -v fn="$3" -f bench/graph.awk "$g" |
	    awk '$1 == "incl" { print $2; exit }')
	[ -n "$i1" ] && [ -n "$i2" ] || return 0
	rec "$mj $mv i1 $i1"
	rec "$mj $mv i2 $i2"
	rec "$mj $mv gerr $(awk -v a="$i1" -v b="$i2" -v x="$2" \
	    -v y="$4" 'BEGIN {
		d = a - x; if (d < 0) d = -d
		e = b - y; if (e < 0) e = -e
		printf "%.2f", (d > e ? d : e)
	    }')"
}
on_run callers incl_truth
on_graph callers incl_graph

table <<'AWK'
END {
	row(17, "inclusive %time cheap_caller/costly_caller (gprof: estimate)",
	    pair("callers", "base", "t"), pair("callers", "mon", "i"),
	    pair("callers", "pg", "i"), "-", "-", "-")
	row(17, "largest error, points", "-",
	    cell("callers", "mon", "gerr", "%.1f", 1),
	    cell("callers", "pg", "gerr", "%.1f", 1), "-", "-", "<= 3")
	check(target("row 17, each caller's inclusive share within 3 points",
	    "callers", "mon", "gerr", 3))
	note("17. `callers`: `cheap_caller()` calls `work()` 9 times a round")
	note("   with 1 unit, `costly_caller()` once with 81: 90% of the calls,")
	note("   10% of the time.  Each caller is timed whole on the thread")
	note("   CPU clock, and its measured inclusive share is the truth; the")
	note("   call graph's %time of each caller's own line is held to it.")
	note("   libmon's is measured from the sampled stacks; gprof's is its")
	note("   estimate, which shares `work()`'s time by calls.")
}

# "A/B" of a job's figures key1 and key2 (t1/t2, i1/i2), medians.
function pair(j, v, k) {
	if (!has(j, v, k "1"))
		return why(j, v, k "1", k == "i")
	return sprintf("%.1f/%.1f", med(j, v, k "1"), med(j, v, k "2"))
}
AWK

# Row 1: mcount's cost -- one thread calls leaf() CALLS1 times.
#
# The jobs' figures: CPU seconds, and the calls of leaf() the report
# counts against the calls made (rows 3 and 13 count theirs alike).

CALLS1=100000000	# calls of leaf in one thread
tablevar calls1 $CALLS1

job calls1 calls "base mon pg" "1 $CALLS1"

build_calls() {
	build3 calls bench/calls.c
}
on_build build_calls

# The calls the program made, and those its report counted.
calls_made() {
	rec "$mj $mv made $(sed -n 's/^calls made \([0-9]*\).*/\1/p' "$out")"
}
leaf_calls() {
	rec "$mj $mv calls $(col "$1" leaf 5)"
}
on_run calls1 calls_made
on_flat calls1 leaf_calls

table <<'AWK'
END {
	row(1, sprintf("CPU s, leaf() x %dM, 1 thread", calls1 / 1e6),
	    cell("calls1", "base", "cpu", "%.3f"),
	    cell("calls1", "mon", "cpu", "%.3f"),
	    cell("calls1", "pg", "cpu", "%.3f"),
	    ratio("calls1", "mon", "cpu"), ratio("calls1", "pg", "cpu"),
	    "<= 2.5x")
	callrow(1, "calls1", "calls of leaf(), 1 thread")
	goal(verdict("row 1, leaf() x " calls1 / 1e6 "M, libmon <= 2.5x",
	    "calls1", "mon", "cpu", 2.5))
	check(cheaper("row 1, libmon at least 1.5x cheaper than glibc",
	    "calls1"))
	note("1. `calls`: one thread calls a noinline, noipa `leaf()` whose")
	note("   results are summed and printed.  Calls recorded are the")
	note("   `#Calls` of `leaf` in prof and the calls column of gprof.")
}
AWK

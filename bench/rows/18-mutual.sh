# Row 18: mutual recursion -- bench/mutual.c: ping() and pong() call
# each other 5 deep; each one's inclusive share, measured on the thread
# CPU clock, against the call graph's (incl_truth and incl_graph are
# row 17's).

job mutual mutual "base mon pg" ""

build_mutual() {
	build3 mutual bench/mutual.c
}
on_build build_mutual
on_run mutual incl_truth
on_graph mutual incl_graph

table <<'AWK'
END {
	row(18, "inclusive %time ping/pong, mutual recursion",
	    pair("mutual", "base", "t"), pair("mutual", "mon", "i"),
	    pair("mutual", "pg", "i"), "-", "-", "-")
	row(18, "largest error, points", "-",
	    cell("mutual", "mon", "gerr", "%.1f", 1),
	    cell("mutual", "pg", "gerr", "%.1f", 1), "-", "-", "<= 3")
	check(target("row 18, ping and pong's inclusive shares within 3" \
	    " points", "mutual", "mon", "gerr", 3))
	note("18. `mutual`: `ping()` and `pong()` call each other 5 deep, a")
	note("   chain started at each in turn, its top frame spinning more.")
	note("   The truth is each function's inclusive share, from the")
	note("   chains and their top frames' own spins timed on the thread")
	note("   CPU clock.  gprof puts both in one cycle and gives each its")
	note("   share of the cycle's self time.")
}
AWK

# Row 16: arcs -- row 3's runs, the calls along the one arc loop() ->
# leaf() as each call graph gives them (prof -q, gprof -b -q), over the
# calls made; libmon's must be exact in every run.

loop_leaf_arc() {
	rec "$mj $mv arc $(awk -v fn=leaf -f bench/graph.awk "$1" |
	    awk '$1 == "from" && $2 == "loop" { s += $3 }
	    END { print s + 0 }')"
}
on_graph 'thr[0-9]*' loop_leaf_arc

table <<'AWK'
END {
	for (t = 1; t <= 8; t *= 2) {
		j = "thr" t
		row(16, sprintf("calls along loop() -> leaf(), %d thread%s",
		    t, t > 1 ? "s" : ""),
		    cell(j, "base", "made", "%.0f made"),
		    cell(j, "mon", "arc", "%.0f", 1),
		    cell(j, "pg", "arc", "%.0f", 1),
		    ratio(j, "mon", "arc", j, "base", "made", 4),
		    ratio(j, "pg", "arc", j, "base", "made", 4), "= made")
	}
	check("row 16, libmon's arcs exact in 1, 2, 4, 8 threads: " \
	    exact("arc"))
	note("16. `calls` of row 3: the calls along the one arc, `loop()` to")
	note("   `leaf()`, as each call graph gives them (`prof -q`,")
	note("   `gprof -b -q`), over the calls made; libmon's must be exact")
	note("   in every run.")
}
AWK

# Row 13: link-time optimisation -- row 1's calls, each build compiled
# and linked with -flto (calls_made and leaf_calls are row 1's).

job lto callslto "base mon pg" "1 $CALLS1"

build_lto() {
	build3 callslto bench/calls.c -flto
}
on_build build_lto
on_run lto calls_made
on_flat lto leaf_calls

table <<'AWK'
END {
	row(13, sprintf("CPU s, leaf() x %dM, 1 thread, -flto", calls1 / 1e6),
	    cell("lto", "base", "cpu", "%.3f"),
	    cell("lto", "mon", "cpu", "%.3f"),
	    cell("lto", "pg", "cpu", "%.3f"),
	    ratio("lto", "mon", "cpu"), ratio("lto", "pg", "cpu"), "-")
	callrow(13, "lto", "calls of leaf(), 1 thread, -flto")
	note("13. `calls` of row 1 again, each build compiled and linked with")
	note("   `-flto`, where the calls to mcount are made at link time.")
}
AWK

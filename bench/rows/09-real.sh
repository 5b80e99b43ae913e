# Row 9: a program -- bench/real.c, 4 threads generating text, counting
# words, sorting, evaluating expression trees, with libreal.so (not
# instrumented); held to perf as row 14 is (bench/lib/perf.sh).

job real real "base mon pg perf" "4"

build_real() {
	solib real bench/real_lib.c
	build3 real bench/real.c -L"$B" -lreal '-Wl,-rpath,$ORIGIN'
}
on_build build_real

real_made() {
	rec "$mj $mv made $(sed -n 's/.* gen_expr \([0-9]*\) .*/\1/p' "$out")"
}
real_calls() {
	rec "$mj $mv calls $(col "$1" gen_expr 5)"
}
on_run real real_made
on_flat real real_calls

real_finish() {
	running real && perf_finish real
	top5 real
}
on_finish real_finish

table <<'AWK'
END {
	row(9, "CPU s, real (4 threads, libreal.so)",
	    cell("real", "base", "cpu", "%.3f"), cell("real", "mon", "cpu", "%.3f"),
	    cell("real", "pg", "cpu", "%.3f"),
	    ratio("real", "mon", "cpu"), ratio("real", "pg", "cpu"), "-")
	callrow(9, "real", "calls of gen_expr()")
	perfrows(9, "real")
	goal(target("row 9, real, libmon's top 10 shares >= 9 of perf's",
	    "real", "mon", "overlap", 9, 1))
	goal(target("row 9, real, libmon's L1 distance to perf <= 15 points",
	    "real", "mon", "l1", 15))
	note("9. `real`: 4 threads, each generating text, counting words in a")
	note("   hash table keyed by `libreal.so`'s hash, qsort'ing them,")
	note("   building, evaluating and freeing expression trees by")
	note("   recursion, and checksumming with `libreal.so`'s CRC.  The")
	note("   library is not instrumented.  Held to perf as row 14 is (see")
	note("   there); top 5 are perf's first rows and those of each report")
	note("   from the last run.")
}
AWK

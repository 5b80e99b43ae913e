# Row 5: a shared library -- main_part in the program, lib_part in
# libsolib.so (built without -p/-pg), 1 : 3 by work.

job solib solib "base mon pg" ""

build_solib() {
	solib solib bench/solib_lib.c
	build3 solib bench/solib.c -L"$B" -lsolib '-Wl,-rpath,$ORIGIN'
}
on_build build_solib

solib_truth() {
	rec "$mj $mv truth $(sed -n 's/^truth \([0-9.]*\).*/\1/p' "$out")"
}
solib_shares() {
	rec "$mj $mv share $(awk -F '\t' '$1 ~ /^lib_part/ ||
	    $1 ~ /libsolib/ { s += $2 } END { print s + 0 }' "$1")"
	rec "$mj $mv mainshare $(col "$1" main_part 2)"
}
on_run solib solib_truth
on_flat solib solib_shares

table <<'AWK'
END {
	row(5, "% in the .so (not -p/-pg; main is)",
	    cell("solib", "base", "truth", "%.1f (truth)"),
	    cell("solib", "mon", "share", "%.1f", 1),
	    cell("solib", "pg", "share", "%.1f", 1), "-", "-", "-")
	row(5, "% in main_part (the program)",
	    has("solib", "base", "truth") ? sprintf("%.1f (truth)",
	    100 - med("solib", "base", "truth")) : why("solib", "base", "truth"),
	    cell("solib", "mon", "mainshare", "%.1f", 1),
	    cell("solib", "pg", "mainshare", "%.1f", 1), "-", "-", "-")
	note("5. `solib`: `main_part` in the program, `lib_part` in")
	note("   `libsolib.so`, 1 : 3 by work.  The library is built without")
	note("   -p/-pg (as a distribution ships one); only the program is")
	note("   instrumented.  The share is the %time of the rows naming")
	note("   `lib_part` or `libsolib`; 0 means the report does not show")
	note("   the library.  The next line is the %time each gives")
	note("   `main_part`.")
}
AWK

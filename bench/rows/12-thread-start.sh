# Row 12: thread start and end -- THREADS threads created and joined one
# after the other; microseconds per thread (us_each is row 11's).

THREADS=20000		# threads created and joined

job thrs threads "base mon pg" "$THREADS"
noreport thrs

build_threads() {
	build3 threads bench/threads.c
}
on_build build_threads
on_run thrs us_each

table <<'AWK'
END {
	row(12, "us per thread created and joined",
	    cell("thrs", "base", "us", "%.1f"),
	    cell("thrs", "mon", "us", "%.1f"),
	    cell("thrs", "pg", "us", "%.1f"),
	    ratio("thrs", "mon", "us"), ratio("thrs", "pg", "us"), "-")
	note("12. `threads`: threads created and joined one after the other,")
	note("   each calling one function; the wall-clock time of one.")
}
AWK

# Row 3: threads -- THRCALLS calls of leaf() split over 1, 2, 4 and 8
# threads (bench/calls.c again); libmon's count must be exact in every
# run.  Row 16 reads the same runs' call graphs.

THRCALLS=40000000	# calls of leaf in all threads together
tablevar thrcalls $THRCALLS

for t in 1 2 4 8; do
	job thr$t calls "base mon pg" "$t $THRCALLS"
done

on_build build_calls
on_run 'thr[0-9]*' calls_made
on_flat 'thr[0-9]*' leaf_calls

table <<'AWK'
END {
	for (t = 1; t <= 8; t *= 2)
		callrow(3, "thr" t, sprintf("calls of leaf(), %d thread%s",
		    t, t > 1 ? "s" : ""))
	for (t = 1; t <= 8; t *= 2) {
		j = "thr" t
		row(3, sprintf("CPU s, %dM calls in %d thread%s",
		    thrcalls / 1e6, t, t > 1 ? "s" : ""),
		    cell(j, "base", "cpu", "%.3f"), cell(j, "mon", "cpu", "%.3f"),
		    cell(j, "pg", "cpu", "%.3f"),
		    ratio(j, "mon", "cpu"), ratio(j, "pg", "cpu"),
		    t == 2 ? "<= 3x" : "-")
	}
	goal("row 3, libmon's calls exact in 1, 2, 4, 8 threads: " \
	    exact("calls"))
	goal(verdict("row 3, 2 threads, libmon CPU <= 3x", "thr2", "mon",
	    "cpu", 3))
	check(cheaper("row 3, 2 threads, libmon at least 1.5x cheaper than" \
	    " glibc", "thr2"))
	note("3. `calls` again, the calls split over 1, 2, 4 and 8 threads.")
	note("   libmon's count must equal the calls made in every run.  The")
	note("   glibc CPU figures swing from run to run with how often its")
	note("   threads run at once on the two cores: its mcount takes one")
	note("   process-wide busy flag, and a call that finds it taken is")
	note("   not counted.")
}
AWK

# Row 24: memory with threads -- T threads each sweeping the same
# generated functions (bench/lib/arcs.sh, the sites shape): 1, 8 and 32
# threads over 100,000 functions, THRARCS calls in all split over them,
# and 64 threads over 20,000, THRARCS calls in all too.  Peak RSS and
# CPU seconds of the unprofiled build, libmon's, glibc's and the empty
# hook's; libmon's calls counted must equal the calls made.

THRARCS=6400000		# calls in all threads together

arcsprog sites20k sites 20000
for t in 1 8 32; do
	job at$t sites100k "base mon pg hook" "$t $((THRARCS / t / 100000))"
	noreport at$t
done
job at64 sites20k "base mon pg hook" "64 $((THRARCS / 64 / 20000))"
noreport at64
tablevar thrarcs $THRARCS

on_run 'at[0-9]*' arcs_figures
on_run 'at[0-9]*' arcs_counted

table <<'AWK'
END {
	nt24 = split("1 8 32 64", t24, " ")
	for (k24 = 1; k24 <= nt24; k24++) {
		j = "at" t24[k24]
		f24 = t24[k24] == 64 ? "20k" : "100k"
		p24 = t24[k24] > 1 ? "s" : ""
		row(24, sprintf("peak RSS MB, %d thread%s x %s functions;" \
		    " unprofiled / floor, ratios over glibc", t24[k24],
		    p24, f24),
		    floorcell(j, "rss", "%.0f", 1024), mbcell(j, "mon", "rss"),
		    mbcell(j, "pg", "rss"), ratio(j, "mon", "rss", j, "pg"),
		    "-", t24[k24] == 32 ? "<= 2x glibc + 16 MB" : "-")
		row(24, sprintf("CPU s, %d thread%s x %s functions," \
		    " %.1fM calls; unprofiled / floor", t24[k24],
		    p24, f24, thrarcs / 1e6),
		    floorcell(j, "cpu", "%.3f"), cell(j, "mon", "cpu", "%.3f"),
		    cell(j, "pg", "cpu", "%.3f"), ratio(j, "mon", "cpu"),
		    ratio(j, "pg", "cpu"), t24[k24] == 32 ? "<= 3x" : "-")
		callrow(24, j, sprintf("calls counted, %d thread%s x %s" \
		    " functions", t24[k24], p24, f24))
	}
	if (!has("at32", "mon", "rss") || !has("at32", "pg", "rss"))
		s = "n/a"
	else {
		x = med("at32", "mon", "rss") / 1024
		y = 2 * med("at32", "pg", "rss") / 1024 + 16
		s = sprintf("%s (%.0f MB, limit %.0f)",
		    x <= y ? "PASS" : "MISS", x, y)
	}
	goal("row 24, 32 threads x 100k functions, libmon's peak RSS <= 2x" \
	    " glibc's + 16 MB: " s)
	goal(verdict("row 24, 32 threads x 100k functions, libmon CPU <= 3x",
	    "at32", "mon", "cpu", 3))
	goal("row 24, libmon's calls exact in 1, 8, 32 and 64 threads: " \
	    exact24())
	note("24. The sites program of row 23 at 100,000 functions, swept")
	note("   by 1, 8 and 32 threads, " thrarcs / 1e6 "M calls in all; and")
	note("   at 20,000 functions by 64 threads, as many calls.  Peak RSS")
	note("   is the child's `ru_maxrss` from `wait4()`; CPU its user+sys,")
	note("   start-up, threads and the profile's writing included.")
}

function exact24(    k, j, i, r) {
	r = "PASS"
	for (k = 1; k <= nt24; k++) {
		j = "at" t24[k]
		if (!has(j, "mon", "calls") || !has(j, "base", "made"))
			return "n/a"
		for (i = 1; i <= n[j, "mon", "calls"]; i++)
			if (val[j, "mon", "calls", i] + 0 != \
			    med(j, "base", "made"))
				r = "MISS"
	}
	return r
}
AWK

# Row 19: a server profiled in parts -- 4 busy threads (bench/snap.c)
# while the main thread calls monsnapshot() every SNAPMS ms: a part's
# cost, and the longest gap in any thread's steps.  Row 20 runs the
# same program.

SNAPITERS=200000	# steps of each of 4 busy threads (rows 19, 20)
SNAPMS=50		# monsnapshot() every SNAPMS ms

job snaps snap "base mon pg" "4 $SNAPITERS $SNAPMS"
noreport snaps

build_snap() {
	build3 snap bench/snap.c
}
on_build build_snap

# A snapshot's time (row 19), the longest gap in any thread's work,
# the parts written (row 20).
snap_figures() {
	[ $mj = snaps ] && [ $mv = mon ] && rec "$mj $mv us \
	    $(sed -n 's/^snapshots [0-9]* us \([0-9.]*\) .*/\1/p' "$out")"
	rec "$mj $mv stall \
	    $(sed -n 's/.* stall \([0-9.]*\) us .*/\1/p' "$out")"
	[ $mj = snapi ] && [ $mv = mon ] &&
	    rec "$mj $mv parts $(ls "$d" | grep -c '^mon\.out\.[0-9]')"
	return 0
}
on_run snaps snap_figures

table <<'AWK'
END {
	row(19, "us per monsnapshot(), 4 busy threads (none held)", "-",
	    cell("snaps", "mon", "us", "%.0f"), "-", "-", "-", "-")
	row(19, "longest gap in a busy thread's steps, us",
	    cell("snaps", "base", "stall", "%.0f"),
	    cell("snaps", "mon", "stall", "%.0f"),
	    cell("snaps", "pg", "stall", "%.0f"),
	    ratio("snaps", "mon", "stall"), ratio("snaps", "pg", "stall"),
	    "-")
	note("19. `snap`: 4 threads of CPU work (each step 200 calls of")
	note("   `leaf()`), each noting the longest wall-clock gap between")
	note("   two of its steps, while the main thread calls `monsnapshot()`")
	note("   every 50 ms and times each call: a part's cost, and whether")
	note("   any thread is held while it is written.")
}
AWK

# Row 20: row 19's threads with no snapshots (snapn), then with
# PROFINTERVAL=1 (snapi): libmon's own thread writes a part each
# second; the cost of profiling a server in parts (snap_figures is
# row 19's).

job snapn snap "base mon pg" "4 $SNAPITERS 0"
job snapi snap "base mon pg" "4 $SNAPITERS 0"
jobenv snapi mon PROFINTERVAL=1
noreport snapn snapi
on_build build_snap
on_run 'snap[ni]' snap_figures

table <<'AWK'
END {
	row(20, "CPU s, 4 busy threads, libmon with PROFINTERVAL=1",
	    cell("snapi", "base", "cpu", "%.3f"),
	    cell("snapi", "mon", "cpu", "%.3f"),
	    cell("snapi", "pg", "cpu", "%.3f"),
	    ratio("snapi", "mon", "cpu"), ratio("snapi", "pg", "cpu"), "-")
	row(20, "CPU s, libmon without PROFINTERVAL, then with it (ratio)",
	    cell("snapn", "mon", "cpu", "%.3f"),
	    cell("snapi", "mon", "cpu", "%.3f"), "-",
	    ratio("snapi", "mon", "cpu", "snapn", "mon", "", 3), "-", "-")
	row(20, "parts written", "-", cell("snapi", "mon", "parts", "%.0f"),
	    "-", "-", "-", "-")
	note("20. The same threads with no snapshots, then with `PROFINTERVAL=1`")
	note("   (libmon's own thread writes a part each second): the cost of")
	note("   profiling a server in parts.")
}
AWK

# Row 26: a million arcs at exit -- row 23's million-function runs:
# the wall seconds from main's return to the process's end (the
# program notes the first on CLOCK_MONOTONIC, bench/runner the second),
# in which libmon writes mon.out; then prof reading that profile, flat
# and with -q (its call graph), each run once a round in the first
# ARCSPROFREPS rounds through bench/runner: CPU seconds and peak RSS.

table <<'AWK'
END {
	for (s26 = 1; s26 <= 2; s26++) {
		j = (s26 == 1 ? "sites" : "fan") "1m"
		row(26, sprintf("s from main's return to the end, 1M arcs," \
		    " %s; unprofiled / floor", s26 == 1 ? "sites" : "fan"),
		    floorcell(j, "exit", "%.3f"),
		    cell(j, "mon", "exit", "%.3f"),
		    s26 == 1 ? cell(j, "pg", "exit", "%.3f") : "-",
		    "-", "-", "<= 0.5")
		row(26, sprintf("prof: CPU s / peak RSS MB, 1M arcs, %s",
		    s26 == 1 ? "sites" : "fan"), "-",
		    cell(j, "mon", "pcpu", "%.2f", 1) " / " \
		    mbcell(j, "mon", "prss"), "-", "-", "-",
		    "<= 2 s, 300 MB")
		row(26, sprintf("prof -q: CPU s / peak RSS MB, 1M arcs, %s",
		    s26 == 1 ? "sites" : "fan"), "-",
		    cell(j, "mon", "qcpu", "%.2f", 1) " / " \
		    mbcell(j, "mon", "qrss"), "-", "-", "-",
		    "<= 2 s, 300 MB")
		sh = s26 == 1 ? "sites" : "fan"
		goal(target("row 26, 1M arcs, " sh ", libmon's exit (mon.out" \
		    " written) <= 0.5 s", j, "mon", "exit", 0.5))
		goal(target("row 26, 1M arcs, " sh ", prof's CPU <= 2 s", j,
		    "mon", "pcpu", 2))
		goal(mbtarget26("row 26, 1M arcs, " sh ", prof's peak RSS <=" \
		    " 300 MB", j, "prss", 300))
		goal(target("row 26, 1M arcs, " sh ", prof -q's CPU <= 2 s",
		    j, "mon", "qcpu", 2))
		goal(mbtarget26("row 26, 1M arcs, " sh ", prof -q's peak RSS" \
		    " <= 300 MB", j, "qrss", 300))
	}
	note("26. Row 23's runs at a million functions (a million arcs): the")
	note("   wall seconds from main's return, noted by the program on")
	note("   CLOCK_MONOTONIC, to the end of the process, when")
	note("   bench/runner reaps it -- libmon writes mon.out in between;")
	note("   then `prof prog mon.out` and `prof -q prog mon.out` on that")
	note("   profile, once a round each in the first three rounds: CPU")
	note("   seconds and peak RSS.")
}

# libmon's figure k of job j, in KiB, at most limit MB.
function mbtarget26(text, j, k, limit,    x) {
	if (!has(j, "mon", k))
		return sprintf("%s: n/a", text)
	x = med(j, "mon", k) / 1024
	return sprintf("%s: %s (%.0f MB)", text, x <= limit ? "PASS" : "MISS",
	    x)
}
AWK

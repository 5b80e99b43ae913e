# Row 22: a profile in parts every 0.01 s, the shortest PROFINTERVAL --
# bench/shortthr.c spins 1 s of its main thread's CPU in mainwork(),
# timed on that thread's clock.  Under each clock libmon runs it whole
# (VAR mon) and in parts (VAR monparts, PROFINTERVAL=0.01); prof reads
# the parts together.  The error is the merged parts' distance from
# the truth, in per cent; the cost, the run's CPU against the whole run.
# The truth is timed around the whole spin, its own clock reads (the
# vDSO's and the kernel's rows, 5% and more of it on a virtual machine)
# among it, so it is held to mainwork's inclusive seconds (prof -i).

for c in perf timer itimer; do
	job fine$c shortthr "mon monparts" "0 0 1000"
	jobenv fine$c mon PROFCLOCK=$c
	jobenv fine$c monparts "PROFCLOCK=$c PROFINTERVAL=0.01"
	noreport fine$c
done

# The truth, and prof's inclusive seconds for mainwork from the whole
# file or from the parts merged.
fine_figures() {
	set -- $(sed -n 's/^task [0-9.]* mainwork \([0-9.]*\)$/\1/p' "$out")
	[ $# -eq 1 ] || return 0
	rec "$mj $mv tm $1"
	if [ $mv = monparts ]; then
		set -- "$d"/mon.out.*
		rec "$mj $mv parts $#"
	else
		set -- "$d/mon.out"
	fi
	[ -s "$1" ] || { rec "$mj $mv na no profile written"; return 0; }
	pm=$($PROF -i "$(job_bin "$mj" mon)" "$@" 2>/dev/null |
	    awk '$NF == "mainwork" { print $5; exit }')
	[ -n "$pm" ] || return 0
	rec "$mj $mv pm $pm"
	rec "$mj $mv em $(awk -v p=$pm -v t=$(sed -n \
	    's/^task [0-9.]* mainwork \([0-9.]*\)$/\1/p' "$out") 'BEGIN {
	    d = p - t; if (d < 0) d = -d; printf "%.1f", 100 * d / t }')"
}
on_run 'fine*' fine_figures

table <<'AWK'
END {
	nclk22 = split("perf timer itimer", clk22, " ")
	for (k22 = 1; k22 <= nclk22; k22++) {
		j = "fine" clk22[k22]
		row(22, "mainwork s with its callees, whole / in parts of" \
		    " 0.01 s (measured), " \
		    clk22[k22], fine2(j, "mon"), fine2(j, "monparts"), "-",
		    "-", "-", "-")
		row(22, "mainwork error %, whole / in parts, " clk22[k22],
		    cell(j, "mon", "em", "%.1f", 1),
		    cell(j, "monparts", "em", "%.1f", 1), "-", "-", "-",
		    "<= 2")
		row(22, "CPU s, whole / in parts (ratio), " clk22[k22],
		    cell(j, "mon", "cpu", "%.3f"),
		    cell(j, "monparts", "cpu", "%.3f"),
		    ratio(j, "monparts", "cpu", j, "mon", "", 3), "-", "-",
		    "-")
		goal(target("row 22, parts of 0.01 s within 2% of mainwork's" \
		    " thread CPU, " clk22[k22] " clock", j, "monparts", "em", 2))
	}
	note("22. `shortthr 0 0 1000`: 1 s of `mainwork` on the main thread,")
	note("   timed on its CPU clock.  Under each clock libmon runs it")
	note("   whole, then with `PROFINTERVAL=0.01` (a part written every")
	note("   0.01 s, about 100 in all), the parts read by prof together;")
	note("   the error is their `mainwork` seconds with its callees")
	note("   (`prof -i`: the truth's own clock reads among them) from")
	note("   the truth, the CPU ratio the cost of writing the parts.  The")
	note("   columns here are libmon whole / libmon in parts.")
}

function fine2(j, v,    s) {
	if (!has(j, v, "pm"))
		return why(j, v, "pm", 1)
	s = sprintf("%.3f", med(j, v, "pm"))
	if (has(j, v, "tm"))
		s = s sprintf(" (%.3f)", med(j, v, "tm"))
	return s
}
AWK

# Row 15: system time -- bench/sysburn.c: user_part computes, sys_part
# reads /dev/zero (nearly all kernel time); each run measures its own
# split on the thread CPU clock, and the error is the report's larger
# distance from it.  libmon runs once more a round with the timer clock
# (VAR mont, its mon build under PROFCLOCK=timer).

job sys sysburn "base mon mont pg" ""
jobenv sys mont PROFCLOCK=timer

build_sysburn() {
	build3 sysburn bench/sysburn.c
}
on_build build_sysburn

# The parts' measured shares, then their seconds.
sys_truth() {
	truth=$(sed -n 's/^truth \([0-9. ]*\) cpu \([0-9. ]*\) .*/\1 \2/p' \
	    "$out")
	set -- $truth
	[ $# -eq 4 ] && rec "$mj $mv tu $1" && rec "$mj $mv ts $2" &&
	    rec "$mj $mv su $3" && rec "$mj $mv ss $4"
}
on_run sys sys_truth

sys_flat() {
	sys_shares "$1" $truth
}
on_flat sys sys_flat

# Row 15: the user and the system part's shares in one report, and the
# larger distance from the run's measured split.  The user part is
# user_part's row.  The system part is sys_part's row, plus the rows
# where the time of its read() calls is shown: the kernel's row (libmon
# with the perf clock, which samples kernel mode where the kernel lets
# it, else user mode only and shows the kernel's share of the CPU time
# from getrusage) and the C library's (the timer
# clocks charge kernel time to the call site, read(); the perf clock
# has the wrapper's own user-mode instructions there).  The user part
# calls nothing, so no other row can be its.  gprof has none of these
# rows: it samples the program's own text alone.
sys_shares() {
	su=$(col "$1" user_part 2)
	ss=$(awk -F '\t' '$1 == "sys_part" ||
	    $1 == "[kernel: system calls and faults]" ||
	    $1 ~ / \(libc\.so\.6\)$/ { s += $2 } END { print s + 0 }' "$1")
	rec "$mj $mv pu $su"
	rec "$mj $mv ps $ss"
	[ $# -eq 5 ] && rec "$mj $mv err $(awk -v a="$su" -v b="$ss" \
	    -v x="$2" -v y="$3" 'BEGIN {
		d = a - x; if (d < 0) d = -d
		e = b - y; if (e < 0) e = -e
		printf "%.2f", (d > e ? d : e)
	    }')"
}

table <<'AWK'
END {
	row(15, "CPU s measured, user part / system part", secs2("base"),
	    secs2("mon"), secs2("pg"), "-", "-", "-")
	row(15, "%time user/system part, report (its runs measured)",
	    split2("base", "t"),
	    split2("mon", "p"), split2("pg", "p"), "-", "-", "-")
	row(15, "largest error, points", "-", cell("sys", "mon", "err", "%.1f", 1),
	    cell("sys", "pg", "err", "%.1f", 1), "-", "-", "<= 3")
	row(15, "%time user/system, libmon PROFCLOCK=timer, report (measured)",
	    split2("base", "t"),
	    split2("mont", "p"), "-", "-", "-", "-")
	row(15, "largest error, points, libmon PROFCLOCK=timer", "-",
	    cell("sys", "mont", "err", "%.1f", 1), "-", "-", "-", "<= 3")
	goal(target("row 15, user and system part each within 3 points, perf" \
	    " clock", "sys", "mon", "err", 3))
	goal(target("row 15, user and system part each within 3 points, timer" \
	    " clock", "sys", "mont", "err", 3))
	note("15. `sysburn`: `user_part` runs an arithmetic loop,")
	note("   `sys_part` reads 64 KiB from /dev/zero over and over")
	note("   (nearly all of it kernel time), in 20 alternating rounds,")
	note("   each timed on the thread CPU clock (user and system time);")
	note("   the unprofiled column is that measured split.  A report's")
	note("   user part is `user_part`'s row; its system part is")
	note("   `sys_part`'s row plus the rows that hold the reads' time:")
	note("   the kernel's row (libmon's perf clock samples kernel mode")
	note("   where the kernel lets it, else the run's system time is that")
	note("   row) and the C")
	note("   library's rows (the timer clocks charge kernel time to the")
	note("   call site, `read`).  The error is the larger distance, in")
	note("   points, from that run's own measured split.  libmon runs")
	note("   once more a round with `PROFCLOCK=timer`.  gprof samples the")
	note("   program's text alone and so gives `sys_part` none of the")
	note("   reads' time.")
}

# Row 15's two shares of build v: measured (t), or reported (p) with
# the same runs' measured split after it.
function split2(v, p,    s) {
	if (!has("sys", v, p "u"))
		return why("sys", v, p "u", p == "p")
	s = sprintf("%.1f/%.1f", med("sys", v, p "u"), med("sys", v, p "s"))
	if (p == "p" && has("sys", v, "tu"))
		s = s sprintf(" (%.1f/%.1f)", med("sys", v, "tu"),
		    med("sys", v, "ts"))
	return s
}

function secs2(v) {
	if (!has("sys", v, "su"))
		return why("sys", v, "su", 0)
	return sprintf("%.3f / %.3f", med("sys", v, "su"), med("sys", v, "ss"))
}
AWK

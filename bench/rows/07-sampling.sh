# Row 7: sampling alone -- burn1 (row 4's job) built with neither -p
# nor -pg: libmon's build calls monitor() on its own text, glibc's
# monstartup(); the -p and monitor() builds with and without stacks
# (PROFSTACK=0); and a floor, bare perf_event timers and no profiler.
#
# The row weighs a cost of about 2% against a 2% target, and one run's
# CPU time varies by some tenths of a percent: burn1's builds without
# call counting run SAMPLEX more times a round, their CPU time alone
# recorded.

SAMPLEX=2		# extra runs a round of burn1's sampling builds

jobvars burn1 "base mon monns pg monitor monitorns gmon floor"
jobenv burn1 monns PROFSTACK=0
jobenv burn1 monitorns PROFSTACK=0

build_sampling() {
	build burn monitor bench/burn.c
	build burn gmon bench/burn.c
	build burn floor bench/burn.c
}
on_build build_sampling

# sample_extra REP: the extra runs of round REP.
sample_extra() {
	x=1
	while [ $x -le $SAMPLEX ] && running burn1; do
		for v in $(rotate $(($1 + x - 1)) base mon monns monitor \
		    monitorns gmon floor); do
			bin=$PWD/$(job_bin burn1 $v)
			[ -x "$bin" ] || continue
			d=$R/burn1.$v
			line=$(env $(job_env burn1 $v) "$RUNNER" -d "$d" \
			    -o "$d/stdout.x" -e "$d/stderr.x" -- \
			    "$bin" $(job_args burn1) </dev/null)
			[ "$(field status "$line")" = 0 ] &&
			    rec "burn1 $v cpu $(field cpu "$line")"
		done
		x=$((x + 1))
	done
}
on_round sample_extra

table <<'AWK'
END {
	row(7, "CPU s, burn, monitor()/monstartup() only",
	    cell("burn1", "base", "cpu", "%.3f"),
	    cell("burn1", "monitor", "cpu", "%.3f"),
	    cell("burn1", "gmon", "cpu", "%.3f"),
	    ratio("burn1", "monitor", "cpu", "", "", "", 3),
	    ratio("burn1", "gmon", "cpu", "", "", "", 3), "<= 1.02x")
	row(7, "CPU s, burn, -p: stacks (default) / PROFSTACK=0, perf clock",
	    cell("burn1", "base", "cpu", "%.3f"),
	    cell("burn1", "mon", "cpu", "%.3f") " / " \
	    cell("burn1", "monns", "cpu", "%.3f"), "-",
	    ratio("burn1", "mon", "cpu", "", "", "", 3) " / " \
	    ratio("burn1", "monns", "cpu", "", "", "", 3), "-",
	    "within 0.01x")
	row(7, "CPU s, burn, monitor(): stacks (default) / PROFSTACK=0, itimer",
	    cell("burn1", "base", "cpu", "%.3f"),
	    cell("burn1", "monitor", "cpu", "%.3f") " / " \
	    cell("burn1", "monitorns", "cpu", "%.3f"), "-",
	    ratio("burn1", "monitor", "cpu", "", "", "", 3) " / " \
	    ratio("burn1", "monitorns", "cpu", "", "", "", 3), "-",
	    "within 0.01x")
	row(7, "CPU s, burn, bare perf_event 1 kHz timer, no profiler (floor)",
	    cell("burn1", "base", "cpu", "%.3f"),
	    cell("burn1", "floor", "cpu", "%.3f"), "-",
	    ratio("burn1", "floor", "cpu", "", "", "", 3), "-", "-")
	goal(verdict("row 7, sampling at the default rate, libmon <= 1.02x",
	    "burn1", "monitor", "cpu", 1.02))
	check(within("row 7, stacks cost within 0.01x, perf clock", "mon",
	    "monns"))
	check(within("row 7, stacks cost within 0.01x, itimer", "monitor",
	    "monitorns"))
	note("7. `burn`, 1 thread, built with neither -p nor -pg: libmon's")
	note("   build calls `monitor()` on its own text (`__executable_start`")
	note("   to `etext`, no call-count cells), glibc's calls")
	note("   `monstartup()`; the cost of sampling alone.  The next line is")
	note("   the same program with no profiler, each thread opening the")
	note("   clock libmon uses (a perf_event task-clock at 1000 Hz) with")
	note("   nowhere for its samples to go: the kernel's timer interrupts")
	note("   alone, the floor under libmon's figure (libmon adds a ring")
	note("   the kernel writes and a few signals a second to drain it).")
	note("   As the cost is weighed to a tenth of a percent, these builds")
	note("   run more times than the others (see the bench line above).")
}

# burn1's build v within 0.01x of build w, both against the base.
function within(text, v, w,    x) {
	if (!has("burn1", v, "cpu") || !has("burn1", w, "cpu") ||
	    !has("burn1", "base", "cpu"))
		return sprintf("%s: n/a", text)
	x = med("burn1", v, "cpu") - med("burn1", w, "cpu")
	x /= med("burn1", "base", "cpu")
	return sprintf("%s: %s (%+.4fx)", text, (x <= 0.01 ? "PASS" : "MISS"),
	    x)
}
AWK

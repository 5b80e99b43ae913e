# Row 11: fork+exec -- a program with 20 MiB of text forks FORKS
# times, the child execs /bin/true; microseconds per fork+exec, also
# on the empty hook (bench/floor.S, build hookp), with libmon's timer
# clock (mont), and unprofiled with a thread started in each child
# before its exec (forkexec.c -DFLOOR): what the kernel costs a child
# for the drainer thread libmon's perf clock starts in it; and that
# with the parent, too, as under the perf clock, its events opened and
# a thread that naps (floorev, FLOOR_EVENTS): all of the kernel's part
# of that clock's cost, the profiler left out.

FORKS=300		# fork+exec of /bin/true
EVPERIOD=1000000	# ns, the perf clock's period while coarse (ring.c)

job forkx forkexec "base mon pg hookp mont floor floorev" "$FORKS"
jobenv forkx mont PROFCLOCK=timer
jobenv forkx floorev FLOOR_EVENTS=$EVPERIOD
noreport forkx

build_forkexec() {
	build3 forkexec bench/forkexec.c
	build forkexec hookp bench/forkexec.c
	build forkexec floor bench/forkexec.c
}
on_build build_forkexec

# The microseconds of one, from the program's own clock.
us_each() {
	rec "$mj $mv us $(sed -n 's/^[a-z]* \([0-9.]*\) us .*/\1/p' "$out")"
}
on_run forkx us_each

table <<'AWK'
END {
	row(11, "us per fork+exec, 20 MiB of text",
	    cell("forkx", "base", "us", "%.1f"),
	    cell("forkx", "mon", "us", "%.1f"),
	    cell("forkx", "pg", "us", "%.1f"),
	    ratio("forkx", "mon", "us"), ratio("forkx", "pg", "us"),
	    "<= 1.2x")
	row(11, "  the same, -p on the empty hook (bench/floor.S)", "-",
	    cell("forkx", "hookp", "us", "%.1f"), "-",
	    ratio("forkx", "hookp", "us"), "-", "-")
	row(11, "  the same, libmon PROFCLOCK=timer", "-",
	    cell("forkx", "mont", "us", "%.1f"), "-",
	    ratio("forkx", "mont", "us"), "-", "-")
	row(11, "  the same, no profiler: a thread started in each child" \
	    " before its exec (forkexec.c -DFLOOR)", "-",
	    cell("forkx", "floor", "us", "%.1f"), "-",
	    ratio("forkx", "floor", "us"), "-", "-")
	row(11, "  the same, no profiler: that, and the parent with perf" \
	    " events like the perf clock's, every 1 ms, and a thread" \
	    " that naps (FLOOR_EVENTS=1000000)", "-",
	    cell("forkx", "floorev", "us", "%.1f"), "-",
	    ratio("forkx", "floorev", "us"), "-", "-")
	goal(verdict("row 11, fork+exec, libmon <= 1.2x", "forkx",
	    "mon", "us", 1.2))
	check("row 11, fork+exec, for comparison, not targets: libmon" \
	    " under PROFCLOCK=timer " ratio("forkx", "mont", "us") \
	    "; no profiler, the kernel's part of the default (perf)" \
	    " clock: a thread in each child " \
	    ratio("forkx", "floor", "us") ", and the parent's events" \
	    " and thread too " ratio("forkx", "floorev", "us"))
	note("11. `forkexec`: a program with 20 MiB of text (padding that")
	note("   never runs) forks, the child execs /bin/true, the parent")
	note("   waits; the wall-clock time of one, from the program's own")
	note("   clock.  The empty hook is the program compiled with `-p`")
	note("   through `-specs=lib/mon-build.specs` and linked with")
	note("   `bench/floor.S` (a bare-ret `mcount`) instead of libmon.")
	note("   The lines marked no profiler sit in libmon's column but run")
	note("   no profiler.  The next to last starts a thread in each child")
	note("   before the exec: the kernel's part of the drainer thread")
	note("   libmon's perf clock starts in a fork child (lib/ring.c).")
	note("   The last also opens, in the parent, events as that clock")
	note("   opens them, never read, and starts a thread that wakes every")
	note("   20 ms, as its drainer does: all of the kernel's part of the")
	note("   default clock's cost here, which libmon's own line cannot go")
	note("   below.  The timer clock (PROFCLOCK=timer) starts no thread")
	note("   and opens no events.")
}
AWK

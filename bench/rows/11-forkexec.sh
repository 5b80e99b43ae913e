# Row 11: fork+exec -- a program with 20 MiB of text forks FORKS
# times, the child execs /bin/true; microseconds per fork+exec, also
# on the empty hook (bench/floor.S, build hookp), with libmon's timer
# clock (mont), and unprofiled with a thread started in each child
# before its exec (forkexec.c -DFLOOR): what the kernel costs a child
# for the drainer thread libmon's perf clock starts in it.

FORKS=300		# fork+exec of /bin/true

job forkx forkexec "base mon pg hookp mont floor" "$FORKS"
jobenv forkx mont PROFCLOCK=timer
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
	goal(verdict("row 11, fork+exec, libmon <= 1.2x", "forkx",
	    "mon", "us", 1.2))
	note("11. `forkexec`: a program with 20 MiB of text (padding that")
	note("   never runs) forks, the child execs /bin/true, the parent")
	note("   waits; the wall-clock time of one, from the program's own")
	note("   clock.  The floor is the program compiled with `-p` through")
	note("   `-specs=lib/mon-build.specs` and linked with `bench/floor.S`")
	note("   (a bare-ret `mcount`) instead of libmon.  The last line")
	note("   starts a thread in each child before the exec, no profiler")
	note("   at all: the kernel's part of the drainer thread libmon's")
	note("   perf clock starts in a fork child (lib/ring.c).")
}
AWK

# Row 11: fork+exec -- a program with 20 MiB of text forks FORKS
# times, the child execs /bin/true; microseconds per fork+exec, also
# on the empty hook (bench/floor.S, build hookp).

FORKS=300		# fork+exec of /bin/true

job forkx forkexec "base mon pg hookp" "$FORKS"
noreport forkx

build_forkexec() {
	build3 forkexec bench/forkexec.c
	build forkexec hookp bench/forkexec.c
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
	goal(verdict("row 11, fork+exec, libmon <= 1.2x", "forkx",
	    "mon", "us", 1.2))
	note("11. `forkexec`: a program with 20 MiB of text (padding that")
	note("   never runs) forks, the child execs /bin/true, the parent")
	note("   waits; the wall-clock time of one, from the program's own")
	note("   clock.  The floor is the program compiled with `-p` through")
	note("   `-specs=lib/mon-build.specs` and linked with `bench/floor.S`")
	note("   (a bare-ret `mcount`) instead of libmon.")
}
AWK

# Row 10: a long run in a big library -- sled() in libsled.so (not
# instrumented), 1 MiB of straight-line code, libmon sampling at
# SLEDHZ; the samples prof -s finds in no known function.

SLEDCALLS=12000		# calls of the 1 MiB sled in libsled.so
SLEDHZ=100000		# libmon's sampling rate (PROFHZ)
tablevar sledhz $SLEDHZ

job sled sled "base mon pg" "$SLEDCALLS"
jobenv sled mon PROFHZ=$SLEDHZ

build_sled() {
	solib sled bench/sled_lib.c
	build3 sled bench/sled.c -L"$B" -lsled '-Wl,-rpath,$ORIGIN'
}
on_build build_sled

# The samples of libmon's run and the share prof could not attribute
# to any function, from prof -s.
sled_stats() {
	[ "$mv" = mon ] || return 0
	[ -x "$PROF" ] && [ -s "$d/mon.out" ] || return 0
	$PROF -s "$B/sled.mon" "$d/mon.out" 2>"$d/stats" >/dev/null ||
	    return 0
	st=$(sed -n 's/^samples: \([0-9]*\) total.*/\1/p' "$d/stats")
	un=$(sed -n 's/^unattributed: \([0-9]*\) samples.*/\1/p' "$d/stats")
	rec "sled mon samples $st"
	rec "sled mon unattr $(awk -v u="$un" -v t="$st" \
	    'BEGIN { printf "%.2f", (t > 0 ? 100 * u / t : 0) }')"
}
on_run sled sled_stats

table <<'AWK'
END {
	row(10, sprintf("CPU s, sled: 1 MiB of library code (libmon at %d Hz)",
	    sledhz), cell("sled", "base", "cpu", "%.3f"),
	    cell("sled", "mon", "cpu", "%.3f"),
	    cell("sled", "pg", "cpu", "%.3f"),
	    ratio("sled", "mon", "cpu"), ratio("sled", "pg", "cpu"), "-")
	row(10, "samples; % in no known function", "-", unattr("sled", "mon"),
	    "-", "-", "-", "~0%")
	note("10. `sled`: the program calls `sled()` in `libsled.so`, built")
	note("   without -p/-pg: 64 functions laid end to end, 1 MiB of")
	note("   straight-line additions, 262144 distinct instruction")
	note("   addresses.  libmon's build samples at the rate the row names")
	note("   (PROFHZ), so that a run of a second or two puts 100k and")
	note("   more distinct library pcs in its outside table, as a long run")
	note("   in libc or libcrypto does at the default rate.  The next")
	note("   line is the samples of libmon's run and the share `prof -s`")
	note("   finds in no known function (samples the runtime had no room")
	note("   for end there).  glibc's gmon does not sample outside the")
	note("   program.")
}

# Samples and the share in no known function, from prof -s.
function unattr(j, v) {
	if (!has(j, v, "unattr"))
		return why(j, v, "unattr", 1)
	return sprintf("%.0f; %.2f%%", med(j, v, "samples"),
	    med(j, v, "unattr"))
}
AWK

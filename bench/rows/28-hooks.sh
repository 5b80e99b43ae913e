# Row 28: exact per-call time -- leaf() x CALLS28 in one thread (row 1's
# program) and fib(FIBN28) x FIBREPS28 (row 2's), compiled with
# -finstrument-functions -fno-omit-frame-pointer: linked with libmon
# (moncy, every call timed), with hooks that return at once (hookcy,
# bench/floor.S: the floor) and run under uftrace record (uftcy, the
# per-call peer, which writes every entry and exit to a trace), beside
# the unprofiled build.  CPU nanoseconds a call above the floor; the
# target (issue 27) is at most 20 ns, and 5 times or more cheaper than
# uftrace.  Smaller than rows 1 and 2: uftrace writes some 32 bytes of
# trace a call.

CALLS28=4000000		# calls of leaf
FIBN28=27		# fib(27): 317,811 calls
FIBREPS28=8
tablevar calls28 $CALLS28
tablevar fibn28 $FIBN28
tablevar fibreps28 $FIBREPS28

job hcalls calls "base moncy hookcy uftcy" "1 $CALLS28"
job hfib fib "base moncy hookcy uftcy" "$FIBN28 $FIBREPS28"
# The clock by itself: a call timed reads the TSC twice.
job htsc tscpair "base" "10000000"
noreport hcalls hfib htsc

tsc_pair28() {
	rec "$mj $mv tsc2 $(sed -n 's/^tsc2 \([0-9.]*\)$/\1/p' "$out")"
}
on_run htsc tsc_pair28

build_hooks28() {
	for v in moncy hookcy uftcy; do
		build calls $v bench/calls.c
		build fib $v bench/fib.c
	done
	build tscpair base bench/tscpair.c
}
on_build build_hooks28

table <<'AWK'
# CPU ns a call of build v above the floor's, over n calls; "-" if none.
function above28(j, v, n) {
	if (!has(j, v, "cpu") || !has(j, "hookcy", "cpu") || n <= 0)
		return ""
	return (med(j, v, "cpu") - med(j, "hookcy", "cpu")) * 1e9 / n
}

function ns28(x) {
	return x == "" ? "n/a (no data)" : sprintf("%.1f", x)
}

END {
	for (jj28 = 1; jj28 <= 2; jj28++) {
		j = jj28 == 1 ? "hcalls" : "hfib"
		if (j == "hcalls") {
			n28 = calls28
			w28 = sprintf("leaf() x %dM", calls28 / 1e6)
		} else {
			# fib(n) makes 2 F(n+1) - 1 calls.
			a28 = 0; b28 = 1
			for (i28 = 0; i28 <= fibn28; i28++) {
				t28 = a28 + b28; a28 = b28; b28 = t28
			}
			n28 = fibreps28 * (2 * a28 - 1)
			w28 = sprintf("fib(%d) x %d", fibn28, fibreps28)
		}
		m28 = above28(j, "moncy", n28)
		u28 = above28(j, "uftcy", n28)
		row(28, sprintf("CPU ns a call above the empty hooks, %s," \
		    " -finstrument-functions; unprofiled / floor CPU s;" \
		    " glibc's column: uftrace record", w28),
		    cell(j, "base", "cpu", "%.3f") " / " \
		    cell(j, "hookcy", "cpu", "%.3f"), ns28(m28),
		    has(j, "uftcy", "cpu") ? ns28(u28) : \
		    why(j, "uftcy", "cpu"),
		    "-",
		    m28 == "" || u28 == "" || m28 <= 0 ? "-" : \
		    sprintf("%.1fx libmon's", u28 / m28),
		    "<= 20 ns, uftrace >= 5x")
		goal(m28 == "" ? "row 28, " w28 ", libmon <= 20 ns a call" \
		    " above the empty hooks: n/a" : sprintf("row 28, %s," \
		    " libmon <= 20 ns a call above the empty hooks: %s" \
		    " (%.1f ns)", w28, m28 <= 20 ? "PASS" : "MISS", m28))
		if (m28 != "" && u28 != "" && m28 > 0)
			goal(sprintf("row 28, %s, uftrace >= 5x libmon's" \
			    " cost a call: %s (%.1fx)", w28, u28 >= 5 * m28 ? \
			    "PASS" : "MISS", u28 / m28))
	}
	row(28, "the clock alone: a pair of TSC reads, CPU ns" \
	    " (bench/tscpair.c)", "-", cell("htsc", "base", "tsc2", "%.1f"),
	    "-", "-", "-", "-")
	note("28. `calls` of row 1 and `fib` of row 2, compiled with")
	note("   `-finstrument-functions -fno-omit-frame-pointer` and linked")
	note("   with libmon (every call timed: lib/calls.c), with hooks")
	note("   that only return (bench/floor.S), and run under")
	note("   `uftrace record` (the same build without libmon); CPU")
	note("   nanoseconds a call above the empty hooks, from the least")
	note("   CPU time of the runs.  uftrace's CPU holds its recorder")
	note("   threads, which write the trace the program's calls fill.")
	note("   A timed call reads the TSC as it starts and as it ends;")
	note("   `tscpair` times such pairs alone, on its thread's CPU")
	note("   clock: the part of libmon's cost no hook code can shed.")
}
AWK

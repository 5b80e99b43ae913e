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
# Accuracy: four parts timed by the program itself.
job hacc cygparts "base moncy" ""
noreport hcalls hfib htsc hacc

tsc_pair28() {
	rec "$mj $mv tsc2 $(sed -n 's/^tsc2 \([0-9.]*\)$/\1/p' "$out")"
}
on_run htsc tsc_pair28

# Each part's measured inclusive seconds, from prof -q's measured call
# graph, against the program's own CLOCK_MONOTONIC time around its
# calls: m_P, t_P and err_P (per cent); err the largest.
acc_parts28() {
	[ "$mv" = moncy ] || return 0
	truth=$(sed -n 's/^truth \(.*\)$/\1/p' "$out")
	if [ ! -s "$d/mon.out" ]; then
		rec "$mj $mv rna no mon.out written"
		return 0
	fi
	if ! $PROF -q "$bin" "$d/mon.out" >"$d/graph.$mr" 2>/dev/null; then
		rec "$mj $mv rna prof -q failed"
		return 0
	fi
	awk -v truth="$truth" -v pre="$mj $mv" '
	BEGIN {
		n = split(truth, f, " ")
		for (i = 1; i < n; i += 2)
			t[f[i]] = f[i + 1]
	}
	/^measured call graph/ { on = 1 }
	on && /^\[[0-9]+\] / && ($(NF - 1) in t) { m[$(NF - 1)] = $2 }
	END {
		err = 0
		for (p in t) {
			printf "%s t_%s %s\n", pre, p, t[p]
			if (!(p in m) || t[p] <= 0) {
				err = 100
				continue
			}
			e = 100 * (m[p] - t[p]) / t[p]
			if (e < 0)
				e = -e
			printf "%s m_%s %s\n%s err_%s %.3f\n", pre, p, m[p],
			    pre, p, e
			if (e > err)
				err = e
		}
		printf "%s err %.3f\n", pre, err
	}' "$d/graph.$mr" >>"$RES"
}
on_run hacc acc_parts28

build_hooks28() {
	for v in moncy hookcy uftcy; do
		build calls $v bench/calls.c
		build fib $v bench/fib.c
	done
	build tscpair base bench/tscpair.c
	build cygparts base bench/cygparts.c
	build cygparts moncy bench/cygparts.c
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
	for (i28 = 1; i28 <= 4; i28++) {
		p28 = "part_" substr("abcd", i28, 1)
		row(28, sprintf("measured inclusive s (its own CLOCK_MONOTONIC" \
		    " s), %s, error %%", p28), "-",
		    !has("hacc", "moncy", "m_" p28) ? \
		    why("hacc", "moncy", "m_" p28, 1) : \
		    sprintf("%.4f (%.4f), %.2f%%",
		    med("hacc", "moncy", "m_" p28),
		    med("hacc", "moncy", "t_" p28),
		    med("hacc", "moncy", "err_" p28)), "-", "-", "-", "<= 2%")
	}
	goal(!has("hacc", "moncy", "err") ? "row 28, cygparts, each" \
	    " part's measured inclusive time within 2% of its own: n/a" : \
	    sprintf("row 28, cygparts, each part's measured inclusive time" \
	    " within 2%% of its own: %s (%.2f%%)",
	    med("hacc", "moncy", "err") <= 2 ? "PASS" : "MISS",
	    med("hacc", "moncy", "err")))
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
	note("   `cygparts` (the same build) holds the measured inclusive")
	note("   time of four parts -- 300 ms spinning, 100 calls of 1 ms,")
	note("   200 ms spinning on a second thread, 100 ms asleep there --")
	note("   from `prof -q`'s measured call graph to the wall time the")
	note("   program took around their calls (median of the runs).")
}
AWK

# table.awk -- from bench/out/results to the bench's table.
#
# Input: lines "JOB VAR KEY VALUE...", one per figure of one run (VAR is
# base, mon, pg, monitor, gmon or floor), "JOB VAR na REASON" when a build has
# no figures at all, "JOB VAR rna REASON" when it ran but has no report.
# Output, tab-separated:
#
#	R  row  measure  unprofiled  libmon  glibc  libmon-ratio  glibc-ratio  target
#	V  a verdict on one of libmon's targets (informational)
#	F  a failure that makes the bench exit 1
#
# Every figure is the median over the runs; a ratio is the median of
# the profiled build over the median of the unprofiled one.

function median(k,    m, i, j, t, a) {
	m = n[k]
	for (i = 1; i <= m; i++)
		a[i] = val[k, i] + 0
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}

function has(j, v, key) {
	return (j SUBSEP v SUBSEP key) in n
}

function med(j, v, key) {
	return median(j SUBSEP v SUBSEP key)
}

# Why (j, v) has no figure for key: the first reason on record.
function why(j, v, key, fromreport) {
	if ((j SUBSEP v) in na)
		return "n/a (" na[j, v] ")"
	if (fromreport && (j SUBSEP v) in rna)
		return "n/a (" rna[j, v] ")"
	return "n/a (no data)"
}

function cell(j, v, key, fmt, fromreport) {
	if (has(j, v, key))
		return sprintf(fmt, med(j, v, key))
	return why(j, v, key, fromreport)
}

# ratio(j, v, key [, jb, vb, kb [, digits]]): median over the base's,
# to 2 decimals unless digits says otherwise.
function ratio(j, v, key, jb, vb, kb, digits,    x) {
	if (jb == "")
		jb = j
	if (vb == "")
		vb = "base"
	if (kb == "")
		kb = key
	if (!has(j, v, key) || !has(jb, vb, kb) || med(jb, vb, kb) <= 0)
		return "-"
	x = med(j, v, key) / med(jb, vb, kb)
	if (digits == "")
		digits = x < 0.1 ? 4 : 2
	return sprintf("%." digits "fx", x)
}

function row(r, m, b, l, g, lr, gr, t) {
	printf "R\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r, m, b, l, g, lr, gr, t
}

function verdict(text, j, v, key, limit,    x) {
	if (!has(j, v, key) || !has(j, "base", key)) {
		printf "V\t%s: n/a\n", text
		return
	}
	x = med(j, v, key) / med(j, "base", key)
	printf "V\t%s: %s (%.3fx)\n", text, x <= limit ? "PASS" : "MISS", x
}

function split3(j, v, from,    p) {
	p = from ? "p" : "t"
	if (!has(j, v, p "a"))
		return why(j, v, p "a", from)
	return sprintf("%.1f/%.1f/%.1f", med(j, v, p "a"), med(j, v, p "b"),
	    med(j, v, p "c"))
}

# Calls recorded over calls made, or "-".
function frac(j, v, made) {
	if (!has(j, v, "calls") || made <= 0)
		return "-"
	return sprintf("%.4f", med(j, v, "calls") / made)
}

# Calls recorded against calls made: row r, job j.
function callrow(r, j, label,    made, m) {
	made = has(j, "base", "made") ? med(j, "base", "made") : 0
	m = made ? sprintf("%.0f made", made) : why(j, "base", "made", 0)
	row(r, label, m, cell(j, "mon", "calls", "%.0f", 1),
	    cell(j, "pg", "calls", "%.0f", 1), frac(j, "mon", made),
	    frac(j, "pg", made), "= made")
}

# The report's seconds in part_a, part_b and part_c over the seconds the
# same runs' threads measured there on their own CPU clocks.
function acct(j, v) {
	if (!has(j, v, "secs"))
		return why(j, v, "secs", 1)
	return sprintf("%.3f / %.3f", med(j, v, "secs"), med(j, v, "tcpu"))
}

# Samples and the share in no known function, from prof -s.
function unattr(j, v) {
	if (!has(j, v, "unattr"))
		return why(j, v, "unattr", 1)
	return sprintf("%.0f; %.2f%%", med(j, v, "samples"),
	    med(j, v, "unattr"))
}

function topcell(v, i) {
	if (("real" SUBSEP v SUBSEP i) in top)
		return top["real", v, i]
	return why("real", v, "top", 1)
}

$3 == "na" || $3 == "rna" {
	s = $0
	sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", s)
	if (!(($1 SUBSEP $2) in na) && $3 == "na")
		na[$1, $2] = s
	if (!(($1 SUBSEP $2) in rna) && $3 == "rna")
		rna[$1, $2] = s
	next
}

$3 == "top" {
	s = $0
	sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ /, "", s)
	if (length(s) > 28)
		s = substr(s, 1, 27) "~"
	top[$1, $2, $4] = sprintf("%s %.1f%%", s, $5)
	next
}

$3 == "sum" {
	if (($1 SUBSEP "sum") in sum0) {
		if ($4 != sum0[$1, "sum"] && !(($1) in bad)) {
			bad[$1] = 1
			printf "F\t%s: checksum %s from %s, %s before\n",
			    $1, $4, $2, sum0[$1, "sum"]
		}
	} else
		sum0[$1, "sum"] = $4
	next
}

{
	k = $1 SUBSEP $2 SUBSEP $3
	val[k, ++n[k]] = $4
}

END {
	# 1. mcount overhead
	row(1, sprintf("CPU s, leaf() x %dM, 1 thread", calls1 / 1e6),
	    cell("calls1", "base", "cpu", "%.3f"),
	    cell("calls1", "mon", "cpu", "%.3f"),
	    cell("calls1", "pg", "cpu", "%.3f"),
	    ratio("calls1", "mon", "cpu"), ratio("calls1", "pg", "cpu"),
	    "<= 2.5x")
	callrow(1, "calls1", "calls of leaf(), 1 thread")

	# 2. recursion
	row(2, sprintf("CPU s, fib(%d) x %d, -O2", fibn, fibreps),
	    cell("fib", "base", "cpu", "%.3f"), cell("fib", "mon", "cpu", "%.3f"),
	    cell("fib", "pg", "cpu", "%.3f"),
	    ratio("fib", "mon", "cpu"), ratio("fib", "pg", "cpu"), "<= 3x")

	# 3. threads
	for (t = 1; t <= 8; t *= 2)
		callrow(3, "thr" t, sprintf("calls of leaf(), %d thread%s",
		    t, t > 1 ? "s" : ""))
	for (t = 1; t <= 8; t *= 2) {
		j = "thr" t
		row(3, sprintf("CPU s, %dM calls in %d thread%s",
		    thrcalls / 1e6, t, t > 1 ? "s" : ""),
		    cell(j, "base", "cpu", "%.3f"), cell(j, "mon", "cpu", "%.3f"),
		    cell(j, "pg", "cpu", "%.3f"),
		    ratio(j, "mon", "cpu"), ratio(j, "pg", "cpu"),
		    t == 2 ? "<= 3x" : "-")
	}

	# 4. accuracy
	for (t = 1; t <= 4; t *= 4) {
		j = "burn" t
		th = sprintf("%d thread%s", t, t > 1 ? "s" : "")
		row(4, "%time a/b/c (truth 50/30/20), " th,
		    split3(j, "base", 0), split3(j, "mon", 1),
		    split3(j, "pg", 1), "-", "-", "-")
		row(4, "largest error, points, " th, "-",
		    cell(j, "mon", "err", "%.1f", 1),
		    cell(j, "pg", "err", "%.1f", 1), "-", "-", "-")
	}

	# 5. shared library
	row(5, "% in the .so (not -p/-pg; main is)",
	    cell("solib", "base", "truth", "%.1f (truth)"),
	    cell("solib", "mon", "share", "%.1f", 1),
	    cell("solib", "pg", "share", "%.1f", 1), "-", "-", "-")
	row(5, "% in main_part (the program)",
	    has("solib", "base", "truth") ? sprintf("%.1f (truth)",
	    100 - med("solib", "base", "truth")) : why("solib", "base", "truth"),
	    cell("solib", "mon", "mainshare", "%.1f", 1),
	    cell("solib", "pg", "mainshare", "%.1f", 1), "-", "-", "-")

	# 6. time accounted
	for (t = 1; t <= 4; t *= 4) {
		j = "burn" t
		row(6, sprintf("report s / thread CPU clock s, parts a+b+c," \
		    " burn, %d thread%s", t, t > 1 ? "s" : ""),
		    cell(j, "base", "tcpu", "%.3f s measured"), acct(j, "mon"),
		    acct(j, "pg"),
		    cell(j, "mon", "acct", "%.3f", 1),
		    cell(j, "pg", "acct", "%.3f", 1), "~1.0")
	}

	# 7. sampling alone
	row(7, "CPU s, burn, monitor()/monstartup() only",
	    cell("burn1", "base", "cpu", "%.3f"),
	    cell("burn1", "monitor", "cpu", "%.3f"),
	    cell("burn1", "gmon", "cpu", "%.3f"),
	    ratio("burn1", "monitor", "cpu", "", "", "", 3),
	    ratio("burn1", "gmon", "cpu", "", "", "", 3), "<= 1.02x")
	row(7, "CPU s, burn, bare perf_event 1 kHz timer, no profiler (floor)",
	    cell("burn1", "base", "cpu", "%.3f"),
	    cell("burn1", "floor", "cpu", "%.3f"), "-",
	    ratio("burn1", "floor", "cpu", "", "", "", 3), "-", "-")

	# 8. report speed (ratios against gprof)
	row(8, sprintf("report CPU s, %d functions, ratio vs gprof",
	    nfuncs), "-",
	    cell("many", "mon", "rtime", "%.3f"),
	    cell("many", "pg", "rtime", "%.3f"),
	    ratio("many", "mon", "rtime", "many", "pg"),
	    ratio("many", "pg", "rtime", "many", "pg"), "-")
	row(8, "rows in the report", "-", cell("many", "mon", "rows", "%.0f"),
	    cell("many", "pg", "rows", "%.0f"), "-", "-", "-")

	# 9. a program
	row(9, "CPU s, real (4 threads, libreal.so)",
	    cell("real", "base", "cpu", "%.3f"), cell("real", "mon", "cpu", "%.3f"),
	    cell("real", "pg", "cpu", "%.3f"),
	    ratio("real", "mon", "cpu"), ratio("real", "pg", "cpu"), "-")
	callrow(9, "real", "calls of gen_expr()")
	for (i = 1; i <= 5; i++)
		row(9, "top " i " (last run)", "-", topcell("mon", i),
		    topcell("pg", i), "-", "-", "-")

	# 10. a long run in a big library
	row(10, sprintf("CPU s, sled: 1 MiB of library code (libmon at %d Hz)",
	    sledhz), cell("sled", "base", "cpu", "%.3f"),
	    cell("sled", "mon", "cpu", "%.3f"),
	    cell("sled", "pg", "cpu", "%.3f"),
	    ratio("sled", "mon", "cpu"), ratio("sled", "pg", "cpu"), "-")
	row(10, "samples; % in no known function", "-", unattr("sled", "mon"),
	    "-", "-", "-", "~0%")

	# 11, 12. fork+exec, thread start and end
	row(11, "us per fork+exec, 20 MiB of text",
	    cell("forkx", "base", "us", "%.1f"),
	    cell("forkx", "mon", "us", "%.1f"),
	    cell("forkx", "pg", "us", "%.1f"),
	    ratio("forkx", "mon", "us"), ratio("forkx", "pg", "us"), "-")
	row(12, "us per thread created and joined",
	    cell("thrs", "base", "us", "%.1f"),
	    cell("thrs", "mon", "us", "%.1f"),
	    cell("thrs", "pg", "us", "%.1f"),
	    ratio("thrs", "mon", "us"), ratio("thrs", "pg", "us"), "-")

	# 13. link-time optimisation
	row(13, sprintf("CPU s, leaf() x %dM, 1 thread, -flto", calls1 / 1e6),
	    cell("lto", "base", "cpu", "%.3f"),
	    cell("lto", "mon", "cpu", "%.3f"),
	    cell("lto", "pg", "cpu", "%.3f"),
	    ratio("lto", "mon", "cpu"), ratio("lto", "pg", "cpu"), "-")
	callrow(13, "lto", "calls of leaf(), 1 thread, -flto")

	# 14, 15. a server profiled in parts
	row(14, "us per monsnapshot(), 4 busy threads (none held)", "-",
	    cell("snaps", "mon", "us", "%.0f"), "-", "-", "-", "-")
	row(14, "longest gap in a busy thread's steps, us",
	    cell("snaps", "base", "stall", "%.0f"),
	    cell("snaps", "mon", "stall", "%.0f"),
	    cell("snaps", "pg", "stall", "%.0f"),
	    ratio("snaps", "mon", "stall"), ratio("snaps", "pg", "stall"),
	    "-")
	row(15, "CPU s, 4 busy threads, libmon with PROFINTERVAL=1",
	    cell("snapi", "base", "cpu", "%.3f"),
	    cell("snapi", "mon", "cpu", "%.3f"),
	    cell("snapi", "pg", "cpu", "%.3f"),
	    ratio("snapi", "mon", "cpu"), ratio("snapi", "pg", "cpu"), "-")
	row(15, "CPU s, libmon without PROFINTERVAL, then with it (ratio)",
	    cell("snapn", "mon", "cpu", "%.3f"),
	    cell("snapi", "mon", "cpu", "%.3f"), "-",
	    ratio("snapi", "mon", "cpu", "snapn", "mon", "", 3), "-", "-")
	row(15, "parts written", "-", cell("snapi", "mon", "parts", "%.0f"),
	    "-", "-", "-", "-")

	verdict("row 1, leaf() x " calls1 / 1e6 "M, libmon <= 2.5x",
	    "calls1", "mon", "cpu", 2.5)
	verdict("row 2, fib, libmon <= 3x", "fib", "mon", "cpu", 3)
	exact = "PASS"
	for (t = 1; t <= 8; t *= 2) {
		j = "thr" t
		if (!has(j, "mon", "calls") || !has(j, "base", "made")) {
			exact = "n/a"
			break
		}
		# every run, not the median, must be exact
		for (i = 1; i <= n[j, "mon", "calls"]; i++)
			if (val[j, "mon", "calls", i] + 0 != med(j, "base", "made"))
				exact = "MISS"
	}
	printf "V\trow 3, libmon's calls exact in 1, 2, 4, 8 threads: %s\n", exact
	verdict("row 3, 2 threads, libmon CPU <= 3x", "thr2", "mon", "cpu", 3)
	verdict("row 7, sampling at the default rate, libmon <= 1.02x",
	    "burn1", "monitor", "cpu", 1.02)
}

# table.awk -- from bench/out/results to the bench's table.
#
# Input: lines "JOB VAR KEY VALUE...", one per figure of one run (VAR is
# base, mon, mont, monns, pg, monitor, monitorns, gmon, floor, or perf
# for the reference rows 9 and 14 are held to), "JOB VAR na REASON" when a build has
# no figures at all, "JOB VAR rna REASON" when it ran but has no report.
# Output, tab-separated:
#
#	R  row  measure  unprofiled  libmon  glibc  libmon-ratio  glibc-ratio  target
#	V  a verdict on one of libmon's targets (informational)
#	F  a failure that makes the bench exit 1
#
# Every figure is the median over the runs, but for the costs -- CPU
# seconds ("cpu") and microseconds per fork or thread ("us") -- which are
# the least of the runs: on a shared host other tenants' load only ever
# adds to what a run costs (in one run of this bench the unprofiled
# SQLite build took from 1.94 to 3.19 s), so the least is the run that
# was disturbed least, for every build alike.  A ratio is the profiled
# build's figure over the unprofiled one's.

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

function least(k,    m, i, x) {
	m = n[k]
	x = val[k, 1] + 0
	for (i = 2; i <= m; i++)
		if (val[k, i] + 0 < x)
			x = val[k, i] + 0
	return x
}

function med(j, v, key) {
	if (key == "cpu" || key == "us")
		return least(j SUBSEP v SUBSEP key)
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

# Rank i of the last run's report of build v of job j (perf's as v
# base), as "name share%".
function topcell(j, v, i) {
	if ((j SUBSEP v SUBSEP i) in top)
		return top[j, v, i]
	if (v != "base")
		return why(j, v, "top", 1)
	if ((j SUBSEP "base") in na || (j SUBSEP "perf") in na)
		return perfcell(j)
	return why(j, "perf", "top", 1)
}

# What the unprofiled column says of the perf reference of job j.
function perfcell(j,    s) {
	if ((j SUBSEP "base") in na)
		return why(j, "base", "cpu", 0)
	if ((j SUBSEP "perf") in na)
		return "n/a (" na[j, "perf"] ")"
	if (!has(j, "perf", "runs"))
		return why(j, "perf", "runs", 0)
	s = sprintf("perf %d Hz, %d runs", perfhz, med(j, "perf", "runs"))
	if (has(j, "perf", "mode"))
		s = s ", user mode only"
	return s
}

# A figure against perf: with no perf, why there is none.
function pcell(j, v, key, fmt) {
	if (!has(j, v, key) && (j SUBSEP "perf") in na)
		return perfcell(j)
	return cell(j, v, key, fmt, 1)
}

# Rows against perf: the top-10 overlap and the L1 distance, and the
# top 5 of each report.
function perfrows(r, j,    i) {
	row(r, "top-10 names shared with perf's top 10 (median)", perfcell(j),
	    pcell(j, "mon", "overlap", "%g/10"),
	    pcell(j, "pg", "overlap", "%g/10"), "-", "-", ">= 9/10")
	row(r, "L1 distance to perf, points, union of the top 20s",
	    perfcell(j), pcell(j, "mon", "l1", "%.1f"),
	    pcell(j, "pg", "l1", "%.1f"), "-", "-", "<= 15")
	row(r, "  L1 of the build alone: perf on it (profiler's code left" \
	    " out) vs perf on the unprofiled one",
	    pcell(j, "base", "bl1", "%.1f (perf vs perf)"),
	    pcell(j, "mon", "bl1", "%.1f"), pcell(j, "pg", "bl1", "%.1f"),
	    "-", "-", "-")
	row(r, "  L1 of the report alone: vs perf on the same run of its" \
	    " build", "-", pcell(j, "mon", "al1", "%.1f"),
	    pcell(j, "pg", "al1", "%.1f"), "-", "-", "-")
	for (i = 1; i <= 5; i++)
		row(r, "top " i " (perf: all runs; reports: the last)",
		    topcell(j, "base", i),
		    topcell(j, "mon", i), topcell(j, "pg", i), "-", "-", "-")
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

# A target on a median: at most (or, with atleast, at least) limit.
# "A/B" of a job's figures key1 and key2 (t1/t2, i1/i2), medians.
function pair(j, v, k) {
	if (!has(j, v, k "1"))
		return why(j, v, k "1", k == "i")
	return sprintf("%.1f/%.1f", med(j, v, k "1"), med(j, v, k "2"))
}

# libmon's CPU ratio at least 1.5 times below glibc's.
function cheaper(text, j,    x) {
	if (!has(j, "mon", "cpu") || !has(j, "pg", "cpu")) {
		printf "V\t%s: n/a\n", text
		return
	}
	x = med(j, "pg", "cpu") / med(j, "mon", "cpu")
	printf "V\t%s: %s (%.2fx)\n", text, (x >= 1.5 ? "PASS" : "MISS"), x
}

# burn1's build v within 0.01x of build w, both against the base.
function within(text, v, w,    x) {
	if (!has("burn1", v, "cpu") || !has("burn1", w, "cpu") ||
	    !has("burn1", "base", "cpu")) {
		printf "V\t%s: n/a\n", text
		return
	}
	x = med("burn1", v, "cpu") - med("burn1", w, "cpu")
	x /= med("burn1", "base", "cpu")
	printf "V\t%s: %s (%+.4fx)\n", text, (x <= 0.01 ? "PASS" : "MISS"), x
}

function target(text, j, v, key, limit, atleast,    x, ok) {
	if (!has(j, v, key)) {
		printf "V\t%s: n/a\n", text
		return
	}
	x = med(j, v, key)
	ok = atleast ? x >= limit : x <= limit
	printf "V\t%s: %s (%g)\n", text, ok ? "PASS" : "MISS", x
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
	perfrows(9, "real")

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

	# 14. SQLite against perf
	row(14, "CPU s, sqlite: SQLite in memory (bench/sqlite.c)",
	    cell("sqlite", "base", "cpu", "%.3f"),
	    cell("sqlite", "mon", "cpu", "%.3f"),
	    cell("sqlite", "pg", "cpu", "%.3f"),
	    ratio("sqlite", "mon", "cpu"), ratio("sqlite", "pg", "cpu"),
	    "<= 1.3x")
	perfrows(14, "sqlite")

	# 15. system time
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

	# 16. arcs
	for (t = 1; t <= 8; t *= 2) {
		j = "thr" t
		row(16, sprintf("calls along loop() -> leaf(), %d thread%s",
		    t, t > 1 ? "s" : ""),
		    cell(j, "base", "made", "%.0f made"),
		    cell(j, "mon", "arc", "%.0f", 1),
		    cell(j, "pg", "arc", "%.0f", 1),
		    ratio(j, "mon", "arc", j, "base", "made", 4),
		    ratio(j, "pg", "arc", j, "base", "made", 4), "= made")
	}

	# 17, 18. inclusive time, measured against the thread CPU clock
	row(17, "inclusive %time cheap_caller/costly_caller (gprof: estimate)",
	    pair("callers", "base", "t"), pair("callers", "mon", "i"),
	    pair("callers", "pg", "i"), "-", "-", "-")
	row(17, "largest error, points", "-",
	    cell("callers", "mon", "gerr", "%.1f", 1),
	    cell("callers", "pg", "gerr", "%.1f", 1), "-", "-", "<= 3")
	row(18, "inclusive %time ping/pong, mutual recursion",
	    pair("mutual", "base", "t"), pair("mutual", "mon", "i"),
	    pair("mutual", "pg", "i"), "-", "-", "-")
	row(18, "largest error, points", "-",
	    cell("mutual", "mon", "gerr", "%.1f", 1),
	    cell("mutual", "pg", "gerr", "%.1f", 1), "-", "-", "<= 3")

	# 19, 20. a server profiled in parts
	row(19, "us per monsnapshot(), 4 busy threads (none held)", "-",
	    cell("snaps", "mon", "us", "%.0f"), "-", "-", "-", "-")
	row(19, "longest gap in a busy thread's steps, us",
	    cell("snaps", "base", "stall", "%.0f"),
	    cell("snaps", "mon", "stall", "%.0f"),
	    cell("snaps", "pg", "stall", "%.0f"),
	    ratio("snaps", "mon", "stall"), ratio("snaps", "pg", "stall"),
	    "-")
	row(20, "CPU s, 4 busy threads, libmon with PROFINTERVAL=1",
	    cell("snapi", "base", "cpu", "%.3f"),
	    cell("snapi", "mon", "cpu", "%.3f"),
	    cell("snapi", "pg", "cpu", "%.3f"),
	    ratio("snapi", "mon", "cpu"), ratio("snapi", "pg", "cpu"), "-")
	row(20, "CPU s, libmon without PROFINTERVAL, then with it (ratio)",
	    cell("snapn", "mon", "cpu", "%.3f"),
	    cell("snapi", "mon", "cpu", "%.3f"), "-",
	    ratio("snapi", "mon", "cpu", "snapn", "mon", "", 3), "-", "-")
	row(20, "parts written", "-", cell("snapi", "mon", "parts", "%.0f"),
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
	target("row 9, real, libmon's top 10 shares >= 9 of perf's",
	    "real", "mon", "overlap", 9, 1)
	target("row 9, real, libmon's L1 distance to perf <= 15 points",
	    "real", "mon", "l1", 15)
	verdict("row 14, sqlite, libmon <= 1.3x", "sqlite", "mon", "cpu", 1.3)
	target("row 14, sqlite, libmon's top 10 shares >= 9 of perf's",
	    "sqlite", "mon", "overlap", 9, 1)
	target("row 14, sqlite, libmon's L1 distance to perf <= 15 points",
	    "sqlite", "mon", "l1", 15)
	target("row 15, user and system part each within 3 points, perf clock",
	    "sys", "mon", "err", 3)
	target("row 15, user and system part each within 3 points, timer clock",
	    "sys", "mont", "err", 3)
	cheaper("row 1, libmon at least 1.5x cheaper than glibc", "calls1")
	cheaper("row 2, libmon at least 1.5x cheaper than glibc", "fib")
	cheaper("row 3, 2 threads, libmon at least 1.5x cheaper than glibc",
	    "thr2")
	within("row 7, stacks cost within 0.01x, perf clock", "mon", "monns")
	within("row 7, stacks cost within 0.01x, itimer", "monitor",
	    "monitorns")
	exact = "PASS"
	for (t = 1; t <= 8; t *= 2) {
		j = "thr" t
		if (!has(j, "mon", "arc") || !has(j, "base", "made")) {
			exact = "n/a"
			break
		}
		for (i = 1; i <= n[j, "mon", "arc"]; i++)
			if (val[j, "mon", "arc", i] + 0 != med(j, "base", "made"))
				exact = "MISS"
	}
	printf "V\trow 16, libmon's arcs exact in 1, 2, 4, 8 threads: %s\n", exact
	target("row 17, each caller's inclusive share within 3 points",
	    "callers", "mon", "gerr", 3)
	target("row 18, ping and pong's inclusive shares within 3 points",
	    "mutual", "mon", "gerr", 3)
}

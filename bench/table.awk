# table.awk -- from bench/out/results to the bench's table: the code
# every row shares.  Each row's own lines are in its file in
# bench/rows, as an END block that bench/run appends to this program,
# in the order of the rows; a last END block prints the verdicts.
#
# Input: lines "JOB VAR KEY VALUE...", one per figure of one run (VAR is
# base, mon, mont, monns, monw, monwt, pg, monitor, monitorns, gmon,
# floor, or perf for the reference rows 9 and 14 are held to), "JOB VAR
# na REASON" when a build has no figures at all, "JOB VAR rna REASON"
# when it ran but has no report.
# Output, tab-separated:
#
#	R  row  measure  unprofiled  libmon  glibc  libmon-ratio  glibc-ratio  target
#	V  a verdict on one of libmon's targets (informational)
#	F  a failure that makes the bench exit 1
#	N  a line of the notes on how each row is measured
#
# Every figure is the median over the runs, but for the costs -- CPU
# seconds ("cpu"), microseconds per fork or thread ("us") and CPU
# nanoseconds per call ("ns") -- which are
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
	if (key == "cpu" || key == "us" || key == "ns")
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

# A cost against its target: the profiled build's over the base's at
# most limit.
function verdict(text, j, v, key, limit,    x) {
	if (!has(j, v, key) || !has(j, "base", key))
		return sprintf("%s: n/a", text)
	x = med(j, v, key) / med(j, "base", key)
	return sprintf("%s: %s (%.3fx)", text, x <= limit ? "PASS" : "MISS", x)
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

# libmon's CPU ratio at least 1.5 times below glibc's.
function cheaper(text, j,    x) {
	if (!has(j, "mon", "cpu") || !has(j, "pg", "cpu"))
		return sprintf("%s: n/a", text)
	x = med(j, "pg", "cpu") / med(j, "mon", "cpu")
	return sprintf("%s: %s (%.2fx)", text, (x >= 1.5 ? "PASS" : "MISS"), x)
}

# A target on a median: at most (or, with atleast, at least) limit.
function target(text, j, v, key, limit, atleast,    x, ok) {
	if (!has(j, v, key))
		return sprintf("%s: n/a", text)
	x = med(j, v, key)
	ok = atleast ? x >= limit : x <= limit
	return sprintf("%s: %s (%g)", text, ok ? "PASS" : "MISS", x)
}

# Whether libmon's key (calls, arc) equalled the calls made in every
# run of thr1 to thr8 -- every run, not the median.
function exact(key,    r, t, j, i) {
	r = "PASS"
	for (t = 1; t <= 8; t *= 2) {
		j = "thr" t
		if (!has(j, "mon", key) || !has(j, "base", "made"))
			return "n/a"
		for (i = 1; i <= n[j, "mon", key]; i++)
			if (val[j, "mon", key, i] + 0 != med(j, "base", "made"))
				r = "MISS"
	}
	return r
}

# A verdict on one of the targets a row was set (goal), or a further
# check (check): all goals are listed first, then all checks, each in
# the order of the rows.
function goal(s) {
	vtext[1, ++nv[1]] = s
}

function check(s) {
	vtext[2, ++nv[2]] = s
}

# A line of the row's "how it is measured" note in BENCHMARKS.md.
function note(s) {
	printf "N\t%s\n", s
}

# After every row: the verdicts, goals first.
function verdicts(    p, i) {
	for (p = 1; p <= 2; p++)
		for (i = 1; i <= nv[p]; i++)
			printf "V\t%s\n", vtext[p, i]
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

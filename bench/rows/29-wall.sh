# Row 29: where threads wait -- PROFMODE=wall (issue 29), bench/wall4.c.
#
# Accuracy (wparts): four threads of about 1 s each, burn() on the CPU,
# nap() in nanosleep, wait_pipe() reading a pipe, wait_lock() on a
# mutex, each timed by the program with CLOCK_MONOTONIC.  The libmon
# build runs in wall mode under the default clock (monw) and under
# PROFCLOCK=timer (monwt, as where perf is refused); prof -w's share of
# the thread-seconds for each part is held to its measured share of
# the threads' lives, and each part must be running (burn) or waiting
# in its own system call (the others).  The program's return values
# hash into its checksum, the same unprofiled.
#
# Cost: wbusy, 8 threads of fixed work, in wall mode against the same
# build in CPU mode (mon), unprofiled and glibc -pg; widle, 1000 idle
# threads and a worker that works 1 ms in 10, the CPU libmon adds as a
# share of one core: over the whole run (the runner's CPU time, thread
# starts included) and over the idle phase alone (the program's own
# process CPU clock, from when the idle threads have all started to
# when the worker is done).  The wall sampler runs at its default rate.

BUSY29="8 100"		# threads, million rounds each
IDLE29="1000 200"	# idle threads, the worker's 1 ms chunks

job wparts wall4 "base monw monwt" "parts"
job wbusy wall4 "base mon monw pg" "busy $BUSY29"
job widle wall4 "base mon monw" "idle $IDLE29"
jobenv wparts monw PROFMODE=wall
jobenv wparts monwt "PROFMODE=wall PROFCLOCK=timer"
jobenv wbusy monw PROFMODE=wall
jobenv widle monw PROFMODE=wall
noreport wparts wbusy widle
tablevar busy29 "$(echo $BUSY29 | tr ' ' ,)"
tablevar idle29 "$(echo $IDLE29 | tr ' ' ,)"

build_wall4() {
	build3 wall4 bench/wall4.c
}
on_build build_wall4

# prof -w's rows for the four parts against the run's own truth: each
# part's reported and measured share (sh_P, tr_P), the largest distance
# in points (err), and 1 if every part ran or waited as it should, in
# its own system call (split).  Then the share placed in no function of
# wall4's own (out), the C library's wrappers where a waiting thread's
# stack was not walked out to its call site, and the largest such row
# (outname).
wall_parts() {
	case $mv in
	monw|monwt)	;;
	*)	return 0 ;;
	esac
	truth=$(sed -n 's/^parts \(.*\)$/\1/p' "$out")
	if [ ! -s "$d/mon.out" ]; then
		rec "$mj $mv rna no mon.out written"
		return 0
	fi
	if ! $PROF -w "$bin" "$d/mon.out" >"$d/wall.$mr" \
	    2>"$d/report.err.$mr"; then
		rec "$mj $mv rna prof -w failed"
		return 0
	fi
	awk -v truth="$truth" -v pre="$mj $mv" '
	BEGIN {
		n = split(truth, f, " ")
		for (i = 1; i < n; i += 2)
			t[f[i]] = f[i + 1]
		want["burn"] = "running"
		want["nap"] = "clock_nanosleep"
		want["wait_pipe"] = "read"
		want["wait_lock"] = "futex"
		n = split("burn nap wait_pipe wait_lock part writer holder" \
		    " parts main now lived", f, " ")
		for (i = 1; i <= n; i++)
			own[f[i]] = 1
	}
	NR > 2 {
		pct[$5] = $1; run[$5] = $3; wait[$5] = $4
		calls[$5] = $0
		if (!($5 in own) && substr($5, 1, 1) != "[") {
			out += $1
			if ($1 > outmax) {
				outmax = $1; outname = $5
			}
		}
	}
	END {
		if (t["threads"] <= 0)
			exit
		err = 0; right = 1
		for (p in want) {
			tr = 100 * t[p] / t["threads"]
			printf "%s tr_%s %.2f\n", pre, p, tr
			if (!(p in pct)) {
				err = 100; right = 0
				continue
			}
			printf "%s sh_%s %s\n", pre, p, pct[p]
			d = pct[p] - tr
			if (d < 0)
				d = -d
			if (d > err)
				err = d
			s = run[p] + wait[p]
			if (want[p] == "running")
				ok = run[p] >= 0.95 * s
			else
				ok = wait[p] >= 0.95 * s &&
				    index(calls[p], "[" want[p]) > 0
			if (!ok)
				right = 0
		}
		printf "%s err %.2f\n%s split %d\n", pre, err, pre, right
		printf "%s out %.1f\n", pre, out
		if (outname != "")
			printf "%s outname %s\n", pre, outname
	}' "$d/wall.$mr" >>"$RES"
}
on_run wparts wall_parts

# The idle phase's process CPU and wall seconds, as the program measured
# them, whole and settled.
wall_idle() {
	set -- $(awk '$1 == "idle" && $2 == "cpu" && $7 == "cpu" {
	    print $3, $5, $8, $10 }' "$out")
	[ $# -eq 4 ] || return 0
	rec "$mj $mv pcpu $1"
	rec "$mj $mv pwall $2"
	rec "$mj $mv scpu $3"
	rec "$mj $mv swall $4"
}
on_run widle wall_idle

table <<'AWK'
# The largest of key k's values over the runs of (j, v).
function worst29(j, v, k,    i, x) {
	x = val[j, v, k, 1] + 0
	for (i = 2; i <= n[j, v, k]; i++)
		if (val[j, v, k, i] + 0 > x)
			x = val[j, v, k, i] + 0
	return x
}

# Runs of (j, v) whose split was right, over the runs, as "r/n".
function split29(j, v,    i, r) {
	if (!has(j, v, "split"))
		return why(j, v, "split", 1)
	r = 0
	for (i = 1; i <= n[j, v, "split"]; i++)
		r += val[j, v, "split", i]
	return r "/" n[j, v, "split"]
}

# The four parts' shares, reported (sh) or measured (tr), medians.
function shares29(j, v, k,    s, i, p) {
	split("burn nap wait_pipe wait_lock", p, " ")
	s = ""
	for (i = 1; i <= 4; i++) {
		if (!has(j, v, k "_" p[i]))
			return ""
		s = s (i > 1 ? "/" : "") sprintf("%.1f", med(j, v, k "_" p[i]))
	}
	return s
}

# The share placed outside the program, median, and the last run's
# largest such row.
function out29(v,    k) {
	if (!has("wparts", v, "out"))
		return why("wparts", v, "out", 1)
	k = "wparts" SUBSEP v SUBSEP "outname"
	return sprintf("%.1f", med("wparts", v, "out")) \
	    (k in n ? " (" val[k, n[k]] ")" : "")
}

function err29(j, v) {
	if (!has(j, v, "err"))
		return why(j, v, "err", 1)
	return sprintf("%.1f (worst %.1f)", med(j, v, "err"),
	    worst29(j, v, "err"))
}

# Per cent of a core: (CPU key k of v less that of b) over v's wall
# key w; "" if a figure is missing.
function core29(j, v, b, k, w) {
	if (!has(j, v, k) || !has(j, b, k) || !has(j, v, w) ||
	    med(j, v, w) <= 0)
		return ""
	return 100 * (least(j SUBSEP v SUBSEP k) - \
	    least(j SUBSEP b SUBSEP k)) / med(j, v, w)
}

function pct29(x) {
	return x == "" ? "n/a (no data)" : sprintf("%.2f%%", x)
}

function accgoal29(v, clk,    e, s, sp) {
	if (!has("wparts", v, "err")) {
		goal("row 29, wall4 parts' shares within 3 points, " clk \
		    ": n/a")
		return
	}
	e = worst29("wparts", v, "err")
	goal(sprintf("row 29, wall4 parts' shares of wall time within 3" \
	    " points of measured in every run, %s: %s (worst %.1f)", clk,
	    e <= 3 ? "PASS" : "MISS", e))
	s = split29("wparts", v)
	split(s, sp, "/")
	goal(sprintf("row 29, running/waiting and system call right for" \
	    " every part in every run, %s: %s (%s runs)", clk,
	    sp[1] == sp[2] && sp[2] > 0 ? "PASS" : "MISS", s))
}

END {
	split(busy29, b29, ",")
	split(idle29, i29, ",")
	row(29, "wall4 parts: largest error of a part's share of wall time," \
	    " points, prof -w vs CLOCK_MONOTONIC, median (worst run);" \
	    " default clock", "-", err29("wparts", "monw"), "-", "-", "-",
	    "<= 3")
	row(29, "  the same, PROFCLOCK=timer (perf refused)", "-",
	    err29("wparts", "monwt"), "-", "-", "-", "<= 3")
	for (c29 = 1; c29 <= 2; c29++) {
		v29 = c29 == 1 ? "monw" : "monwt"
		s29 = shares29("wparts", v29, "sh")
		row(29, "  % burn/nap/wait_pipe/wait_lock reported (measured), " \
		    (c29 == 1 ? "default clock" : "timer"), "-",
		    s29 == "" ? why("wparts", v29, "sh_burn", 1) : \
		    s29 " (" shares29("wparts", v29, "tr") ")", "-", "-", "-",
		    "-")
	}
	row(29, "  runs with each part running/waiting as it did, in its" \
	    " system call: default / timer clock", "-",
	    split29("wparts", "monw") " / " split29("wparts", "monwt"), "-",
	    "-", "-", "all")
	row(29, "  % of wall time in no function of the program's (largest" \
	    " such row, last run): default / timer clock", "-",
	    out29("monw") " / " out29("monwt"), "-", "-", "-", "-")
	row(29, sprintf("CPU s, %d busy threads, PROFMODE=wall (libmon" \
	    " ratio: over the same build in CPU mode)", b29[1]),
	    cell("wbusy", "base", "cpu", "%.3f"),
	    cell("wbusy", "monw", "cpu", "%.3f"),
	    cell("wbusy", "pg", "cpu", "%.3f"),
	    ratio("wbusy", "monw", "cpu", "", "mon", "", 3),
	    ratio("wbusy", "pg", "cpu"), "<= 1.03x")
	row(29, sprintf("  CPU s, %d busy threads, CPU mode", b29[1]),
	    cell("wbusy", "base", "cpu", "%.3f"),
	    cell("wbusy", "mon", "cpu", "%.3f"), "-",
	    ratio("wbusy", "mon", "cpu"), "-", "-")
	w29 = core29("widle", "monw", "base", "cpu", "wall")
	p29 = core29("widle", "monw", "base", "pcpu", "pwall")
	q29 = core29("widle", "monw", "mon", "pcpu", "pwall")
	m29 = core29("widle", "mon", "base", "cpu", "wall")
	l29 = core29("widle", "monw", "base", "scpu", "swall")
	k29 = core29("widle", "monw", "mon", "scpu", "swall")
	row(29, sprintf("%% of a core libmon adds, PROFMODE=wall, %d idle" \
	    " threads + a worker, idle phase, the threads started" \
	    " (unprofiled: process CPU s)", i29[1]),
	    cell("widle", "base", "pcpu", "%.3f"), pct29(p29), "-", "-", "-",
	    "<= 2%")
	row(29, "  idle phase, the wall sampler alone (wall less CPU mode)",
	    "-", pct29(q29), "-", "-", "-", "-")
	row(29, "  whole run, the 1000 thread starts and ends included" \
	    " (unprofiled: CPU s)", cell("widle", "base", "cpu", "%.3f"),
	    pct29(w29), "-", "-", "-", "-")
	row(29, "  whole run, CPU mode", "-", pct29(m29), "-", "-", "-", "-")
	row(29, "  whole run, the wall sampler alone (wall less CPU mode)",
	    "-", pct29(w29 != "" && m29 != "" ? w29 - m29 : ""), "-", "-",
	    "-", "-")
	row(29, "  its last 2/5, the idle threads long idle (unprofiled:" \
	    " process CPU s)", cell("widle", "base", "scpu", "%.3f"),
	    pct29(l29), "-", "-", "-", "-")
	row(29, "  its last 2/5, the wall sampler alone", "-", pct29(k29),
	    "-", "-", "-", "-")
	accgoal29("monw", "default clock")
	accgoal29("monwt", "timer clock")
	goal(("wparts" in bad) || !(("wparts" SUBSEP "sum") in sum0) || \
	    sum0["wparts", "sum"] == "none" ? \
	    "row 29, wall4 parts' return values as unprofiled: MISS" : \
	    "row 29, wall4 parts' return values as unprofiled: PASS")
	if (has("wbusy", "monw", "cpu") && has("wbusy", "mon", "cpu")) {
		x29 = med("wbusy", "monw", "cpu") / med("wbusy", "mon", "cpu")
		goal(sprintf("row 29, %d busy threads, PROFMODE=wall CPU <=" \
		    " 1.03x CPU mode's: %s (%.3fx)", b29[1],
		    x29 <= 1.03 ? "PASS" : "MISS", x29))
	} else
		goal("row 29, busy threads, PROFMODE=wall CPU <= 1.03x CPU" \
		    " mode's: n/a")
	goal(p29 == "" ? "row 29, idle threads, libmon <= 2% of a core: n/a" : \
	    sprintf("row 29, %d idle threads, libmon <= 2%% of a core while" \
	    " they idle: %s (%.2f%%)", i29[1], p29 <= 2 ? "PASS" : "MISS",
	    p29))
	if (w29 != "")
		check(sprintf("row 29, %d idle threads, libmon <= 2%% of a" \
		    " core over the whole run, their starts included: %s" \
		    " (%.2f%%; CPU mode alone %s: thread creation, row 12)",
		    i29[1], w29 <= 2 ? "PASS" : "MISS", w29, pct29(m29)))
	for (c29 = 1; c29 <= 2; c29++) {
		v29 = c29 == 1 ? "monw" : "monwt"
		if (has("wparts", v29, "out"))
			check(sprintf("row 29, wall4 parts, every waiting" \
			    " thread placed at its call site in the program," \
			    " %s clock: %s (%.1f%% outside, worst run)",
			    c29 == 1 ? "default" : "timer",
			    worst29("wparts", v29, "out") < 1 ? "PASS" : \
			    "MISS", worst29("wparts", v29, "out")))
	}
	note("29. `wall4` (issue 29, `PROFMODE=wall`).  `parts`: four threads")
	note("   of about 1 s each -- `burn` on the CPU, `nap` in nanosleep,")
	note("   `wait_pipe` reading a pipe written after 1 s, `wait_lock` on")
	note("   a mutex held for 1 s -- each timed by the program with")
	note("   `CLOCK_MONOTONIC`; its share of the threads' lives is the")
	note("   truth `prof -w`'s %Wall is held to, in the same run, under")
	note("   the default clock and `PROFCLOCK=timer`.  A part's split is")
	note("   right when 95% of its samples are running (`burn`) or")
	note("   waiting in its own system call.  The share in no function")
	note("   of the program's, the pipe's writer and the lock's holder")
	note("   included, is where a waiting thread's stack was not walked")
	note("   out of the C library to its call site.  `busy`: 8 threads")
	note("   of fixed work, wall mode's CPU over the same build's in CPU")
	note("   mode.")
	note("   `idle`: 1000 threads blocked on a condition variable while")
	note("   a worker works 1 ms in 10 for some 2 s; libmon's share of a")
	note("   core is the profiled build's CPU less the unprofiled one's")
	note("   (least of the runs) over its wall time (median): the idle")
	note("   phase's by the process CPU clock the program reads -- the")
	note("   target: what a program with 1000 idle threads pays while")
	note("   they idle -- that phase's last 2/5, when the idle threads")
	note("   have been idle long enough for the sampler to look at them")
	note("   less often, and the whole run's by `wait4()`, the 1000")
	note("   thread starts and ends included, whose CPU-mode cost is")
	note("   thread creation's (row 12, issue 25).")
}
AWK

#! /usr/bin/env atf-sh
#
# wall_test.sh -- PROFMODE=wall and prof -w: every thread sampled on
# the wall clock, running or blocked.
#
# The e2e cases run h_wall, whose four threads spend about 1 s each in
# a known way, timed by the program itself with CLOCK_MONOTONIC (the
# truth the report is judged by), under each clock, perf refused too
# (t_noperf).  The forged cases check prof's reading of WALL records.

# --- helpers -----------------------------------------------------------

setup_wall()
{
	srcdir=$(atf_get_srcdir)
	PROF=$srcdir/../../prof/prof
	H=$srcdir/h_wall
	NOPERF=$srcdir/../t_noperf
	MKMON=$srcdir/t_mkmon
	SYMS=$srcdir/t_syms
	unset PROFDIR PROFHZ PROFCLOCK PROFMODE PROFSTACK
	LC_ALL=C
	export LC_ALL
	for f in "$PROF" "$H" "$NOPERF" "$MKMON" "$SYMS"; do
		[ -x "$f" ] || atf_fail "not built: $f"
	done
}

# run_parts [env ...]: h_wall unprofiled, then profiled with env; the
# program must print the same (no system call cut short, no EINTR) and
# the run must leave a mon.out.  MODE: h_wall's first argument.
run_parts()
{
	"$H" ${MODE:-parts} >plain.out 2>plain.err ||
	    atf_fail "h_wall failed unprofiled"
	rm -f mon.out
	env PROFMODE=wall "$@" "$H" ${MODE:-parts} >prof.out 2>prof.err ||
	    atf_fail "h_wall failed profiled: $(cat prof.err)"
	sort plain.out >plain.sorted
	sort prof.out >prof.sorted
	atf_check -o file:plain.sorted cat prof.sorted
	[ -s mon.out ] || atf_fail "no mon.out written"
	grep -v '^time ' prof.err && atf_fail "stderr: $(cat prof.err)"
	atf_check -o save:wall.txt "$PROF" -w "$H" mon.out
}

# judge: each part's share of the thread-seconds within 3 points of its
# measured share, running or waiting as it should be, its system call
# named.
judge()
{
	awk -v err=prof.err '
	BEGIN {
		while ((getline l < err) > 0) {
			split(l, f, " ")
			if (f[1] == "time")
				t[f[2]] = f[3]
		}
		want["burn"] = "run"; want["nap"] = "nanosleep"
		want["wait_pipe"] = "[read]"; want["wait_lock"] = "futex"
	}
	NR > 2 { row[$5] = $0; pct[$5] = $1; run[$5] = $3; wait[$5] = $4 }
	END {
		bad = 0
		for (n in want) {
			if (!(n in row)) {
				printf "no row for %s\n", n; bad = 1; continue
			}
			truth = 100 * t[n] / t["threads"]
			d = pct[n] - truth
			if (d < -3 || d > 3) {
				printf "%s: %.1f%% of the wall time, measured " \
				    "%.1f%%\n", n, pct[n], truth
				bad = 1
			}
			if (want[n] == "run" && run[n] < 0.95 * (run[n] + wait[n])) {
				printf "%s: not running: %s\n", n, row[n]; bad = 1
			}
			if (want[n] != "run" && (wait[n] < 0.95 * (run[n] + wait[n]) ||
			    index(row[n], want[n]) == 0)) {
				printf "%s: not waiting in %s: %s\n", n, want[n],
				    row[n]
				bad = 1
			}
			printf "%s %.1f measured %.1f\n", n, pct[n], truth > "shares"
		}
		exit bad
	}' wall.txt || atf_fail "$(cat wall.txt)"
	cat shares
}

# le V N: V as N bytes of little-endian hex.
le()
{
	v=$1 n=$2 i=0
	while [ $i -lt "$n" ]; do
		printf '%02x' $((v & 255))
		v=$((v >> 8))
		i=$((i + 1))
	done
}

# wallrec TICKS COUNT STATE SYSNO DEPTH PC: a WALL record's hex, one
# thread (tid 7, "worker") and one stack.
wallrec()
{
	le 10000000 8; le "$1" 8; le 0 8; le 0 8; le 0 8; le 1 4; le 1 4
	le 7 4; le 0 4; le 5000 8; printf '776f726b6572'; le 0 10
	le "$2" 8; le 7 4; le "$3" 2; le 0 2; le "$4" 4; le "$5" 4
	[ "$5" -gt 0 ] && le "$6" 8
}

forge_wall()
{
	hex=$(wallrec "$@")
	{
		echo "lpc $BASE"
		echo "hpc $(printf '0x%x' $((BASE + 14 * 64)))"
		echo "hist 14"
		echo "run clock=1 cpu=1000000 in=0"
		echo "record 11 $((${#hex} / 2)) $hex"
	} | "$MKMON" "$OUT" || atf_fail "t_mkmon failed"
}

# --- cases -------------------------------------------------------------

atf_test_case parts_perf
parts_perf_head()
{
	atf_set descr "Under the best clock (perf where allowed), each of" \
	    "h_wall's four parts has its measured share of the wall time" \
	    "within 3 points, burn running, nap, wait_pipe and wait_lock" \
	    "waiting in nanosleep, read and futex, and the program prints" \
	    "what it prints unprofiled"
	atf_set timeout 120
}
parts_perf_body()
{
	setup_wall
	run_parts
	judge
}

atf_test_case parts_mixed
parts_mixed_head()
{
	atf_set descr "With parts of 1, 0.5, 1.5 and 0.7 s, so that every" \
	    "thread's share differs, each part's share is still within 3" \
	    "points of its measured one"
	atf_set timeout 120
}
parts_mixed_body()
{
	setup_wall
	MODE=mixed run_parts
	judge
}

atf_test_case parts_noperf
parts_noperf_head()
{
	atf_set descr "The same with perf_event_open refused (t_noperf):" \
	    "the wall sampler needs none of it"
	atf_set timeout 120
}
parts_noperf_body()
{
	setup_wall
	"$NOPERF" true || atf_skip "t_noperf cannot run here"
	"$NOPERF" "$H" >plain.out 2>plain.err || atf_fail "h_wall failed"
	rm -f mon.out
	env PROFMODE=wall "$NOPERF" "$H" >prof.out 2>prof.err ||
	    atf_fail "h_wall failed profiled: $(cat prof.err)"
	sort plain.out >plain.sorted
	sort prof.out >prof.sorted
	atf_check -o file:plain.sorted cat prof.sorted
	grep -v '^time ' prof.err && atf_fail "stderr: $(cat prof.err)"
	atf_check -o save:wall.txt "$PROF" -w "$H" mon.out
	judge
}

atf_test_case parts_timer
parts_timer_head()
{
	atf_set descr "The same under the signal clocks (timer, itimer):" \
	    "their SIGPROF reaches only running threads, never a blocked" \
	    "system call"
	atf_set timeout 120
}
parts_timer_body()
{
	setup_wall
	for c in timer itimer; do
		run_parts PROFCLOCK=$c
		judge
	done
}

atf_test_case optimized_waits_in_callers
optimized_waits_in_callers_head()
{
	atf_set descr "Built as users build (-O2, inlining on: h_wall_o2)," \
	    "a thread asleep in nanosleep has its wait placed in the" \
	    "program's function that called it (nap's, the pipe writer's)" \
	    "within 3 points of its measured share, never in libc's" \
	    "wrappers, whose unwritten frame slots may hold a stale copy" \
	    "of the caller's frame pointer"
	atf_set timeout 120
}
optimized_waits_in_callers_body()
{
	setup_wall
	H=$srcdir/h_wall_o2
	[ -x "$H" ] || atf_fail "not built: $H"
	run_parts
	awk -v err=prof.err '
	BEGIN {
		while ((getline l < err) > 0) {
			split(l, f, " ")
			if (f[1] == "time")
				t[f[2]] = f[3]
		}
		n = split("main parts run_burn run_nap run_pipe run_lock" \
		    " burn nap wait_pipe wait_lock writer holder now lived" \
		    " report", f, " ")
		for (i = 1; i <= n; i++)
			own[f[i]] = 1
	}
	NR > 2 && / \[clock_nanosleep\]$/ { sleep[$5] += $1 }
	NR > 2 && !($5 in own) && substr($5, 1, 1) != "[" { out += $1 }
	END {
		bad = 0
		split("nap writer", p, " ")
		for (k = 1; k <= 2; k++) {
			n = p[k]
			got = sleep[n] + (n == "nap" ? sleep["run_nap"] : 0)
			truth = 100 * t[n] / t["threads"]
			if (got - truth < -3 || got - truth > 3) {
				printf "%s: %.1f%% asleep, measured %.1f%%\n",
				    n, got, truth
				bad = 1
			}
		}
		if (out > 1) {
			printf "%.1f%% in no function of h_wall\n", out
			bad = 1
		}
		exit bad
	}' wall.txt || atf_fail "$(cat wall.txt)"
}

# pulse_run N SECS [env ...]: h_wall pulse N SECS profiled with env (in
# SCHED_FIFO where chrt may set it, so that neither the pulser nor the
# sampler waits for a CPU on a busy machine); its folded wall stacks
# into folded, its times into prof.err.
pulse_run()
{
	n=$1 secs=$2
	shift 2
	fifo=
	chrt -f 5 true 2>/dev/null && fifo="chrt -f 5"
	rm -f mon.out
	env PROFMODE=wall "$@" $fifo "$H" pulse "$n" "$secs" >prof.out \
	    2>prof.err || atf_fail "h_wall pulse failed: $(cat prof.err)"
	atf_check -o match:"^$n threads$" cat prof.out
	# A CPU profile short of samples may draw a warning: not judged.
	atf_check -o save:folded -e ignore "$PROF" -w -F folded "$H" mon.out
}

atf_test_case pulse_not_aliased
pulse_not_aliased_head()
{
	atf_set descr "A thread that works 1 ms of CPU at the start of" \
	    "every 10 ms (the wall sampler's own period) is found running" \
	    "for its measured share of CPU time within 5 points: the" \
	    "sampler's rounds come at random steps, not locked to its phase"
	atf_set timeout 120
}
pulse_not_aliased_body()
{
	setup_wall
	pulse_run 20 4
	# Its stacks, running and waiting: every one goes through pulser.
	awk -v err=prof.err '
	BEGIN {
		while ((getline l < err) > 0) {
			split(l, f, " ")
			if (f[1] == "time")
				t[f[2]] = f[3]
		}
	}
	/;pulser(;| )/ { all += $NF; if (!/\[waiting: /) run += $NF }
	END {
		cpu = 100 * t["pulser_cpu"] / t["pulser"]
		due = 100 * t["pulse_work"] / t["pulser"]
		got = all ? 100 * run / all : 0
		printf "running %.1f%% of %d samples, CPU %.1f%%, due %.1f%%\n",
		    got, all, cpu, due
		# Ready to run long before it ran: too busy to judge.
		if (due - cpu > 1.5)
			exit 2
		exit !(all > 0 && got - cpu <= 5 && cpu - got <= 5)
	}' folded >share
	r=$?
	[ $r = 2 ] && atf_skip "machine too busy: $(cat share)"
	[ $r = 0 ] || atf_fail "$(cat share)"
	cat share
}

atf_test_case totals_within_lives
totals_within_lives_head()
{
	atf_set descr "With 1000 idle threads (the sampler's first rounds" \
	    "late), the pulser's wall samples stand for its measured life" \
	    "(CLOCK_MONOTONIC) within -3 and +2 periods, and the idle" \
	    "threads' for their lives summed within 2 periods each" \
	    "on the average: a late round counts for its own threads, and" \
	    "a thread that ends is counted no longer"
	atf_set timeout 120
}
totals_within_lives_body()
{
	setup_wall
	pulse_run 1000 2
	awk -v err=prof.err '
	BEGIN {
		while ((getline l < err) > 0) {
			split(l, f, " ")
			if (f[1] == "time")
				t[f[2]] = f[3]
		}
	}
	/;pulser(;| )/ { pulser += $NF / 100 }
	/;idler(;| )/ { idle += $NF / 100 }
	END {
		bad = 0
		d = pulser - t["pulser"]
		printf "pulser %.2f s, lived %.3f\n", pulser, t["pulser"]
		if (d > 0.02 || d < -0.03)
			bad = 1
		d = (idle - t["idlers"]) / 1000
		printf "idlers %.2f s, lived %.3f: %.4f s each\n", idle,
		    t["idlers"], d
		if (d > 0.02 || d < -0.02)
			bad = 1
		exit bad
	}' folded >totals || atf_fail "$(tr '\n' ' ' <totals)"
	cat totals
}

atf_test_case idle_threads_left_out
idle_threads_left_out_head()
{
	atf_set descr "prof -w -r leaves out the threads that never ran" \
	    "(200 idle workers, less any the sampler caught starting)" \
	    "and says how many; without -r their waiting fills the report"
	atf_set timeout 120
}
idle_threads_left_out_body()
{
	setup_wall
	PROFMODE=wall "$H" idle 200 1 >out 2>err || atf_fail "h_wall failed"
	atf_check -o match:'^200 threads$' cat out
	atf_check -o save:all.txt "$PROF" -w "$H" mon.out
	atf_check -o match:'idler \[futex \(mutex/condvar\)\]' cat all.txt
	atf_check -o save:ran.txt "$PROF" -w -r "$H" mon.out
	# A worker the sampler caught starting up ran: most never did.
	awk 'NR == 1 && / threads that never ran left out \(-r\)$/ {
		for (i = 1; i <= NF; i++)
			if ($(i + 1) == "threads" && $(i + 2) == "that")
				n = $i + 0
		ok = n >= 190 && n <= 201 && $3 + 0 < 20
	}
	END { exit !ok }' ran.txt || atf_fail "not left out: $(cat ran.txt)"
	awk 'NR == 1 { exit !($3 + 0 > 190) }' all.txt ||
	    atf_fail "idle threads missing: $(cat all.txt)"
	atf_check -s exit:1 -o empty -e match:'^prof: -r: .*no -w$' \
	    "$PROF" -r "$H" mon.out
}

atf_test_case no_wall_samples
no_wall_samples_head()
{
	atf_set descr "prof -w on a CPU profile says in one line that it" \
	    "has no wall samples, exit 1"
}
no_wall_samples_body()
{
	setup_wall
	"$H" >/dev/null 2>&1 || atf_fail "h_wall failed"
	atf_check -s exit:1 -o empty \
	    -e inline:"prof: mon.out: no wall-time samples (profile with PROFMODE=wall)\n" \
	    "$PROF" -w "$H" mon.out
}

atf_test_case forged_wall_records
forged_wall_records_head()
{
	atf_set descr "A forged WALL record is read to the sample; one" \
	    "that cannot be (more samples than rounds, a state unknown," \
	    "a stack past its end) is refused in one line, exit 1"
}
forged_wall_records_body()
{
	setup_wall
	BASE=$(nm "$SYMS" | awk '$3 == "alpha" { print "0x" $1; exit }')
	[ -n "$BASE" ] || atf_fail "no alpha in $SYMS"
	delta=$((BASE + 3 * 64 + 5))
	OUT=good.out forge_wall 100 100 2 7 1 $delta
	atf_check -o inline:"\
Wall time: 1.00 thread-seconds, 1 thread over 1.00 s, sampled at 100 Hz
 %Wall  Seconds  Running  Waiting  Name [waiting in]
 100.0    1.000    0.000    1.000  delta [poll]
" -e ignore "$PROF" -w "$SYMS" good.out
	OUT=many.out forge_wall 100 101 2 7 1 $delta
	OUT=state.out forge_wall 100 100 9 7 1 $delta
	for f in many state; do
		atf_check -s exit:1 -o empty -e inline:"\
prof: $f.out: improper WALL record: a stack's state or count
" "$PROF" -w "$SYMS" $f.out
	done
	hex=$(wallrec 100 100 2 7 2 $delta)
	{
		echo "lpc $BASE"
		echo "hist 14"
		echo "hpc $(printf '0x%x' $((BASE + 14 * 64)))"
		echo "record 11 $((${#hex} / 2)) $hex"
	} | "$MKMON" short.out || atf_fail "t_mkmon failed"
	atf_check -s exit:1 -o empty -e inline:"\
prof: short.out: improper WALL record: a stack past its end
" "$PROF" -w "$SYMS" short.out
}

atf_test_case exports_folded_svg
exports_folded_svg_head()
{
	atf_set descr "prof -w -F folded and -F svg hold every wall sample" \
	    "of the report, each waiting stack ending in a frame that" \
	    "marks it and names its system call; t_expcheck reads them" \
	    "back"
	atf_set timeout 120
}
exports_folded_svg_body()
{
	setup_wall
	EXPCHECK=$srcdir/t_expcheck
	PROFMODE=wall "$H" >/dev/null 2>&1 || atf_fail "h_wall failed"
	atf_check -o save:wall.txt "$PROF" -w "$H" mon.out
	# The report's thread-seconds, as samples at 100 Hz: to a sample,
	# the report giving 2 decimals.
	n=$(awk 'NR == 1 { printf "%d", $3 * 100 + 0.5 }' wall.txt)
	atf_check -o save:f.txt "$PROF" -w -F folded "$H" mon.out
	atf_check -o save:fchk.txt "$EXPCHECK" folded f.txt
	awk -v n="$n" '{ d = $NF - n } END { exit !(d <= 1 && d >= -1) }' \
	    fchk.txt || atf_fail "folded: $(cat fchk.txt), report $n"
	atf_check -o match:';wait_pipe;[^ ]*;\[waiting: read\] [0-9]+$' cat f.txt
	atf_check -o match:';nap;[^ ]*\[waiting: clock_nanosleep\] [0-9]+$' \
	    cat f.txt
	atf_check -o match:';wait_lock;.*\[waiting: futex \(mutex/condvar\)\] [0-9]+$' \
	    cat f.txt
	atf_check -o match:';burn [0-9]+$' cat f.txt
	atf_check -o save:w.svg "$PROF" -w -F svg "$H" mon.out
	atf_check -o save:schk.txt "$EXPCHECK" svg w.svg
	awk -v n="$n" '{ d = $NF - n } END { exit !(d <= 1 && d >= -1) }' \
	    schk.txt || atf_fail "svg: $(cat schk.txt), report $n"
	atf_check -o match:'thread-seconds of wall time' cat w.svg
	atf_check -s exit:1 -o empty -e match:'^prof: -w: ' \
	    "$PROF" -w -F callgrind "$H" mon.out
}

atf_test_case graph_in_wall_time
graph_in_wall_time_head()
{
	atf_set descr "prof -q -w: wait_pipe's entry holds its second of" \
	    "waiting, under its caller run_pipe; burn's its second of" \
	    "running, under run_burn"
	atf_set timeout 120
}
graph_in_wall_time_body()
{
	setup_wall
	PROFMODE=wall "$H" >/dev/null 2>&1 || atf_fail "h_wall failed"
	atf_check -o save:g.txt "$PROF" -q -w "$H" mon.out
	# Columns: [n] %Wall Inclusive Running Waiting name [n]
	awk '
	{ line[++n] = $0 }
	END {
		ok = 1
		for (i = 1; i <= n; i++) {
			if (line[i] !~ /^\[[0-9]+\] /)
				continue
			$0 = line[i]
			if ($6 == "wait_pipe")
				ok = ok && $3 >= 0.9 && $5 >= 0.9 &&
				    line[i - 1] ~ / run_pipe \[/
			if ($6 == "burn")
				ok = ok && $3 >= 0.9 && $4 >= 0.9 &&
				    line[i - 1] ~ / run_burn \[/
			if ($6 == "wait_pipe" || $6 == "burn")
				seen++
		}
		exit !(ok && seen == 2)
	}' g.txt || atf_fail "$(cat g.txt)"
}

atf_test_case export_pprof_wall
export_pprof_wall_head()
{
	atf_set descr "prof -F pprof of a wall profile has a wall sample" \
	    "type beside cpu and calls, holding the report's" \
	    "thread-seconds (the default with -w); go tool pprof, where" \
	    "installed, reads the same total and the waiting frames"
	atf_set timeout 180
}
export_pprof_wall_body()
{
	setup_wall
	EXPCHECK=$srcdir/t_expcheck
	PROFMODE=wall "$H" >/dev/null 2>&1 || atf_fail "h_wall failed"
	atf_check -o save:wall.txt "$PROF" -w "$H" mon.out
	secs=$(awk 'NR == 1 { print $3 }' wall.txt)
	for w in "" -w; do
		atf_check -o save:out.gz -e ignore "$PROF" $w -F pprof "$H" mon.out
		gzip -dc out.gz >out.pprof || atf_fail "not gzip"
		atf_check -o save:chk.txt "$EXPCHECK" pprof out.pprof
		atf_check -o match:'^types samples/count cpu/nanoseconds calls/count wall/nanoseconds$' \
		    cat chk.txt
		# The report's 2 decimals against the file's nanoseconds.
		awk -v s="$secs" '$1 == "wall" { d = $2 / 1e9 - s; w = 1 }
		    END { exit !(w && d < 0.006 && d > -0.006) }' chk.txt ||
		    atf_fail "wall time: $(grep ^wall chk.txt), report $secs s"
	done
	atf_check -o match:'^default wall$' cat chk.txt
	command -v go >/dev/null 2>&1 || return 0
	go tool pprof -sample_index=wall -unit=ms -top -nodefraction=0 out.gz \
	    >top 2>/dev/null || atf_fail "go tool pprof failed"
	awk -v s="$secs" '/Total samples = / {
		sub(/.*Total samples = /, ""); sub(/ms.*/, "")
		d = $0 / 1000 - s; w = 1 }
	    END { exit !(w && d < 0.006 && d > -0.006) }' top ||
	    atf_fail "go tool pprof: $(grep Total top), report $secs s"
	atf_check -o match:'\[waiting: read\]$' cat top
}

atf_init_test_cases()
{
	atf_add_test_case parts_perf
	atf_add_test_case parts_mixed
	atf_add_test_case parts_noperf
	atf_add_test_case parts_timer
	atf_add_test_case optimized_waits_in_callers
	atf_add_test_case pulse_not_aliased
	atf_add_test_case totals_within_lives
	atf_add_test_case idle_threads_left_out
	atf_add_test_case no_wall_samples
	atf_add_test_case forged_wall_records
	atf_add_test_case exports_folded_svg
	atf_add_test_case export_pprof_wall
	atf_add_test_case graph_in_wall_time
}

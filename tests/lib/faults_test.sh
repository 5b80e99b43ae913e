#! /usr/bin/env atf-sh
#
# faults_test -- the README's fault table, row by row: a cc -p program
# (h_fault) does what real programs do to a profiler -- blocks SIGPROF,
# installs its own handler and timer, makes hundreds of threads, forks,
# execs, dies in odd ways, sleeps in system calls, dlopens code -- and
# each case checks that the program's own behaviour is unchanged and
# that the profile says what the table says it does.
#
# Work is measured in CPU time, never wall-clock time, and bands are
# generous: the machine may be small and busy.  Files are read with
# prof and t_mondump.  Rows the table shares with other programs are
# tested there: PROFDIR, RLIMIT_FSIZE, symbolic links, the exec of a busy
# program by the profiled process itself, fork (monitor_test); exit
# status, _exit, abort, SIGTERM, set-user-ID programs (crt_test);
# profil() called by the program (profil_test).

# --- helpers -----------------------------------------------------------

setup()
{
	. "$(atf_get_srcdir)/../harness.sh"
	srcdir=$(atf_get_srcdir)
	H=$srcdir/h_fault
	HDL=$srcdir/h_fault_dl
	PROF=$srcdir/../../prof/prof
	DUMP=$srcdir/t_mondump
	unset PROFDIR PROFHZ PROFCLOCK
	LC_ALL=C
	export LC_ALL
	[ -x "$PROF" ] || atf_fail "prof is not built: $PROF"
	bad=
}

# is GOT WANT WHAT
is()
{
	[ "$1" = "$2" ] || fail "$3: $1, not $2"
}

status_is()
{
	is "$(cat "$1/status")" "$2" "$1: exit status"
}

# out_is DIR TEXT: DIR/out holds exactly TEXT (and a newline).
out_is()
{
	printf '%s\n' "$2" | cmp -s - "$1/out" ||
	    fail "$1: stdout '$(cat "$1/out")', not '$2'"
}

quiet()
{
	[ ! -s "$1/err" ] || fail "$1: stderr: $(cat "$1/err")"
}

# dumped DIR [FILE]: DIR/FILE (default mon.out) dumped to DIR/dump.
dumped()
{
	local f

	f=$1/${2:-mon.out}
	if [ ! -f "$f" ]; then
		fail "$1: no ${2:-mon.out}"
		return 1
	fi
	"$DUMP" "$f" >"$1/dump" 2>"$1/dumperr" && return 0
	fail "$1: $(cat "$1/dumperr")"
	return 1
}

# field DIR KEY: KEY's value in DIR/dump; fact DIR KEY: in DIR/facts.
field()
{
	awk -v k="$2" '$1 == k { print $2; exit }' "$1/dump"
}

fact()
{
	awk -v k="$2" '$1 == k { print $2; exit }' "$1/facts"
}

# report DIR PROG [FILES...]: prof -g of DIR's profile to DIR/rows,
# prof -s's statistics to DIR/stats.
report()
{
	local d p

	d=$1
	p=$2
	shift 2
	if ! (cd "$d" && "$PROF" -s -g "$p" "$@" >rows 2>stats); then
		fail "$d: prof failed: $(cat "$d/stats")"
		return 1
	fi
}

# An awk prelude for DIR/rows: the heading gives the columns, since
# #Calls widens for wide counts.  Then substr($0, name) is a row's name,
# calls() its calls (0 if none), and the first 22 columns are %Time,
# Seconds and Cumsecs.
COLS='NR == 1 { name = index($0, "Name"); end = index($0, "#Calls") + 5
	next }
function calls() { return substr($0, 23, end - 22) + 0 }'

# row DIR NAME: "percent seconds calls" of the row named NAME in
# DIR/rows.
row()
{
	awk -v n="$2" "$COLS"'
	    substr($0, name) == n {
		printf "%s %s %d\n", substr($0, 1, 6) + 0,
		    substr($0, 7, 8) + 0, calls()
		exit
	    }' "$1/rows"
}

pct()
{
	set -- $(row "$1" "$2")
	echo "${1:-0}"
}

calls()
{
	set -- $(row "$1" "$2")
	echo "${3:-none}"
}

# summary DIR REGEX: the first number after REGEX in prof -s's statistics.
summary()
{
	sed -n "s/^$2 *\([0-9.]*\).*/\1/p" "$1/stats" | head -1
}

# hex STRING: the value of a hex number, in awk.
HEX='function hex(s,    i, v) {
	v = 0
	s = tolower(s)
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}'

# cells_in PROG FN NEXT DUMP: the calls DUMP counts in PROG's function
# FN, that is between the symbols FN and NEXT, less the load bias.
cells_in()
{
	nm "$1" | awk -v fn="$2" -v next_="$3" "$HEX"'
	    FNR == NR {
		if ($3 == fn) lo = hex($1)
		if ($3 == next_) hi = hex($1)
		next
	    }
	    $1 == "exec.bias" { bias = hex($2) }
	    $1 == "cell" { n++; pc[n] = hex($2); cnt[n] = $3 }
	    END {
		for (i = 1; i <= n; i++)
			if (pc[i] - bias >= lo && pc[i] - bias < hi)
				s += cnt[i]
		printf "%.0f\n", s
	    }' - "$4"
}

# left DIR: what is in DIR besides run()'s own files and facts.
left()
{
	(cd "$1" && ls -A | grep -v -x -e out -e err -e status -e facts \
	    -e 'core.*' | tr '\n' ' ')
}

# per_thread DIR: skip unless DIR's run sampled with a per-thread clock.
per_thread()
{
	[ "$(field "$1" run.clock)" != 0 ] ||
	    atf_skip "no per-thread clock here (perf_event, timer_create)"
}

# grain DIR: the CPU time, in seconds, between two samples DIR's run
# took: the period asked for with perf; the kernel's tick with timer
# (whose missed expirations come as overruns) and itimer.
grain()
{
	awk '$1 == "run.cpu_ns" { cpu = $2 }
	    $1 ~ /^run\.(samples_(in|out|lost)|dropped)$/ { n += $2 }
	    $1 == "run.overruns" { n -= $2 }
	    END { g = n > 0 ? cpu / n / 1e9 : 1; printf "%.6f\n", g }' \
	    "$1/dump"
}

# unsampled DIR: with timer, the CPU time in seconds that DIR's file
# records and its samples, overruns included, do not cover.  Under load
# the kernel's thread CPU-time timers lose expirations and count no
# overrun for them: in a bare program, without libmon, 1 thread in 20
# lost 5% or more on 2 CPUs at a load of 7, 1 in 400 lost 45%.  prof
# spreads the recorded time over the samples that came, so any function
# may be off by this much, which prof -s shows as a rate below the one
# asked.  0 with the other clocks.
unsampled()
{
	awk '$1 == "run.clock" { c = $2 } $1 == "run.cpu_ns" { cpu = $2 }
	    $1 == "run.period_ns" { p = $2 }
	    $1 ~ /^run\.(samples_(in|out|lost)|dropped)$/ { n += $2 }
	    END { u = c == 2 && cpu > n * p ? (cpu - n * p) / 1e9 : 0
		printf "%.6f\n", u }' "$1/dump"
}

# near DIR FUNC TRUTH_NS STRETCHES: FUNC's seconds in DIR/rows are
# TRUTH_NS, the time its threads spent in it by their own CPU clocks,
# which no clock of libmon's touches.  Allowed: 0.005 s, Seconds being
# printed to two decimals; 5% of the truth, for the kernel's accounting;
# a grain for each of the STRETCHES of uninterrupted work, as the
# samples at its ends may carry time from the code before it or leave
# some to the code after, never more than a grain in all; with timer,
# the time unsampled.  Those are bounds, not odds.  With itimer, which
# signals whichever thread runs as the tick comes, a thread's samples
# are a binomial draw among the others': 4 standard deviations more, at
# most 4 sqrt(truth * grain) seconds, which a correct run exceeds once
# in 16000 checks, under 1 in 1000 for all of a case's.
near()
{
	local secs t g tol

	secs=$(row "$1" "$2" | awk '{ print $2 }')
	t=$(awk -v t="$3" 'BEGIN { printf "%.6f\n", t / 1e9 }')
	g=$(grain "$1")
	tol=$(awk -v t="$t" -v g="$g" -v k="$4" -v u="$(unsampled "$1")" \
	    -v c="$(field "$1" run.clock)" \
	    'BEGIN { x = c == 0 ? 4 * sqrt(t * g) : 0
		printf "%.4f\n", 0.005 + 0.05 * t + k * g + u + x }')
	holds "(${secs:-0} - $t)^2 <= $tol^2" \
	    "$1: $2 has ${secs:-no} s, its threads' CPU clocks $t s (+-$tol)"
}

# --- SIGPROF: blocked, taken over --------------------------------------

atf_test_case sigprof_blocked_for_a_while
sigprof_blocked_for_a_while_head()
{
	atf_set descr "A program that blocks SIGPROF in all its threads for" \
	    "a while keeps its output and exit status and gets exact call" \
	    "counts, whatever the clock; the file's CPU time covers the" \
	    "whole run.  Held to each spin's time on its thread's CPU clock:" \
	    "the perf clock's rings need no signal, so both spins get their" \
	    "own seconds; timer's merged sample carries the blocked stretch" \
	    "to where the thread unblocks, so the spin outside it keeps its" \
	    "own; itimer loses the samples due, and the" \
	    "stretch's seconds go to the code sampled, the spin outside it"
}
sigprof_blocked_for_a_while_body()
{
	setup
	run plain PROFDIR= "$H" block 200
	status_is plain 3
	[ ! -e plain/mon.out ] || fail "PROFDIR='' wrote a profile"
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" block 200
		status_is $c 3
		cmp -s plain/out $c/out || fail "$c: stdout '$(cat $c/out)'," \
		    "without libmon '$(cat plain/out)'"
		quiet $c
		dumped $c || continue
		report $c "$H" || continue
		is "$(calls $c leaf)" 600000 "$c: leaf's calls"
		cpu=$(field $c run.cpu_ns)
		used=$(fact $c cpu_ns)
		holds "$cpu >= 1.2e9 && $cpu >= 0.95 * $used &&
		    $cpu <= 1.05 * $used + 2e7" \
		    "$c: RUN cpu_ns $cpu, the program used $used (1.2e9 spun)"
		# Each thread spins in spin_a twice, in spin_b once.
		a=$(fact $c spin_a_ns)
		b=$(fact $c spin_b_ns)
		# The clock the file records, not the one asked for: where
		# perf is refused, perf falls back to timer.
		case $(field $c run.clock):$c in
		1:perf)
			near $c spin_a "$a" 4
			near $c spin_b "$b" 2
			continue
			;;
		2:*)	near $c spin_a "$a" 4 ;;
		*)	near $c spin_a "$((a + b))" 4 ;;
		esac
		p=$(pct $c spin_b)
		holds "$p <= 2" \
		    "$c: the blocked stretch got $p% of the time, not 0"
	done
	verdict
}

atf_test_case own_handler_and_itimer_kept
own_handler_and_itimer_kept_head()
{
	atf_set descr "With a per-thread clock a program's own SIGPROF" \
	    "handler and ITIMER_PROF work as without libmon: the handler" \
	    "reads back as set and receives about its timer's rate, while" \
	    "libmon samples on at its own"
}
own_handler_and_itimer_kept_body()
{
	setup
	for c in default timer; do
		if [ $c = default ]; then
			run $c "$H" ownitimer 100 1000
		else
			run $c PROFCLOCK=$c "$H" ownitimer 100 1000
		fi
		status_is $c 3
		out_is $c "read back: own handler"
		quiet $c
		dumped $c || continue
		per_thread $c
		report $c "$H" || continue
		own=$(fact $c own_signals)
		ocpu=$(fact $c own_cpu_ns)
		holds "$own >= 0.3 * 100 * $ocpu / 1e9 &&
		    $own <= 1.5 * 100 * $ocpu / 1e9 + 10" \
		    "$c: its handler got $own signals at 100 Hz in $ocpu ns"
		is "$(calls $c onprof)" "$own" "$c: onprof's calls"
		n=$(( $(field $c run.samples_in) +
		    $(field $c run.samples_out) ))
		cpu=$(field $c run.cpu_ns)
		# perf delivers the 1000 Hz asked; timer the kernel tick's rate.
		min=300
		[ "$(field $c run.clock)" = 1 ] || min=30
		holds "$n >= $min * $cpu / 1e9" \
		    "$c: libmon took $n samples in $cpu ns of CPU"
		p=$(pct $c spin_a)
		holds "$p >= 90" "$c: spin_a has $p% of the time"
	done
	verdict
}

atf_test_case own_handler_takes_over_itimer
own_handler_takes_over_itimer_head()
{
	atf_set descr "With PROFCLOCK=itimer a program's own SIGPROF handler" \
	    "and ITIMER_PROF take over: the handler receives its timer's" \
	    "rate, libmon's sampling stops, the file is still written and" \
	    "the exit status kept"
}
own_handler_takes_over_itimer_body()
{
	setup
	run d PROFCLOCK=itimer "$H" ownitimer 100 1000
	status_is d 3
	out_is d "read back: own handler"
	quiet d
	dumped d && report d "$H" || verdict
	is "$(field d run.clock)" 0 "clock"
	own=$(fact d own_signals)
	ocpu=$(fact d own_cpu_ns)
	holds "$own >= 0.3 * 100 * $ocpu / 1e9" \
	    "the program's handler got $own signals at 100 Hz in $ocpu ns"
	is "$(calls d onprof)" "$own" "onprof's calls"
	n=$(( $(field d run.samples_in) + $(field d run.samples_out) ))
	holds "$n * 10 < $own" "libmon still sampled: $n samples"
	verdict
}

# --- threads, fork, exec -----------------------------------------------

atf_test_case threads_come_and_go
threads_come_and_go_head()
{
	atf_set descr "200 threads started and ended while profiled, 8 at a" \
	    "time, each calling leaf() 10,000 times, give exactly 2,000,000" \
	    "calls whatever the clock, and ended threads' tables are reused"
}
threads_come_and_go_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" threads 200 8 10000
		status_is $c 3
		out_is $c "threads 200, leaf 2000000"
		quiet $c
		dumped $c && report $c "$H" || continue
		is "$(calls $c leaf)" 2000000 "$c: leaf's calls"
		is "$(calls $c short_thread)" 200 "$c: short_thread's calls"
		is "$(field $c run.threads)" 201 "$c: threads that counted"
		n=$(field $c run.tables)
		holds "$n <= 32" "$c: $n count tables, 8 threads at a time"
	done
	verdict
}

atf_test_case unseen_threads_tables_reused
unseen_threads_tables_reused_head()
{
	atf_set descr "200 threads that the C library starts itself (a" \
	    "SIGEV_THREAD timer's), which libmon never sees start or end," \
	    "one at a time, each calling leaf() 1,000 times: every call" \
	    "counted, and the tables they leave are taken up again"
}
unseen_threads_tables_reused_body()
{
	setup
	run perf PROFCLOCK=perf "$H" unseen 200 1000
	status_is perf 3
	out_is perf "unseen 200, leaf 200000"
	quiet perf
	dumped perf && report perf "$H" && {
		is "$(calls perf leaf)" 200000 "leaf's calls"
		n=$(field perf run.tables)
		holds "$n <= 8" "$n count tables, one unseen thread at a time"
	}
	verdict
}

atf_test_case fork_50_children_add_up
fork_50_children_add_up_head()
{
	atf_set descr "A program that forks 50 children with PROFDIR set" \
	    "writes 51 files, one per process, whose call counts add up" \
	    "exactly, whatever the clock"
}
fork_50_children_add_up_body()
{
	setup
	for c in perf timer itimer; do
		mkdir p.$c
		run $c PROFCLOCK=$c PROFDIR=$PWD/p.$c "$H" fork 50
		status_is $c 3
		out_is $c "children 50, 0 failed"
		quiet $c
		n=$(ls p.$c | grep -c -x '[0-9]*\.h_fault')
		is "$n" 51 "$c: files named pid.h_fault"
		report $c "$H" "$PWD/p.$c"/* || continue
		# Before the fork pre 1000; each child i kid i+1 and both 10;
		# after, the parent post 7 and both 11.
		is "$(calls $c pre)" 1000 "$c: pre's calls"
		is "$(calls $c kid)" 1275 "$c: kid's calls"
		is "$(calls $c both)" 511 "$c: both's calls"
		is "$(calls $c post)" 7 "$c: post's calls"
		is "$(calls $c main)" 1 "$c: main's calls"
		is "$(summary $c 'files:')" 51 "$c: files merged"
	done
	verdict
}

atf_test_case fork_child_thread_sampled
fork_child_thread_sampled_head()
{
	atf_set descr "A thread that a fork child starts at once, before its" \
	    "clock would have been set up by itself (perf: the child's" \
	    "events are opened a fine period after the fork), is sampled" \
	    "in the child's file for the CPU time its own clock says"
}
fork_child_thread_sampled_body()
{
	setup
	for c in perf timer itimer; do
		mkdir p.$c
		run $c PROFCLOCK=$c PROFDIR=$PWD/p.$c "$H" forkthread 200
		status_is $c 3
		out_is $c "forkthread: status 0"
		quiet $c
		kid=$(fact $c child)
		dumped $c "../p.$c/$kid.h_fault" &&
		    report $c "$H" "$PWD/p.$c/$kid.h_fault" || continue
		# No sample at all would make near()'s grain a second.
		n=$(field $c run.samples_in)
		holds "${n:-0} > 0" "$c: no sample in the child's file"
		near $c spin_a "$(fact $c thread_ns)" 1
	done
	verdict
}

atf_test_case exec_from_child_completes
exec_from_child_completes_head()
{
	atf_set descr "A CPU-bound program exec'd by a forked child of a" \
	    "profiled program, or run by system(), runs to completion" \
	    "whatever the clock: no SIGPROF follows it into the new image"
}
exec_from_child_completes_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" exec "$srcdir/t_spin" 500
		status_is $c 3
		out_is $c "exec: status 0
system: status 0"
		quiet $c
	done
	verdict
}

# --- how a process ends ------------------------------------------------

# dies_leaving_nothing MODE STATUS (ASan, in a SANITIZE=1 build, must
# let the signal kill the program)
dies_leaving_nothing()
{
	setup
	ulimit -c 0
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c ASAN_OPTIONS=handle_segv=0 "$H" "$1"
		status_is $c "$2"
		is "$(left $c)" "" "$c: left behind"
	done
	verdict
}

atf_test_case sigsegv_writes_nothing
sigsegv_writes_nothing_head()
{
	atf_set descr "A program that dies of SIGSEGV writes no profile and" \
	    "leaves no temporary file"
}
sigsegv_writes_nothing_body()
{
	dies_leaving_nothing segv 139
}

atf_test_case sigkill_writes_nothing
sigkill_writes_nothing_head()
{
	atf_set descr "A program killed by SIGKILL writes no profile and" \
	    "leaves no temporary file"
}
sigkill_writes_nothing_body()
{
	dies_leaving_nothing sigkill 137
}

atf_test_case killed_while_writing
killed_while_writing_head()
{
	atf_set descr "A program killed while its profile is being written" \
	    "leaves no partial mon.out and an older one as it was: SIGTERM" \
	    "waits for the file to be whole or removed, and only SIGKILL," \
	    "where unnamed files cannot be had, may leave the temporary" \
	    ".mon.pid.n.tmp"
	atf_set require.progs strace
}
killed_while_writing_body()
{
	setup
	# strace delivers the signal as the finished file is about to be
	# named (linked, or renamed into place): SIGKILL there and then;
	# SIGTERM as the call returns, so the call is made to fail first,
	# as if the signal had come a moment earlier.  Once with no profile
	# there yet, once over an older one, which must stay as it was.
	calls=link,linkat,rename,renameat,renameat2
	for sig in KILL TERM; do
		for was in none old; do
			inject=signal=$sig
			[ $sig = TERM ] && inject=$inject:error=EINTR
			rm -rf $sig.$was
			mkdir $sig.$was
			[ $was = old ] && echo old >$sig.$was/mon.out
			( cd $sig.$was && strace -f -qq -o /dev/null \
			    -e trace=$calls -e inject=$calls:$inject \
			    "$H" spin 50 >out 2>err; echo $? >status )
			d=$sig.$was
			case $sig in
			KILL)	status_is $d 137 ;;
			TERM)	status_is $d 143 ;;
			esac
			if [ $was = old ]; then
				[ "$(cat $d/mon.out)" = old ] ||
				    fail "$d: the older mon.out was replaced"
			else
				[ ! -e $d/mon.out ] || fail "$d: mon.out written"
			fi
			for f in $(left $d); do
				case $sig:$f in
				KILL:.mon.[0-9]*.[0-9]*.tmp) ;;
				*:mon.out) [ $was = old ] ||
				    fail "$d: mon.out left" ;;
				*) fail "$d: $f left" ;;
				esac
			done
		done
	done
	verdict
}

atf_test_case exit_from_a_thread_writes
exit_from_a_thread_writes_head()
{
	atf_set descr "exit() called by a thread other than main writes the" \
	    "profile, with exact counts, and the status is the one given"
}
exit_from_a_thread_writes_body()
{
	setup
	run d "$H" threadexit 4 12345
	status_is d 4
	out_is d "exit from a thread"
	quiet d
	dumped d && report d "$H" && is "$(calls d leaf)" 12350 "leaf's calls"
	verdict
}

atf_test_case exit_while_threads_call
exit_while_threads_call_head()
{
	atf_set descr "exit() while other threads go on calling counted" \
	    "functions writes a whole profile holding at least every call" \
	    "made before exit() began, and keeps the status"
}
exit_while_threads_call_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" busyexit 5
		status_is $c 5
		out_is $c "exit while threads call"
		quiet $c
		dumped $c || continue
		# Add up the cells of the dump: exact, whatever the report shows.
		n=$(cells_in "$H" leaf pre $c/dump)
		pub=$(fact $c published)
		holds "$n >= $pub && $pub > 0" \
		    "$c: $n calls of leaf in the file, $pub made before exit()"
	done
	verdict
}

# --- blocking system calls ---------------------------------------------

atf_test_case blocking_calls_not_interrupted
blocking_calls_not_interrupted_head()
{
	atf_set descr "Threads blocked in read(), poll() and nanosleep()" \
	    "while another thread is sampled never see EINTR, whatever the" \
	    "clock, and the sampled thread's errno is kept"
}
blocking_calls_not_interrupted_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" eintr 1000
		status_is $c 3
		out_is $c "read: returned 1, error 0
poll: returned 1, error 0
nanosleep: returned 0, error 0
errno kept: yes"
		quiet $c
		for s in read poll nanosleep; do
			is "$(fact $c ${s}_eintr)" 0 "$c: EINTR from $s"
		done
		n=$(fact $c nanosleep_rounds)
		holds "$n >= 10" "$c: only $n sleeps while sampling"
		dumped $c || continue
		n=$(field $c run.samples_in)
		holds "$n >= 50" "$c: only $n samples"
	done
	verdict
}

atf_test_case snapshots_never_wake_sleepers
snapshots_never_wake_sleepers_head()
{
	atf_set descr "PROFINTERVAL=0.01 while the only program thread naps" \
	    "20 times 50 ms in nanosleep(): no nap is cut short under any" \
	    "clock -- under itimer the snapper's own CPU time runs out the" \
	    "timer, and its signal went to the sleeping thread (20 of 20" \
	    "naps cut before the snapper took it) -- and parts are" \
	    "written (20 or more of the 100 due)"
}
snapshots_never_wake_sleepers_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c PROFINTERVAL=0.01 "$H" naps 20 50
		status_is $c 3
		out_is $c "naps: 20"
		quiet $c
		is "$(fact $c naps_eintr)" 0 "$c: naps cut short"
		n=$(ls $c | grep -c '^mon\.out\.[0-9]*$')
		holds "$n >= 20" "$c: $n parts"
	done
	verdict
}

# on_main CLOCK MODE OUT: h_fault MODE under CLOCK, parts every 0.01 s,
# exits 3 with stdout OUT, the program's SIGPROF handler run once, on
# the main thread.
on_main()
{
	run $1 PROFCLOCK=$1 PROFINTERVAL=0.01 "$H" $2
	status_is $1 3
	out_is $1 "$3"
	is "$(fact $1 killed)" 1 "$1: handler runs"
	is "$(fact $1 killed_main)" 1 "$1: handler runs on main"
}

atf_test_case program_sigprof_not_on_snapper
program_sigprof_not_on_snapper_head()
{
	atf_set descr "With PROFINTERVAL=0.01, a SIGPROF the program sends" \
	    "itself while its only thread blocks it waits for that thread" \
	    "under every clock, never taken by libmon's snapper: with a" \
	    "handler of the program's (which under itimer takes the signal" \
	    "over from the snapper) it runs once, on the main thread; with" \
	    "SIG_DFL (the snapper takes it and sends it on) the process" \
	    "dies of it once unblocked, not before (under itimer it may" \
	    "be lost to a sample waiting: libmon(7) BUGS)"
}
program_sigprof_not_on_snapper_body()
{
	setup
	for c in perf timer itimer; do
		on_main $c blockedkill "unblocking
handled: 1"
		run $c.dfl PROFCLOCK=$c PROFINTERVAL=0.01 "$H" blockedkill dfl
		# Under itimer one sample waiting as the program sends its
		# own takes its place (libmon(7) BUGS): never before it
		# unblocks.
		if [ $c = itimer ] && [ "$(cat $c.dfl/status)" = 3 ]; then
			out_is $c.dfl "unblocking
handled: 0"
			continue
		fi
		status_is $c.dfl $((128 + 27))
		out_is $c.dfl "unblocking"
	done
	verdict
}

atf_test_case handed_back_while_snapper_waits
handed_back_while_snapper_waits_head()
{
	atf_set descr "With PROFINTERVAL=0.01 under itimer, the program sets" \
	    "its SIGPROF handler while libmon's snapper waits for the C" \
	    "library's lock of loaded objects (another thread holds it in" \
	    "dl_iterate_phdr() for 300 ms): the snapper no longer takes" \
	    "SIGPROF -- a kill() while the program's threads block it waits" \
	    "for main (before, the snapper, not woken in the 50 ms" \
	    "hand_back() waits, ran the program's handler at once)"
}
handed_back_while_snapper_waits_body()
{
	setup
	for c in perf timer itimer; do
		on_main $c stuckkill "handled before unblocking: 0
handled: 1"
	done
	verdict
}

atf_test_case itimer_signals_a_sleeping_thread
itimer_signals_a_sleeping_thread_head()
{
	atf_set descr "When every busy thread blocks SIGPROF, ITIMER_PROF" \
	    "signals a thread that does not: asleep in poll() or" \
	    "nanosleep() it fails with EINTR, in read() it is restarted;" \
	    "the per-thread clocks signal no sleeping thread"
}
itimer_signals_a_sleeping_thread_body()
{
	setup
	for c in perf timer itimer; do
		for s in read poll nanosleep; do
			d=$c.$s
			run $d PROFCLOCK=$c "$H" eintr 500 $s
			status_is $d 3
			quiet $d
			n=$(fact $d ${s}_eintr)
			case $c:$s in
			itimer:read)
				is "$n" 0 "$d: EINTR from read"
				grep -q -x 'read: returned 1, error 0' $d/out ||
				    fail "$d: $(head -1 $d/out)"
				dumped $d || continue
				n=$(field $d run.samples_out)
				holds "$n >= 20" \
				    "$d: $n samples in the reading thread"
				;;
			itimer:*)
				holds "$n >= 10" "$d: $n EINTRs from $s" ;;
			*)
				is "$n" 0 "$d: EINTR from $s" ;;
			esac
		done
	done
	verdict
}

# --- dlopen ------------------------------------------------------------

# lib_share DIR ROW: the h_fault "dl" run in DIR spent 3 parts in the
# plain library's ROW to 1 in spin_a: ROW gets 70-80% of their time,
# together at least 90% of all but the rows shown apart, and no calls
# (its code is not counted).
lib_share()
{
	local lib prog apart

	lib=$(pct $1 "$2")
	prog=$(pct $1 spin_a)
	# Of the user-mode time: the system time shown apart (its share
	# grows on a loaded machine) and time no sample stood for are not.
	apart=$(awk -v a="$(pct $1 "[kernel: system calls and faults]")" \
	    -v b="$(pct $1 "[unsampled: CPU time no sample stood for]")" \
	    'BEGIN { print a + b }')
	holds "$lib + $prog >= 0.9 * (100 - $apart) &&
	    100 * $lib / ($lib + $prog) >= 70 &&
	    100 * $lib / ($lib + $prog) <= 80" \
	    "$2 $lib%, spin_a $prog%: $(cat $1/rows)"
	is "$(calls $1 "$2")" 0 "calls of uncounted code"
}

atf_test_case dlopen_plain_library_time
dlopen_plain_library_time_head()
{
	atf_set descr "Time spent in a dlopen'd library compiled without -p" \
	    "shows in rows named 'function (object)': three quarters of" \
	    "the CPU there gives that row 75% within a few points"
}
dlopen_plain_library_time_body()
{
	setup
	run d "$H" dl "$srcdir/h_dlib_plain.so" 300
	status_is d 3
	out_is d "dl: open"
	quiet d
	report d "$H" || verdict
	lib_share d "dl_burn (h_dlib_plain.so)"
	verdict
}

atf_test_case dlopen_profiled_library_counts
dlopen_profiled_library_counts_head()
{
	atf_set descr "A dlopen'd library compiled with -p counts its calls" \
	    "exactly into the program's profile: mcount is exported from" \
	    "the program, by the specs file's option or, since the C" \
	    "library defines it too, by the link editor itself"
}
dlopen_profiled_library_counts_body()
{
	setup
	for p in h_fault_dl h_fault; do
		nm -D "$srcdir/$p" | grep -q ' T mcount$' ||
		    fail "$p does not export mcount"
		run $p "$srcdir/$p" dl "$srcdir/h_dlib_p.so" 100
		status_is $p 3
		quiet $p
		report $p "$srcdir/$p" || continue
		is "$(calls $p "dl_leaf (h_dlib_p.so)")" 1000 \
		    "$p: dl_leaf's calls"
		is "$(calls $p "dl_burn (h_dlib_p.so)")" 1 "$p: dl_burn's calls"
		t=$(pct $p "dl_burn (h_dlib_p.so)")
		holds "$t >= 65 && $t <= 85" "$p: dl_burn has $t% of the time"
	done
	verdict
}

# --- dlclose -----------------------------------------------------------

# no_unknown_rows DIR: DIR/rows may have no [unknown] row.
no_unknown_rows()
{
	! grep -q '\[unknown\]' "$1/rows" ||
	    fail "$1: [unknown] rows: $(grep '\[unknown\]' "$1/rows")"
}

# listed DIR PATH: how many OBJ records of DIR/dump name PATH.
listed()
{
	awk -v p="$2" '$1 == "obj" && $6 == p { n++ } END { print n + 0 }' \
	    "$1/dump"
}

# twins: a.so and b.so here, two copies of the plain library.
twins()
{
	cp "$srcdir/h_dlib_plain.so" a.so && cp a.so b.so || atf_fail "cp"
}

# copies N: lib1.so .. libN.so here, copies of the plain library.
copies()
{
	local i

	i=1
	while [ $i -le $1 ]; do
		cp "$srcdir/h_dlib_plain.so" lib$i.so || atf_fail "cp lib$i.so"
		i=$((i + 1))
	done
}

atf_test_case dlclose_plain_library_named
dlclose_plain_library_named_head()
{
	atf_set descr "A library compiled without -p and dlclose'd before" \
	    "the profile is written keeps its name: three quarters of the" \
	    "CPU spent in it give its row 75% within a few points, no" \
	    "[unknown] row is left, and its build-id is recorded, so that" \
	    "prof warns when the file on disk is another build"
}
dlclose_plain_library_named_body()
{
	setup
	cp "$srcdir/h_dlib_plain.so" lib.so || atf_fail "cp"
	run d "$H" dl "$PWD/lib.so" 300 close
	status_is d 3
	out_is d "dl: closed"
	quiet d
	dumped d && is "$(listed d "$PWD/lib.so")" 1 "lib.so's OBJ records"
	report d "$H" || verdict
	lib_share d "dl_burn (lib.so)"
	no_unknown_rows d
	! grep -q warning d/stats || fail "prof warned: $(cat d/stats)"
	cp "$srcdir/h_dlib_p.so" lib.so || atf_fail "cp"
	report d "$H" || verdict
	grep -q "^prof: warning: $PWD/lib.so is not the build the profiled" \
	    d/stats || fail "no build-id warning: $(cat d/stats)"
	verdict
}

atf_test_case dlclose_profiled_library_counts
dlclose_profiled_library_counts_head()
{
	atf_set descr "A library compiled with -p and dlclose'd before the" \
	    "profile is written keeps its name and its exact call counts," \
	    "and its time within a few points; no [unknown] row is left"
}
dlclose_profiled_library_counts_body()
{
	setup
	run d "$HDL" dl "$srcdir/h_dlib_p.so" 300 close
	status_is d 3
	out_is d "dl: closed"
	quiet d
	report d "$HDL" || verdict
	is "$(calls d "dl_leaf (h_dlib_p.so)")" 1000 "dl_leaf's calls"
	is "$(calls d "dl_burn (h_dlib_p.so)")" 1 "dl_burn's calls"
	t=$(pct d "dl_burn (h_dlib_p.so)")
	holds "$t >= 65 && $t <= 85" "dl_burn has $t% of the time"
	no_unknown_rows d
	is "$(summary d 'cells:.*calls lost for want of a cell,')" 0 \
	    "calls in no known function"
	verdict
}

atf_test_case dlclose_held_library_stays_live
dlclose_held_library_stays_live_head()
{
	atf_set descr "A dlclose that leaves the library mapped, another" \
	    "handle holding it, leaves it listed once, as a live object," \
	    "and takes no room from the libraries that are unloaded: after" \
	    "300 such, more than the 256 unloaded ones libmon records, a" \
	    "library unloaded for good is still named"
}
dlclose_held_library_stays_live_body()
{
	setup
	copies 300
	run d "$HDL" dlmany "$PWD" 300 hold "$srcdir/h_dlib_p.so" 100
	status_is d 3
	out_is d "dlmany: 300 held
dl: closed"
	quiet d
	if dumped d; then
		is "$(field d run.unloaded_lost)" 0 "unloaded, not recorded"
		for i in 1 2 150 299 300; do
			is "$(listed d "$PWD/lib$i.so")" 1 "lib$i.so listed"
		done
		is "$(awk '$1 == "obj"' d/dump | sort | uniq -d)" "" \
		    "objects listed twice"
	fi
	report d "$HDL" || verdict
	is "$(calls d "dl_leaf (h_dlib_p.so)")" 1000 "dl_leaf's calls"
	no_unknown_rows d
	verdict
}

atf_test_case dlclose_beyond_the_table_counted
dlclose_beyond_the_table_counted_head()
{
	atf_set descr "libmon records 256 unloaded libraries; those unloaded" \
	    "beyond are counted in the RUN record, and prof warns of them"
}
dlclose_beyond_the_table_counted_body()
{
	setup
	copies 300
	run d "$HDL" dlmany "$PWD" 300 close "$srcdir/h_dlib_p.so" 100
	status_is d 3
	out_is d "dlmany: 300 closed
dl: closed"
	quiet d
	if dumped d; then
		is "$(field d run.unloaded_lost)" 45 "unloaded, not recorded"
		is "$(listed d "$PWD/lib256.so")" 1 "lib256.so listed"
		is "$(listed d "$PWD/lib257.so")" 0 "lib257.so listed"
	fi
	report d "$HDL" || verdict
	grep -q "^prof: warning: mon.out: 45 unloaded libraries not recorded\$" \
	    d/stats || fail "prof: $(cat d/stats)"
	verdict
}

atf_test_case dlclose_failure_unchanged
dlclose_failure_unchanged_head()
{
	atf_set descr "libmon's dlclose returns what the C library's does," \
	    "with the same dlerror() and errno, when it refuses a handle" \
	    "and when it unloads one"
}
dlclose_failure_unchanged_body()
{
	setup
	run d "$H" dlfail "$srcdir/h_dlib_plain.so"
	status_is d 3
	quiet d
	set -- $(ldd "$H" | awk '/libc\.so/ { print $3 }')
	out_is d "libmon's dlclose: yes
libmon refused: -1, errno kept, $1: shared object not open
libc refused: -1, errno kept, $1: shared object not open
libmon unloaded: 0, errno kept, no error
libc unloaded: 0, errno kept, no error"
	verdict
}

atf_test_case dlclose_address_reused_live_wins
dlclose_address_reused_live_wins_head()
{
	atf_set descr "Where a library loaded later took the addresses of" \
	    "one dlclose'd before, prof credits them to the one still" \
	    "loaded, which is listed first, and warns"
}
dlclose_address_reused_live_wins_body()
{
	setup
	twins
	run d "$H" dlreuse "$PWD/a.so" "$PWD/b.so" 100
	status_is d 3
	out_is d "dlreuse: done"
	quiet d
	[ "$(fact d reused)" = 1 ] ||
	    atf_skip "the loader did not put b.so where a.so was"
	dumped d || verdict
	is "$(listed d "$PWD/a.so") $(listed d "$PWD/b.so")" "1 1" \
	    "OBJ records of a.so and b.so"
	is "$(awk '$1 == "obj" && $6 ~ /\/[ab]\.so$/ { print $6; exit }' \
	    d/dump)" "$PWD/b.so" "the first of them"
	report d "$H" || verdict
	# 1 part of the CPU in a.so, 3 in b.so, 1 in spin_a: b.so gets 4 of
	# the 5 (the clock reads that time them, the kernel's, apart).
	t=$(pct d "dl_burn (b.so)")
	a=$(pct d spin_a)
	holds "$t + $a >= 85 && 100 * $t / ($t + $a) >= 75 &&
	    100 * $t / ($t + $a) <= 85" \
	    "dl_burn (b.so) has $t%, spin_a $a%: not 4 to 1"
	! grep -q "(a\.so)" d/rows || fail "a.so named: $(cat d/rows)"
	grep -q "^prof: warning: mon.out: [1-9][0-9]* samples, 0 calls at" \
	    d/stats || fail "no warning of reused addresses: $(cat d/stats)"
	verdict
}

atf_test_case dlclose_fork_child_lists_its_own
dlclose_fork_child_lists_its_own_head()
{
	atf_set descr "A fork child's file lists the libraries the child" \
	    "unloads, named with their time, and none its parent unloaded" \
	    "before the fork: its counts and samples start from zero"
}
dlclose_fork_child_lists_its_own_body()
{
	setup
	twins
	mkdir p
	run d PROFDIR=$PWD/p "$H" dlfork "$PWD/a.so" "$PWD/b.so" 200
	status_is d 3
	out_is d "dlfork: child done"
	quiet d
	set -- p/*.h_fault
	is "$#" 2 "files in PROFDIR"
	child=
	# Only the child loads b.so.
	for f; do
		dumped d "../$f" || continue
		if [ "$(listed d "$PWD/b.so")" = 1 ]; then
			child=$f
			is "$(listed d "$PWD/a.so")" 0 "the child lists a.so"
		else
			is "$(listed d "$PWD/a.so")" 1 "the parent lists a.so"
		fi
	done
	[ -n "$child" ] || fail "no file lists b.so"
	if [ -n "$child" ] && report d "$H" "$PWD/$child"; then
		t=$(pct d "dl_burn (b.so)")
		holds "$t >= 40 && $t <= 60" "the child's dl_burn (b.so): $t%"
	fi
	verdict
}

atf_test_case library_calls_reach_libmon
library_calls_reach_libmon_head()
{
	atf_set descr "sigaction() and pthread_create() called from a" \
	    "dlopen'd library reach libmon's: with a per-thread clock the" \
	    "library's SIGPROF action is kept aside and libmon's samples" \
	    "never reach it, and the thread it starts is sampled"
}
library_calls_reach_libmon_body()
{
	setup
	for c in perf timer; do
		run $c PROFCLOCK=$c "$H" dlcalls "$srcdir/h_dlib_plain.so" 400
		status_is $c 3
		out_is $c "read back: own handler"
		quiet $c
		dumped $c || continue
		per_thread $c
		report $c "$H" || continue
		is "$(fact $c own_signals)" 0 \
		    "$c: signals to the library's handler"
		lib=$(pct $c "dl_burn (h_dlib_plain.so)")
		holds "$lib >= 35 && $lib <= 65" \
		    "$c: the library's thread has $lib% of the time (50 spun)"
	done
	verdict
}

# --- clocks and seconds ------------------------------------------------

atf_test_case forced_clock_recorded
forced_clock_recorded_head()
{
	atf_set descr "Each clock PROFCLOCK forces is the one the file" \
	    "records and prof -s names -- perf, where the kernel refuses" \
	    "perf_event_open, falling back to timer; any other value draws" \
	    "one line naming PROFCLOCK and the default clock"
}
forced_clock_recorded_body()
{
	setup
	perf="1:perf_event task-clock"
	"$srcdir/t_hasperf" 2>/dev/null || perf="2:timer_create thread CPU-time"
	for c in "perf:$perf" \
	    "timer:2:timer_create thread CPU-time" \
	    "itimer:0:setitimer ITIMER_PROF"; do
		k=${c%%:*}
		want=${c#*:}
		run $k PROFCLOCK=$k "$H" spin 200
		status_is $k 3
		quiet $k
		dumped $k && report $k "$H" || continue
		is "$(field $k run.clock)" "${want%%:*}" "$k: RUN clock"
		grep -q "^clock: ${want#*:}, " $k/stats ||
		    fail "$k: $(grep '^clock:' $k/stats)"
	done
	run default "$H" spin 20
	run bogus PROFCLOCK=bogus "$H" spin 20
	status_is bogus 3
	[ "$(wc -l <bogus/err)" -eq 1 ] && grep -q PROFCLOCK bogus/err ||
	    fail "PROFCLOCK=bogus: stderr: $(cat bogus/err)"
	dumped default && dumped bogus &&
	    is "$(field bogus run.clock)" "$(field default run.clock)" \
	    "PROFCLOCK=bogus: clock"
	verdict
}

atf_test_case profhz_rate_measured
profhz_rate_measured_head()
{
	atf_set descr "PROFHZ=500 with the perf clock asks for 500 Hz and" \
	    "gets it within 20% over a second of CPU"
}
profhz_rate_measured_body()
{
	setup
	run d PROFCLOCK=perf PROFHZ=500 "$H" spin 1200
	status_is d 3
	quiet d
	dumped d && report d "$H" || verdict
	[ "$(field d run.clock)" = 1 ] || atf_skip "no perf_event clock here"
	is "$(field d run.period_ns)" 2000000 "period"
	line=$(grep '^clock:' d/stats)
	hz=$(echo "$line" |
	    sed -n 's/.* \([0-9.]*\) Hz measured over \([0-9.]*\) s.*/\1 \2/p')
	set -- $hz
	is "$(echo "$line" | grep -c ', 500 Hz asked,')" 1 "asked: $line"
	holds "${1:-0} >= 400 && ${1:-0} <= 600 && ${2:-0} >= 1" \
	    "measured: $line"
	verdict
}

atf_test_case seconds_match_thread_clocks
seconds_match_thread_clocks_head()
{
	atf_set descr "In a program of 4 busy threads each thread's function" \
	    "gets the seconds its thread spent in it by its own CPU clock," \
	    "whatever the clock: within 5% and a sample's worth, and" \
	    "with itimer, which splits time among threads that compete for" \
	    "the CPUs only roughly, within 4 standard deviations more;" \
	    "a timer the kernel stopped, which libmon armed again, is in" \
	    "the file's flags and prof -s's statistics alike"
}
seconds_match_thread_clocks_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" spread 100
		status_is $c 3
		out_is $c "threads 4"
		quiet $c
		dumped $c && report $c "$H" || continue
		cpu=$(field $c run.cpu_ns)
		spun=0
		for i in 0 1 2 3; do
			t=$(fact $c spin_${i}_ns)
			spun=$((spun + t))
			near $c spin_$i "$t" 1
		done
		holds "$spun <= $cpu" "$c: threads spun $spun ns, CPU $cpu ns"
		# A timer the kernel stopped and libmon armed again (some
		# kernels, threads that read their CPU clocks): the file
		# says so (MONX_RUN_REVIVED), and prof -s with it.
		r=$(awk '$1 == "run.flags" { print int($2 / 16) % 2 }' \
		    "$c/dump")
		if grep -q '^clock revived: ' "$c/stats"; then s=1; else s=0; fi
		is "$s" "${r:-0}" "$c: prof -s's 'clock revived' line"
		[ "$(field $c run.clock)" = 2 ] ||
		    is "${r:-0}" 0 "$c: a timer revived by another clock"
	done
	verdict
}

# --- where the file goes -----------------------------------------------

atf_test_case non_regular_output_left_alone
non_regular_output_left_alone_head()
{
	atf_set descr "A FIFO or a directory at mon.out is left as it is:" \
	    "nothing is written through it, one line on stderr names it," \
	    "the exit status is kept"
}
non_regular_output_left_alone_body()
{
	setup
	for k in fifo dir; do
		rm -rf $k
		mkdir $k
		case $k in
		fifo)	mkfifo $k/mon.out ;;
		dir)	mkdir $k/mon.out ;;
		esac
		( cd $k && "$H" spin 20 >out 2>err; echo $? >status )
		status_is $k 3
		[ "$(wc -l <$k/err)" -eq 1 ] && grep -q 'mon.out' $k/err ||
		    fail "$k: stderr: $(cat $k/err)"
		case $k in
		fifo)	[ -p $k/mon.out ] || fail "the FIFO was replaced" ;;
		dir)	[ -d $k/mon.out ] && [ -z "$(ls -A $k/mon.out)" ] ||
			    fail "the directory was replaced or written" ;;
		esac
		is "$(left $k)" "mon.out " "$k: left behind"
	done
	verdict
}

atf_test_case full_file_system_no_file
full_file_system_no_file_head()
{
	atf_set descr "On a full file system the profile is not written:" \
	    "the temporary file is removed, one line on stderr names the" \
	    "file and the reason, the exit status is kept"
	atf_set require.user root
	atf_set require.progs unshare
}
full_file_system_no_file_body()
{
	setup
	unshare -m true 2>/dev/null || atf_skip "no mount namespaces here"
	mkdir full
	# A private mount namespace: the small file system goes with it.
	unshare -m sh -c '
	    mount -t tmpfs -o size=64k tmpfs full || exit 99
	    dd if=/dev/zero of=full/fill bs=4k 2>/dev/null
	    PROFDIR=$PWD/full "$1" spin 50 >out 2>err
	    echo $? >status
	    ls -A full >left' sh "$H"
	[ $? -eq 99 ] && atf_skip "cannot mount a tmpfs here"
	status_is . 3
	[ "$(wc -l <err)" -eq 1 ] &&
	    grep -q 'full/[0-9]*\.h_fault: No space left on device$' err ||
	    fail "stderr: $(cat err)"
	is "$(cat left)" fill "files on the full file system"
	verdict
}

# setgid_honoured: skip unless exec here gives a set-group-ID program
# its file's group: under no_new_privs (t_noperf sets it) or from a
# nosuid mount, the bit is ignored and there is nothing to test.
setgid_honoured()
{
	cp "$(command -v id)" id.setgid && chown 0:0 id.setgid &&
	    chmod 2755 id.setgid || atf_fail "cannot make a set-group-ID id"
	[ "$(setpriv --regid=65534 --clear-groups ./id.setgid -g)" = 0 ] ||
	    atf_skip "exec ignores the set-group-ID bit here (NoNewPrivs:" \
	    "$(awk '$1 == "NoNewPrivs:" { print $2 }' /proc/self/status)," \
	    "else a nosuid mount)"
	rm -f id.setgid
}

atf_test_case setgid_ignores_profdir
setgid_ignores_profdir_head()
{
	atf_set descr "A set-group-ID program, like a set-user-ID one," \
	    "ignores PROFDIR and creates mon.out with the real user's and" \
	    "group's IDs"
	atf_set require.user root
	atf_set require.progs setpriv
}
setgid_ignores_profdir_body()
{
	setup
	setgid_honoured
	! nm "$H" | grep -q __asan_init ||
	    atf_skip "LeakSanitizer cannot run in a set-group-ID process"
	cp "$H" h_setgid && chown 0:0 h_setgid && chmod 2755 h_setgid ||
	    atf_fail "cannot make a set-group-ID copy of h_fault"
	mkdir home pd && chown 65534:65534 home && chmod 0777 pd ||
	    atf_fail "set-up"
	( cd home && PROFDIR=$PWD/../pd setpriv --reuid=65534 \
	    --regid=65534 --clear-groups ../h_setgid spin 20 >out 2>err
	    echo $? >status )
	status_is home 3
	quiet home
	is "$(ls pd)" "" "files in PROFDIR"
	if [ -f home/mon.out ]; then
		is "$(stat -c %u:%g home/mon.out)" 65534:65534 "mon.out's owner"
	else
		fail "no mon.out in the current directory"
	fi
	verdict
}

atf_init_test_cases()
{
	atf_add_test_case sigprof_blocked_for_a_while
	atf_add_test_case own_handler_and_itimer_kept
	atf_add_test_case own_handler_takes_over_itimer
	atf_add_test_case threads_come_and_go
	atf_add_test_case unseen_threads_tables_reused
	atf_add_test_case fork_50_children_add_up
	atf_add_test_case fork_child_thread_sampled
	atf_add_test_case exec_from_child_completes
	atf_add_test_case sigsegv_writes_nothing
	atf_add_test_case sigkill_writes_nothing
	atf_add_test_case killed_while_writing
	atf_add_test_case exit_from_a_thread_writes
	atf_add_test_case exit_while_threads_call
	atf_add_test_case blocking_calls_not_interrupted
	atf_add_test_case snapshots_never_wake_sleepers
	atf_add_test_case program_sigprof_not_on_snapper
	atf_add_test_case handed_back_while_snapper_waits
	atf_add_test_case itimer_signals_a_sleeping_thread
	atf_add_test_case dlopen_plain_library_time
	atf_add_test_case dlopen_profiled_library_counts
	atf_add_test_case dlclose_plain_library_named
	atf_add_test_case dlclose_profiled_library_counts
	atf_add_test_case dlclose_held_library_stays_live
	atf_add_test_case dlclose_beyond_the_table_counted
	atf_add_test_case dlclose_failure_unchanged
	atf_add_test_case dlclose_address_reused_live_wins
	atf_add_test_case dlclose_fork_child_lists_its_own
	atf_add_test_case library_calls_reach_libmon
	atf_add_test_case forced_clock_recorded
	atf_add_test_case profhz_rate_measured
	atf_add_test_case seconds_match_thread_clocks
	atf_add_test_case non_regular_output_left_alone
	atf_add_test_case full_file_system_no_file
	atf_add_test_case setgid_ignores_profdir
}

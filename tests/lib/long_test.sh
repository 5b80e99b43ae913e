#! /usr/bin/env atf-sh
#
# long_test -- programs that do not exit: a server (h_server, four
# worker threads, every request the same known calls) stopped by a
# signal, asked for snapshots by a signal, on an interval or by
# monsnapshot(); its files each whole, and its parts adding up, call for
# call, to what one whole run records.  Each case runs under the three
# clocks where the clock matters.

setup()
{
	. "$(atf_get_srcdir)/../harness.sh"
	srcdir=$(atf_get_srcdir)
	H=$srcdir/h_server
	PROF=$srcdir/../../prof/prof
	DUMP=$srcdir/t_mondump
	unset PROFDIR PROFHZ PROFCLOCK PROFSIGNAL PROFINTERVAL PROFTERM
	LC_ALL=C
	export LC_ALL
	bad=
}

# whole DIR FILE: FILE in DIR is a file the runtime wrote whole: the
# strict reader and prof both read it.
whole()
{
	[ -f "$1/$2" ] || { fail "$1: no $2"; return 1; }
	"$DUMP" "$1/$2" >"$1/$2.dump" 2>"$1/dumperr" ||
	    { fail "$1: $2: $(cat $1/dumperr)"; return 1; }
	( cd $1 && "$PROF" "$H" "$2" >/dev/null 2>proferr ) ||
	    { fail "$1: prof $2: $(cat $1/proferr)"; return 1; }
}

# calls DIR FILE...: "name calls" for every function with calls, as
# prof reports the files merged, sorted by name.
calls()
{
	local d

	d=$1
	shift
	( cd $d && "$PROF" -c "$H" "$@" 2>/dev/null ) |
	    awk 'NF == 6 && $4 ~ /^[0-9]+$/ { print $6, $4 }' | sort
}

# truth N: the calls a run of N requests makes, as calls prints them.
truth()
{
	printf 'after %s\nfinish 1\nhandle %s\nmain 1\nwork %s\nworker 4\n' \
	    $1 $1 $(($1 * 10))
}

# parts DIR PREFIX: the parts in DIR named PREFIX.N are 1..n, each
# whole, only the last marked last; their number is printed.
parts()
{
	local n i last

	n=$(ls $1 | grep -c "^$2\.[0-9][0-9]*$")
	[ "$n" -ge 1 ] || { fail "$1: no parts $2.N"; echo 0; return; }
	for i in $(seq $n); do
		whole $1 $2.$i || continue
		[ "$(awk '$1 == "run.part" { print $2 }' $1/$2.$i.dump)" = $i ] ||
		    fail "$1: $2.$i does not say it is part $i"
		last=$(awk '$1 == "run.last" { print $2 }' $1/$2.$i.dump)
		[ "$last" = $([ $i = $n ] && echo 1 || echo 0) ] ||
		    fail "$1: $2.$i has last $last, of $n parts"
	done
	echo $n
}

# merged DIR PREFIX N: the parts PREFIX.* of DIR add up to N requests.
merged()
{
	local got

	got=$(calls $1 $(cd $1 && ls | grep "^$2\.[0-9][0-9]*$"))
	[ "$got" = "$(truth $3)" ] ||
	    fail "$1: the parts add up to '$got', not '$(truth $3)'"
}

status()
{
	[ "$(cat $1/status)" = "$2" ] ||
	    fail "$1: status $(cat $1/status), not $2 ($(cat $1/err))"
}

atf_test_case polite_termination_writes_the_profile
polite_termination_writes_the_profile_head()
{
	atf_set descr "SIGTERM, SIGINT or SIGHUP, whose action is the" \
	    "default, write the profile whole and the program still dies of" \
	    "it: status 143, 130 or 129, every call counted, under each clock"
}
polite_termination_writes_the_profile_body()
{
	setup
	for c in perf timer itimer; do
		for s in 15 2 1; do
			run $c.$s PROFCLOCK=$c "$H" none 400 0 kill $s
			status $c.$s $((128 + s))
			whole $c.$s mon.out &&
			    [ "$(calls $c.$s mon.out)" = "$(truth 400)" ] ||
			    fail "$c.$s: calls '$(calls $c.$s mon.out)'"
		done
	done
	verdict
}

# busy DIR N END ARG VAR=VALUE...: h_server serving N requests in the
# background, its pid in $pid once it has served 100.
busy()
{
	local d n e a i

	d=$1
	n=$2
	e=$3
	a=$4
	shift 4
	rm -rf $d
	mkdir $d
	( cd $d && exec env "$@" "$H" none $n 0 $e $a >out 2>err ) &
	spid=$!
	i=0
	while [ $i -lt 400 ] && [ "$(served $d)" -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	pid=$(awk '$1 == "pid" { print $2 }' $d/facts 2>/dev/null)
}

served()
{
	od -An -t u8 $1/served 2>/dev/null | awk '{ print $1 + 0 }' |
	    grep . || echo 0
}

atf_test_case terminated_while_busy
terminated_while_busy_head()
{
	atf_set descr "A SIGTERM from outside while four threads serve" \
	    "requests ends the server with status 143 and a whole profile" \
	    "of the requests served, none counted twice"
}
terminated_while_busy_body()
{
	setup
	for c in perf timer itimer; do
		busy $c 20000 wait 30 PROFCLOCK=$c
		[ -n "$pid" ] || { wait $spid; fail "$c: never served"; continue; }
		n0=$(served $c)
		kill -TERM $pid
		wait $spid
		st=$?
		[ $st = 143 ] || fail "$c: status $st, not 143"
		n=$(served $c)
		left=$(ls -A $c | grep -v '^\(out\|err\|facts\|served\)$')
		[ "$left" = mon.out ] || fail "$c: left $left"
		whole $c mon.out || continue
		h=$(calls $c mon.out | awk '$1 == "handle" { print $2 }')
		w=$(calls $c mon.out | awk '$1 == "work" { print $2 }')
		# The threads serve on until the end: the profile is cut
		# between the signal and the death, with up to one request
		# per thread under way.
		holds "$h >= $n0 && $h <= $n + 4" \
		    "$c: $h requests counted, $n0 to $n served"
		holds "$w <= $h * 10 && $w >= ($h - 4) * 10" \
		    "$c: $w calls of work for $h requests counted"
	done
	verdict
}

atf_test_case terminated_inside_libmon
terminated_inside_libmon_head()
{
	atf_set descr "A SIGTERM that comes while the thread it interrupts is" \
	    "inside libmon (moncontrol() in a loop) waits for it to leave," \
	    "then writes the profile whole: status 143, five times a clock"
}
terminated_inside_libmon_body()
{
	setup
	for c in perf timer itimer; do
		for i in 1 2 3 4 5; do
			d=$c.$i
			rm -rf $d
			mkdir $d
			( cd $d && exec env PROFCLOCK=$c "$H" none 40 0 \
			    control 20 >out 2>err ) &
			spid=$!
			n=0
			while [ $n -lt 400 ] && ! grep -q controlling $d/facts \
			    2>/dev/null; do
				sleep 0.05
				n=$((n + 1))
			done
			sleep 0.$i
			kill -TERM $(awk '$1 == "pid" { print $2 }' $d/facts)
			wait $spid
			st=$?
			[ $st = 143 ] || fail "$d: status $st, not 143"
			[ ! -s $d/err ] || fail "$d: $(cat $d/err)"
			whole $d mon.out
		done
	done
	verdict
}

atf_test_case snapshots_by_signal_add_up
snapshots_by_signal_add_up_head()
{
	atf_set descr "PROFSIGNAL=USR2: each SIGUSR2 sent while four threads" \
	    "serve writes a part, mon.out.N, each whole; the part written at" \
	    "exit is the last; together they count every call exactly once," \
	    "and prof -s counts the threads once"
}
snapshots_by_signal_add_up_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c PROFSIGNAL=USR2 "$H" signal 2000 100 exit
		status $c 0
		n=$(parts $c mon.out)
		holds "$n >= 2" "$c: $n parts"
		merged $c mon.out 2000
		[ ! -e $c/mon.out ] || fail "$c: a mon.out besides the parts"
		# Threads stand as the last part has them, not summed.
		( cd $c && "$PROF" -s "$H" $(ls | grep '^mon.out\.[0-9]*$') \
		    2>&1 >/dev/null ) |
		    grep -q '^threads: 5 counted calls' ||
		    fail "$c: prof -s does not count the 5 threads once"
	done
	verdict
}

atf_test_case snapshots_from_outside_while_busy
snapshots_from_outside_while_busy_head()
{
	atf_set descr "SIGUSR2 sent from outside, again and again, while the" \
	    "server is busy: the parts are whole and add up to the calls of" \
	    "all its requests"
}
snapshots_from_outside_while_busy_body()
{
	setup
	for c in perf timer itimer; do
		busy $c 6000 exit 0 PROFCLOCK=$c PROFSIGNAL=USR2
		[ -n "$pid" ] || { wait $spid; fail "$c: never served"; continue; }
		# Not near the end: once the profile is written, SIGUSR2
		# is the program's again, and its default ends it.
		while [ "$(served $c)" -lt 4000 ]; do
			kill -USR2 $pid
			sleep 0.05
		done
		wait $spid
		st=$?
		[ $st = 0 ] || fail "$c: status $st, not 0"
		n=$(parts $c mon.out)
		holds "$n >= 3" "$c: $n parts"
		merged $c mon.out 6000
	done
	verdict
}

atf_test_case forked_child_snapshots_its_own
forked_child_snapshots_its_own_head()
{
	atf_set descr "A server that forks a worker process: with PROFDIR and" \
	    "PROFSIGNAL each process writes its own parts, by its own" \
	    "snapshot thread, and each set adds up to that process's calls"
}
forked_child_snapshots_its_own_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c PROFSIGNAL=USR2 PROFDIR=pd sh -c \
		    "mkdir pd; exec '$H' signal 1000 100 fork"
		status $c 0
		pids=$(ls $c/pd | sed 's/\..*//' | sort -u)
		[ $(echo $pids | wc -w) = 2 ] || { fail "$c: $(ls $c/pd)"; continue; }
		parent=$(awk '$1 == "pid" { print $2 }' $c/facts)
		for p in $pids; do
			n=$(parts $c/pd $p.h_server)
			holds "$n >= 5" "$c: $p: $n parts"
			got=$(calls $c/pd $(cd $c/pd &&
			    ls | grep "^$p\.h_server\.[0-9]*$"))
			want=$(truth 1000)
			# The child was forked from main: main is the parent's.
			[ $p = "$parent" ] || want=$(echo "$want" | grep -v '^main ')
			[ "$got" = "$want" ] || fail "$c: $p: '$got', not '$want'"
		done
	done
	verdict
}

atf_test_case snapshots_on_an_interval
snapshots_on_an_interval_head()
{
	atf_set descr "PROFINTERVAL=0.1 writes a part every tenth of a" \
	    "second while the server works; the parts add up to the run"
}
snapshots_on_an_interval_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c PROFINTERVAL=0.1 "$H" none 3000 0 exit
		status $c 0
		n=$(parts $c mon.out)
		holds "$n >= 2" "$c: $n parts"
		merged $c mon.out 3000
	done
	verdict
}

atf_test_case snapshots_touch_no_action
snapshots_touch_no_action_head()
{
	atf_set descr "While parts are written every 0.01 s, a thread that" \
	    "reads the actions of SIGUSR1, SIGALRM and SIGXFSZ finds them" \
	    "always SIG_DFL: a snapshot sets no action of the program's"
}
snapshots_touch_no_action_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c PROFINTERVAL=0.01 "$H" watch 3000 0 exit
		status $c 0
		[ ! -s $c/out ] || fail "$c: $(cat $c/out)"
		n=$(parts $c mon.out)
		holds "$n >= 5" "$c: $n parts"
	done
	verdict
}

atf_test_case snapshot_by_the_program
snapshot_by_the_program_head()
{
	atf_set descr "monsnapshot(), called by a worker every 100 requests" \
	    "with no variable set, returns 0 and writes a part; the parts" \
	    "add up to the run; with profiling off it fails with EINVAL"
}
snapshot_by_the_program_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" api 1000 100 exit
		status $c 0
		[ ! -s $c/out ] || fail "$c: $(cat $c/out)"
		n=$(parts $c mon.out)
		holds "$n == 11" "$c: $n parts, not 10 and the last"
		merged $c mon.out 1000
	done
	run off PROFDIR= "$H" api 200 100 exit
	[ "$(sort -u off/out)" = "monsnapshot: Invalid argument" ] ||
	    fail "off: '$(cat off/out)'"
	verdict
}

atf_test_case snapshot_from_a_signal_handler
snapshot_from_a_signal_handler_head()
{
	atf_set descr "monsnapshot() called from a signal handler every 2 ms," \
	    "while the thread it interrupts takes and gives back the profile's" \
	    "lock (moncontrol() in a loop), writes a part or fails with" \
	    "EDEADLK, and never waits for ever: every part whole, exit 0"
}
snapshot_from_a_signal_handler_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c timeout -s KILL 30 "$H" handler 40 0 \
		    control 3
		status $c 0
		[ "$(cat $c/out)" = "handler: 0 failed" ] ||
		    fail "$c: '$(cat $c/out)'"
		n=$(parts $c mon.out)
		holds "$n >= 2" "$c: $n parts"
	done
	verdict
}

atf_test_case vfork_child_terminated
vfork_child_terminated_head()
{
	atf_set descr "A vfork() child killed by SIGTERM before its exec dies" \
	    "of it and touches nothing of its parent's: the parent goes on," \
	    "exits 0 and writes its profile whole, every call counted"
}
vfork_child_terminated_body()
{
	setup
	for v in whole parts; do
		if [ $v = whole ]; then
			run $v "$H" none 40 0 vfork
		else
			run $v PROFINTERVAL=1 "$H" none 40 0 vfork
		fi
		status $v 0
		[ "$(cat $v/out)" = "vfork child: killed by 15" ] ||
		    fail "$v: '$(cat $v/out)'"
		if [ $v = whole ]; then
			whole $v mon.out
		else
			parts $v mon.out >/dev/null
		fi
		[ "$(calls $v $(cd $v && ls | grep '^mon\.out[.0-9]*$'))" = \
		    "$(truth 40)" ] || fail "$v: not every call counted"
	done
	verdict
}

atf_test_case snapshots_then_termination
snapshots_then_termination_head()
{
	atf_set descr "Snapshots by signal, then SIGTERM: the last part is" \
	    "written by the snapshot thread, status 143, the parts add up"
}
snapshots_then_termination_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c PROFSIGNAL=USR2 "$H" signal 400 50 kill 15
		status $c 143
		parts $c mon.out >/dev/null
		merged $c mon.out 400
	done
	verdict
}

atf_test_case own_handler_kept
own_handler_kept_head()
{
	atf_set descr "A program that handles SIGTERM itself gets the signal" \
	    "and exits as it decides, exactly as with profiling off; the" \
	    "profile is written at its exit"
}
own_handler_kept_body()
{
	setup
	run plain PROFDIR= "$H" none 100 0 own
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" none 100 0 own
		status $c 7
		cmp -s plain/out $c/out || fail "$c: out '$(cat $c/out)'"
		whole $c mon.out
	done
	verdict
}

atf_test_case blocked_snapshot_signal_kept
blocked_snapshot_signal_kept_head()
{
	atf_set descr "A program that blocks the snapshot signal and takes" \
	    "it with sigtimedwait() gets it, as with profiling off; no" \
	    "snapshot is written for it"
}
blocked_snapshot_signal_kept_body()
{
	setup
	run plain PROFDIR= PROFSIGNAL=USR2 "$H" signal 100 10 blocked
	status plain 0
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c PROFSIGNAL=USR2 "$H" signal 100 10 blocked
		status $c 0
		cmp -s plain/out $c/out || fail "$c: out '$(cat $c/out)'"
		[ "$(parts $c mon.out)" = 1 ] ||
		    fail "$c: $(ls $c | grep mon.out | tr '\n' ' ')"
	done
	verdict
}

atf_test_case actions_as_without_libmon
actions_as_without_libmon_head()
{
	atf_set descr "sigaction() reads SIG_DFL for SIGINT, SIGTERM, SIGHUP" \
	    "and the snapshot signal, a handler set is read back and SIG_DFL" \
	    "again, and a program it execs finds the same blocked, ignored" \
	    "and caught signals as with profiling off"
}
actions_as_without_libmon_body()
{
	setup
	run plain PROFDIR= "$H" none 10 0 disp
	for c in perf timer itimer; do
		for v in PROFTERM=on PROFSIGNAL=USR2 PROFINTERVAL=1; do
			run $c.$v PROFCLOCK=$c $v "$H" none 10 0 disp
			cmp -s plain/out $c.$v/out ||
			    fail "$c $v: '$(cat $c.$v/out)'"
		done
	done
	grep -q "^Terminated default$" plain/out || fail "$(cat plain/out)"
	verdict
}

atf_test_case inherited_ignore_kept
inherited_ignore_kept_head()
{
	atf_set descr "A program started with SIGTERM ignored keeps ignoring" \
	    "it: it lives on and writes its profile when it exits"
}
inherited_ignore_kept_body()
{
	setup
	for c in perf timer itimer; do
		( trap '' TERM; run $c PROFCLOCK=$c "$H" none 100 0 kill 15 )
		status $c 9
		whole $c mon.out
	done
	verdict
}

atf_test_case switch_turns_it_off
switch_turns_it_off_head()
{
	atf_set descr "PROFTERM=off: SIGTERM ends the program at once, status" \
	    "143, and no profile is written"
}
switch_turns_it_off_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c PROFTERM=off "$H" none 100 0 kill 15
		status $c 143
		[ -z "$(ls $c | grep mon.out)" ] || fail "$c: a profile"
	done
	verdict
}

atf_test_case bad_profsignal_said
bad_profsignal_said_head()
{
	atf_set descr "A PROFSIGNAL that cannot ask for snapshots (KILL) is" \
	    "named in one line on stderr, and the profile is written whole" \
	    "at exit under its usual name; one the program was started" \
	    "ignoring stays ignored, and one line says so"
}
bad_profsignal_said_body()
{
	setup
	run d PROFSIGNAL=KILL "$H" none 10 0 exit
	status d 0
	grep -q '^libmon: PROFSIGNAL: ' d/err || fail "stderr '$(cat d/err)'"
	whole d mon.out
	( trap '' USR2; run e PROFSIGNAL=USR2 "$H" signal 100 10 exit )
	status e 0
	[ "$(grep -c '^libmon: PROFSIGNAL: .*ignores' e/err)" = 1 ] ||
	    fail "ignored: stderr '$(cat e/err)'"
	[ "$(parts e mon.out)" = 1 ] || fail "ignored: $(ls e)"
	verdict
}

atf_test_case reused_pid_never_clobbers
reused_pid_never_clobbers_head()
{
	atf_set descr "With PROFDIR, a second run of the same pid (the" \
	    "program exec'd again) writes DIR/<pid>.<prog>-2, its parts" \
	    "DIR/<pid>.<prog>-2.N: the first run's files are left as they were"
}
reused_pid_never_clobbers_body()
{
	setup
	run d PROFDIR=pd sh -c "mkdir pd; exec '$H' none 10 0 reexec"
	f=$(ls d/pd | tr '\n' ' ')
	p=${f%%.*}
	[ "$f" = "$p.h_server $p.h_server-2 " ] || fail "whole runs: $f"
	whole d/pd $p.h_server
	whole d/pd $p.h_server-2
	run e PROFSIGNAL=USR2 PROFDIR=pd sh -c \
	    "mkdir pd; exec '$H' signal 100 50 reexec"
	p=$(ls e/pd | sed -n '1s/\..*//p')
	parts e/pd $p.h_server >/dev/null
	parts e/pd $p.h_server-2 >/dev/null
	merged e/pd $p.h_server 100
	merged e/pd $p.h_server-2 100
	verdict
}

atf_init_test_cases()
{
	atf_add_test_case polite_termination_writes_the_profile
	atf_add_test_case terminated_while_busy
	atf_add_test_case terminated_inside_libmon
	atf_add_test_case snapshots_by_signal_add_up
	atf_add_test_case snapshots_from_outside_while_busy
	atf_add_test_case forked_child_snapshots_its_own
	atf_add_test_case snapshots_on_an_interval
	atf_add_test_case snapshots_touch_no_action
	atf_add_test_case snapshot_by_the_program
	atf_add_test_case snapshot_from_a_signal_handler
	atf_add_test_case snapshots_then_termination
	atf_add_test_case vfork_child_terminated
	atf_add_test_case own_handler_kept
	atf_add_test_case blocked_snapshot_signal_kept
	atf_add_test_case actions_as_without_libmon
	atf_add_test_case inherited_ignore_kept
	atf_add_test_case switch_turns_it_off
	atf_add_test_case bad_profsignal_said
	atf_add_test_case reused_pid_never_clobbers
}

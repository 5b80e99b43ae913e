#! /usr/bin/env atf-sh
#
# never_test -- profiling never changes the program: a cc -p program
# (h_never) written as daemons, launchers and thread pools are written
# must print, write and exit exactly as it does with profiling off
# (PROFDIR=""), and its profile must be about it and no other process.
# Each case names the clocks it holds for; where a clock that samples by
# signal cannot keep a promise, the README's fault table says so and the
# case does not judge it.

setup()
{
	. "$(atf_get_srcdir)/../harness.sh"
	srcdir=$(atf_get_srcdir)
	H=$srcdir/h_never
	PROF=$srcdir/../../prof/prof
	DUMP=$srcdir/t_mondump
	unset PROFDIR PROFHZ PROFCLOCK
	LC_ALL=C
	export LC_ALL
	bad=
}

# same DIR: DIR's status, stdout and stderr are those of the run with
# profiling off (DIR "plain").
same()
{
	local f

	for f in status out err; do
		cmp -s plain/$f $1/$f ||
		    fail "$1: $f '$(cat $1/$f)', profiling off '$(cat plain/$f)'"
	done
}

# profiled DIR [FILE]: DIR/FILE (mon.out) is a whole profile prof reads.
profiled()
{
	local f

	f=$1/${2:-mon.out}
	[ -f "$f" ] || { fail "$1: no ${2:-mon.out}"; return 1; }
	"$DUMP" "$f" >$1/dump 2>$1/dumperr ||
	    { fail "$1: $(cat $1/dumperr)"; return 1; }
	( cd $1 && "$PROF" -s "$H" "${2:-mon.out}" >rows 2>stats ) ||
	    { fail "$1: prof: $(cat $1/stats)"; return 1; }
}

field()
{
	awk -v k="$2" '$1 == k { print $2; exit }' "$1/dump"
}

fact()
{
	awk -v k="$2" '$1 == k { print $2; exit }' "$1/facts"
}

# need_perf: skip unless perf_event_open is allowed here, for the cases
# only the default clock can pass (the README's table says why).
need_perf()
{
	"$srcdir/t_hasperf" 2>/dev/null ||
	    atf_skip "perf_event_open is refused here; the clocks that" \
	    "signal cannot keep this promise (a documented limit)"
}

# secs DIR NAME: the seconds prof gives function NAME.
secs()
{
	awk -v n="$2" '$NF == n { print $2; found = 1; exit }
	    END { if (!found) print 0 }' "$1/rows"
}

atf_test_case closed_descriptors_kept
closed_descriptors_kept_head()
{
	atf_set descr "A program that closes every descriptor above 2 at" \
	    "start, as daemons do, then opens its own log while threads" \
	    "come and go keeps its log whole, and holds no descriptor of" \
	    "libmon's, whatever the clock"
}
closed_descriptors_kept_body()
{
	setup
	run plain PROFDIR= "$H" closefds 300
	[ "$(cat plain/log.txt)" = "important line" ] ||
	    atf_fail "without profiling the log is '$(cat plain/log.txt)'"
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" closefds 300
		same $c
		[ "$(cat $c/log.txt 2>/dev/null)" = "important line" ] ||
		    fail "$c: log.txt is '$(cat $c/log.txt 2>/dev/null)'"
		profiled $c
	done
	verdict
}

atf_test_case underscore_fork_child_writes_nothing
underscore_fork_child_writes_nothing_head()
{
	atf_set descr "A child made by _Fork(), which runs no atfork" \
	    "handler, ends as it would without libmon (its output kept," \
	    "status 0) and writes no profile: it is not the process that" \
	    "started it; the parent's profile is written"
}
underscore_fork_child_writes_nothing_body()
{
	setup
	run plain PROFDIR= "$H" fork_ 200
	for c in perf timer itimer; do
		mkdir -p $c.d
		run $c PROFCLOCK=$c PROFDIR=$PWD/$c.d "$H" fork_ 200
		same $c
		n=$(ls $c.d | wc -l)
		[ "$n" -eq 1 ] || fail "$c: $n profiles in PROFDIR: $(ls $c.d)"
		rm -rf $c.d
	done
	verdict
}

atf_test_case sigwait_sees_only_the_programs_signals
sigwait_sees_only_the_programs_signals_head()
{
	atf_set descr "A daemon that blocks every signal in every thread and" \
	    "takes them with sigtimedwait() on a full set receives its own" \
	    "signal, never libmon's SIGPROF, under every clock (timer and" \
	    "itimer handed it signal 27 before sigwait.c), and a SIGPROF it" \
	    "sends itself still reaches its sigwait()"
}
sigwait_sees_only_the_programs_signals_body()
{
	setup
	run plain PROFDIR= "$H" sigwait 300
	grep -q 'first signal taken: 10$' plain/out ||
	    atf_fail "without profiling: $(cat plain/out)"
	grep -q 'own SIGPROF taken: 27$' plain/out ||
	    atf_fail "without profiling: $(cat plain/out)"
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" sigwait 300
		same $c
		profiled $c
	done
	verdict
}

atf_test_case signalfd_reads_only_the_programs_signals
signalfd_reads_only_the_programs_signals_head()
{
	atf_set descr "The same daemon reading its signals from a signalfd" \
	    "made for every signal reads its own first, under every clock" \
	    "(timer and itimer had it read libmon's SIGPROF)"
}
signalfd_reads_only_the_programs_signals_body()
{
	setup
	run plain PROFDIR= "$H" signalfd 300
	grep -q 'first signal read: 10$' plain/out ||
	    atf_fail "without profiling: $(cat plain/out)"
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" signalfd 300
		same $c
		profiled $c
	done
	verdict
}

atf_test_case pthread_exit_from_main_ends
pthread_exit_from_main_ends_head()
{
	atf_set descr "main calls pthread_exit() while a worker spins: the" \
	    "process ends with the worker, status 0, and the worker, the" \
	    "last thread, writes the profile (the perf clock's drainer kept" \
	    "such a process alive for ever; and linking the file through" \
	    "/proc/self failed under every clock)"
	atf_set timeout 120
}
pthread_exit_from_main_ends_body()
{
	setup
	run plain PROFDIR= timeout -s KILL 20 "$H" pexit 200
	grep -q '^0$' plain/status || atf_fail "unprofiled: $(cat plain/status)"
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c timeout -s KILL 20 "$H" pexit 200
		same $c
		profiled $c
		[ -s $c/err ] && fail "$c: $(cat $c/err)"
		holds "$(secs $c spin_a) > 0.1" \
		    "$c: spin_a $(secs $c spin_a) s, the worker spun 0.2 s"
	done
	verdict
}

atf_test_case pthread_exit_in_a_fork_child
pthread_exit_in_a_fork_child_head()
{
	atf_set descr "A fork child whose main thread calls pthread_exit()" \
	    "ends with its last thread (Open POSIX pthread_atfork 1-1 and" \
	    "2-1 hung so under the perf clock)"
	atf_set timeout 120
}
pthread_exit_in_a_fork_child_body()
{
	setup
	run plain PROFDIR= "$H" pexitfork 100
	grep -q 'child status 0$' plain/out ||
	    atf_fail "unprofiled: $(cat plain/out)"
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" pexitfork 100
		same $c
		profiled $c
	done
	verdict
}

atf_test_case fork_in_a_handler_amid_pthread_create
fork_in_a_handler_amid_pthread_create_head()
{
	atf_set descr "A signal handler that forks while its thread is in" \
	    "pthread_create(): the child returns from the handler, makes" \
	    "threads and exits (under the perf clock a third of such" \
	    "children hung in their next pthread_create: the maker's read" \
	    "lock, renewed in the child, was let go once more)"
	atf_set timeout 300
}
fork_in_a_handler_amid_pthread_create_body()
{
	setup
	run plain PROFDIR= "$H" sigfork 40
	grep -q '^40 of 40 children exited 3$' plain/out ||
	    atf_fail "unprofiled: $(cat plain/out)"
	for c in perf timer itimer; do
		mkdir $c.d
		run $c PROFCLOCK=$c PROFDIR=$PWD/$c.d "$H" sigfork 40
		same $c
		# The parent's profile and each child's.
		[ $(ls $c.d | wc -l) -eq 41 ] ||
		    fail "$c: $(ls $c.d | wc -l) profiles, not 41"
	done
	verdict
}

atf_test_case threads_get_no_arena_of_libmons
threads_get_no_arena_of_libmons_head()
{
	atf_set descr "16 threads that never call malloc leave the process" \
	    "with the malloc arenas it has unprofiled (libmon's thread" \
	    "wrapper, freed by the new thread, gave each an arena: 16)"
}
threads_get_no_arena_of_libmons_body()
{
	setup
	run plain PROFDIR= "$H" arenas 16
	grep -q '^arenas 1$' plain/out ||
	    atf_fail "unprofiled: $(cat plain/out)"
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" arenas 16
		same $c
		run $c.snap PROFCLOCK=$c PROFINTERVAL=0.05 "$H" arenas 16
		same $c.snap
	done
	verdict
}

atf_test_case vfork_child_exit_keeps_the_profile
vfork_child_exit_keeps_the_profile_head()
{
	atf_set descr "A vfork() child that calls exit() (as after a failed" \
	    "exec) leaves its parent's profile to be written at its exit," \
	    "with the time it spun after the child (the child ran the" \
	    "parent's exit handlers, libmon's writer among them, and no" \
	    "profile was written)"
}
vfork_child_exit_keeps_the_profile_body()
{
	setup
	run plain PROFDIR= "$H" vforkexit 150
	grep -q 'child status 0x500$' plain/out ||
	    atf_fail "unprofiled: $(cat plain/out)"
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" vforkexit 150
		same $c
		profiled $c || continue
		holds "$(secs $c spin_a) > 0.2" \
		    "$c: spin_a $(secs $c spin_a) s, the parent spun 0.3 s"
	done
	verdict
}

atf_test_case vfork_exec_leaves_the_clock
vfork_exec_leaves_the_clock_head()
{
	atf_set descr "A vfork() child's exec stops nothing of its parent's" \
	    "clock: a fork child the parent makes afterwards is sampled as" \
	    "usual (under itimer the child's exec paused the parent's timer" \
	    "in the memory they share, and later children got no samples)"
}
vfork_exec_leaves_the_clock_body()
{
	setup
	run plain PROFDIR= "$H" vforkexec 300
	for c in perf timer itimer; do
		mkdir -p $c.d
		run $c PROFCLOCK=$c PROFDIR=$PWD/$c.d "$H" vforkexec 300
		same $c
		( cd $c.d && "$PROF" "$H" * >../$c/rows 2>../$c/stats ) ||
		    fail "$c: prof: $(cat $c/stats)"
		holds "$(secs $c spin_a) > 0.15" \
		    "$c: spin_a $(secs $c spin_a) s, the fork child spun 0.3 s"
		rm -rf $c.d
	done
	verdict
}

atf_test_case snapshot_signal_during_exit_kept
snapshot_signal_during_exit_kept_head()
{
	atf_set descr "PROFSIGNAL=USR2 arrives after the profile stopped in" \
	    "exit(), before stdio is flushed: the program's status and" \
	    "output are kept (it died of SIGUSR2, status 140, its output" \
	    "lost)"
}
snapshot_signal_during_exit_kept_body()
{
	setup
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c PROFSIGNAL=USR2 "$H" sigexit 50
		grep -q '^3$' $c/status || fail "$c: status $(cat $c/status)"
		printf 'main returns\nstill here after SIGUSR2\n' |
		    cmp -s - $c/out || fail "$c: output '$(cat $c/out)'"
		ls $c/mon.out.* >/dev/null 2>&1 || fail "$c: no part written"
	done
	verdict
}

atf_test_case small_stacks_kept
small_stacks_kept_head()
{
	atf_set descr "A thread on a PTHREAD_STACK_MIN stack that recurses" \
	    "about as deep as it can without profiling does so profiled" \
	    "with the default clock, which puts no signal frame on it"
}
small_stacks_kept_body()
{
	setup
	need_perf
	run plain PROFDIR= "$H" smallstack 47
	[ "$(cat plain/status)" = 3 ] ||
	    atf_skip "47 frames do not fit even unprofiled here"
	run perf PROFCLOCK=perf "$H" smallstack 47
	same perf
	profiled perf
	verdict
}

atf_test_case libc_threads_sampled
libc_threads_sampled_head()
{
	atf_set descr "A thread the C library starts itself (a SIGEV_THREAD" \
	    "timer's callback) is sampled with the default clock: prof's" \
	    "seconds for its work and main's match each thread's own CPU" \
	    "clock within 15% and 30 ms"
}
libc_threads_sampled_body()
{
	setup
	run perf "$H" sigevthread 500
	[ "$(cat perf/status)" = 3 ] || atf_fail "status $(cat perf/status)"
	profiled perf || verdict
	[ "$(field perf run.clock)" = 1 ] || atf_skip "no perf clock here"
	( cd perf && "$PROF" "$H" mon.out >rows ) || atf_fail "prof"
	for f in cb_work:cb_ns main_work:main_ns; do
		got=$(secs perf ${f%%:*})
		want=$(fact perf ${f#*:})
		holds "($got - $want / 1e9)^2 <= (0.15 * $want / 1e9 + 0.03)^2" \
		    "${f%%:*}: prof ${got} s, its thread's CPU clock $want ns"
	done
	verdict
}

atf_test_case process_title_keeps_profdir_name
process_title_keeps_profdir_name_head()
{
	atf_set descr "A program that rewrites argv[0] as its process title," \
	    "empties its environment and changes to / still writes" \
	    "PROFDIR/<pid>.<name>, name and directory -- a relative one" \
	    "too -- taken when profiling started"
}
process_title_keeps_profdir_name_body()
{
	setup
	run plain PROFDIR= "$H" title 100
	for c in perf timer itimer; do
		mkdir -p $c.d
		# A relative PROFDIR, from the directory the program starts in.
		run $c PROFCLOCK=$c PROFDIR=../$c.d "$H" title 100
		same $c
		f=$(ls $c.d)
		case $f in
		[0-9]*.h_never)	profiled $c.d $f ;;
		*)		fail "$c: PROFDIR holds '$f'" ;;
		esac
	done
	verdict
}

atf_test_case fork_after_stop_writes_nothing
fork_after_stop_writes_nothing_head()
{
	atf_set descr "Children forked after the program stopped its profile" \
	    "with monitor(0) write nothing, and the exit writes nothing" \
	    "more: one profile, the parent's"
}
fork_after_stop_writes_nothing_body()
{
	setup
	run plain PROFDIR= "$H" stopfork 100
	for c in perf timer itimer; do
		mkdir -p $c.d
		run $c PROFCLOCK=$c PROFDIR=$PWD/$c.d "$H" stopfork 100
		same $c
		n=$(ls $c.d | wc -l)
		[ "$n" -eq 1 ] || fail "$c: $n profiles: $(ls $c.d)"
	done
	verdict
}

atf_test_case stop_and_thread_start_race
stop_and_thread_start_race_head()
{
	atf_set descr "Profiles stopped and started 300 times while another" \
	    "thread creates short threads without pause: no thread keeps a" \
	    "clock past a stop, so the program ends with its own status" \
	    "and the last profile is whole"
}
stop_and_thread_start_race_body()
{
	setup
	run plain PROFDIR= "$H" churn 300
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" churn 300
		same $c
		profiled $c
	done
	verdict
}

atf_test_case terminated_while_writing_with_threads
terminated_while_writing_with_threads_head()
{
	atf_set descr "A SIGTERM sent to the process while its profile is" \
	    "being written, other threads running, waits for the file: the" \
	    "program ends with status 143, the profile written whole and" \
	    "nothing else left"
	atf_set require.progs strace
}
terminated_while_writing_with_threads_body()
{
	setup
	calls=link,linkat,rename,renameat,renameat2
	for c in perf timer itimer; do
		rm -rf $c
		mkdir $c
		# The file is named 1.5 s late; the SIGTERM comes meanwhile
		# and goes to one of the busy threads.  The facts file, closed
		# as main returns, gives the pid once the writing has begun.
		( cd $c && exec env PROFCLOCK=$c strace -f -qq -o /dev/null \
		    -e trace=$calls -e inject=$calls:delay_enter=1500000 \
		    "$H" busyexit 100 >out 2>err ) &
		spid=$!
		i=0
		while [ $i -lt 400 ] && ! grep -q '^pid ' $c/facts 2>/dev/null
		do
			sleep 0.05
			i=$((i + 1))
		done
		pid=$(fact $c pid)
		if [ -z "$pid" ]; then
			wait $spid
			fail "$c: the program never came to its end"
			continue
		fi
		sleep 0.5
		kill -TERM $pid
		wait $spid
		st=$?
		[ $st = 143 ] || fail "$c: status $st, not 143"
		left=$(ls -A $c | grep -v '^\(out\|err\|facts\|mon.out\)$')
		[ -z "$left" ] || fail "$c: left $left"
		profiled $c
	done
	verdict
}

# traced CLOCK MODE: h_never MODE 100 under PROFCLOCK=CLOCK, run by
# t_tracer holding each SIGPROF 30 ms, in directory CLOCK.MODE: it must
# end with h_never's own status, 3, with its profile written, and under
# a clock that signals the tracer must have held some SIGPROF.  Skips
# where ptrace is refused.
traced()
{
	local d n

	d=$1.$2
	rm -rf $d
	mkdir $d
	( cd $d && exec env PROFCLOCK=$1 "$srcdir/t_tracer" 30 \
	    "$H" $2 100 >out 2>err )
	if [ $? = 2 ]; then
		atf_skip "no ptrace here: $(head -n 1 $d/err)"
	fi
	grep -qx 'exit 3' $d/out || fail "$d: ended by" \
	    "'$(grep -E '^(exit|signal) [0-9]+$' $d/out)', not exit 3"
	n=$(awk '$1 == "held" { print $2 }' $d/err)
	[ $1 = perf ] || [ "${n:-0}" -gt 0 ] ||
	    fail "$d: no SIGPROF held: the case tried nothing"
	profiled $d
}

atf_test_case stopped_under_a_tracer
stopped_under_a_tracer_head()
{
	atf_set descr "Under a tracer, as strace -f or a debugger, which" \
	    "hands each signal on only as it lets the thread run again, a" \
	    "sample held as monitor(0) or exit() stops the clock does not" \
	    "kill the program: it ends with its own status and the profile" \
	    "is written (perf, which sends no signal, is the control)"
}
stopped_under_a_tracer_body()
{
	setup
	for c in perf timer itimer; do
		# t_tracer holds each SIGPROF 30 ms: with three threads busy,
		# one is nearly always held as monitor(0) stops the clock, and
		# busystop's main spins 100 ms after it, time for the held
		# sample to come (before the fix: killed 10 times in 10);
		# busyexit's exit() ends the process sooner (4 in 24).
		traced $c busystop
		traced $c busyexit
	done
	verdict
}

atf_test_case profil_after_stop_under_a_tracer
profil_after_stop_under_a_tracer_head()
{
	atf_set descr "Under a tracer that holds each SIGPROF, profil()" \
	    "started right after monitor(0) does not take a sample of the" \
	    "stopped clock, held till then, for the program's own SIGPROF:" \
	    "the status is the program's"
}
profil_after_stop_under_a_tracer_body()
{
	setup
	traced timer busyprofil
	traced itimer busyprofil
	verdict
}

atf_test_case second_exit_waits_for_the_profile
second_exit_waits_for_the_profile_head()
{
	atf_set descr "A thread that calls exit() while main returns, its" \
	    "exit handlers writing the profile, waits for the file to be" \
	    "whole: 20 runs a clock, every profile written whole, nothing" \
	    "else left"
}
second_exit_waits_for_the_profile_body()
{
	setup
	for c in perf timer itimer; do
		for n in $(seq 20); do
			run $c.$n PROFCLOCK=$c "$H" twoexit $((n * 7000))
			st=$(cat $c.$n/status)
			[ "$st" = 3 ] || fail "$c.$n: status $st"
			left=$(ls -A $c.$n |
			    grep -v '^\(out\|err\|status\|facts\|mon.out\)$')
			[ -z "$left" ] || fail "$c.$n: left $left"
			profiled $c.$n
		done
	done
	verdict
}

atf_test_case unsampled_threads_counted
unsampled_threads_counted_head()
{
	atf_set descr "Threads that can be given no clock (the timer clock" \
	    "under a pending-signal limit) are counted in the file, prof" \
	    "warns, and the threads that were sampled keep their own" \
	    "seconds instead of being credited the others' CPU time"
	atf_set require.user root
	atf_set require.progs "setpriv prlimit"
}
unsampled_threads_counted_body()
{
	setup
	# A copy in the work directory: nobody may not reach the source tree.
	cp "$srcdir/h_fault" h_fault && chmod 755 h_fault || atf_fail "set-up"
	HF=$PWD/h_fault
	mkdir d && chown 65534:65534 d || atf_fail "set-up"
	# Four threads, each a timer; room for three pending signals, one
	# of them main's: two threads go without.
	( cd d && env PROFCLOCK=timer setpriv --reuid=65534 --regid=65534 \
	    --clear-groups prlimit --sigpending=3 "$HF" spread 100 \
	    >out 2>err; echo $? >status )
	[ "$(cat d/status)" = 3 ] || atf_fail "status $(cat d/status)"
	profiled d || verdict
	( cd d && "$PROF" "$HF" mon.out >rows 2>warn )
	n=$(field d run.unsampled)
	[ "$n" -ge 1 ] || atf_skip "every thread got a timer ($n unsampled)"
	grep -q "warning: mon.out: $n threads could not be sampled" d/warn ||
	    fail "prof's warning: $(cat d/warn)"
	sampled=0
	for i in 0 1 2 3; do
		got=$(secs d spin_$i)
		want=$(fact d spin_${i}_ns)
		awk "BEGIN { exit !($got == 0) }" && continue
		sampled=$((sampled + 1))
		# The timer clock is checked at the kernel's tick: on a busy
		# machine a thread's share wanders more than perf's.  Credited
		# the unsampled threads' time, it would be twice its own.
		holds "($got - $want / 1e9)^2 <= (0.3 * $want / 1e9 + 0.03)^2" \
		    "spin_$i: prof $got s, its thread's CPU clock $want ns"
	done
	[ $sampled -ge 1 ] || fail "no thread was sampled"
	verdict
}

atf_test_case idle_threads_leave_descriptors
idle_threads_leave_descriptors_head()
{
	atf_set descr "A server with a thread per connection -- 900 idle" \
	    "threads under a limit of 1024 descriptors -- opens as many" \
	    "files profiled as unprofiled: libmon takes no descriptor per" \
	    "thread, with any clock"
	atf_set require.progs prlimit
}
idle_threads_leave_descriptors_body()
{
	setup
	run plain PROFDIR= prlimit --nofile=1024 "$H" idle 900
	grep -q '^900 threads, 400 files opened$' plain/out ||
	    atf_skip "unprofiled: $(cat plain/out) $(cat plain/err)"
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c prlimit --nofile=1024 "$H" idle 900
		same $c
		profiled $c
	done
	verdict
}

atf_test_case exit_path_uses_no_stdio
exit_path_uses_no_stdio_head()
{
	atf_set descr "The code that runs at exit and in signal context --" \
	    "the writer, the lifecycle, the histogram, the rings, the" \
	    "warnings -- calls no stdio, strerror or malloc"
	atf_set require.progs nm
}
exit_path_uses_no_stdio_body()
{
	setup
	lib=$srcdir/../../lib
	for o in monwrite lifecycle hist ring util objects mcount sigprof; do
		[ -f $lib/$o.o ] || atf_fail "$o.o is not built"
		nm -u $lib/$o.o | awk '{ print $NF }' |
		    grep -E '^(f?printf|s?n?printf|v[a-z]*printf|f?puts|fwrite|fopen|fflush|strerror|malloc|calloc|realloc|free)$' \
		    >bad.$o && fail "$o.o calls $(tr '\n' ' ' <bad.$o)"
	done
	verdict
}

atf_test_case setid_ignores_profiling_variables
setid_ignores_profiling_variables_head()
{
	atf_set descr "A set-user-ID program does not read PROFHZ or" \
	    "PROFCLOCK: a value it would refuse draws no warning"
	atf_set require.user root
	atf_set require.progs setpriv
}
setid_ignores_profiling_variables_body()
{
	setup
	# Under no_new_privs (t_noperf sets it) or from a nosuid mount exec
	# ignores the bit, and there is nothing to test.
	cp "$(command -v id)" id.setuid && chmod 4755 id.setuid ||
	    atf_fail "cannot make a set-user-ID id"
	[ "$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	    ./id.setuid -u)" = 0 ] ||
	    atf_skip "exec ignores the set-user-ID bit here"
	cp "$H" h_setid && chmod 4755 h_setid || atf_fail "set-up"
	mkdir d && chown 65534:65534 d || atf_fail "set-up"
	( cd d && env PROFHZ=bogus PROFCLOCK=bogus setpriv --reuid=65534 \
	    --regid=65534 --clear-groups ../h_setid smallstack 10 >out 2>err;
	    echo $? >status )
	[ "$(cat d/status)" = 3 ] || atf_fail "status $(cat d/status)"
	[ ! -s d/err ] || fail "stderr: $(cat d/err)"
	( env PROFHZ=bogus PROFCLOCK=bogus "$H" smallstack 10 >out 2>err )
	[ "$(grep -c 'PROFHZ\|PROFCLOCK' err)" = 2 ] ||
	    fail "an ordinary program did not warn: $(cat err)"
	verdict
}

atf_test_case errno_kept_when_memory_is_short
errno_kept_when_memory_is_short_head()
{
	atf_set descr "A thread that calls a counted function when libmon" \
	    "cannot map its count table (the address space nearly used up)" \
	    "keeps its errno: the open() that failed still reads ENOENT"
}
errno_kept_when_memory_is_short_body()
{
	setup
	run plain PROFDIR= "$H" errno 0
	grep -q '^open: No such file or directory$' plain/out ||
	    atf_fail "unprofiled: $(cat plain/out)"
	for c in perf timer itimer; do
		run $c PROFCLOCK=$c "$H" errno 0
		same $c
	done
	verdict
}

atf_init_test_cases()
{
	atf_add_test_case closed_descriptors_kept
	atf_add_test_case underscore_fork_child_writes_nothing
	atf_add_test_case sigwait_sees_only_the_programs_signals
	atf_add_test_case signalfd_reads_only_the_programs_signals
	atf_add_test_case pthread_exit_from_main_ends
	atf_add_test_case pthread_exit_in_a_fork_child
	atf_add_test_case fork_in_a_handler_amid_pthread_create
	atf_add_test_case threads_get_no_arena_of_libmons
	atf_add_test_case vfork_child_exit_keeps_the_profile
	atf_add_test_case vfork_exec_leaves_the_clock
	atf_add_test_case snapshot_signal_during_exit_kept
	atf_add_test_case small_stacks_kept
	atf_add_test_case libc_threads_sampled
	atf_add_test_case process_title_keeps_profdir_name
	atf_add_test_case fork_after_stop_writes_nothing
	atf_add_test_case stop_and_thread_start_race
	atf_add_test_case terminated_while_writing_with_threads
	atf_add_test_case stopped_under_a_tracer
	atf_add_test_case profil_after_stop_under_a_tracer
	atf_add_test_case second_exit_waits_for_the_profile
	atf_add_test_case unsampled_threads_counted
	atf_add_test_case idle_threads_leave_descriptors
	atf_add_test_case exit_path_uses_no_stdio
	atf_add_test_case setid_ignores_profiling_variables
	atf_add_test_case errno_kept_when_memory_is_short
}

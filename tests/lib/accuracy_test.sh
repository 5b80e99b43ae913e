#! /usr/bin/env atf-sh
#
# accuracy_test -- the seconds a profile gives against the CPU time the
# program measured itself on its threads' own clocks
# (CLOCK_THREAD_CPUTIME_ID, h_shortthr): threads shorter than a
# sampling period, and a run written in many small parts.  Issue #23,
# items 7 and 8: before it, 1000 threads of 0.5 ms read 0.00 s under
# perf and timer, their time put on the main thread's function, and
# parts of 0.01 s gave 1.15 s (perf), 0.72 s (timer), 0.56 s (itimer)
# for 1.00 s.  Bands are wide enough for a small busy machine, and
# narrow enough that the old figures fall outside them.

setup()
{
	. "$(atf_get_srcdir)/../harness.sh"
	srcdir=$(atf_get_srcdir)
	H=$srcdir/h_shortthr
	PROF=$srcdir/../../prof/prof
	DUMP=$srcdir/t_mondump
	unset PROFDIR PROFHZ PROFCLOCK PROFSIGNAL PROFINTERVAL PROFTERM
	LC_ALL=C
	export LC_ALL
	bad=
}

# clock_is DIR FILE N NAME: skip unless FILE of DIR's run was sampled
# by clock N (where perf_event_open is refused, perf falls back).
clock_is()
{
	[ "$("$DUMP" "$1/$2" | awk '$1 == "run.clock" { print $2 }')" = $3 ] ||
	    atf_skip "no $4 clock here"
}

# secs DIR FUNCTION FILE...: the seconds prof gives FUNCTION.
secs()
{
	local d f

	d=$1
	f=$2
	shift 2
	( cd $d && "$PROF" "$H" "$@" 2>/dev/null ) |
	    awk -v f=$f '$NF == f { s = $2 } END { print s + 0 }'
}

# incl DIR FUNCTION FILE...: the inclusive seconds prof -i gives
# FUNCTION: its own and its callees', the vDSO's clock reads among them.
incl()
{
	local d f

	d=$1
	f=$2
	shift 2
	( cd $d && "$PROF" -i "$H" "$@" 2>/dev/null ) |
	    awk -v f=$f '$NF == f { s = $5 } END { print s + 0 }'
}

# total DIR FILE...: the seconds of every row prof shows.
total()
{
	local d

	d=$1
	shift
	( cd $d && "$PROF" "$H" "$@" 2>/dev/null ) |
	    awk 'NR > 1 && NF >= 4 && $2 ~ /^[0-9.]+$/ { s += $2 }
		/^$/ { exit } END { print s + 0 }'
}

# truth DIR NAME: the CPU time the program measured for NAME.
truth()
{
	awk -v f=$2 '{ for (i = 1; i < NF; i++) if ($i == f) print $(i + 1) }' \
	    $1/out
}

# near GOT WANT PCT WHAT: GOT within PCT per cent of WANT.
near()
{
	holds "$1 >= $2 * (1 - $3 / 100) && $1 <= $2 * (1 + $3 / 100)" \
	    "$4: $1 s, the threads' clocks say $2 s (${3}% allowed)"
}

# apart DIR FILE...: the seconds prof shows apart as unsampled.
apart()
{
	local d

	d=$1
	shift
	( cd $d && "$PROF" "$H" "$@" 2>/dev/null ) |
	    awk '/\[unsampled: / { s = $2 } END { print s + 0 }'
}

# short CLOCK N NAME PCT: 1000 threads of 0.5 ms each, sampled by CLOCK:
# task within PCT per cent of its threads' CPU time, and what task was
# not given shown apart, never on mainwork, the main thread's function
# (within 10%, with its callees: its clock reads in the vDSO are 10% of
# it on Linux 6.18).  perf keeps one of a thread's two fine samples or none,
# at random: about 4% of noise, so 12%.  The timer clock sees a short
# thread only when a tick falls in it: on a quiet machine task gets its
# time within 5%, but on a busy one the scheduler switches threads at
# ticks, a short thread is often run whole between two, and up to a
# fifth of its time goes unsampled: its band is wider.
short()
{
	local t

	run d PROFCLOCK=$1 "$H" 1000 500 300
	[ "$(cat d/status)" = 0 ] || atf_fail "h_shortthr: $(cat d/err)"
	clock_is d mon.out $2 $3
	t=$(truth d task)
	near $(secs d task mon.out) $t $4 "task, $3"
	holds "$(secs d task mon.out) + $(apart d mon.out) >= 0.9 * $t" \
	    "task, $3: $(secs d task mon.out) s and $(apart d mon.out) s" \
	    "apart, of $t s"
	near $(incl d mainwork mon.out) $(truth d mainwork) 10 \
	    "mainwork with its callees, $3"
	verdict
}

atf_test_case short_threads_perf
short_threads_perf_head()
{
	atf_set descr "1000 threads of 0.5 ms CPU each, shorter than the" \
	    "perf clock's period, are given their own time, not the main" \
	    "thread's (reproduces issue #23 item 7: task read 0.00 s)"
}
short_threads_perf_body()
{
	setup
	short perf 1 perf 12
}

atf_test_case short_threads_timer
short_threads_timer_head()
{
	atf_set descr "1000 threads of 0.5 ms CPU each, shorter than the" \
	    "kernel's tick, are given their own time under the timer clock" \
	    "(reproduces issue #23 item 7: task read 0.00 s)"
}
short_threads_timer_body()
{
	setup
	short timer 2 timer 25
}

# rate DIR: how finely the perf clock's kernel sampled for DIR's
# mon.out, its run.flags' bits: 2 coarse from the start (at the period,
# MONX_RUN_COARSE), 4 made fine after a short thread (MONX_RUN_REFINED),
# 8 kept coarse, too many threads alive (MONX_RUN_CROWDED); 0 fine.
rate()
{
	"$DUMP" "$1/mon.out" |
	    awk '$1 == "run.flags" { print int($2 / 2) % 8 * 2 }'
}

# said DIR TEXT: prof -s on DIR's mon.out says TEXT about the clock's rate.
said()
{
	( cd $1 && "$PROF" -s "$H" mon.out 2>&1 >/dev/null ) |
	    grep '^clock rate: ' | grep -q "$2" || fail "prof -s: no \"$2\""
}

atf_test_case coarse_perf
coarse_perf_head()
{
	atf_set descr "under the perf clock a program whose threads are" \
	    "long is sampled at the period, not finer, each thread's time" \
	    "its own; the first thread made after a short one ended makes" \
	    "the clock fine for the rest"
}
coarse_perf_body()
{
	setup
	# 8 threads of 50 ms one after another: none shorter than 8 periods.
	run d PROFCLOCK=perf "$H" 8 50000 100
	[ "$(cat d/status)" = 0 ] || atf_fail "h_shortthr: $(cat d/err)"
	clock_is d mon.out 1 perf
	[ "$(rate d)" = 2 ] ||
	    fail "long threads: flags $(rate d), not 2 (coarse)"
	said d "the kernel sampled at the period throughout"
	near $(incl d task mon.out) $(truth d task) 6 \
	    "task with its callees, 8 threads of 50 ms"
	near $(incl d mainwork mon.out) $(truth d mainwork) 10 \
	    "mainwork with its callees, coarse"
	# 20 threads of 0.5 ms: the first ends short and the second makes
	# the clock fine (short_threads_perf holds 1000 such to their time).
	run e PROFCLOCK=perf "$H" 20 500 100
	[ "$(cat e/status)" = 0 ] || atf_fail "h_shortthr: $(cat e/err)"
	[ "$(rate e)" = 6 ] ||
	    fail "short threads: flags $(rate e), not 6 (refined)"
	said e "then finer once a thread had ended short"
	# Asked for 4000 Hz, the period is the fine one: fine from the start.
	run f PROFCLOCK=perf PROFHZ=4000 "$H" 8 50000 100
	[ "$(cat f/status)" = 0 ] || atf_fail "h_shortthr: $(cat f/err)"
	[ "$(rate f)" = 0 ] || fail "4000 Hz: flags $(rate f), not 0 (fine)"
	verdict
}

# crowd DIR N MS FLAGS: N threads alive as a short one ends, then MS ms
# of CPU each in spin_a(): the run's rate flags FLAGS, no thread left
# without events, and spin_a's seconds with its callees within 10% of
# N * MS.
crowd()
{
	local s

	run $1 PROFCLOCK=perf "$srcdir/h_fault" crowd $2 $3
	[ "$(cat $1/status)" = 3 ] || atf_fail "h_fault crowd: $(cat $1/err)"
	clock_is $1 mon.out 1 perf
	[ "$(rate $1)" = $4 ] || fail "$2 alive: flags $(rate $1), not $4"
	[ "$("$DUMP" $1/mon.out | awk '$1 == "run.unsampled" { print $2 }')" \
	    = 0 ] || fail "$2 alive: threads left without events"
	s=$( ( cd $1 && "$PROF" -i "$srcdir/h_fault" mon.out 2>/dev/null ) |
	    awk '$NF == "spin_a" { s = $5 } END { print s + 0 }')
	near $s $(awk -v n=$2 -v m=$3 'BEGIN { print n * m / 1000 }') 10 \
	    "spin_a with its callees, $2 threads of $3 ms"
}

atf_test_case crowded_perf
crowded_perf_head()
{
	atf_set descr "a thread that ends short with 12 others alive makes" \
	    "the perf clock fine for all; with more than its 256 rings'" \
	    "worth alive, the clock stays at the period: every thread" \
	    "still sampled, none left without events"
}
crowded_perf_body()
{
	local n

	setup
	crowd c 12 40 6
	said c "then finer once a thread had ended short"
	# Enough threads that each having a ring per CPU is over 256, each
	# running 10 ms: at 3 ms the ends of their periods on each CPU, kept
	# by chance (ring.c), spread 130 threads' total by +-5% and more
	# (0.37 to 0.43 s of 0.39 in 45 runs).
	n=$(( 256 / $(getconf _NPROCESSORS_CONF) + 2 ))
	crowd d $n 10 10
	said d "too many were alive to sample finer"
	verdict
}

# parts CLOCK N NAME PCT: 1 s of CPU in mainwork, the only thread,
# written in parts every 0.01 s (within PCT per cent) and every 0.1 s
# (8); the parts merged give it -- all the rows' seconds, for its time
# reading its clock is the kernel's and the vDSO's rows' (5% and more of
# it on a virtual machine whose system calls cost more), and at least
# 85% of it in mainwork's own row.  perf's samples, every 0.25 ms, put
# it within 2%; before issue #23 they gave 1.01 to 1.22 s at 0.01 s.
parts()
{
	local iv files pct

	for iv in 0.01 0.1; do
		pct=$([ $iv = 0.01 ] && echo $4 || echo 8)
		run d PROFCLOCK=$1 PROFINTERVAL=$iv PROFDIR=. "$H" 0 0 1000
		[ "$(cat d/status)" = 0 ] ||
		    atf_fail "h_shortthr: $(cat d/err)"
		files=$(cd d && ls | grep '\.[0-9][0-9]*$')
		[ -n "$files" ] || { fail "$iv: no parts"; continue; }
		clock_is d $(echo "$files" | head -1) $2 $3
		near $(total d $files) $(truth d mainwork) $pct \
		    "mainwork, $3, parts every $iv s"
		holds "$(secs d mainwork $files) >= 0.85 * $(truth d mainwork)" \
		    "mainwork, $3, parts every $iv s: its own row" \
		    "$(secs d mainwork $files) s of $(truth d mainwork) s"
	done
	verdict
}

atf_test_case parts_fine_perf
parts_fine_perf_head()
{
	atf_set descr "parts every 0.01 s and 0.1 s under the perf clock" \
	    "add up to the seconds of the whole run (reproduces issue #23" \
	    "item 8: 1.00 s read 1.15 s at 0.01 s)"
}
parts_fine_perf_body()
{
	setup
	parts perf 1 perf 5
}

atf_test_case parts_fine_timer
parts_fine_timer_head()
{
	atf_set descr "parts every 0.01 s and 0.1 s under the timer clock" \
	    "add up to the seconds of the whole run (reproduces issue #23" \
	    "item 8: 1.00 s read 0.72 s at 0.01 s)"
}
parts_fine_timer_body()
{
	setup
	parts timer 2 timer 8
}

atf_test_case parts_fine_itimer
parts_fine_itimer_head()
{
	atf_set descr "parts every 0.01 s and 0.1 s under ITIMER_PROF" \
	    "add up to the seconds of the whole run (reproduces issue #23" \
	    "item 8: 1.00 s read 0.56 s at 0.01 s)"
}
parts_fine_itimer_body()
{
	setup
	parts itimer 0 itimer 12
}

atf_init_test_cases()
{
	atf_add_test_case short_threads_perf
	atf_add_test_case short_threads_timer
	atf_add_test_case coarse_perf
	atf_add_test_case crowded_perf
	atf_add_test_case parts_fine_perf
	atf_add_test_case parts_fine_timer
	atf_add_test_case parts_fine_itimer
}

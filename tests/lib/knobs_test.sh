#! /usr/bin/env atf-sh
#
# knobs_test -- PROFCALLS, PROFDEPTH and PROFSLOW, the knobs of the
# calls timed one by one (lib/calls.c, lib/callspec.c, lib/syms.c), and
# prof -T, which lists PROFSLOW's calls.
#
# The helper (knobs.c: h_knobs) says what it called and how often, and
# times its slow calls itself, inside them, with CLOCK_MONOTONIC: the
# TIMED record (through t_mondump) and prof -T must agree with it.

setup()
{
	srcdir=$(atf_get_srcdir)
	. "$srcdir/../harness.sh"
	PROF=$srcdir/../../prof/prof
	MKMON=$srcdir/../prof/t_mkmon
	H=$srcdir/h_knobs
	unset PROFDIR PROFHZ PROFCLOCK PROFSTACK PROFCALLS PROFDEPTH PROFSLOW
	LC_ALL=C
	export LC_ALL
	bad=
}

# facts DIR: DIR/facts from DIR/mon.out, addresses named by the
# helper's "fn" lines:
#	func NAME CALLS INCL SELF	(times in ns)
#	arc CALLER CALLEE CALLS		(CALLER "-": none)
#	clocks.FIELD VALUE
facts()
{
	"$srcdir/t_mondump" "$1/mon.out" >"$1/dump" 2>"$1/dumperr" ||
	    { fail "$1: $(cat "$1/dumperr")"; return 1; }
	awk '
	function nm(a) { return a == "0" ? "-" : (a in name) ? name[a] : "?" }
	FNR == NR { if ($1 == "fn") name[$3] = $2; next }
	$1 == "timed" && $2 == "func" { print "func", nm($4), $5, $6, $7 }
	$1 == "timed" && $2 == "arc" { print "arc", nm($3), nm($4), $5 }
	$1 ~ /^clocks\./ { print }
	' "$1/out" "$1/dump" >"$1/facts"
}

# fact DIR KEY FIELD: field FIELD after KEY ("func rec" 1: its calls).
fact()
{
	awk -v key="$2" -v k="$3" '
	{ n = split(key, w, " "); ok = 1
	  for (i = 1; i <= n; i++) if ($i != w[i]) ok = 0
	  if (ok) { print $(n + k); exit } }' "$1/facts"
}

# ran DIR: the helper exited 0, said nothing on stderr, wrote mon.out.
ran()
{
	[ "$(cat "$1/status")" = 0 ] ||
	    { fail "$1: status $(cat "$1/status"): $(cat "$1/err")"; return 1; }
	[ ! -s "$1/err" ] || fail "$1: stderr: $(cat "$1/err")"
	[ -s "$1/mon.out" ] || { fail "$1: no mon.out"; return 1; }
	facts "$1"
}

# timed DIR NAME...: each NAME is in the TIMED record, with calls.
timed()
{
	local d f

	d=$1
	shift
	for f in "$@"; do
		[ -n "$(fact "$d" "func $f" 1)" ] ||
		    fail "$d: $f not timed ($PROFCALLS)"
	done
}

# untimed DIR NAME...: no NAME in the TIMED record, as callee or caller.
untimed()
{
	local d f

	d=$1
	shift
	for f in "$@"; do
		! grep -q " $f\( \|$\)" "$d/facts" ||
		    fail "$d: $f timed ($PROFCALLS): $(grep " $f" "$d/facts" |
		    head -2)"
	done
}

# --- PROFCALLS ----------------------------------------------------------

atf_test_case calls_by_pattern
calls_by_pattern_head()
{
	atf_set "descr" "PROFCALLS times the functions whose names the" \
	    "last matching pattern includes, a static one among them, and" \
	    "no other; their calls are exact, an excluded function's" \
	    "returns are not taken for unmatched ones, and a list that" \
	    "starts with an exclusion times all but what it excludes"
}
calls_by_pattern_body()
{
	setup
	PROFCALLS='parse_*,!parse_small'
	run inc env PROFCALLS="$PROFCALLS" "$H" filter 500 3
	if ran inc; then
		timed inc parse_big parse_local
		untimed inc parse_small helper around worker main
		for f in parse_big parse_local; do
			[ "$(fact inc "func $f" 1)" = 1500 ] ||
			    fail "inc: $f $(fact inc "func $f" 1) calls, made 1500"
			# Its caller around is not timed: its calls are
			# the thread's first timed ones.
			[ "$(fact inc "arc - $f" 1)" = 1500 ] ||
			    fail "inc: arc - -> $f: $(grep "arc.*$f" inc/facts)"
		done
		[ "$(fact inc clocks.unmatched 1)" = 0 ] ||
		    fail "inc: $(fact inc clocks.unmatched 1) exits unmatched"
	fi
	PROFCALLS='!parse_small,!help?r'
	run exc env PROFCALLS="$PROFCALLS" "$H" filter 500 3
	if ran exc; then
		timed exc parse_big parse_local around worker main
		untimed exc parse_small helper
		[ "$(fact exc "arc around parse_big" 1)" = 1500 ] ||
		    fail "exc: arc around -> parse_big"
		[ "$(fact exc clocks.unmatched 1)" = 0 ] ||
		    fail "exc: $(fact exc clocks.unmatched 1) exits unmatched"
	fi
	verdict
}

atf_test_case excluded_time_in_caller
excluded_time_in_caller_head()
{
	atf_set "descr" "an excluded function's time is its caller's own, as" \
	    "an inlined function's: mid's self time is its whole time, the" \
	    "helper's measure within 2%; and a slow call's stack passes it by"
}
excluded_time_in_caller_body()
{
	local self incl want

	setup
	PROFCALLS='!nap'
	run x env PROFCALLS="$PROFCALLS" PROFSLOW=20000 "$H" slow
	ran x || { verdict; return; }
	untimed x nap
	self=$(fact x "func mid" 3)
	incl=$(fact x "func mid" 2)
	want=$(awk '$1 == "call" && $2 == "mid" { s += $5 } END { print s }' \
	    x/out)
	holds "$self >= 0.98 * $want && $self <= 1.02 * $want" \
	    "mid's self time $self ns, its calls took $want ns"
	holds "$incl >= 0.98 * $want && $incl <= 1.02 * $want" \
	    "mid's time $incl ns, its calls took $want ns"
	PROFCALLS='!mid'
	run y env PROFCALLS="$PROFCALLS" PROFSLOW=20000 "$H" slow
	ran y || { verdict; return; }
	atf_check -s exit:0 -o save:y/list -e ignore "$PROF" -T -h "$H" y/mon.out
	grep -q ' nap <- slow <- main$' y/list ||
	    fail "no nap <- slow <- main: $(cat y/list)"
	! grep -q 'mid' y/list || fail "mid listed: $(cat y/list)"
	[ "$(grep -c ' nap <- slow <- main$' y/list)" -ge 2 ] ||
	    fail "nap's 30 and 45 ms calls: $(cat y/list)"
	verdict
}

atf_test_case calls_decided_once
calls_decided_once_head()
{
	atf_set "descr" "PROFCALLS's patterns are matched once per function" \
	    "and process: as many times for 10 calls in 1 thread as for" \
	    "2000 calls in each of 4, once for each of the 8 functions the" \
	    "helper enters; and never without PROFCALLS"
}
calls_decided_once_body()
{
	local a b

	setup
	run few env PROFCALLS='parse_*' "$H" filter 10 1
	run many env PROFCALLS='parse_*' "$H" filter 2000 4
	run none "$H" filter 10 1
	ran few && ran many && ran none || { verdict; return; }
	a=$(awk '$1 == "matched" { print $2 }' few/out)
	b=$(awk '$1 == "matched" { print $2 }' many/out)
	# main, filter, worker, around, parse_big, parse_small,
	# parse_local, helper; and by clang, glibc's atoi, which <stdlib.h>
	# inlines at -O1 and clang instruments where it is inlined.  The
	# same count for 10 calls in a thread and 8000 in four.
	[ "$a" = "$b" ] && [ "$a" -ge 8 ] && [ "$a" -le 9 ] ||
	    fail "matched $a functions for 10 calls, $b for 8000; 8 entered (9 by clang)"
	[ "$(awk '$1 == "matched" { print $2 }' none/out)" = 0 ] ||
	    fail "matched without PROFCALLS"
	verdict
}

atf_test_case calls_unreadable_file
calls_unreadable_file_head()
{
	atf_set "descr" "where the program's file cannot be read (removed" \
	    "while it runs) no name is found and no pattern matches: a" \
	    "list of inclusions times none of its functions, one that" \
	    "starts with an exclusion all of them; nothing is said"
}
calls_unreadable_file_body()
{
	setup
	mkdir bin
	cp "$H" bin/inc && cp "$H" bin/exc || atf_fail "cp"
	run inc env H_KNOBS_UNLINK=1 PROFCALLS='parse_*' "$PWD/bin/inc" \
	    filter 100 1
	run exc env H_KNOBS_UNLINK=1 PROFCALLS='!parse_small' \
	    "$PWD/bin/exc" filter 100 1
	[ ! -e bin/inc ] && [ ! -e bin/exc ] || fail "the copies are there"
	if ran inc; then
		untimed inc parse_big parse_small parse_local helper
	fi
	if ran exc; then
		timed exc parse_big parse_small parse_local helper
	fi
	verdict
}

# --- PROFDEPTH ----------------------------------------------------------

atf_test_case depth_cuts
depth_cuts_head()
{
	atf_set "descr" "PROFDEPTH=N times the calls of the first N levels" \
	    "of a thread's stack and no deeper: of a 50-level recursion" \
	    "entered at level 3, N - 2 calls are timed and the others" \
	    "counted too deep, and the time of the untimed levels is the" \
	    "deepest timed frame's own, within 2% of the helper's measure"
}
depth_cuts_body()
{
	local n self spun

	setup
	for n in 10 3; do
		run d$n env PROFDEPTH=$n "$H" depth 50
		ran d$n || continue
		[ "$(fact d$n "func rec" 1)" = $((n - 2)) ] ||
		    fail "PROFDEPTH=$n: rec $(fact d$n "func rec" 1) calls timed"
		[ "$(fact d$n clocks.deep 1)" = $((50 - n + 2)) ] ||
		    fail "PROFDEPTH=$n: $(fact d$n clocks.deep 1) too deep"
		[ "$(fact d$n clocks.depth 1)" = $n ] ||
		    fail "PROFDEPTH=$n: clocks.depth $(fact d$n clocks.depth 1)"
		self=$(fact d$n "func rec" 3)
		spun=$(awk '$1 == "wall" && $2 == "spin" { print $3 }' d$n/out)
		holds "$self >= 0.98 * $spun && $self <= 1.02 * $spun" \
		    "PROFDEPTH=$n: rec's self time $self ns, spun $spun ns"
	done
	run d1 env PROFDEPTH=1 "$H" depth 50
	if ran d1; then
		untimed d1 rec depth
		[ "$(fact d1 "func main" 1)" = 1 ] || fail "PROFDEPTH=1: main"
	fi
	verdict
}

# --- PROFSLOW -----------------------------------------------------------

atf_test_case slow_calls_listed
slow_calls_listed_head()
{
	atf_set "descr" "PROFSLOW=20000 keeps exactly the calls longer than" \
	    "20 ms, each with its thread, its length within 2% (or 0.3 ms)" \
	    "and its start within 1 ms of the helper's own CLOCK_MONOTONIC" \
	    "measure, and its timed callers; prof -T lists them by start"
}
slow_calls_listed_body()
{
	local n

	setup
	run s env PROFSLOW=20000 "$H" slow
	ran s || { verdict; return; }
	atf_check -s exit:0 -o save:s/list -e ignore \
	    "$PROF" -T -h "$H" s/mon.out
	# The helper's calls over 20 ms, by start: name tid start dur.
	awk '$1 == "call" && $5 > 20000000 { print $2, $3, $4, $5 }' s/out |
	    sort -k3n >s/want
	# 7 at least by design; a loaded machine oversleeps into more.
	n=$(wc -l <s/want)
	[ "$n" -ge 7 ] || fail "the helper made $n calls over 20 ms"
	[ "$(wc -l <s/list)" = "$(wc -l <s/want)" ] ||
	    fail "prof -T lists $(wc -l <s/list) calls, $(wc -l <s/want) took" \
	    "longer than 20 ms: $(cat s/list)"
	# Line by line: the same function and thread, the same length,
	# the same start relative to the first.
	paste -d ' ' s/want s/list | awk '
	NR == 1 { w0 = $3; l0 = $5 }
	{
		wd = $4 / 1e6; ld = $6; ws = ($3 - w0) / 1e6; ls = ($5 - l0) * 1e3
		tol = wd * 0.02 > 0.3 ? wd * 0.02 : 0.3
		if ($1 != $8 || $2 != $7 || ld - wd > tol || wd - ld > tol ||
		    ls - ws > 1 || ws - ls > 1) {
			print "want", $1, $2, ws, wd, "listed", $8, $7, ls, ld
			bad = 1
		}
	}
	END { exit bad }' >s/diff || fail "$(cat s/diff)"
	# Their stacks.
	for st in "nap <- slow <- main" "nap <- mid <- slow <- main" \
	    "mid <- slow <- main" "slow <- main" "nap <- sleeper"; do
		grep -q " $st\$" s/list || fail "no call with stack $st"
	done
	[ "$(grep -c ' nap <- ' s/list)" = \
	    "$(awk '$1 == "nap"' s/want | wc -l)" ] || fail "nap's calls listed"
	atf_check -s exit:0 -e ignore \
	    -o match:"^slow calls: $n of the $n calls longer than 20000 us" \
	    "$PROF" -T "$H" s/mon.out
	verdict
}

atf_test_case slow_bounded
slow_bounded_head()
{
	atf_set "descr" "with more calls over the threshold than a file" \
	    "keeps (128), the slowest are kept and the count says how many" \
	    "there were"
}
slow_bounded_body()
{
	setup
	# 500 levels of recursion around a 50 ms spin, and depth and
	# main around them: 502 calls longer than 1 ms.
	run b env PROFSLOW=1000 "$H" depth 500
	ran b || { verdict; return; }
	# A run this short may have no CPU sample in the program's code
	# (the timer clock, perf refused), which prof warns of: not judged.
	atf_check -s exit:0 -o save:b/list -e ignore "$PROF" -T "$H" b/mon.out
	grep -q '^slow calls: 128 of the 502 calls longer than 1000 us' \
	    b/list || fail "$(head -1 b/list)"
	verdict
}

# --- bad values, prof -T ------------------------------------------------

atf_test_case bad_values
bad_values_head()
{
	atf_set "descr" "a bad PROFCALLS, PROFDEPTH or PROFSLOW is one line" \
	    "on stderr each and its default is kept: every function" \
	    "timed, 4096 deep, no slow calls"
}
bad_values_body()
{
	local v

	setup
	for v in 'a,,b' '[ab' 'x\' '!'; do
		run c env PROFCALLS="$v" "$H" filter 10 1
		[ "$(cat c/status)" = 0 ] || fail "PROFCALLS=$v: status"
		[ "$(wc -l <c/err)" = 1 ] &&
		    grep -q '^libmon: PROFCALLS: .*; timing every function$' \
		    c/err || fail "PROFCALLS=$v: $(cat c/err)"
		facts c && timed c parse_big parse_small helper around main
	done
	for v in abc 0 4097 -1 10x; do
		run d env PROFDEPTH="$v" "$H" depth 50
		[ "$(wc -l <d/err)" = 1 ] &&
		    grep -q '^libmon: PROFDEPTH: not a depth from 1 to 4096' \
		    d/err || fail "PROFDEPTH=$v: $(cat d/err)"
		facts d
		[ "$(fact d clocks.depth 1)" = 4096 ] &&
		    [ "$(fact d "func rec" 1)" = 50 ] ||
		    fail "PROFDEPTH=$v: depth $(fact d clocks.depth 1)"
	done
	for v in 0 -5 1e3 3600000001 x; do
		run s env PROFSLOW="$v" "$H" slow
		[ "$(wc -l <s/err)" = 1 ] &&
		    grep -q '^libmon: PROFSLOW: not a time from 1 to' s/err ||
		    fail "PROFSLOW=$v: $(cat s/err)"
		atf_check -s exit:1 -o empty \
		    -e match:'no slow calls kept \(profile .*PROFSLOW' \
		    "$PROF" -T "$H" s/mon.out
	done
	verdict
}

# le VALUE BYTES: VALUE in little-endian hex.
le()
{
	local v n i

	v=$1 n=$2 i=0
	while [ $i -lt "$n" ]; do
		printf '%02x' $((v & 255))
		v=$((v >> 8))
		i=$((i + 1))
	done
}

# forge FILE SLOWHEX: a mon.out with a CLOCKS record and a SLOW record.
forge()
{
	local ck

	ck="$(le 0 4)$(le 4096 4)$(le 1000 8)$(le 1000 8)$(le 2000 8)"
	ck="$ck$(le 2000 8)$(le 0 48)$(le 1 4)$(le 0 4)"
	{
		echo "lpc 0x1000"
		echo "hpc 0x1400"
		echo "hist 16"
		echo "record 8 $((${#ck} / 2)) $ck"
		echo "record 12 $((${#2} / 2)) $2"
	} | "$MKMON" "$1" || atf_fail "t_mkmon failed"
}

atf_test_case slow_record_checked
slow_record_checked_head()
{
	atf_set "descr" "prof reads a well-formed SLOW record and refuses" \
	    "one whose counts or lengths do not hold, with one line naming" \
	    "the file and what is wrong; -T goes with no other report"
}
slow_record_checked_body()
{
	local head call

	setup
	# threshold 1 ms, 2 over, 1 kept of 128: 5 ms from tid 7, depth 2.
	head="$(le 1000000 8)$(le 2 8)$(le 1 4)$(le 128 4)"
	call="$(le 11000 8)$(le 5000000 8)$(le 7 4)$(le 2 2)$(le 0 2)"
	call="$call$(le 4096 8)$(le 4352 8)"
	forge good.out "$head$call"
	atf_check -s exit:0 -e ignore \
	    -o match:'^ +0\.000010 +5\.000 +7  0x1000 <- 0x1100$' \
	    "$PROF" -T -h "$H" good.out
	# A stack one entry past the end; more calls than the head says
	# were over; bytes after the last call; unknown flags; no room for
	# the head.
	forge past.out "$head$(le 11000 8)$(le 5000000 8)$(le 7 4)$(le 3 2)$(le \
	    0 2)$(le 4096 8)$(le 4352 8)"
	forge more.out "$(le 1000000 8)$(le 2 8)$(le 3 4)$(le 128 4)$call"
	forge after.out "$head${call}00000000000000000000"
	forge flags.out "$head$(le 11000 8)$(le 5000000 8)$(le 7 4)$(le 2 2)$(le \
	    4 2)$(le 4096 8)$(le 4352 8)"
	forge short.out "$(le 1000000 8)$(le 2 8)"
	for f in past more after flags short; do
		atf_check -s exit:1 -o empty -e save:$f.err \
		    "$PROF" -T "$H" $f.out
		[ "$(wc -l <$f.err)" = 1 ] &&
		    grep -q "^prof: $f.out: improper SLOW record" $f.err ||
		    fail "$f: $(cat $f.err)"
	done
	atf_check -s exit:1 -o empty -e match:'-T: .*not with' \
	    "$PROF" -T -q "$H" good.out
	verdict
}

atf_init_test_cases()
{
	atf_add_test_case calls_by_pattern
	atf_add_test_case excluded_time_in_caller
	atf_add_test_case calls_decided_once
	atf_add_test_case calls_unreadable_file
	atf_add_test_case depth_cuts
	atf_add_test_case slow_calls_listed
	atf_add_test_case slow_bounded
	atf_add_test_case bad_values
	atf_add_test_case slow_record_checked
}

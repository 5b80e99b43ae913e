#! /usr/bin/env atf-sh
#
# calls_test -- the calls of a program built with -finstrument-functions
# and linked with libmon, timed one by one (lib/calls.c), read back from
# the CLOCKS and TIMED records of its mon.out.
#
# The helper (cyg.c: h_cyg by gcc, h_cyg_p with -p as well, h_cyg_clang)
# measures each part's wall time itself, around the call, with
# CLOCK_MONOTONIC, and says how many calls it made: the record must
# agree within 2% in time and exactly in calls.

setup()
{
	srcdir=$(atf_get_srcdir)
	. "$srcdir/../harness.sh"
	PROF=$srcdir/../../prof/prof
	unset PROFDIR PROFHZ PROFCLOCK PROFSTACK
	LC_ALL=C
	export LC_ALL
	bad=
}

# facts DIR [FILE]: DIR/facts from FILE (DIR/mon.out) and the helper's
# own lines in DIR/out, addresses named by its "fn" lines:
#	func NAME CALLS INCL SELF OPEN UNWOUND	(times in ns)
#	arc CALLER CALLEE CALLS INCL		(CALLER "-": none)
#	clocks.FIELD VALUE
facts()
{
	local f

	f=${2:-$1/mon.out}
	"$srcdir/t_mondump" "$f" >"$1/dump" 2>"$1/dumperr" ||
	    { fail "$f: $(cat "$1/dumperr")"; return 1; }
	awk '
	function nm(a) { return a == "0" ? "-" : (a in name) ? name[a] : "?" }
	FNR == NR { if ($1 == "fn") name[$3] = $2; next }
	$1 == "timed" && $2 == "func" {
		print "func", nm($4), $5, $6, $7, $10, $11
	}
	$1 == "timed" && $2 == "arc" { print "arc", nm($3), nm($4), $5, $6 }
	$1 ~ /^clocks\./ { print }
	' "$1/out" "$1/dump" >"$1/facts"
}

# fact DIR KEY FIELD: field FIELD after KEY (1: a function's calls,
# 2 its inclusive time, ...; a clock's value) of the line whose first
# words are KEY ("func part_a", "arc outer part_a"); empty if none.
fact()
{
	awk -v key="$2" -v k="$3" '
	{ n = split(key, w, " "); ok = 1
	  for (i = 1; i <= n; i++) if ($i != w[i]) ok = 0
	  if (ok) { print $(n + k); exit } }' "$1/facts"
}

# said DIR WHAT NAME: the helper's own figure ("wall part_a").
said()
{
	awk -v w="$2" -v n="$3" '$1 == w && $2 == n { print $3 }' "$1/out"
}

# near DIR NAME: the measured inclusive time of NAME within 2% of the
# wall time the helper measured, and its calls exact.
near()
{
	local incl wall calls want

	incl=$(fact "$1" "func $2" 2)
	wall=$(said "$1" wall "$2")
	calls=$(fact "$1" "func $2" 1)
	want=$(said "$1" calls "$2")
	[ -n "$incl" ] && [ -n "$wall" ] ||
	    { fail "$1: no time for $2 (incl '$incl', wall '$wall')"; return; }
	holds "$incl >= 0.98 * $wall && $incl <= 1.02 * $wall" \
	    "$1: $2 measured $incl ns, its wall time $wall ns"
	[ "$calls" = "$want" ] || fail "$1: $2 $calls calls, made $want"
}

# ran DIR: the helper exited 0 and wrote a mon.out with timed calls.
ran()
{
	[ "$(cat "$1/status")" = 0 ] ||
	    { fail "$1: status $(cat "$1/status"): $(cat "$1/err")"; return 1; }
	[ -s "$1/mon.out" ] || { fail "$1: no mon.out"; return 1; }
	facts "$1" || return 1
	grep -q '^func ' "$1/facts" || { fail "$1: no TIMED record"; return 1; }
}

parts_check()
{
	local d self incl

	d=$1
	ran "$d" || return
	near "$d" outer
	near "$d" part_c
	for f in part_a part_b; do
		[ "$(fact "$d" "func $f" 1)" = 1 ] || fail "$d: $f calls"
		[ "$(fact "$d" "arc outer $f" 1)" = 1 ] ||
		    fail "$d: arc outer -> $f"
	done
	# outer only calls: its self time is a sliver of its time.
	self=$(fact "$d" "func outer" 3)
	incl=$(fact "$d" "func outer" 2)
	holds "$self < 0.01 * $incl" "$d: outer's self time $self of $incl"
	grep -q '^errno kept$' "$d/out" || fail "$d: errno changed by a hook"
	for c in missed unwound unmatched deep nomem; do
		[ "$(fact "$d" "clocks.$c" 1)" = 0 ] ||
		    fail "$d: clocks.$c $(fact "$d" "clocks.$c" 1)"
	done
	# No frame open at the write: main returned.
	awk '$1 == "func" && $6 != 0 { exit 1 }' "$d/facts" ||
	    fail "$d: frames left open"
}

atf_test_case parts_timed
parts_timed_head()
{
	atf_set "descr" "each part's measured inclusive time is within 2%" \
	    "of its wall time and its calls are exact, built by gcc without" \
	    "-p (libmon starts itself), with -p as well, and by clang"
}
parts_timed_body()
{
	setup
	for h in h_cyg h_cyg_p h_cyg_clang; do
		run "$h" "$srcdir/$h" parts
		parts_check "$h"
	done
	# Started once: the -p build's cells count main's one call.
	"$srcdir/t_mondump" h_cyg_p/mon.out | grep -q '^cell ' ||
	    fail "h_cyg_p: no call counts"
	verdict
}

atf_test_case parts_timed_noperf
parts_timed_noperf_head()
{
	atf_set "descr" "where perf_event_open is refused the calls are" \
	    "timed just the same: the hooks do not use the sampling clock"
}
parts_timed_noperf_body()
{
	setup
	run noperf "$srcdir/../t_noperf" "$srcdir/h_cyg" parts
	parts_check noperf
	verdict
}

atf_test_case recursion_once
recursion_once_head()
{
	atf_set "descr" "a recursive function's inclusive time is its" \
	    "outermost calls' (fib's wall time), not the sum over its frames;" \
	    "its calls are exact and its self time is all of it"
}
recursion_once_body()
{
	local h incl self

	setup
	for h in h_cyg h_cyg_clang; do
		run "$h" "$srcdir/$h" fib 25
		ran "$h" || continue
		near "$h" fib
		incl=$(fact "$h" "func fib" 2)
		self=$(fact "$h" "func fib" 3)
		holds "$self <= $incl && $self >= 0.98 * $incl" \
		    "$h: fib's self time $self of $incl"
		# The arc fib -> fib: once, from its outermost frame.
		holds "$(fact "$h" "arc fib fib" 2) < $incl" \
		    "$h: arc fib -> fib counted more than once"
	done
	verdict
}

atf_test_case longjmp_unwinds
longjmp_unwinds_head()
{
	atf_set "descr" "frames a longjmp skipped are closed as unwound;" \
	    "the calls after it are timed right, under the right caller"
}
longjmp_unwinds_body()
{
	local h

	setup
	for h in h_cyg h_cyg_clang; do
		run "$h" "$srcdir/$h" longjmp
		ran "$h" || continue
		near "$h" part_a
		[ "$(fact "$h" "arc timed part_a" 1)" = 1 ] &&
		    [ "$(fact "$h" "arc jumps timed" 1)" = 1 ] ||
		    fail "$h: part_a not called from jumps: $(grep part_a \
		    "$h/facts")"
		[ "$(fact "$h" "func deep1" 1)" = 100 ] || fail "$h: deep1 calls"
		[ "$(fact "$h" "func deep3" 5)" = 100 ] ||
		    fail "$h: deep3 unwound $(fact "$h" "func deep3" 5) times"
		[ "$(fact "$h" "arc jumps deep1" 1)" = 100 ] ||
		    fail "$h: deep1 not always called from jumps"
		[ "$(fact "$h" clocks.unwound 1)" = 300 ] ||
		    fail "$h: $(fact "$h" clocks.unwound 1) frames unwound"
		[ "$(fact "$h" clocks.unmatched 1)" = 0 ] ||
		    fail "$h: unmatched exits"
		(cd "$h" && "$PROF" -s "$srcdir/$h" mon.out >/dev/null \
		    2>stats)
		grep -q '^measured: .* 300 calls closed by an unwind, 0 ' \
		    "$h/stats" || fail "$h: prof -s: $(grep measured "$h/stats")"
	done
	verdict
}

atf_test_case void_tail_exits
void_tail_exits_head()
{
	atf_set "descr" "built at -O2, a void function jumps to its exit" \
	    "hook as it returns: each call is still closed as a call, not" \
	    "as an unwind, and no return goes unmatched (gcc and clang)"
}
void_tail_exits_body()
{
	local h

	setup
	for h in h_cyg_o2 h_cyg_clang_o2; do
		run "$h" "$srcdir/$h" voids
		ran "$h" || continue
		[ "$(fact "$h" "func empty_leaf" 1)" = 100000 ] ||
		    fail "$h: empty_leaf $(fact "$h" "func empty_leaf" 1) calls"
		[ "$(fact "$h" clocks.unwound 1)" = 0 ] ||
		    fail "$h: $(fact "$h" clocks.unwound 1) frames unwound"
		[ "$(fact "$h" clocks.unmatched 1)" = 0 ] ||
		    fail "$h: $(fact "$h" clocks.unmatched 1) unmatched exits"
	done
	verdict
}

atf_test_case threads_timed
threads_timed_head()
{
	atf_set "descr" "calls in several threads, each part timed by its" \
	    "own thread, add up within 2%; the ended threads' tables are kept"
}
threads_timed_body()
{
	setup
	run thr "$srcdir/h_cyg" threads
	ran thr || { verdict; return; }
	near thr work
	[ "$(fact thr clocks.threads 1)" = 5 ] ||
	    fail "threads that timed: $(fact thr clocks.threads 1), want 5"
	verdict
}

atf_test_case fork_child_own
fork_child_own_head()
{
	atf_set "descr" "a fork child's file holds its own calls only, its" \
	    "parent's the parent's"
}
fork_child_own_body()
{
	local f cwall

	setup
	mkdir prof
	run fork PROFDIR="$PWD/prof" "$srcdir/h_cyg" fork
	[ "$(cat fork/status)" = 0 ] || fail "status $(cat fork/status)"
	[ "$(ls prof | wc -l)" = 2 ] || { fail "files: $(ls prof)"; verdict; }
	# The parent's file is the one with part_a.
	mkdir c && cp fork/out c/out
	for f in prof/*; do
		facts c "$f"
		if [ -n "$(fact c "func part_a" 1)" ]; then
			facts fork "$f"
		else
			cp c/facts c/child
		fi
	done
	mv c/child c/facts 2>/dev/null || { fail "no child's file"; verdict; }
	near fork part_a
	near fork part_b
	[ -z "$(fact fork "func part_c" 1)" ] || fail "the child's in the parent"
	[ "$(fact c "func part_c" 1)" = 2 ] || fail "child: part_c calls"
	[ -z "$(fact c "func part_b" 1)" ] || fail "child: the parent's part_b"
	cwall=$(awk '$1 == "child" { print $2 }' fork/out)
	holds "$(fact c "func part_c" 2) >= 0.98 * $cwall &&
	    $(fact c "func part_c" 2) <= 1.02 * $cwall" \
	    "child: part_c $(fact c "func part_c" 2) ns, wall $cwall"
	# main was entered before the fork: carried, open, not a call.
	[ "$(fact c "func main" 1)" = 0 ] && [ "$(fact c "func main" 4)" = 1 ] ||
	    fail "child: main $(grep 'func main' c/facts)"
	verdict
}

atf_test_case pthread_exit_closes
pthread_exit_closes_head()
{
	atf_set "descr" "pthread_exit from a nested function closes the" \
	    "thread's frames as unwound; the calls after it are timed right"
}
pthread_exit_closes_body()
{
	setup
	run ex "$srcdir/h_cyg" exit
	ran ex || { verdict; return; }
	near ex part_a
	[ "$(fact ex "func leave2" 5)" = 1 ] && [ "$(fact ex "func leave1" 5)" = 1 ] ||
	    fail "leave1, leave2 not closed as unwound: $(grep leave ex/facts)"
	[ "$(fact ex clocks.unwound 1)" = 3 ] ||
	    fail "$(fact ex clocks.unwound 1) frames unwound, want 3"
	holds "$(fact ex "func leave2" 2) >= 10000000" "leave2's time lost"
	verdict
}

atf_test_case signal_handler
signal_handler_head()
{
	atf_set "descr" "a signal handler that runs instrumented code: its" \
	    "calls are timed, or counted as missed when it interrupted a hook;" \
	    "the interrupted parts and the calls after are timed right"
}
signal_handler_body()
{
	local h calls missed handled

	setup
	for h in h_cyg h_cyg_clang; do
		run "$h" "$srcdir/$h" signal
		ran "$h" || continue
		near "$h" part_a
		near "$h" part_b
		calls=$(fact "$h" "func on_alarm" 1)
		missed=$(fact "$h" clocks.missed 1)
		handled=$(awk '$1 == "handled" { print $2 }' "$h/out")
		# The handler (alarmed) and on_alarm: four hooks a signal.
		holds "${calls:-0} + $missed / 4 == $handled" \
		    "$h: on_alarm timed ${calls:-0}, missed $missed hooks," \
		    "called $handled times"
		holds "${calls:-0} > 0" "$h: no handler call timed"
	done
	verdict
}

atf_test_case profdir_empty
profdir_empty_head()
{
	atf_set "descr" "PROFDIR set and empty: an instrumented program runs" \
	    "and writes nothing"
}
profdir_empty_body()
{
	setup
	run none PROFDIR= "$srcdir/h_cyg" parts
	[ "$(cat none/status)" = 0 ] || fail "status $(cat none/status)"
	[ ! -e none/mon.out ] || fail "mon.out written"
	grep -q '^errno kept$' none/out || fail "errno changed"
	verdict
}

atf_test_case deeper_than_stack
deeper_than_stack_head()
{
	atf_set "descr" "calls deeper than a thread's 4096 frames are counted" \
	    "but not timed, and the calls after them are timed right"
}
deeper_than_stack_body()
{
	local timed deep

	setup
	run dp "$srcdir/h_cyg" deep
	ran dp || { verdict; return; }
	near dp part_a
	[ "$(fact dp "arc timed part_a" 1)" = 1 ] || fail "part_a's caller"
	timed=$(fact dp "func rec" 1)
	deep=$(fact dp clocks.deep 1)
	holds "$timed + $deep == $(said dp calls rec) && $deep > 0" \
	    "rec: $timed calls timed, $deep too deep, $(said dp calls rec) made"
	[ "$(fact dp clocks.unmatched 1)" = 0 ] || fail "unmatched exits"
	[ "$(fact dp clocks.unwound 1)" = 0 ] || fail "frames unwound"
	verdict
}

atf_test_case prof_shows_measured
prof_shows_measured_head()
{
	atf_set "descr" "prof -i shows a timed function's measured inclusive" \
	    "time, marked *, with its calls; -I sorts by it; the rows that" \
	    "were not timed keep the stacks' figure, unmarked"
}
prof_shows_measured_body()
{
	local f want got

	setup
	run pr "$srcdir/h_cyg" parts
	ran pr || { verdict; return; }
	(cd pr && "$PROF" -i "$srcdir/h_cyg" mon.out >report 2>err) ||
	    fail "prof -i: $(cat pr/err)"
	grep -q '^\* measured: each call timed (-finstrument-functions), ' \
	    pr/report || fail "no footnote: $(cat pr/report)"
	for f in outer part_a part_b part_c main; do
		want=$(awk -v n="$(fact pr "func $f" 2)" \
		    'BEGIN { printf "%.2f", n / 1e9 }')
		got=$(awk -v f="$f" '$NF == f { print }' pr/report)
		echo "$got" | grep -q "$want\* *$(fact pr "func $f" 1) " ||
		    fail "row of $f: '$got', want $want s measured and" \
		    "$(fact pr "func $f" 1) calls"
	done
	grep 'clock_gettime' pr/report | grep -q '\*' &&
	    fail "a row not timed marked: $(grep clock_gettime pr/report)"
	# -I: by inclusive time, main (or a caller as long) first.
	(cd pr && "$PROF" -I "$srcdir/h_cyg" mon.out >sorted 2>/dev/null)
	holds "$(awk 'NR == 2 { print $5 + 0 }' pr/sorted) >= \
	    $(awk '$NF == "outer" { print $5 + 0 }' pr/sorted)" \
	    "-I: $(sed -n 2p pr/sorted) before outer"
	# The flat report without -i: the timed calls as #Calls.
	(cd pr && "$PROF" "$srcdir/h_cyg" mon.out >flat 2>flaterr)
	awk '$NF == "part_c" && $4 == 50 { ok = 1 } END { exit !ok }' \
	    pr/flat || fail "part_c's calls: $(grep part_c pr/flat)"
	grep -q 'no call counts' pr/flaterr && fail "prof: $(cat pr/flaterr)"
	verdict
}

# graphline DIR ENTRY WHO: from DIR/graph's measured call graph, the
# line of WHO in the entry of function ENTRY (WHO = ENTRY: its own
# line), as "incl calls": incl in ns, calls as printed (N or N/TOTAL).
graphline()
{
	awk -v e="$2" -v w="$3" '
	    /^measured call graph:/ { on = 1; next }
	    !on { next }
	    /^-----/ {
		if (found)
			for (i = 1; i <= n; i++) {
				split(line[i], f, " ")
				nm = line[i]; sub(/ \[[0-9]+\]$/, "", nm)
				sub(/.*  /, "", nm)
				if (nm == w) {
					k = f[1] ~ /^\[/ ? 2 : 1
					printf "%.0f %s\n", f[k] * 1e9, f[k + 2]
					exit
				}
			}
		n = found = 0; next
	    }
	    { line[++n] = $0 }
	    /^\[[0-9]+\]/ { nm = $0; sub(/ \[[0-9]+\]$/, "", nm)
		sub(/.*  /, "", nm); if (nm == e) found = 1 }' "$1/graph"
}

atf_test_case prof_graph_measured
prof_graph_measured_head()
{
	atf_set "descr" "prof -q adds the measured call graph: each arc's" \
	    "calls exact and its inclusive time within 2% of the wall time" \
	    "the helper measured around those calls (part_c's 50 calls," \
	    "spin called from part_a, part_b and part_c, outer's two" \
	    "callees together)"
}
prof_graph_measured_body()
{
	local got wall

	setup
	run gr "$srcdir/h_cyg" parts
	ran gr || { verdict; return; }
	(cd gr && "$PROF" -q "$srcdir/h_cyg" mon.out >graph 2>err) ||
	    fail "prof -q: $(cat gr/err)"
	grep -q '^measured call graph: every call timed one by one' gr/graph ||
	    { fail "no measured graph: $(tail -5 gr/graph)"; verdict; return; }
	wall=$(said gr wall part_c)
	got=$(graphline gr part_c timed)
	[ "${got#* }" = 50/50 ] || fail "timed -> part_c: '$got', want 50/50 calls"
	holds "${got% *} >= 0.98 * $wall && ${got% *} <= 1.02 * $wall" \
	    "timed -> part_c ${got% *} ns, its wall time $wall ns"
	got=$(graphline gr spin part_c)
	[ "${got#* }" = 50/52 ] || fail "part_c -> spin: '$got', want 50/52"
	holds "${got% *} >= 0.98 * $wall && ${got% *} <= 1.02 * $wall" \
	    "part_c -> spin ${got% *} ns, part_c's wall time $wall ns"
	for f in part_a part_b; do
		got=$(graphline gr spin $f)
		[ "${got#* }" = 1/52 ] || fail "$f -> spin: '$got', want 1/52"
	done
	wall=$(said gr wall outer)
	got=$(( $(graphline gr outer part_a | cut -d' ' -f1) + \
	    $(graphline gr outer part_b | cut -d' ' -f1) ))
	holds "$got >= 0.98 * $wall && $got <= 1.02 * $wall" \
	    "outer -> part_a and part_b $got ns, outer's wall time $wall ns"
	got=$(graphline gr main main)
	[ "${got#* }" = 1 ] || fail "main's own line: '$got', want 1 call"
	verdict
}

atf_test_case contexts_measured
contexts_measured_head()
{
	atf_set descr "prof -M -F folded lays out each calling context of" \
	    "the calls timed one by one: leafwork's time along each of its" \
	    "two stacks, and a recursion's, within 2% of the wall time" \
	    "h_cyg measured around those calls; the recursion 4 deep is 4" \
	    "nested frames; go tool pprof's measured samples give leafwork" \
	    "both stacks' time; -M without -F, with -w, or of a profile" \
	    "with no contexts is one line and status 1"
}
# subtree DIR STACK: the nanoseconds of DIR's folded lines whose stack
# runs through the frames STACK (";" between them), and their callees.
subtree()
{
	awk -v s=";$2;" '{
		st = $0
		sub(/ [0-9]+$/, "", st)
		if (index(";" st ";", s) > 0)
			t += $NF
	    } END { print t + 0 }' "$1/folded"
}
contexts_measured_body()
{
	local st got wall go

	setup
	run cx "$srcdir/h_cyg" contexts
	ran cx || { verdict; return; }
	(cd cx && "$PROF" -M -F folded "$srcdir/h_cyg" mon.out >folded \
	    2>err) || { fail "prof -M -F folded: $(cat cx/err)"; verdict; return; }
	for st in "via_x;leafwork" "middle;leafwork" "contexts;recur"; do
		wall=$(awk -v s="$st" '$1 == "ctxwall" && $2 == s { print $3 }' \
		    cx/out)
		got=$(subtree cx "$st")
		holds "$got >= 0.98 * $wall && $got <= 1.02 * $wall" \
		    "$st: $got ns in its stacks, its wall time $wall ns"
	done
	grep -q ';recur;recur;recur;recur[; ]' cx/folded &&
	    ! grep -q ';recur;recur;recur;recur;recur[; ]' cx/folded ||
	    fail "recur 4 deep is not 4 frames: $(grep recur cx/folded)"
	# pprof's own sum: leafwork's cumulative measured time, both stacks.
	go=$(command -v go || true)
	if [ -n "$go" ] && (cd cx && "$PROF" -F pprof "$srcdir/h_cyg" \
	    mon.out >p.pb.gz 2>err); then
		wall=$(awk '$1 == "ctxwall" && $2 ~ /leafwork$/ { t += $3 }
		    END { print t }' cx/out)
		got=$(HOME=$PWD GOCACHE=$PWD/gocache "$go" tool pprof \
		    -sample_index=measured -top -nodefraction=0 -unit=ns \
		    cx/p.pb.gz 2>cx/goerr | awk '$NF == "leafwork" {
			v = $4; sub(/ns$/, "", v); print v }')
		holds "${got:-0} >= 0.98 * $wall && ${got:-0} <= 1.02 * $wall" \
		    "go tool pprof: leafwork's measured cum ${got:-none} ns," \
		    "its wall time $wall ns $(head -n 2 cx/goerr)"
	fi
	(cd cx && "$PROF" -M "$srcdir/h_cyg" mon.out >out2 2>err2)
	[ $? = 1 ] && [ "$(wc -l <cx/err2)" = 1 ] ||
	    fail "-M without -F: $(cat cx/err2)"
	(cd cx && "$PROF" -M -w -F folded "$srcdir/h_cyg" mon.out >out2 \
	    2>err2)
	[ $? = 1 ] && [ "$(wc -l <cx/err2)" = 1 ] ||
	    fail "-M with -w: $(cat cx/err2)"
	run np "$srcdir/h_arcs" 1 0 1
	if [ -s np/mon.out ]; then
		(cd np && "$PROF" -M -F folded "$srcdir/h_arcs" mon.out \
		    >out2 2>err2)
		[ $? = 1 ] && grep -q 'no calls timed one by one' np/err2 &&
		    [ "$(wc -l <np/err2)" = 1 ] ||
		    fail "-M of a -p profile: $(cat np/err2)"
	fi
	verdict
}

atf_test_case contexts_bounded
contexts_bounded_head()
{
	atf_set descr "A tree of calls 19 deep, each of its 1,048,575 calls" \
	    "along a stack of its own: the file holds at most 65,536 of a" \
	    "thread's contexts, those past them rooted at [cut at the stack" \
	    "limit] in prof -M's stacks; the calls stay exact and the top" \
	    "call's time within 2% of its wall time, and the stacks' time" \
	    "adds up to main's measured time"
}
# tree_kept DIR LO HI: h_cyg's tree of calls in DIR has wl's and wr's
# calls exact, and more than LO contexts in its file, at most HI.
tree_kept()
{
	local f n

	for f in wl wr; do
		[ "$(fact $1 "func $f" 1)" = "$(said $1 calls $f)" ] ||
		    fail "$1: $f: $(fact $1 "func $f" 1) calls, made" \
		    "$(said $1 calls $f)"
	done
	n=$(awk '$1 == "timed" && $2 == "ctx"' $1/dump | wc -l)
	[ "$n" -gt $2 ] && [ "$n" -le $3 ] ||
	    fail "$1: $n contexts in the file, not more than $2 and at" \
	    "most $3"
}
contexts_bounded_body()
{
	local main total

	setup
	run wd "$srcdir/h_cyg" wide 19
	ran wd || { verdict; return; }
	near wd wltop
	tree_kept wd 1000 65600
	(cd wd && "$PROF" -M -F folded "$srcdir/h_cyg" mon.out >folded \
	    2>err) || { fail "prof -M: $(cat wd/err)"; verdict; return; }
	grep -q '^\[stack not kept: contexts over the limit\];wl ' \
	    wd/folded ||
	    fail "no stack of wl past the limit: $(head -n 3 wd/folded)"
	# The recursion's pair, counted by its outermost context whether
	# made before the limit or after: never more than wl's own time.
	holds "$(fact wd "arc wl wl" 2) <= $(fact wd "func wl" 2)" \
	    "wl -> wl $(fact wd "arc wl wl" 2) ns, more than wl's" \
	    "$(fact wd "func wl" 2) ns"
	main=$(fact wd "func main" 2)
	total=$(awk '{ t += $NF } END { print t + 0 }' wd/folded)
	holds "$total >= 0.999 * $main && $total <= 1.001 * $main" \
	    "the stacks' $total ns, main's measured $main ns"
	verdict
}

atf_test_case contexts_bounded_threads
contexts_bounded_threads_head()
{
	atf_set descr "Four threads one after the other, each a tree of" \
	    "calls 16 deep under a root of its own (524,284 stacks in all):" \
	    "the process sums at most 131,072 contexts, and the file holds" \
	    "no more; the calls stay exact"
}
contexts_bounded_threads_body()
{
	setup
	run wt "$srcdir/h_cyg" widethreads
	ran wt || { verdict; return; }
	tree_kept wt 65536 131200
	verdict
}

atf_test_case callgrind_measured
callgrind_measured_head()
{
	atf_set descr "prof -F callgrind carries the measured calls as an" \
	    "event of their own, Measured: callgrind_annotate's inclusive" \
	    "Measured of outer and part_c within 2% of the wall time h_cyg" \
	    "measured around them, part_c's 50 calls on timed's call line," \
	    "and every function's inclusive at least its self (to 8 ns)"
}
callgrind_measured_body()
{
	local got wall

	setup
	command -v callgrind_annotate >/dev/null 2>&1 ||
	    atf_skip "no callgrind_annotate (valgrind) to read the export"
	run cg "$srcdir/h_cyg" parts
	ran cg || { verdict; return; }
	(cd cg && "$PROF" -F callgrind "$srcdir/h_cyg" mon.out >cg.out \
	    2>err) || { fail "prof -F callgrind: $(cat cg/err)"; verdict; return; }
	grep -q '^events: Samples Nanoseconds Counted Measured$' cg/cg.out ||
	    fail "no Measured event: $(grep '^events:' cg/cg.out)"
	for how in yes no; do
		callgrind_annotate --inclusive=$how --show=Measured \
		    --sort=Measured --threshold=100 --auto=no cg/cg.out \
		    >cg/ann.$how 2>cg/annerr ||
		    { fail "callgrind_annotate: $(cat cg/annerr)"; verdict; return; }
	done
	# "1,234 (5.6%)  file:function [object]": ns by function.
	for how in yes no; do
		awk '$NF ~ /^\[/ && $1 ~ /^[0-9,]+$/ {
			n = $1; gsub(",", "", n); f = $0
			sub(/ \[[^]]*\]$/, "", f); sub(/.*:/, "", f)
			print f, n }' cg/ann.$how >cg/ns.$how
	done
	for f in outer part_c; do
		wall=$(said cg wall $f)
		got=$(awk -v f=$f '$1 == f { print $2 }' cg/ns.yes)
		[ -n "$got" ] || { fail "$f: no inclusive Measured"; continue; }
		holds "$got >= 0.98 * $wall && $got <= 1.02 * $wall" \
		    "$f: inclusive Measured $got ns, its wall time $wall ns"
	done
	# callgrind_annotate adds a function's inclusive up from its
	# callers' call lines, each arc's time rounded to the nanosecond
	# apart from its self time: a leaf such as now() may come out a
	# nanosecond or two below its self (205703658 against 205703659).
	awk 'NR == FNR { self[$1] = $2; next }
	    ($1 in self) && $2 ~ /^[0-9]+$/ && $2 + 8 < self[$1] {
		print $1, $2, self[$1]
		bad = 1 }
	    END { exit bad }' cg/ns.no cg/ns.yes >cg/below ||
	    fail "inclusive below self: $(cat cg/below)"
	# timed -> part_c: the 50 calls timed, on the call line.
	# Names are given once, on an fn= or a cfn= line, then the id alone.
	awk '/^c?fn=\([0-9]+\) / { id = $1; sub(/^c?fn=/, "", id)
		n = $0; sub(/^[^ ]* /, "", n); name[id] = n }
	    /^fn=/ { cur = $1; sub(/^fn=/, "", cur) }
	    /^cfn=/ { callee = $1; sub(/^cfn=/, "", callee) }
	    /^calls=/ && name[cur] == "timed" && name[callee] == "part_c" {
		print $1 }' cg/cg.out >cg/calls
	grep -qx 'calls=50' cg/calls ||
	    fail "timed -> part_c: '$(cat cg/calls)', want calls=50"
	verdict
}

atf_test_case cxx_unwinds
cxx_unwinds_head()
{
	atf_set descr "C++, by g++ and clang++: an exception thrown through" \
	    "three instrumented frames 100 times, and two contexts that" \
	    "take turns by swapcontext() 200 times, leave the shadow" \
	    "stack whole: every call counted, the frames an exception" \
	    "skipped closed as unwound where no exit hook ran (clang's)," \
	    "and part_a timed afterwards within 2% of its wall time"
}
cxx_unwinds_body()
{
	local h u d skipped

	setup
	for h in h_cygxx h_cygxx_clang; do
		# Built where its compiler is (local.mk).
		[ -x "$srcdir/$h" ] || { skipped="$skipped $h"; continue; }
		run "$h.throw" "$srcdir/$h" throw
		if ran "$h.throw"; then
			d=$h.throw
			grep -qx 'caught 100' "$d/out" ||
			    fail "$d: $(grep caught "$d/out")"
			near "$d" part_a
			for f in deep1 deep3; do
				[ "$(fact "$d" "func $f" 1)" = 100 ] ||
				    fail "$d: $f $(fact "$d" "func $f" 1) calls"
			done
			[ "$(fact "$d" "arc throws deep1" 1)" = 100 ] ||
			    fail "$d: throws -> deep1 $(fact "$d" \
			    "arc throws deep1" 1) calls"
			# g++ runs the exit hooks as the exception unwinds
			# (a cleanup), clang++ does not: then the three
			# frames of each throw are closed as unwound.
			u=$(fact "$d" clocks.unwound 1)
			[ "$u" = 0 ] || [ "$u" = 300 ] ||
			    fail "$d: $u frames unwound, want 0 or 300"
			[ "$(fact "$d" clocks.unmatched 1)" = 0 ] ||
			    fail "$d: unmatched exits"
		fi
		run "$h.swap" "$srcdir/$h" swap
		if ran "$h.swap"; then
			d=$h.swap
			grep -qx 'switches 200' "$d/out" ||
			    fail "$d: $(grep switches "$d/out")"
			near "$d" part_a
			for f in main_leaf co_leaf; do
				[ "$(fact "$d" "func $f" 1)" = 100 ] ||
				    fail "$d: $f $(fact "$d" "func $f" 1) calls"
			done
			# Each switch leaves the other context's frames
			# below; they are closed, and said to be.
			u=$(fact "$d" clocks.unwound 1)
			holds "$u >= 100" "$d: only $u frames closed as unwound"
			(cd "$d" && "$PROF" -s "$srcdir/$h" mon.out >/dev/null \
			    2>stats)
			grep -q "^measured: .* $u calls closed by an unwind" \
			    "$d/stats" ||
			    fail "$d: prof -s: $(grep measured "$d/stats")"
		fi
	done
	verdict
	[ "$skipped" != " h_cygxx h_cygxx_clang" ] ||
	    atf_skip "no C++ compiler (g++, clang++) built the helpers"
}

atf_init_test_cases()
{
	atf_add_test_case cxx_unwinds
	atf_add_test_case callgrind_measured
	atf_add_test_case contexts_measured
	atf_add_test_case contexts_bounded
	atf_add_test_case contexts_bounded_threads
	atf_add_test_case parts_timed
	atf_add_test_case prof_graph_measured
	atf_add_test_case parts_timed_noperf
	atf_add_test_case recursion_once
	atf_add_test_case longjmp_unwinds
	atf_add_test_case void_tail_exits
	atf_add_test_case threads_timed
	atf_add_test_case fork_child_own
	atf_add_test_case pthread_exit_closes
	atf_add_test_case signal_handler
	atf_add_test_case profdir_empty
	atf_add_test_case deeper_than_stack
	atf_add_test_case prof_shows_measured
}

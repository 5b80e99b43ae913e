#! /usr/bin/env atf-sh
#
# arcs_test -- no call is lost: many threads started together, each
# making some 20,000 distinct arcs (4,000 leaves called from a call site
# each, and from four call sites that call all of them through a table
# of pointers), while short threads come and go, the count tables grow
# under them, the clock's signals interrupt them (the timer clock, under
# t_noperf), with restartable sequences on and off, and, in one case, a
# handler of the program's own calls the same functions through the
# same call sites.  Issue #25: the tables
# are to be rewritten, and what a rewrite could lose is what this runs.
#
# h_arcs (tests/lib/arcs.c, its functions written by mkarcs) writes the
# calls it made along each arc, caller and callee by name; the profile
# is read with t_mondump and its addresses named with nm, not with prof,
# and every arc must have exactly its calls.

setup()
{
	. "$(atf_get_srcdir)/../harness.sh"
	srcdir=$(atf_get_srcdir)
	H=$srcdir/h_arcs
	DUMP=$srcdir/t_mondump
	NOPERF=$srcdir/../t_noperf
	unset PROFDIR PROFHZ PROFCLOCK PROFSIGNAL PROFINTERVAL PROFTERM
	LC_ALL=C
	export LC_ALL
	bad=
}

# compare DUMP EXP: the arcs into f, g and d in DUMP against EXP, by
# the names of caller and callee (a call site's function holds its
# return address less 1); one line for each arc whose count is not the
# one expected, and a last line "wrong N lost M" (M the calls missing,
# less any counted in excess).
compare()
{
	nm -n --defined-only "$H" | awk '
	function hex(s,    i, v) {
		v = 0
		s = tolower(s)
		sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + \
			    index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	# name(a): the function of h_arcs that holds link address a.
	function name(a,    lo, hi, m) {
		if (nsym == 0 || a < at[1])
			return sprintf("?%x", a)
		lo = 1
		hi = nsym
		while (lo < hi) {
			m = int((lo + hi + 1) / 2)
			if (at[m] <= a)
				lo = m
			else
				hi = m - 1
		}
		return sym[lo]
	}
	FNR == 1 { part++ }
	part == 1 && $2 ~ /^[tTwW]$/ { nsym++; at[nsym] = hex($1); sym[nsym] = $3 }
	part == 2 { want[$1 " -> " $2] = $3 }
	part == 3 && $1 == "exec.bias" { bias = hex($2) }
	part == 3 && $1 == "arc" {
		to = name(hex($3) - bias)
		if (to !~ /^[fgd][0-9]+$/)
			next
		got[name(hex($2) - bias - 1) " -> " to] += $4
	}
	END {
		for (k in want)
			if (got[k] != want[k]) {
				printf "%s: %d calls, not %d\n", k, got[k], \
				    want[k]
				wrong++
				lost += want[k] - got[k]
			}
		for (k in got)
			if (!(k in want)) {
				printf "%s: %d calls, not 0\n", k, got[k]
				wrong++
				lost -= got[k]
			}
		printf "wrong %d lost %d\n", wrong, lost
	}' - "$2" "$1"
}

# profiles DIR CHECK [ARG]: for each process of DIR's run (exp.PID, the
# calls it made along each arc), its profile PID.h_arcs dumped
# (dump.PID) and compared with them (wrong.PID, whose last line is
# "wrong N lost M"), then CHECK DIR PID ARG says if that will do; 1 if a
# process left no profile (their pids in DIR/noprofile), or none ran.
profiles()
{
	local e pid

	: >$1/noprofile
	for e in $1/exp.*; do
		[ -f "$e" ] || return 1
		pid=${e##*.}
		if [ ! -f $1/$pid.h_arcs ]; then
			echo $pid >>$1/noprofile
			continue
		fi
		if ! "$DUMP" $1/$pid.h_arcs >$1/dump.$pid 2>$1/dumperr; then
			fail "$1: $pid: $(cat $1/dumperr)"
			continue
		fi
		compare $1/dump.$pid $e >$1/wrong.$pid
		$2 $1 $pid "$3"
	done
	[ ! -s $1/noprofile ]
}

# exact DIR PID [CLOCK]: PID's profile has exactly the calls expected of
# every arc, none uncounted; with CLOCK, sampled by that clock.
exact()
{
	[ -z "$3" ] || [ "$(field $1/dump.$2 run.clock)" = "$3" ] ||
	    fail "$1: $2: clock $(field $1/dump.$2 run.clock), not $3"
	[ "$(field $1/dump.$2 run.cells_lost)" = 0 ] ||
	    fail "$1: $2: $(field $1/dump.$2 run.cells_lost) calls uncounted"
	tail -n 1 $1/wrong.$2 | grep -q '^wrong 0 ' ||
	    fail "$1: $2: $(tail -n 1 $1/wrong.$2) of" \
	    "$(awk 'END { print NR }' $1/exp.$2) arcs:" \
	    "$(sed '$d' $1/wrong.$2 | sort | head -n 3)"
}

# judge DIR [CLOCK]: DIR's run ended well, every process of it wrote
# exp.PID and PID.h_arcs, and each profile is exact.
judge()
{
	if [ "$(cat $1/status)" != 0 ]; then
		fail "$1: status $(cat $1/status): $(cat $1/err)"
		return
	fi
	profiles $1 exact "$2" ||
	    fail "$1: no profile from process $(cat $1/noprofile 2>/dev/null)"
	[ "$(ls $1 | grep -c '\.h_arcs$')" -eq "$(ls $1 | grep -c '^exp\.')" ] ||
	    fail "$1: $(ls $1 | grep -c '\.h_arcs$') profiles for" \
	    "$(ls $1 | grep -c '^exp\.') processes"
}

field()
{
	awk -v k="$2" '$1 == k { print $2; exit }' "$1"
}

# signals DIR MIN: DIR's run had at least MIN handler runs.
signals()
{
	local n

	n=$(awk '$1 == "pid" { n += $4 } END { print n + 0 }' $1/out)
	[ "$n" -ge "$2" ] || fail "$1: $n handler runs, fewer than $2"
}

# arcs ARGS...: h_arcs ARGS under the default clock (in directory
# "default"), where perf_event_open is refused (in "timer") and with
# the C library's restartable sequences off, so that each thread counts
# under an id of its own (in "norseq"), each process writing its own
# profile.
arcs()
{
	run default PROFDIR=. PROFHZ=10000 "$H" "$@"
	run timer PROFDIR=. PROFHZ=10000 "$NOPERF" "$H" "$@"
	run norseq GLIBC_TUNABLES=glibc.pthread.rseq=0 PROFDIR=. \
	    PROFHZ=10000 "$H" "$@"
}

atf_test_case threads_arcs_exact
threads_arcs_exact_head()
{
	atf_set descr "48 threads started together make 20,000 distinct" \
	    "arcs each, 6 times over, while 400 short threads come and go:" \
	    "every arc has exactly the calls made along it, under the" \
	    "default clock and the timer clock"
}
threads_arcs_exact_body()
{
	setup
	arcs 48 400 6
	judge default
	judge timer 2
	judge norseq
	verdict
}

atf_test_case signal_handler_arcs_exact
signal_handler_arcs_exact_head()
{
	atf_set descr "The same while each of the 48 threads takes a" \
	    "signal every 0.1 ms whose handler, the program's own, calls" \
	    "the same functions through the same call sites: every arc" \
	    "has exactly its calls, the handler's among them"
}
signal_handler_arcs_exact_body()
{
	setup
	arcs -s 48 400 6
	judge default
	judge timer 2
	judge norseq
	signals default 1000
	signals timer 1000
	signals norseq 1000
	verdict
}

atf_test_case vfork_child_first_arcs_exact
vfork_child_first_arcs_exact_head()
{
	atf_set descr "Each of 48 threads makes its first counted call in" \
	    "a vfork child, before it has counted anything itself, then" \
	    "counts on as a thread that started later does: every arc is" \
	    "exact (the child set the thread up with its own id, and two" \
	    "threads came to count into one table)"
}
vfork_child_first_arcs_exact_body()
{
	setup
	arcs -v 48 400 2
	judge default
	judge timer 2
	judge norseq
	verdict
}

atf_test_case fork_child_arcs_exact
fork_child_arcs_exact_head()
{
	atf_set descr "A child forked while 48 threads count runs 4" \
	    "threads of its own: under PROFDIR its profile has exactly" \
	    "the calls it made along each arc, and the parent's exactly" \
	    "the parent's"
}
fork_child_arcs_exact_body()
{
	setup
	arcs -f 48 400 4
	judge default
	judge timer 2
	judge norseq
	verdict
}

atf_test_case swapped_counts_exact
swapped_counts_exact_head()
{
	atf_set descr "4 threads make 20,000 distinct arcs each, then the" \
	    "program, in a memory cgroup of 32 MiB with swap, writes 200" \
	    "MiB: the kernel swaps out pages of the counts, which mincore()" \
	    "calls not in memory, and every arc still has exactly its" \
	    "calls, with restartable sequences on and off"
	atf_set require.user root
}
swapped_counts_exact_body()
{
	local cg m

	setup
	awk 'NR > 1 { n++ } END { exit !n }' /proc/swaps ||
	    atf_skip "no swap"
	# A memory cgroup (version 1) under this process's own.
	m=$(awk -F: '$2 == "memory" { print $3; exit }' /proc/self/cgroup)
	cg=/sys/fs/cgroup/memory$m/arcs_test.$$
	[ -n "$m" ] && mkdir "$cg" 2>/dev/null ||
	    atf_skip "no memory cgroup (version 1) to make"
	if ! echo 32M >"$cg/memory.limit_in_bytes"; then
		rmdir "$cg"
		atf_skip "no memory limit"
	fi
	for d in default norseq; do
		[ $d = default ] && t= || t=glibc.pthread.rseq=0
		run $d GLIBC_TUNABLES=$t PROFDIR=. sh -c \
		    'echo $$ >"$0/cgroup.procs" && shift && exec "$@"' \
		    "$cg" - "$H" -m 200 4 0 2
		judge $d
	done
	rmdir "$cg"
	verdict
}

# lostok DIR PID: PID's profile has every call along the arcs judged
# either on its arc or told lost (run.cells_lost at least the calls
# missing: it counts those of the program's other arcs too), and none in
# excess.
lostok()
{
	local lost

	lost=$(tail -n 1 $1/wrong.$2 | awk '{ print $4 }')
	[ "$lost" -le "$(field $1/dump.$2 run.cells_lost)" ] ||
	    fail "$1: $2: $lost calls missing, run.cells_lost" \
	    "$(field $1/dump.$2 run.cells_lost)"
	awk -F'[:,] ' '$2 ~ / calls$/ {
		split($2, g, " ")
		split($3, w, " ")
		if (g[1] + 0 > w[2] + 0)
			print
	    }' $1/wrong.$2 >$1/excess.$2
	[ -s $1/excess.$2 ] &&
	    fail "$1: $2: calls in excess: $(head -n 3 $1/excess.$2)"
	return 0
}

# told DIR: DIR's process, if it ran to its end and wrote a profile,
# passes lostok; 1 if it was not judged.
told()
{
	[ "$(cat $1/status)" = 0 ] && profiles $1 lostok
}

atf_test_case address_limit_told
address_limit_told_head()
{
	atf_set descr "Under ulimit -v of 90 to 140 MB, where libmon's" \
	    "tables, the writer's list or the program's own threads run" \
	    "short of address space, with restartable sequences on and" \
	    "off: every profile written holds each call on its arc or" \
	    "tells it lost in run.cells_lost, and invents none"
}
address_limit_told_body()
{
	local t v n

	setup
	for t in on off; do
		n=0
		for v in 90000 95000 100000 105000 110000 120000 140000; do
			run $t.$v sh -c "ulimit -v $v &&
			    GLIBC_TUNABLES=glibc.pthread.rseq=\$1 PROFDIR=. \
			    exec \"\$0\" 8 0 3" "$H" $([ $t = on ] && echo 1 ||
			    echo 0)
			told $t.$v && n=$((n + 1))
		done
		[ $n -gt 0 ] || fail "rseq $t: no run wrote a profile"
	done
	verdict
}

atf_init_test_cases()
{
	atf_add_test_case threads_arcs_exact
	atf_add_test_case signal_handler_arcs_exact
	atf_add_test_case vfork_child_first_arcs_exact
	atf_add_test_case fork_child_arcs_exact
	atf_add_test_case swapped_counts_exact
	atf_add_test_case address_limit_told
}

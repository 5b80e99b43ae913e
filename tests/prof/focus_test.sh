#! /usr/bin/env atf-sh
#
# focus_test.sh -- prof -f (focus), -d (difference), -I (sort by
# inclusive time) and the flame graph's search, on real runs of
# h_focus, whose parts are each timed on the thread's CPU clock: the
# truth the figures are held to.  go tool pprof, where it is installed,
# reads -d's pprof file; node, where it is, runs the SVG's search.

# --- helpers -----------------------------------------------------------

setup_focus()
{
	srcdir=$(atf_get_srcdir)
	PROF=$srcdir/../../prof/prof
	PROG=$srcdir/h_focus
	unset PROFDIR PROFHZ PROFCLOCK
	LC_ALL=C
	export LC_ALL
	[ -x "$PROF" ] || atf_fail "prof is not built: $PROF"
	[ -x "$PROG" ] || atf_fail "h_focus is not built: $PROG"
}

# run slow out truth: h_focus, 4 rounds of calls of about 25 ms each,
# leaf_b called slow times a round; its profile to out, its parts'
# seconds to truth.  Long calls, few rounds: where perf is refused the
# timer clock samples at the kernel's tick, 4 ms apart, and rounds of
# a few milliseconds would beat with it, each tick finding the same
# function; a call of many ticks is off by a tick at its ends alone.
run()
{
	rm -f mon.out
	"$PROG" 15000000 4 "$1" "$3" || atf_fail "h_focus failed"
	mv mon.out "$2" || atf_fail "h_focus wrote no mon.out"
}

# The rows of a flat report, "name seconds share calls" a line (calls
# 0 when blank); the report on stdin.
rows()
{
	awk '/^ *[0-9.]+ +[0-9.]+ +[0-9.]+ / {
		calls = NF >= 6 && $4 ~ /^[0-9]+$/ ? $4 : 0
		name = $NF
		print name, $2, $1, calls
	}'
}

# --- focus ---------------------------------------------------------------

atf_test_case focus_keeps_stacks_through_match
focus_keeps_stacks_through_match_head()
{
	atf_set descr "-f keeps only the stacks through a matching function:" \
	    "a function outside every such stack has no row, one called" \
	    "from both sides keeps the share its calls under the match" \
	    "took by the thread's CPU clock, within 5 points"
}
focus_keeps_stacks_through_match_body()
{
	setup_focus
	run 1 run.out truth
	"$PROF" -f '^via_a$' "$PROG" run.out >report 2>err ||
	    atf_fail "prof -f failed: $(tr '\n' ' ' <err)"
	rows <report >r
	grep -q '^leaf_b ' r && atf_fail "leaf_b has a row: $(tr '\n' ' ' <report)"
	grep -q '^via_b ' r && atf_fail "via_b has a row: $(tr '\n' ' ' <report)"
	# The shares are of what remains: work's under via_a, leaf_a's.
	awk '
	    FILENAME == "truth" { t[$1] = $2 }
	    FILENAME == "r" { s[$1] = $3 }
	    END {
		kept = t["work@via_a"] + t["leaf_a"]
		want["work"] = 100 * t["work@via_a"] / kept
		want["leaf_a"] = 100 * t["leaf_a"] / kept
		for (f in want)
			if (!(f in s) || (s[f] - want[f])^2 > 25) {
				printf "%s: %.1f%%, its clock says %.1f%%; ",
				    f, s[f], want[f]
				bad = 1
			}
		exit bad
	    }' truth r >verdict ||
	    atf_fail "$(tr '\n' ' ' <verdict)report: $(tr '\n' ' ' <report)"
	atf_check -o match:"^focus \\^via_a\\$: 1 function matches, [0-9.]+ s kept of the [0-9.]+ s in stacks \\([0-9.]+%\\)\$" \
	    tail -1 report
}

atf_test_case focus_calls_into_and_under_match
focus_calls_into_and_under_match_head()
{
	atf_set descr "-f keeps the counted calls into a matching function" \
	    "and those of the sub-graph under it: work keeps its 8" \
	    "calls from via_a and loses via_b's, main keeps none"
}
focus_calls_into_and_under_match_body()
{
	setup_focus
	run 1 run.out truth
	"$PROF" "$PROG" run.out | rows >all
	awk '$1 ~ /^(work|leaf_a|leaf_b)$/ { print $1, $4 }' all | sort >w
	atf_check -o inline:"leaf_a 4\nleaf_b 4\nwork 16\n" cat w
	# With -i, for main's row: calls are the sixth column.  The
	# kernel's row (a fault or an interrupt under via_a) is no function.
	"$PROF" -i -f '^via_a$' "$PROG" run.out | awk '
	    /^ *[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ / &&
	    $NF !~ /^(__|\[|\()/ && !/\[kernel: / {
		print $NF, (NF >= 8 ? $6 : 0) }' | sort >r
	atf_check -o inline:"leaf_a 4\nmain 0\nvia_a 4\nwork 8\n" \
	    cat r
}

atf_test_case focus_call_graph_is_subgraph
focus_call_graph_is_subgraph_head()
{
	atf_set descr "-q -f prints the sub-graph through the match: its" \
	    "callers and callees, nothing of the other branch"
}
focus_call_graph_is_subgraph_body()
{
	setup_focus
	run 1 run.out truth
	"$PROF" -q -f '^via_b$' "$PROG" run.out >graph 2>err ||
	    atf_fail "prof -q -f failed: $(tr '\n' ' ' <err)"
	grep -q 'via_a\|leaf_a' graph && atf_fail "the other branch: $(tr '\n' ' ' <graph)"
	atf_check -o match:' 8/8 +work \[' cat graph
	atf_check -o match:' 4/4 +leaf_b \[' cat graph
	atf_check -o match:' 4/4 +via_b \[' cat graph
	atf_check -o match:'^\[[0-9]+\] +100\.0 .* via_b \[' cat graph
}

atf_test_case focus_exports_matching_stacks
focus_exports_matching_stacks_head()
{
	atf_set descr "-F folded with -f writes only the stacks through a" \
	    "match, and their samples are the report's; -F gmon refuses -f"
}
focus_exports_matching_stacks_body()
{
	setup_focus
	run 1 run.out truth
	"$PROF" -F folded -f 'leaf_' "$PROG" run.out >folded ||
	    atf_fail "prof -F folded -f failed"
	[ -s folded ] || atf_fail "no stacks"
	# A leaf's time in the kernel (a fault, an interrupt) is under it.
	grep -v ';leaf_[ab]\(;\[kernel: system calls and faults\]\)\{0,1\} [0-9]*$' \
	    folded >other
	[ -s other ] && atf_fail "stacks through no match: $(tr '\n' ' ' <other)"
	"$PROF" -F folded "$PROG" run.out >all
	grep -q ';work ' all || atf_fail "no work in the whole: $(tr '\n' ' ' <all)"
	# The report's seconds of the two leaves, against the stacks'.
	n=$(awk '{ n += $NF } END { print n }' folded)
	"$PROF" -i -f 'leaf_' "$PROG" run.out >report
	atf_check -o match:"^inclusive time: measured from sampled call stacks, $n samples" \
	    cat report
	# gmon.out holds the histogram and arcs as taken: no focus there.
	atf_check -s exit:1 -o empty -e match:'^prof: -f: -F gmon ' \
	    "$PROF" -F gmon -f 'leaf_' "$PROG" run.out
}

atf_test_case focus_bad_regex_one_line
focus_bad_regex_one_line_head()
{
	atf_set descr "-f with no regular expression is one line naming it," \
	    "exit 1, before any file is read"
}
focus_bad_regex_one_line_body()
{
	setup_focus
	atf_check -s exit:1 -e match:'^prof: -f \(: .+$' -o empty \
	    "$PROF" -f '(' "$PROG" nosuch.out
	atf_check -s exit:1 -o empty -e save:err "$PROF" -f 'a[' "$PROG" x
	atf_check -o inline:"1\n" sh -c 'wc -l <err | tr -d " "'
}

atf_test_case focus_given_twice_warns
focus_given_twice_warns_head()
{
	atf_set descr "-f, -d or -D given twice: the last wins and prof says" \
	    "which it overrode, as for the sort options"
}
focus_given_twice_warns_body()
{
	setup_focus
	run 1 run.out truth
	"$PROF" -f '^via_b$' "$PROG" run.out >want 2>/dev/null ||
	    atf_fail "prof -f failed"
	atf_check -e match:'^prof: -f \^via_b\$ overrides -f \^via_a\$$' \
	    -o file:want "$PROF" -f '^via_a$' -f '^via_b$' "$PROG" run.out
	atf_check -s exit:1 -o empty -e save:err \
	    "$PROF" -d gone.out -d run.out -D nosuch -D "$PROG" "$PROG" nosuch.out
	grep -qx 'prof: -d run.out overrides -d gone.out' err ||
	    atf_fail "no warning for -d twice: $(cat err)"
	grep -qxF "prof: -D $PROG overrides -D nosuch" err ||
	    atf_fail "no warning for -D twice: $(cat err)"
}

atf_test_case focus_no_match_warns
focus_no_match_warns_head()
{
	atf_set descr "-f with a pattern nothing matches warns and reports" \
	    "nothing kept"
}
focus_no_match_warns_body()
{
	setup_focus
	run 1 run.out truth
	atf_check -e inline:"prof: warning: -f ^nosuch\$: no function with time or calls in run.out matches\n" \
	    -o match:'0 functions match, 0\.00 s kept of' \
	    "$PROF" -f '^nosuch$' "$PROG" run.out
}

# --- diff ----------------------------------------------------------------

# The truth's change of leaf_b, new less base, in seconds.
delta_truth()
{
	awk 'FILENAME == "truth.base" && $1 == "leaf_b" { b = $2 }
	    FILENAME == "truth.new" && $1 == "leaf_b" { n = $2 }
	    END { printf "%.6f\n", n - b }' truth.base truth.new
}

# leaf_b_change_measured: the second line of diff, leaf_b's, gives its
# change in seconds as its thread CPU clock measured it (delta_truth),
# within 0.02 s and a tenth.
leaf_b_change_measured()
{
	d=$(delta_truth)
	awk -v d="$d" 'NR == 2 {
		tol = 0.02 + 0.1 * d
		if (($1 - d)^2 > tol^2) {
			printf "leaf_b %+.2f s, its clock %+.3f s\n", $1, d
			exit 1
		}
	    }' diff >verdict ||
	    atf_fail "$(tr '\n' ' ' <verdict) -- $(tr '\n' ' ' <diff)"
}

atf_test_case diff_slower_part_first
diff_slower_part_first_head()
{
	atf_set descr "-d between two runs, one with leaf_b called three" \
	    "times as often, puts leaf_b first with its change in seconds" \
	    "as its thread CPU clock measured it, and 8 more calls"
}
diff_slower_part_first_body()
{
	setup_focus
	run 1 base.out truth.base
	run 3 new.out truth.new
	"$PROF" -d base.out "$PROG" new.out >diff 2>err ||
	    atf_fail "prof -d failed: $(tr '\n' ' ' <err)"
	atf_check -o match:'^ Seconds  %Time     Base      New      Calls  Name$' \
	    head -1 diff
	atf_check -o match:'^ +\+[0-9.]+ +\+[0-9.]+ +[0-9.]+ +[0-9.]+ +\+8  leaf_b$' \
	    sed -n 2p diff
	leaf_b_change_measured
	atf_check -o match:'^total: [0-9.]+ s in the base, [0-9.]+ s in the new profile, \+[0-9.]+ s \(\+[0-9.]+% of the base\)$' \
	    tail -1 diff
	# Sorted by the size of the change.
	awk 'NF >= 5 && $1 ~ /^[-+][0-9]/ { v = $1 < 0 ? -$1 : $1
		if (NR > 2 && v > last + 0.001) { print "unsorted: " $0; exit 1 }
		last = v }' diff >verdict || atf_fail "$(tr '\n' ' ' <verdict)"
}

atf_test_case diff_across_builds
diff_across_builds_head()
{
	atf_set descr "-d compares profiles of two builds of a program by" \
	    "function name: the base is read against the build it names," \
	    "with no warning, and leaf_b's change is found"
}
diff_across_builds_body()
{
	setup_focus
	other=$srcdir/h_focus_other
	[ -x "$other" ] || atf_fail "not built: $other"
	a=$(nm "$PROG" | awk '$3 == "leaf_b" { print $1 }')
	b=$(nm "$other" | awk '$3 == "leaf_b" { print $1 }')
	[ "$a" != "$b" ] || atf_fail "leaf_b at the same address in both"
	run 1 base.out truth.base
	PROG=$other
	run 3 new.out truth.new
	atf_check -e empty -o save:diff "$PROF" -d base.out "$other" new.out
	atf_check -o match:'^ +\+[0-9.]+ +\+[0-9.]+ +[0-9.]+ +[0-9.]+ +\+8  leaf_b$' \
	    sed -n 2p diff
	# The functions of both, none twice: matched by name.  A name is
	# all that follows the figures: a library's row is "f (libc.so.6)".
	awk 'NR > 1 && NF >= 5 && $1 ~ /^[-+][0-9]/ {
	    sub(/^ *([-+]?[0-9.]+ +)+/, ""); print }' diff |
	    sort | uniq -d >twice
	atf_check -o empty cat twice
	atf_check -o match:' work$' cat diff
	leaf_b_change_measured
}

atf_test_case diff_same_run_is_zero
diff_same_run_is_zero_head()
{
	atf_set descr "-d of a profile against itself changes nothing: no" \
	    "function line (none has a change), the heading, and a total" \
	    "line holding the report's seconds twice, +0.00 between them"
}
diff_same_run_is_zero_body()
{
	setup_focus
	run 1 run.out truth
	"$PROF" -d run.out "$PROG" run.out >diff || atf_fail "prof -d failed"
	# The profile has functions to compare: the report's three parts.
	"$PROF" "$PROG" run.out | rows >r
	atf_check -o inline:"3\n" sh -c \
	    "awk '\$1 ~ /^(work|leaf_a|leaf_b)\$/ && \$2 > 0' r | wc -l | tr -d ' '"
	# Three lines: the heading, a blank, the total; no function line.
	atf_check -o inline:"3\n" sh -c 'wc -l <diff | tr -d " "'
	atf_check -o match:'^ Seconds  %Time     Base      New      Calls  Name$' \
	    head -1 diff
	# The report's last Cumsecs: its seconds, all of them.
	s=$("$PROF" "$PROG" run.out | awk '/^ *[0-9.]+ +[0-9.]+ +[0-9.]+ / { s = $3 }
	    END { print s }')
	[ "$s" != 0.00 ] || atf_fail "no seconds in the report"
	# The same seconds to the hundredth: both sum the rows, in their
	# own order, and a sum of x.xx5 may round either way (0.43 against
	# 0.44 once).
	atf_check -o match:"^total: [0-9.]+ s in the base, [0-9.]+ s in the new profile, \\+0\\.00 s \\(\\+0\\.0% of the base\\)\$" \
	    tail -1 diff
	tail -1 diff | awk -v s=$s '{ d = $2 - s
		exit !($2 == $7 && d <= 0.0101 && d >= -0.0101) }' ||
	    atf_fail "-d's total, not the report's $s s: $(tail -1 diff)"
}

atf_test_case diff_pprof_agrees_with_go_pprof
diff_pprof_agrees_with_go_pprof_head()
{
	atf_set descr "go tool pprof -diff_base base.pb -top new.pb agrees" \
	    "with prof -d, and -d -F pprof's one file reads the same as" \
	    "-diff_base of the two"
}
diff_pprof_agrees_with_go_pprof_body()
{
	setup_focus
	command -v go >/dev/null 2>&1 || atf_skip "go is not installed"
	HOME=$PWD
	export HOME
	run 1 base.out truth.base
	run 3 new.out truth.new
	"$PROF" -F pprof "$PROG" base.out >base.pb || atf_fail "prof base.pb"
	"$PROF" -F pprof "$PROG" new.out >new.pb || atf_fail "prof new.pb"
	"$PROF" -d base.out -F pprof "$PROG" new.out >diff.pb ||
	    atf_fail "prof -d -F pprof failed"
	go tool pprof -unit=ms -diff_base base.pb -top new.pb >two 2>err ||
	    atf_fail "go tool pprof -diff_base: $(tr '\n' ' ' <err)"
	go tool pprof -unit=ms -top diff.pb >one 2>err ||
	    atf_fail "go tool pprof diff.pb: $(tr '\n' ' ' <err)"
	sed -n '/flat%/,$p' two >two.top
	sed -n '/flat%/,$p' one >one.top
	[ -s two.top ] || atf_fail "no -top: $(tr '\n' ' ' <two)"
	atf_check -o file:two.top cat one.top
	atf_check -o match:'of [0-9.]+ms total' grep '^Showing' one
	grep '^Showing' two >want
	atf_check -o file:want grep '^Showing' one
	for t in calls; do
		go tool pprof -sample_index=$t -diff_base base.pb -top \
		    new.pb 2>/dev/null | sed -n '/flat%/,$p' >two.$t
		go tool pprof -sample_index=$t -top diff.pb 2>/dev/null |
		    sed -n '/flat%/,$p' >one.$t
		atf_check -o file:two.$t cat one.$t
	done
	atf_check -o match:'^ +8 .* leaf_b$' grep 'leaf_b$' one.calls
	# pprof's change of each function, against prof -d's: the
	# stacks' leaves against the histogram, a few samples apart.
	"$PROF" -d base.out "$PROG" new.out >diff
	awk 'FILENAME == "diff" && NF >= 5 && $1 ~ /^[-+][0-9]/ {
		d[$NF] = $1 * 1000 }
	    FILENAME == "two.top" && $1 ~ /ms$/ { p[$NF] = $1 + 0 }
	    END {
		for (f in p)
			if ((f in d) && (p[f] - d[f])^2 > 15^2) {
				printf "%s: pprof %+.0f ms, prof -d %+.0f ms\n",
				    f, p[f], d[f]
				bad = 1
			}
		if (!("leaf_b" in p) || !("leaf_b" in d)) {
			print "no leaf_b"
			bad = 1
		}
		exit bad
	    }' diff two.top >verdict ||
	    atf_fail "$(tr '\n' ' ' <verdict) -- $(tr '\n' ' ' <diff)"
}

atf_test_case diff_other_formats_refused
diff_other_formats_refused_head()
{
	atf_set descr "-d with a format that cannot hold a difference is one" \
	    "line, exit 1"
}
diff_other_formats_refused_body()
{
	setup_focus
	atf_check -s exit:1 -o empty \
	    -e inline:"prof: -d: -F folded cannot hold a difference (-F pprof can)\n" \
	    "$PROF" -d x.out -F folded "$PROG" y.out
}

# --- order ---------------------------------------------------------------

atf_test_case sort_by_inclusive_time
sort_by_inclusive_time_head()
{
	atf_set descr "-I sorts the rows by decreasing inclusive time and" \
	    "shows its columns; the last sort option wins, with a warning"
}
sort_by_inclusive_time_body()
{
	setup_focus
	run 1 run.out truth
	"$PROF" -I "$PROG" run.out >report 2>err || atf_fail "prof -I: $(tr '\n' ' ' <err)"
	atf_check -o match:'%Incl Inclsecs' head -1 report
	# %Incl, the fourth column, never grows down the rows.
	awk 'NR > 1 && /^ *[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ / {
		if (n++ > 0 && $4 > last) { print "grows at: " $0; exit 1 }
		last = $4 }' report >verdict ||
	    atf_fail "$(tr '\n' ' ' <verdict) -- $(tr '\n' ' ' <report)"
	# main holds the rest: first among the program's rows; work, the
	# most self time, is after via_a and via_b's callers.
	awk '$NF == "main" { m = NR } $NF == "work" { w = NR }
	    END { exit !(m > 0 && w > m) }' report ||
	    atf_fail "main not before work: $(tr '\n' ' ' <report)"
	atf_check -e inline:"prof: -t overrides -I\n" -o ignore \
	    "$PROF" -I -t "$PROG" run.out
	atf_check -e inline:"prof: -I overrides -c\n" -o ignore \
	    "$PROF" -c -I "$PROG" run.out
}

# --- the flame graph's search ------------------------------------------

atf_test_case svg_search_box
svg_search_box_head()
{
	atf_set descr "-F svg has a search, inline: a Search button, Ctrl-F," \
	    "and, run under node, it marks the boxes of a match and gives" \
	    "the share of the samples through it, as the folded stacks do"
}
svg_search_box_body()
{
	setup_focus
	run 1 run.out truth
	"$PROF" -F svg "$PROG" run.out >g.svg || atf_fail "prof -F svg failed"
	atf_check -o match:'<text id="search"[^>]*>Search</text>' cat g.svg
	atf_check -o match:'<text id="matched"' cat g.svg
	atf_check -o match:"ev.ctrlKey \|\| ev.metaKey\) && ev.key == 'f'" \
	    cat g.svg
	atf_check -o match:'window.flameSearch = search' cat g.svg
	grep -q 'href=\|src=\|@import\|url(' g.svg &&
	    atf_fail "a resource from outside the file"
	command -v node >/dev/null 2>&1 ||
	    atf_skip "node is not installed: the script not run"
	"$PROF" -F folded "$PROG" run.out >folded
	want=$(awk '{ t += $NF } /(^|;)work( |;)/ { w += $NF }
	    END { printf "%.2f\n", 100 * w / t }' folded)
	node "$srcdir/svgsearch.js" g.svg '^work$' >found ||
	    atf_fail "the search failed: $(tr '\n' ' ' <found)"
	atf_check -o inline:"frames 2\n" head -1 found
	awk -v w="$want" 'NR == 2 {
		p = $3; sub(/%$/, "", p)
		if ((p - w)^2 > 0.2^2) { printf "%s%% against %s%%\n", p, w; exit 1 }
	    }' found >verdict || atf_fail "$(tr '\n' ' ' <verdict)"
	# The share is of the graph, which leaves libmon's overhead out
	# (the title's "of all samples" counts it in), and says so.
	atf_check -o match:'^Matched \^work\$: [0-9.]+% of the graph \(overhead apart\), [0-9.]+ s$' \
	    sed -n 2p found
	atf_check -o inline:"frames 0\nnot a regular expression: (\n" \
	    node "$srcdir/svgsearch.js" g.svg '('
}

# --- review of issue 26's focus and diff ------------------------------------

atf_test_case diff_rebuilt_program_refused
diff_rebuilt_program_refused_head()
{
	atf_set descr "-d whose base was taken of a build no longer there" \
	    "(the program rebuilt in place) is one line naming the base" \
	    "and -D, exit 1; -D naming the old build compares, -D naming" \
	    "another build is refused"
}
diff_rebuilt_program_refused_body()
{
	setup_focus
	other=$srcdir/h_focus_other
	cp "$PROG" prog || atf_fail "cp"
	PROG=./prog
	run 1 base.out truth.base
	cp "$other" prog || atf_fail "cp"
	run 3 new.out truth.new
	atf_check -s exit:1 -o empty \
	    -e match:'^prof: -d base\.out: the build it was taken of is gone \(neither \./prog nor .*prog has its build-id\); keep the old program and name it with -D$' \
	    "$PROF" -d base.out ./prog new.out
	cp "$srcdir/h_focus" old || atf_fail "cp"
	atf_check -e empty -o save:diff "$PROF" -d base.out -D old ./prog new.out
	atf_check -o match:'^ +\+[0-9.]+ +\+[0-9.]+ +[0-9.]+ +[0-9.]+ +\+8  leaf_b$' \
	    sed -n 2p diff
	atf_check -s exit:1 -o empty \
	    -e inline:"prof: -D ./prog: not the build base.out was taken of (its build-id differs)\n" \
	    "$PROF" -d base.out -D ./prog ./prog new.out
	atf_check -s exit:1 -o empty \
	    -e inline:"prof: -D: names the program of -d's base; there is no -d\n" \
	    "$PROF" -D old ./prog new.out
}

atf_test_case stats_under_focus_whole_profile
stats_under_focus_whole_profile_head()
{
	atf_set descr "-s under -f gives the whole profile's statistics," \
	    "those of -s alone, then one line on what -f kept"
}
stats_under_focus_whole_profile_body()
{
	setup_focus
	run 1 run.out truth
	"$PROF" -s "$PROG" run.out >/dev/null 2>whole || atf_fail "prof -s"
	"$PROF" -s -f '^via_a$' "$PROG" run.out >/dev/null 2>focused ||
	    atf_fail "prof -s -f"
	grep -q '^overhead: ' whole || atf_fail "no overhead line"
	grep -q '^samples: [1-9]' whole || atf_fail "no samples line"
	atf_check -o file:whole sed '$d' focused
	atf_check -o match:'^focus \^via_a\$: 1 function matches, [0-9.]+ s kept of the [0-9.]+ s in stacks \([0-9.]+%\)$' \
	    tail -1 focused
}

atf_test_case diff_lines_as_printed
diff_lines_as_printed_head()
{
	atf_set descr "-d's lines are sorted by the change as printed, none" \
	    "says -0.00 or -0.0, none is without a change, and each holds" \
	    "its base and new seconds (change = new - base, to 0.01)"
}
diff_lines_as_printed_body()
{
	setup_focus
	run 3 base.out truth.base
	run 1 new.out truth.new
	"$PROF" -d base.out "$PROG" new.out >diff || atf_fail "prof -d failed"
	awk 'NR > 1 && NF >= 5 && $1 ~ /^[-+][0-9]/' diff >lines
	[ "$(wc -l <lines)" -ge 3 ] || atf_fail "too few lines: $(tr '\n' ' ' <diff)"
	grep -q -- '-0\.00* ' lines && atf_fail "-0: $(tr '\n' ' ' <lines)"
	awk '{ v = $1 < 0 ? -$1 : $1
		if (NR > 1 && v > last) { print "unsorted: " $0; exit 1 }
		last = v
		if ($1 + 0 == 0 && $2 + 0 == 0 && $5 !~ /^[-+][0-9]/) {
			print "no change: " $0; exit 1 }
		if (($4 - $3 - $1)^2 > 0.0101^2) { print "sum: " $0; exit 1 }
	    }' lines >verdict || atf_fail "$(tr '\n' ' ' <verdict)"
	atf_check -o match:'^ +-[0-9.]+ +-[0-9.]+ +[0-9.]+ +[0-9.]+ +-8  leaf_b$' \
	    head -1 lines
}

atf_test_case diff_ignores_report_options
diff_ignores_report_options_head()
{
	atf_set descr "-d with -q, -i, -e or a sort option warns once," \
	    "naming them, and prints the difference as without them"
}
diff_ignores_report_options_body()
{
	setup_focus
	run 1 run.out truth
	"$PROF" -d run.out "$PROG" run.out >plain || atf_fail "prof -d"
	atf_check -o file:plain \
	    -e inline:"prof: warning: -d ignores -n, -i, -q, -e: a difference is one list, by the size of the change\n" \
	    "$PROF" -d run.out -q -i -e -n "$PROG" run.out
	atf_check -o file:plain \
	    -e inline:"prof: warning: -d ignores -I: a difference is one list, by the size of the change\n" \
	    "$PROF" -d run.out -I "$PROG" run.out
}

atf_test_case focus_everything_keeps_all
focus_everything_keeps_all_head()
{
	atf_set descr "-f . keeps 100.0% of what the focus can keep, and" \
	    "counts as matching the functions it shows (time or calls)"
}
focus_everything_keeps_all_body()
{
	setup_focus
	run 1 run.out truth
	"$PROF" -f . "$PROG" run.out >report || atf_fail "prof -f ."
	n=$(rows <report | wc -l | tr -d ' ')
	[ "$n" -ge 3 ] || atf_fail "rows: $(tr '\n' ' ' <report)"
	atf_check -o match:"^focus \\.: $n functions match, ([0-9.]+) s kept of the [0-9.]+ s in stacks \\(100\\.0%\\)\$" \
	    tail -1 report
}

atf_init_test_cases()
{
	atf_add_test_case focus_keeps_stacks_through_match
	atf_add_test_case focus_calls_into_and_under_match
	atf_add_test_case focus_call_graph_is_subgraph
	atf_add_test_case focus_exports_matching_stacks
	atf_add_test_case focus_bad_regex_one_line
	atf_add_test_case focus_given_twice_warns
	atf_add_test_case focus_no_match_warns
	atf_add_test_case diff_slower_part_first
	atf_add_test_case diff_across_builds
	atf_add_test_case diff_same_run_is_zero
	atf_add_test_case diff_pprof_agrees_with_go_pprof
	atf_add_test_case diff_other_formats_refused
	atf_add_test_case sort_by_inclusive_time
	atf_add_test_case svg_search_box
	atf_add_test_case diff_rebuilt_program_refused
	atf_add_test_case stats_under_focus_whole_profile
	atf_add_test_case diff_lines_as_printed
	atf_add_test_case diff_ignores_report_options
	atf_add_test_case focus_everything_keeps_all
}

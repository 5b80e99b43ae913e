#! /usr/bin/env atf-sh
#
# lines_test.sh -- prof -L and -A, time and calls by source line.
#
# h_lines runs three loops on three lines of main and times each on its
# thread's CPU clock, then calls one function from two call sites a
# known number of times each: prof -L's shares are held to the clocks',
# its calls per line to the counts.  The mapping of addresses to lines
# is held to addr2line's, on forged profiles that sample every
# instruction of h_lines's functions, for gcc and clang, DWARF 4 and 5,
# and a program whose lines are in a separate debug file.

# --- helpers -----------------------------------------------------------

setup_lines()
{
	srcdir=$(atf_get_srcdir)
	PROF=$srcdir/../../prof/prof
	MKMON=$srcdir/t_mkmon
	SRC=$srcdir/h_lines.c
	unset PROFDIR PROFHZ PROFCLOCK PROFSTACK
	LC_ALL=C
	export LC_ALL
	[ -x "$PROF" ] || atf_fail "prof is not built: $PROF"
}

# lineof TAG: the line of h_lines.c whose comment names TAG.
lineof()
{
	grep -n "/\* $1 \*/" "$SRC" | cut -d: -f1
}

# run prog: profile h_lines-like prog here; its own figures in truth.
run()
{
	"$@" >truth || atf_fail "$1 failed"
	[ -s mon.out ] || atf_fail "$1 wrote no mon.out"
}

# share line: the %Time prof -L gave line N of h_lines.c (a tenth of a
# point, where Seconds has a hundredth of a second).
share()
{
	awk -v t="h_lines.c:$1" '
	    { for (i = 1; i < NF; i++)
		if ($i ~ ("/" t "$") || $i == t) { s += $1; break } }
	    END { printf "%.1f\n", s }' lines
}

# calls line: the calls prof -L gave as made from line N of h_lines.c.
calls()
{
	awk -v t="h_lines.c:$1" '
	    { for (i = 1; i < NF; i++)
		if ($i ~ ("/" t "$") || $i == t) {
			if (i == 5) c += $4
			break
		} }
	    END { print c + 0 }' lines
}

# shares prog: -L's share of each loop line against the clock's.
check_shares()
{
	run "$1"
	atf_check -o save:lines -e ignore "$PROF" -L "$1"
	set -- $(share $(lineof LOOP1)) $(share $(lineof LOOP2)) \
	    $(share $(lineof LOOP3)) $(awk '/^loop/ { print $2 }' truth)
	echo "prof: $1 $2 $3  clock: $4 $5 $6"
	awk -v a="$1" -v b="$2" -v c="$3" -v x="$4" -v y="$5" -v z="$6" '
	    BEGIN {
		p = a + b + c; t = x + y + z
		if (p <= 0 || t <= 0) { print "no time"; exit 1 }
		bad = 0
		split(a " " b " " c, P); split(x " " y " " z, T)
		for (i = 1; i <= 3; i++) {
			d = 100 * P[i] / p - 100 * T[i] / t
			printf "loop%d: prof %.1f%%, clock %.1f%%\n", i,
			    100 * P[i] / p, 100 * T[i] / t
			if (d > 3 || d < -3) bad = 1
		}
		exit bad
	    }' || atf_fail "a loop's share is more than 3 points off"
}

# forge prog: a profile of one sample on every instruction of h_lines's
# functions, by 1-byte bins over their range; the addresses in addrs.
forge_all()
{
	objdump -d --no-show-raw-insn "$1" | awk '
	    /^[0-9a-f]+ <(main|callee|cpu)>:/ { on = 1; next }
	    /^$/ { on = 0 }
	    on && /^ *[0-9a-f]+:/ { sub(":", "", $1); print $1 }' >addrs
	[ -s addrs ] || atf_fail "no instructions found in $1"
	sort addrs >addrs.s && mv addrs.s addrs
	lo=$(printf '%d' 0x$(head -1 addrs))
	hi=$(( $(printf '%d' 0x$(tail -1 addrs)) + 1 ))
	{
		echo "lpc $lo"
		echo "hpc $hi"
		echo "hist $(( hi - lo ))"
		while read a; do
			echo "bin $(( 0x$a - lo )) 1"
		done <addrs
	} | "$MKMON" mon.out || atf_fail "t_mkmon failed"
}

# mapping prog [truthprog]: prof -L's lines of the forged samples are
# addr2line's for the same addresses, summed by file:line.
check_mapping()
{
	forge_all "${2:-$1}"
	addr2line -e "${2:-$1}" <addrs |
	    sed -e 's/ (discriminator [0-9]*)$//' -e 's/^.*:?$/no-line/' |
	    sort | uniq -c |
	    awk '{ print $2, $1 }' | sort >want
	atf_check -o save:lines -e ignore "$PROF" -L -h "$1"
	# Seconds at 100 Hz are samples over 100.  Code of no line is
	# file:0 or ??:0 in prof, where addr2line has file:? or ??:?, its
	# file then from the unit's name, which the line table lacks.
	awk '$1 ~ /^[0-9.]+$/ { n = NF - 1
		if ($n ~ /:0$/) $n = "no-line"
		printf "%s %d\n", $n, $2 * 100 + 0.5 }' lines |
	    awk '{ s[$1] += $2 } END { for (k in s) print k, s[k] }' |
	    sort >got
	echo "$(wc -l <want) lines, $(wc -l <addrs) addresses"
	diff want got || atf_fail "$1: prof -L and addr2line differ"
}

# hdrline TAG: the line of inline.h (h_inline's header) naming TAG.
hdrline()
{
	grep -n "/\* $1 \*/" "$srcdir/inline.h" | cut -d: -f1
}

# annotate cg.out into ann with callgrind_annotate, main's call lines
# in reach (main has no cost of its own); skip if it is not installed.
annotate_cg()
{
	command -v callgrind_annotate >/dev/null 2>&1 ||
	    atf_skip "callgrind_annotate is not installed (valgrind)"
	callgrind_annotate --inclusive=yes --threshold=100 --context=100 \
	    --auto=yes cg.out >ann 2>&1 ||
	    atf_fail "callgrind_annotate: $(cat ann)"
}

# --- cases -------------------------------------------------------------

atf_test_case loop_shares_match_thread_cpu
loop_shares_match_thread_cpu_head()
{
	atf_set descr "prof -L gives each of three loops on three lines the" \
	    "share of their time the thread CPU clock measured, within 3" \
	    "points, for gcc and clang builds, from the stacks' exact pcs" \
	    "and from the histogram"
	atf_set timeout 120
}
loop_shares_match_thread_cpu_body()
{
	setup_lines
	for p in h_lines h_lines_clang5; do
		mkdir $p && cd $p
		check_shares "$srcdir/$p"
		grep -q "^lines: time from the exact address" lines ||
		    atf_fail "$p: not from the stacks' exact addresses"
		cd ..
	done
	# Without stacks, from the histogram's bins.
	mkdir hist && cd hist
	PROFSTACK=0
	export PROFSTACK
	check_shares "$srcdir/h_lines"
	unset PROFSTACK
	grep -q "^lines: time from the histogram's [0-9]*-byte bins" lines ||
	    atf_fail "PROFSTACK=0: not from the histogram"
}

atf_test_case calls_exact_per_call_site
calls_exact_per_call_site_head()
{
	atf_set descr "prof -L counts the calls made from each of two call" \
	    "sites on two lines exactly, and -A lists them under their line"
}
calls_exact_per_call_site_body()
{
	setup_lines
	run "$srcdir/h_lines" 0.01
	atf_check -o save:lines -e ignore "$PROF" -L -h "$srcdir/h_lines"
	atf_check_equal 3000 "$(calls $(lineof SITE1))"
	atf_check_equal 7000 "$(calls $(lineof SITE2))"
	# Named: a run of 0.01 s may take no sample there at all (the timer
	# clock's tick is 4 ms), and -A lists only files that took some.
	atf_check -o save:ann -e ignore "$PROF" -A "$srcdir/h_lines" mon.out \
	    "$SRC"
	# Its time is whatever samples found the call itself: not judged.
	grep -q "^ *[0-9.]* *[0-9.]* *3000 *$(lineof SITE1) .*SITE1" ann ||
	    atf_fail "-A: no 3000 calls on the SITE1 line:" \
	    "$(grep SITE1 ann | tr '\n' ' ')"
	grep -q "^ *7000 *calls to callee$" ann ||
	    atf_fail "-A: no 7000 calls to callee"
}

atf_test_case lines_agree_with_addr2line
lines_agree_with_addr2line_head()
{
	atf_set descr "The file:line prof -L charges each sampled address" \
	    "to is addr2line's, for gcc and clang, DWARF 4 and 5, and a" \
	    "program whose lines are in a separate debug file, stripped" \
	    "of all its symbols or of its debug sections alone"
	atf_set timeout 120
}
lines_agree_with_addr2line_body()
{
	setup_lines
	atf_require_prog addr2line
	atf_require_prog objdump
	for p in h_lines h_lines_gcc4 h_lines_clang5 h_lines_clang4; do
		echo "$p:"
		mkdir $p && cd $p
		check_mapping "$srcdir/$p"
		cd ..
	done
	echo "h_lines_dbg:"
	mkdir dbg && cd dbg
	check_mapping "$srcdir/h_lines_dbg" "$srcdir/h_lines_full"
	# Its debug sections alone stripped: the lines from the debug
	# file all the same, though its symbols are its own.
	echo "h_lines_dbgsym:"
	cd .. && mkdir dbgsym && cd dbgsym
	check_mapping "$srcdir/h_lines_dbgsym" "$srcdir/h_lines_full"
}

atf_test_case call_site_is_the_calling_line
call_site_is_the_calling_line_head()
{
	atf_set descr "A call's line is addr2line's for its return address" \
	    "less one, whatever the build"
}
call_site_is_the_calling_line_body()
{
	setup_lines
	atf_require_prog addr2line
	for p in h_lines h_lines_gcc4 h_lines_clang5 h_lines_clang4; do
		mkdir $p && cd $p
		run "$srcdir/$p" 0.01
		"$PROF" -L -h "$srcdir/$p" 2>/dev/null |
		    awk '$4 ~ /^[0-9]+$/ && NF == 6 { print $5, $4 }' |
		    grep h_lines.c | sort >got
		# Every call of h_lines's main is in an instruction before a
		# return address: the call instructions' last bytes.
		objdump -d --no-show-raw-insn "$srcdir/$p" | awk '
		    /^[0-9a-f]+ <main>:/ { on = 1; next }
		    /^$/ { on = 0 }
		    on && /call/ { ret = 1; next }
		    on && ret && /^ *[0-9a-f]+:/ {
			sub(":", "", $1); print $1; ret = 0 }' >rets
		while read r; do
			printf '%x\n' $(( 0x$r - 1 ))
		done <rets | addr2line -e "$srcdir/$p" |
		    sed 's/ (discriminator [0-9]*)$//' >sites
		for l in $(lineof SITE1) $(lineof SITE2); do
			grep -q "h_lines.c:$l\$" sites ||
			    atf_fail "$p: addr2line has no call on line $l"
			grep -q "h_lines.c:$l " got ||
			    atf_fail "$p: prof -L has no calls on line $l"
		done
		cd ..
	done
}

atf_test_case no_debug_info_says_how
no_debug_info_says_how_head()
{
	atf_set descr "A program built without -g: -L prints the flat" \
	    "report and one line saying to build with -g"
}
no_debug_info_says_how_body()
{
	setup_lines
	run "$srcdir/h_lines_nog" 0.01
	atf_check -o match:"^ *%Time Seconds Cumsecs  #Calls   msec/call  Name" \
	    -o match:" main$" \
	    -e match:"no line table covers its code: build it with -g" \
	    "$PROF" -L "$srcdir/h_lines_nog"
}

atf_test_case bad_input_one_line
bad_input_one_line_head()
{
	atf_set descr "-L on a file that is no program, or -A with -q: one" \
	    "line naming the file or option, status 1"
}
bad_input_one_line_body()
{
	setup_lines
	run "$srcdir/h_lines" 0.01
	echo junk >notelf
	atf_check -s exit:1 -e inline:"prof: notelf: not an ELF file\n" \
	    "$PROF" -L notelf
	atf_check -s exit:1 -e match:"^prof: -A: .*not with -q$" \
	    "$PROF" -A -q "$srcdir/h_lines"
}

atf_test_case annotate_marks_hot_lines
annotate_marks_hot_lines_head()
{
	atf_set descr "-A lists h_lines.c with its text, each loop line's" \
	    "seconds and share, and the hot ones marked #"
	atf_set timeout 60
}
annotate_marks_hot_lines_body()
{
	setup_lines
	run "$srcdir/h_lines" 0.5
	# Named: a run of 0.01 s may take no sample there at all (the timer
	# clock's tick is 4 ms), and -A lists only files that took some.
	atf_check -o save:ann -e ignore "$PROF" -A "$srcdir/h_lines" mon.out \
	    "$SRC" h_lines.c
	for t in LOOP2 LOOP3; do
		grep -q "^# .* $(lineof $t)  .*/\* $t \*/\$" ann ||
		    atf_fail "-A: the $t line is not marked hot"
	done
	grep -q "^ *$(lineof SITE2 | awk '{print $1 - 1}')  	for (k = 0; k < SITE2_CALLS" ann ||
	    atf_fail "-A: the source text is not listed as it is"
}

atf_test_case annotate_source_not_found
annotate_source_not_found_head()
{
	atf_set descr "-A: a source file not found gets one line saying" \
	    "where it was looked for, and its figures; -S names where to" \
	    "find it, a -S that is not there is warned of; a source newer" \
	    "than the program is said to be, an older one not; every file" \
	    "listed unasked took time"
	atf_set timeout 60
}
annotate_source_not_found_body()
{
	setup_lines
	p=$srcdir/h_lines_moved
	run "$p" 0.2
	atf_check -o save:ann -e empty "$PROF" -A -p "$p"
	[ $(grep -c "source not found" ann) -eq 1 ] ||
	    atf_fail "-A: not one line saying the source is not found"
	grep -q "^# .* $(lineof LOOP3)  *\$" ann ||
	    atf_fail "-A: no figures for the LOOP3 line"
	mkdir src
	cp "$SRC" src/h_lines_moved.c
	atf_check -o save:ann -e empty "$PROF" -A -p -S src "$p"
	grep -q "source not found" ann && atf_fail "-S: still not found"
	grep -q "^# .* $(lineof LOOP3)  .*/\* LOOP3 \*/\$" ann ||
	    atf_fail "-A -S: no text for the LOOP3 line"
	# The copy is newer than the program: its lines may have moved.
	touch -d '1 minute' src/h_lines_moved.c
	atf_check -o save:ann -e empty "$PROF" -A -p -S src "$p"
	grep -q "^(.*src/h_lines_moved.c changed after .*h_lines_moved was built: its lines may have moved)\$" ann ||
	    atf_fail "-A: a newer source not said to be: $(head -3 ann)"
	touch -d '2000-01-01' src/h_lines_moved.c
	atf_check -o save:ann -e empty "$PROF" -A -p -S src "$p"
	grep -q "changed after" ann && atf_fail "-A: an older source said newer"
	atf_check -o save:ann -e match:"^prof: -S nosuch: No such file or directory\$" \
	    "$PROF" -A -p -S nosuch "$p"
	grep -q "source not found at .*h_lines_moved.c: .*, nor under nosuch;" ann ||
	    atf_fail "-A: where the source was looked for: $(grep 'not found' ann)"
	# Unasked, only files that took time; one with calls alone only
	# counted at the end.
	atf_check -o save:ann -e ignore "$PROF" -A "$p"
	awk '/: [0-9.]+ s, [0-9.]+% of the time; / && $4 == "0.0%" { bad = 1 }
	    END { exit bad }' ann || atf_fail "-A: a file of no time: $(grep 'of the time' ann)"
}

atf_test_case annotate_library_and_crlf
annotate_library_and_crlf_head()
{
	atf_set descr "-A lists a shared library's source named as an" \
	    "operand (solib.c of h_solib.so), not taken for a profile;" \
	    "an operand of a source's name that took nothing says so; a" \
	    "source with CRLF line ends lists its text whole, no '?'"
	atf_set timeout 60
}
annotate_library_and_crlf_body()
{
	setup_lines
	p=$srcdir/h_solib
	run "$p"
	atf_check -o save:ann -e ignore "$PROF" -A "$p" mon.out solib.c
	grep -q '^.*solib.c: [0-9.]* s, [0-9.]*% of the time;' ann ||
	    atf_fail "-A: solib.c not listed: $(head -3 ann)"
	grep -q 'lib_burn' ann || atf_fail "-A: solib.c's text not listed"
	atf_check -o inline:"\nnosuch.c: no samples and no calls in it\n" \
	    -e ignore "$PROF" -A "$p" mon.out nosuch.c
	p=$srcdir/h_lines_moved
	rm -f mon.out
	run "$p" 0.1
	mkdir src
	sed 's/$/\r/' "$SRC" >src/h_lines_moved.c
	atf_check -o save:ann -e empty "$PROF" -A -p -S src "$p"
	grep -q "^# .* $(lineof LOOP3)  .*/\* LOOP3 \*/\$" ann ||
	    atf_fail "-A: a CRLF line not listed whole: $(grep LOOP3 ann)"
	grep -q '?$' ann && atf_fail "-A: '?' at a line's end: $(grep '?$' ann | head -2)"
	return 0
}

atf_test_case pprof_list_and_lines
pprof_list_and_lines_head()
{
	atf_set descr "-F pprof holds each line's time and each call site's" \
	    "calls: go tool pprof -list main gives the loop lines prof" \
	    "-L's shares within 1.5 points, and -lines -peek the calls per" \
	    "call site"
	atf_set timeout 120
}
pprof_list_and_lines_body()
{
	setup_lines
	if ! command -v go >/dev/null 2>&1; then
		atf_skip "go is not installed (apt-get install golang-go)"
	fi
	HOME=$PWD
	export HOME
	run "$srcdir/h_lines" 0.5
	atf_check -o save:lines -e ignore "$PROF" -L -h "$srcdir/h_lines"
	"$PROF" -F pprof "$srcdir/h_lines" >p.pb.gz || atf_fail "-F pprof"
	# pprof cuts a source path after the name of the directory it runs
	# in (kyua's is "work"): run it in one of a name no path holds.
	mkdir pprof.cwd
	(cd pprof.cwd && go tool pprof -list '^main$' ../p.pb.gz) >list \
	    2>err || atf_fail "go tool pprof -list: $(cat err)"
	# "  66.18ms    66.18ms     52:	for (i = 0; ..."
	for t in LOOP1 LOOP2 LOOP3; do
		l=$(lineof $t)
		got=$(awk -v l="$l:" '$3 == l { v = $1; u = v
			sub(/[a-z]+$/, "", v); sub(/^[0-9.]+/, "", u)
			print (u == "s" ? v * 1000 : v) }' list)
		echo "$t: pprof ${got}ms, prof -L $(share $l)%"
		[ -n "$got" ] || atf_fail "-list: no time on line $l: $(cat list)"
	done
	# The shares agree: pprof's ms over its total against -L's %Time,
	# within 1.5 points: pprof's stacks hold each function's samples
	# as the report's row has them, from the histogram, where -L takes
	# the stacks' exact pcs (model/reconcile.c, export/stacks.c).
	tot=$(sed -n 's/.*Total: *\([0-9.]*\)\(m*s\).*/\1 \2/p' list | head -1)
	awk -v tot="$tot" -v l1="$(lineof LOOP1):" -v l3="$(lineof LOOP3):" '
	    BEGIN { split(tot, T, " "); t = T[1] * (T[2] == "s" ? 1000 : 1) }
	    $3 == l1 || $3 == l3 { v = $1; ms = v ~ /ms$/; sub(/[a-z]+$/, "", v)
		print $3, 100 * (ms ? v : v * 1000) / t }' list >pshare
	while read l p; do
		q=$(share ${l%:})
		awk -v p="$p" -v q="$q" 'BEGIN { d = p - q; exit !(d < 1.5 && d > -1.5) }' ||
		    atf_fail "line $l: pprof $p%, prof -L $q%"
	done <pshare
	go tool pprof -sample_index=calls -lines -peek '^callee' p.pb.gz \
	    >peek 2>err || atf_fail "go tool pprof -peek: $(cat err)"
	grep -q "^ *3000 .*| *main .*h_lines.c:$(lineof SITE1)\$" peek ||
	    atf_fail "-peek: not 3000 calls from line $(lineof SITE1): $(cat peek)"
	grep -q "^ *7000 .*| *main .*h_lines.c:$(lineof SITE2)\$" peek ||
	    atf_fail "-peek: not 7000 calls from line $(lineof SITE2): $(cat peek)"
}

atf_test_case callgrind_costs_at_lines
callgrind_costs_at_lines_head()
{
	atf_set descr "-F callgrind puts a function's self cost at its" \
	    "lines, as -L shares it, and each counted call at its call" \
	    "site's line; callgrind_annotate lists the loop lines' cost"
	atf_set timeout 60
}
callgrind_costs_at_lines_body()
{
	setup_lines
	run "$srcdir/h_lines" 0.2
	atf_check -o save:lines -e ignore "$PROF" -L -h "$srcdir/h_lines"
	"$PROF" -F callgrind "$srcdir/h_lines" >cg.out ||
	    atf_fail "-F callgrind failed"
	# Samples at each line in main's block, and calls= by line.
	awk '/^fn=/ { main = $0 ~ / main$/
		next }
	    /^cfn=/ || /^cob=/ || /^cfl=/ { next }
	    /^calls=/ { split($1, a, "="); getline
		if (main) print "calls", $1, a[2]; next }
	    /^[0-9]+ / && main { print "self", $1, $2 }' cg.out >cg
	for t in LOOP1 LOOP2 LOOP3; do
		l=$(lineof $t)
		n=$(awk -v l=$l '$1 == "self" && $2 == l { print $3 }' cg)
		[ -n "$n" ] || atf_fail "callgrind: no cost at line $l"
		echo "$t: $n samples, -L $(share $l)%"
	done
	atf_check_equal 3000 "$(awk -v l=$(lineof SITE1) \
	    '$1 == "calls" && $2 == l { s += $3 } END { print s + 0 }' cg)"
	atf_check_equal 7000 "$(awk -v l=$(lineof SITE2) \
	    '$1 == "calls" && $2 == l { s += $3 } END { print s + 0 }' cg)"
	if command -v callgrind_annotate >/dev/null 2>&1; then
		callgrind_annotate --auto=yes cg.out >ann 2>&1 ||
		    atf_fail "callgrind_annotate: $(cat ann)"
		grep -q "^ *[1-9][0-9,]* .*/\* LOOP3 \*/\$" ann ||
		    atf_fail "callgrind_annotate: no cost on LOOP3: $(cat ann)"
	else
		echo "callgrind_annotate not installed: its check skipped"
	fi
}

atf_test_case folded_leaves_at_lines
folded_leaves_at_lines_head()
{
	atf_set descr "-L -F folded ends each stack at a line of its" \
	    "innermost function, main:N for the loop lines, its counts" \
	    "adding up to -F folded's"
}
folded_leaves_at_lines_body()
{
	setup_lines
	run "$srcdir/h_lines" 0.2
	atf_check -o save:plain -e ignore "$PROF" -F folded "$srcdir/h_lines"
	atf_check -o save:bylines -e ignore "$PROF" -L -F folded \
	    "$srcdir/h_lines"
	for t in LOOP1 LOOP2 LOOP3; do
		grep -q ";main:$(lineof $t) [1-9][0-9]*\$" bylines ||
		    atf_fail "no stack ends at main:$(lineof $t): $(cat bylines)"
	done
	a=$(awk '{ s += $NF } END { print s }' plain)
	b=$(awk '{ s += $NF } END { print s }' bylines)
	atf_check_equal "$a" "$b"
	atf_check -s exit:1 -e match:"not with -F pprof" \
	    "$PROF" -L -F pprof "$srcdir/h_lines"
}

atf_test_case graph_call_sites
graph_call_sites_head()
{
	atf_set descr "-L -q prints under main's callee line for callee" \
	    "its two call sites, 3000 and 7000 calls, at their lines"
}
graph_call_sites_body()
{
	setup_lines
	run "$srcdir/h_lines" 0.05
	atf_check -o save:graph -e ignore "$PROF" -L -q "$srcdir/h_lines"
	awk '/^\[[0-9]+\] .* main \[[0-9]+\]$/ { on = 1; next }
	    /^---/ { on = 0 } on' graph >main
	for s in "3000 SITE1" "7000 SITE2"; do
		set -- $s
		grep -q "^ *$1 *at .*h_lines.c:$(lineof $2)\$" main ||
		    atf_fail "-L -q: no $1 calls at the $2 line: $(cat graph)"
	done
}

atf_test_case focus_keeps_lines_through_match
focus_keeps_lines_through_match_head()
{
	atf_set descr "-L -f callee keeps the two call sites' calls and none" \
	    "of the loops' time"
}
focus_keeps_lines_through_match_body()
{
	setup_lines
	run "$srcdir/h_lines" 0.05
	atf_check -o save:lines -e ignore "$PROF" -L -h -f '^callee$' \
	    "$srcdir/h_lines"
	atf_check_equal 3000 "$(calls $(lineof SITE1))"
	atf_check_equal 7000 "$(calls $(lineof SITE2))"
	grep -q "h_lines.c:$(lineof LOOP3) " lines &&
	    atf_fail "-f callee kept the LOOP3 line"
	return 0
}

atf_test_case inline_header_pprof
inline_header_pprof_head()
{
	atf_set descr "-F pprof puts code inlined from a header on the" \
	    "header's lines: go tool pprof -lines gives work's time at" \
	    "inline.h's hot line, none at inline.c's lines of the same" \
	    "numbers (a comment there), and -list shows each of work's" \
	    "files with all its time on lines"
	atf_set timeout 120
}
inline_header_pprof_body()
{
	setup_lines
	if ! command -v go >/dev/null 2>&1; then
		atf_skip "go is not installed (apt-get install golang-go)"
	fi
	HOME=$PWD
	export HOME
	run "$srcdir/h_inline" 0.5
	"$PROF" -F pprof "$srcdir/h_inline" >p.pb.gz || atf_fail "-F pprof"
	mkdir pprof.cwd
	(cd pprof.cwd && go tool pprof -lines -top ../p.pb.gz) >top \
	    2>err || atf_fail "go tool pprof -top: $(cat err)"
	# "  371.59ms 55.21% 55.21%  371.59ms 55.21%  work /x/inline.h:7"
	awk -v l="inline.h:$(hdrline HDR3)" '$6 == "work" &&
	    substr($7, length($7) - length(l) + 1) == l && $1 != "0" {
		ok = 1 } END { exit !ok }' top ||
	    atf_fail "-lines: no time at inline.h:$(hdrline HDR3): $(cat top)"
	for t in HDR1 HDR2 HDR3; do
		grep -q " work .*inline\.c:$(hdrline $t)\$" top &&
		    atf_fail "-lines: header time at inline.c:$(hdrline $t): $(cat top)"
	done
	(cd pprof.cwd && go tool pprof -list '^work$' ../p.pb.gz) >list \
	    2>err || atf_fail "go tool pprof -list: $(cat err)"
	grep -q "^ROUTINE .* work in .*inline\.h\$" list ||
	    atf_fail "-list: no work in inline.h: $(cat list)"
	# Each ROUTINE's flat time is the sum of its lines' (ns, us, ms, s).
	awk 'function ms(v,  u, k) { if (v == ".") return 0
		u = v; sub(/^[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
		k = 1
		if (u == "s") k = 1000
		if (u == "us") k = 0.001
		if (u == "ns") k = 0.000001
		return v * k }
	    function check(  d) { d = t - s; if (d < 0) d = -d
		if (r != "" && d > 0.5 + t / 100) {
			print r ": " t " ms, lines " s; bad = 1 } }
	    /^ROUTINE/ { check(); r = $0; s = 0; getline; t = ms($1); next }
	    $3 ~ /^[0-9]+:/ { s += ms($1) }
	    END { check(); exit bad }' list ||
	    atf_fail "-list: time on no line: $(cat list)"
}

atf_test_case inline_header_callgrind
inline_header_callgrind_head()
{
	atf_set descr "-F callgrind writes code inlined from a header under" \
	    "fi= records of the header: callgrind_annotate --auto=yes puts" \
	    "its cost on inline.h's hot line, none on inline.c's comment" \
	    "lines of those numbers"
	atf_set timeout 60
}
inline_header_callgrind_body()
{
	setup_lines
	run "$srcdir/h_inline" 0.3
	"$PROF" -F callgrind "$srcdir/h_inline" >cg.out ||
	    atf_fail "-F callgrind failed"
	annotate_cg
	grep -q "^ *[1-9][0-9,]* .*/\* HDR3 \*/\$" ann ||
	    atf_fail "callgrind_annotate: no cost on inline.h's HDR3: $(cat ann)"
	for t in HDR1 HDR2 HDR3; do
		text=$(sed -n "$(hdrline $t)p" "$srcdir/inline.c")
		awk -v t="$text" 'index($0, t) > 0 && $1 != "." { bad = 1 }
		    END { exit bad }' ann ||
		    atf_fail "callgrind_annotate: cost on inline.c:$(hdrline $t): $(cat ann)"
	done
}

atf_test_case inline_header_folded
inline_header_folded_head()
{
	atf_set descr "-L -F folded names the file of a line inlined from a" \
	    "header, work:DIR/inline.h:N, and writes no work:N for the" \
	    "header's lines, which are comment in inline.c"
}
inline_header_folded_body()
{
	setup_lines
	run "$srcdir/h_inline" 0.3
	atf_check -o save:plain -e ignore "$PROF" -F folded "$srcdir/h_inline"
	atf_check -o save:bylines -e ignore "$PROF" -L -F folded \
	    "$srcdir/h_inline"
	grep -q ";work:[^;]*inline\.h:$(hdrline HDR3) [1-9][0-9]*\$" bylines ||
	    atf_fail "no stack ends at work:inline.h:$(hdrline HDR3): $(cat bylines)"
	for t in HDR1 HDR2 HDR3; do
		grep -q ";work:$(hdrline $t) " bylines &&
		    atf_fail "header time as work:$(hdrline $t): $(cat bylines)"
	done
	a=$(awk '{ s += $NF } END { print s }' plain)
	b=$(awk '{ s += $NF } END { print s }' bylines)
	atf_check_equal "$a" "$b"
}

atf_test_case callgrind_call_site_cost
callgrind_call_site_cost_head()
{
	atf_set descr "-F callgrind gives each call site of work the time" \
	    "of the calls made there, from the stacks: one costly call and" \
	    "20000 cheap ones, their shares within 3 points of the thread" \
	    "CPU clock's as callgrind_annotate reads them (not by calls)"
	atf_set timeout 60
}
callgrind_call_site_cost_body()
{
	setup_lines
	run "$srcdir/h_inline"
	"$PROF" -F callgrind "$srcdir/h_inline" >cg.out ||
	    atf_fail "-F callgrind failed"
	annotate_cg
	# The "=> inline.c:work (Nx)" line under each call site's line.
	for t in BIGCALL SMALLCALLS; do
		awk -v t="/* $t */" 'found && /=> .*:work \(/ {
			gsub(",", "", $1); print $1; exit }
		    index($0, t) > 0 { found = 1 }' ann >"$t"
		[ -s "$t" ] || atf_fail "callgrind_annotate: no call of work under $t: $(cat ann)"
	done
	set -- $(cat BIGCALL) $(cat SMALLCALLS) \
	    $(awk '$1 == "big" || $1 == "small" { print $2 }' truth)
	echo "callgrind: big $1, small $2 samples; clock: big $3, small $4 s"
	awk -v a="$1" -v b="$2" -v x="$3" -v y="$4" 'BEGIN {
		if (a + b <= 0 || x + y <= 0) exit 1
		d = 100 * a / (a + b) - 100 * x / (x + y)
		printf "big call: callgrind %.1f%%, clock %.1f%%\n",
		    100 * a / (a + b), 100 * x / (x + y)
		exit !(d < 3 && d > -3) }' ||
	    atf_fail "the call sites' costs are more than 3 points off the clock's"
}

atf_init_test_cases()
{
	atf_add_test_case loop_shares_match_thread_cpu
	atf_add_test_case calls_exact_per_call_site
	atf_add_test_case lines_agree_with_addr2line
	atf_add_test_case call_site_is_the_calling_line
	atf_add_test_case no_debug_info_says_how
	atf_add_test_case bad_input_one_line
	atf_add_test_case annotate_marks_hot_lines
	atf_add_test_case annotate_source_not_found
	atf_add_test_case annotate_library_and_crlf
	atf_add_test_case pprof_list_and_lines
	atf_add_test_case callgrind_costs_at_lines
	atf_add_test_case folded_leaves_at_lines
	atf_add_test_case graph_call_sites
	atf_add_test_case focus_keeps_lines_through_match
	atf_add_test_case inline_header_pprof
	atf_add_test_case inline_header_callgrind
	atf_add_test_case inline_header_folded
	atf_add_test_case callgrind_call_site_cost
}

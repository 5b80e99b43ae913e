#! /usr/bin/env atf-sh
#
# export_test.sh -- prof -F: every format read back by t_expcheck, the
# checker of each format's own rules, and its totals held to the
# report's; gprof itself reads the gmon.out files.
#
# Most cases export a forged profile over t_graph (the call graph's
# fixture: functions in known 64-byte slots), so that the output is
# known to the byte; the e2e_ cases export real runs of h_burn and
# h_solib.

# --- helpers -----------------------------------------------------------

setup_export()
{
	srcdir=$(atf_get_srcdir)
	PROF=$srcdir/../../prof/prof
	MKMON=$srcdir/t_mkmon
	CHECK=$srcdir/t_expcheck
	GRAPH=$srcdir/t_graph
	unset PROFDIR PROFHZ PROFCLOCK
	LC_ALL=C
	export LC_ALL
	for f in "$PROF" "$MKMON" "$CHECK" "$GRAPH"; do
		[ -x "$f" ] || atf_fail "not built: $f"
	done
	GBASE=$(nm "$GRAPH" | awk '$3 == "driver" { print "0x" $1 }')
	[ -n "$GBASE" ] || atf_fail "no driver in $GRAPH"
	GID=$(readelf -n "$GRAPH" | awk '/Build ID:/ { print $3 }')
	[ -n "$GID" ] || atf_fail "no build-id in $GRAPH"
	. "$srcdir/graph.sh"
}

# forge file [period]: graph.sh's case over t_graph, with its build-id
# and period ns a sample (10 ms by default), the RUN record's fields in
# RUNMORE besides: work_counts, then stdin's lines.
forge()
{
	{
		cat <<EOF
lpc $(gs 0)
hpc $(gs 10)
hist 10
run clock=0 period=${2:-10000000} in=110 arcs=1 stack_limit=64 $RUNMORE
exec 0 $(gs 0) $(gs 10) $GID $GRAPH
EOF
		work_counts
		cat
	} | "$MKMON" "$1" || atf_fail "t_mkmon failed"
}

# export_all prog: prof -F of each stack format into out.FORMAT, the
# pprof file gunzipped (out.pprof.gz kept), each read by t_expcheck into
# check.FORMAT.
export_all()
{
	for f in folded svg pprof callgrind; do
		"$PROF" -F $f "$1" >out.$f 2>err ||
		    atf_fail "prof -F $f failed: $(cat err)"
		if [ $f = pprof ]; then
			mv out.pprof out.pprof.gz
			gzip -dc out.pprof.gz >out.pprof || atf_fail "not gzip"
		fi
		"$CHECK" $f out.$f >check.$f 2>err ||
		    atf_fail "$f: $(cat err)"
	done
}

# need_go: skip, with a line, where go tool pprof is not installed.
need_go()
{
	command -v go >/dev/null 2>&1 ||
	    atf_skip "go is not installed (golang-go): no go tool pprof"
}

# The samples of the stacks, as prof -q's heading gives them.
q_samples()
{
	"$PROF" -q "$@" | sed -n 's/^time: measured from sampled call stacks, \([0-9]*\) samples.*/\1/p'
}

# --- folded --------------------------------------------------------------

atf_test_case folded_stacks_root_first
folded_stacks_root_first_head()
{
	atf_set descr "-F folded writes one line per distinct stack, root" \
	    "first, frames joined by ';' and a whole count, which add up" \
	    "to the samples -q measures"
}
folded_stacks_root_first_body()
{
	setup_export
	work_stacks | forge mon.out
	cat >expout <<EOF
driver;cheap_caller 5
driver;cheap_caller;work 10
driver;costly_caller 5
driver;costly_caller;work 90
EOF
	atf_check -o file:expout "$PROF" -F folded "$GRAPH"
	"$PROF" -F folded "$GRAPH" >out
	atf_check -o inline:"stacks 4 samples $(q_samples "$GRAPH")\n" \
	    "$CHECK" folded out
}

atf_test_case exports_put_kernel_frames_under_callers
exports_put_kernel_frames_under_callers_head()
{
	atf_set descr "A perf file that sampled kernel mode: every stack" \
	    "export has the kernel's samples as a frame under the stack" \
	    "that entered it, the ones with no stack as a root frame of" \
	    "their own, and holds the report's 155 samples; callgrind" \
	    "calls the kernel's frame from costly_caller and work"
}
exports_put_kernel_frames_under_callers_body()
{
	setup_export
	# 45 samples in the kernel: 30 under costly_caller, 10 under work
	# called by cheap_caller, 5 that kept no stack.
	{
		work_stacks
		echo "stack 30 2 $(gs 2 8) $(gs 0 32)"
		echo "stack 10 2 $(gs 3 8) $(gs 1 16) $(gs 0 16)"
	} | RUNMORE="clock=1 kernel=45 flags=1 user=100 sys=900" forge mon.out
	cat >expout <<EOF
[kernel: system calls and faults] 5
driver;cheap_caller 5
driver;cheap_caller;work 10
driver;cheap_caller;work;[kernel: system calls and faults] 10
driver;costly_caller 5
driver;costly_caller;[kernel: system calls and faults] 30
driver;costly_caller;work 90
EOF
	atf_check -o file:expout "$PROF" -F folded "$GRAPH"
	atf_check -o match:'^  29\.0    0\.45 .*\[kernel: system calls and faults\]$' \
	    "$PROF" "$GRAPH"
	export_all "$GRAPH"
	atf_check -o match:'^stacks 7 samples 155$' cat check.folded
	atf_check -o match:'^frames [0-9]+ samples 155$' cat check.svg
	atf_check -o match:'^samples 155 ns' cat check.pprof
	atf_check -o match:'^totals 155 ' cat check.callgrind
	# The kernel's frame, named once, is called from both callers.
	k=$(sed -n 's/^c\{0,1\}fn=(\([0-9]*\)) \[kernel: .*/\1/p' out.callgrind)
	[ -n "$k" ] || atf_fail "no kernel frame in the callgrind file"
	atf_check -o inline:"2\n" grep -c "^cfn=($k)" out.callgrind
}

atf_test_case folded_marks_cut_stacks
folded_marks_cut_stacks_head()
{
	atf_set descr "A stack cut at the stack limit starts with a frame" \
	    "that says so, not with its outermost kept frame as if that" \
	    "were a root"
}
folded_marks_cut_stacks_body()
{
	setup_export
	# 7 of work's 10 samples under cheap_caller lost their outer frames.
	{ work_stacks | sed '1s/^stack 10 /stack 3 /'
	    echo "stack 7 1 $(gs 3 8) $(gs 1 16)"; } | forge mon.out
	atf_check -o inline:"[cut at the stack limit];cheap_caller;work 7\n" \
	    -x "\"$PROF\" -F folded \"$GRAPH\" | grep -v '^driver;'"
	"$PROF" -F svg "$GRAPH" >out.svg || atf_fail "prof -F svg failed"
	grep -q '\[cut at the stack limit\]' out.svg ||
	    atf_fail "no cut frame in the flame graph"
}

atf_test_case folded_ends_stacks_at_no_address
folded_ends_stacks_at_no_address_head()
{
	atf_set descr "A caller that is no user address (a frame pointer" \
	    "walk read data through a register that held something else," \
	    "as in the vDSO's clock_gettime) ends its stack there: the" \
	    "stack ends short, no row is made of the words beyond it"
}
folded_ends_stacks_at_no_address_body()
{
	setup_export
	# 7 of work's 10 samples under cheap_caller: their walk went wrong
	# after cheap_caller, on a word of text and one of nothing.
	{ work_stacks | sed '1s/^stack 10 /stack 3 /'
	    echo "stack 5 0 $(gs 3 8) $(gs 1 16) 0x756f206e660a746f $(gs 0 16)"
	    echo "stack 2 0 $(gs 3 8) $(gs 1 16) 0x10 $(gs 0 16)"; } |
	    forge mon.out
	atf_check -o inline:"[stack ends short: callers unknown];cheap_caller;work 7\n" \
	    -x "\"$PROF\" -F folded \"$GRAPH\" | grep -v '^driver;'"
	"$PROF" -q "$GRAPH" >graph || atf_fail "prof -q failed"
	atf_check -s exit:1 -o empty grep -i 'unknown\]+0x' graph
}

atf_test_case export_keeps_statistics
export_keeps_statistics_head()
{
	atf_set descr "-s with -F still prints the statistics on stderr," \
	    "and the export alone goes to stdout"
}
export_keeps_statistics_body()
{
	setup_export
	work_stacks | forge mon.out
	"$PROF" -F folded "$GRAPH" >expout
	atf_check -o file:expout -e match:'call counts used' \
	    -e match:'^clock: ' "$PROF" -s -F folded "$GRAPH"
}

atf_test_case folded_merges_stacks_by_function
folded_merges_stacks_by_function_head()
{
	atf_set descr "Stacks that differ only in the address inside a" \
	    "function are one line; library frames are marked with their" \
	    "object, as report rows are"
}
folded_merges_stacks_by_function_body()
{
	setup_export
	{
		work_stacks | sed 's/^stack 90 /stack 83 /'
		echo "stack 7 0 $(gs 3 12) $(gs 2 20) $(gs 0 32)"
		echo "obj 0x7f0000000000 0x7f0000001000 0x7f0000002000 - /nonexistent/libx.so"
		echo "stack 3 0 0x7f0000001010 $(gs 7 16) $(gs 0 48)"
		echo "pcs 0x7f0000001010 3"
	} | forge mon.out
	cat >expout <<EOF
driver;cheap_caller 5
driver;cheap_caller;work 10
driver;costly_caller 5
driver;costly_caller;work 90
driver;sorter;[unnamed code] (/nonexistent/libx.so) 3
EOF
	atf_check -o file:expout -e ignore "$PROF" -F folded "$GRAPH"
}

atf_test_case folded_without_stacks_a_frame_a_function
folded_without_stacks_a_frame_a_function_head()
{
	atf_set descr "Without stacks in the files, -F folded says so in one" \
	    "warning and writes a frame a function, its self time"
}
folded_without_stacks_a_frame_a_function_body()
{
	setup_export
	forge mon.out </dev/null
	cat >expout <<EOF
cheap_caller 5
costly_caller 5
work 100
EOF
	atf_check -o file:expout -e match:'^prof: mon.out: no call stacks in the files .*folded has a frame a function, self time only$' \
	    "$PROF" -F folded "$GRAPH"
}

atf_test_case folded_whole_counts_at_merged_rates
folded_whole_counts_at_merged_rates_head()
{
	atf_set descr "Files sampled at different rates weigh their samples" \
	    "by their period; folded counts are whole and add up to the" \
	    "weighted total, rounded, with no stack off by more than one"
}
folded_whole_counts_at_merged_rates_body()
{
	setup_export
	work_stacks | forge a.out
	# 15 ms a sample: each of the 3 stacks weighs 1.5.  Its 110
	# samples of work and its callers kept no stack.
	{
		echo "bin 4 1"
		echo "bin 5 1"
		echo "bin 6 1"
		echo "stack 1 0 $(gs 4 8) $(gs 0 48)"
		echo "stack 1 0 $(gs 5 8) $(gs 0 48)"
		echo "stack 1 0 $(gs 6 8) $(gs 0 48)"
	} | forge b.out 15000000
	"$PROF" -F folded "$GRAPH" a.out b.out >out 2>err ||
	    atf_fail "prof failed: $(cat err)"
	# 110 samples of the first file, 113 x 1.5 of the second: 279.5.
	atf_check -o inline:"stacks 10 samples 280\n" "$CHECK" folded out
	atf_check -o match:'^driver;costly_caller;work 90$' \
	    -o match:'^\[no stack\];work 150$' cat out
	awk '$1 ~ /^driver;(ping|pong|leaf)$/ && ($2 < 1 || $2 > 2) {
	    print; bad = 1 } END { exit bad }' out ||
	    atf_fail "a count off by more than one: $(cat out)"
}

# --- pprof ---------------------------------------------------------------

atf_test_case pprof_fields_and_exact_calls
pprof_fields_and_exact_calls_head()
{
	atf_set descr "-F pprof writes a well-formed profile.proto with" \
	    "samples/count and cpu/nanoseconds, the period, every location's" \
	    "function and mapping, and the exact calls of each counted arc" \
	    "as calls/count samples"
}
pprof_fields_and_exact_calls_body()
{
	setup_export
	work_stacks | forge mon.out
	"$PROF" -F pprof "$GRAPH" >out.gz || atf_fail "prof failed"
	gzip -dc out.gz >out || atf_fail "not gzip"
	cat >expout <<EOF
types samples/count cpu/nanoseconds calls/count
default cpu
period 10000000
calls cheap_caller 1
calls costly_caller 1
calls work 900
calls work 100
samples 110 ns 1100000000 calls 1002
EOF
	atf_check -o file:expout "$CHECK" pprof out
	# The mapping holds the program's path and its build-id, in hex.
	grep -q "$GID" out || atf_fail "no build-id $GID in the profile"
	grep -q "$GRAPH" out || atf_fail "no program path in the profile"
}

# --- callgrind -----------------------------------------------------------

atf_test_case callgrind_costs_and_calls
callgrind_costs_and_calls_head()
{
	atf_set descr "-F callgrind writes the callgrind format: self costs" \
	    "that add up to the totals line, and calls= lines with the" \
	    "exact calls and the measured inclusive cost of each arc"
}
callgrind_costs_and_calls_body()
{
	setup_export
	work_stacks | forge mon.out
	"$PROF" -F callgrind "$GRAPH" >out || atf_fail "prof failed"
	atf_check -o inline:"totals 110 1100000000 1002 self 110 1100000000 calls 1002 counted 1002\n" \
	    "$CHECK" callgrind out
	# costly_caller's 100 calls of work hold 90 samples; cheap's 900, 10.
	atf_check -o inline:"calls=900 0\n0 10 100000000 900\ncalls=100 0\n0 90 900000000 100\n" \
	    awk '/^calls=/ && ($1 == "calls=900" || $1 == "calls=100") {
		print; getline; print }' out
	atf_check -o match:'^c?fn=\([0-9]+\) work$' cat out
}

atf_test_case callgrind_uncounted_call_is_one
callgrind_uncounted_call_is_one_head()
{
	atf_set descr "-F callgrind writes calls=1, the least it can be, for" \
	    "a call the stacks show but no arc counted, and Counted 0:" \
	    "callgrind_annotate takes the cost after a calls=0 line for" \
	    "the caller's own"
}
callgrind_uncounted_call_is_one_body()
{
	setup_export
	# driver calls work directly 3 samples' worth; no arc counted it.
	{ stacks; echo "stack 3 0 $(gs 3 8) $(gs 0 48)"; } | forge mon.out
	"$PROF" -F callgrind "$GRAPH" >out || atf_fail "prof failed"
	atf_check -o inline:"calls=1 0\n0 3 30000000 0\n" \
	    awk '/^fn=/ { f = $0 } /^cfn=/ { c = $0 }
		/^calls=/ && f ~ / driver$/ && c ~ / work$/ { print; getline; print }' out
	atf_check -o not-match:'^calls=0 ' cat out
}

# --- gmon ----------------------------------------------------------------

# gprof_calls prog gmon: "name calls" of gprof's flat profile.
gprof_calls()
{
	gprof -b -p "$1" "$2" | awk 'NF == 7 && $4 ~ /^[0-9]+$/ {
	    print $7, $4 }' | sort
}

# prof_calls prog [mdata]: "name calls" of prof's report.
prof_calls()
{
	"$PROF" -h "$@" | awk 'NF >= 6 && $4 ~ /^[0-9]+$/ { print $NF, $4 }' |
	    sort
}

atf_test_case gmon_layout_and_gprof_agrees
gmon_layout_and_gprof_agrees_head()
{
	atf_set descr "-F gmon writes gmon.out, named on stdout: a histogram" \
	    "and the arcs, which GNU gprof reads with the same seconds and" \
	    "call counts as prof's report"
}
gmon_layout_and_gprof_agrees_body()
{
	setup_export
	work_stacks | forge mon.out
	atf_check -o inline:"gmon.out\n" "$PROF" -F gmon "$GRAPH"
	atf_check -o inline:"hists 1 rate 100 samples 110 arcs 4 calls 1002\n" \
	    "$CHECK" gmon gmon.out
	prof_calls "$GRAPH" >expout
	gprof_calls "$GRAPH" gmon.out >out
	atf_check -o file:expout cat out
	atf_check -o match:'^ *90\.91 +1\.00 +1\.00 +1000 .* work$' \
	    gprof -b -p "$GRAPH" gmon.out
}

atf_test_case gmon_classic_calls_said_left_out
gmon_classic_calls_said_left_out_head()
{
	atf_set descr "A classic mon.out counts calls without their callers;" \
	    "gmon.out holds calls only as arcs, so -F gmon says in a" \
	    "warning how many calls it left out rather than lose them silently"
}
gmon_classic_calls_said_left_out_body()
{
	setup_export
	cat <<EOF | "$MKMON" mon.out || atf_fail "t_mkmon failed"
lpc $(gs 0)
hpc $(gs 10)
hist 10
bin 3 100
cell $(gs 1 5) 1
cell $(gs 3 5) 1000
EOF
	atf_check -o inline:"gmon.out\n" \
	    -e inline:"prof: gmon.out: 1001 calls counted without their callers left out: gprof reads calls only as arcs\n" \
	    "$PROF" -F gmon "$GRAPH"
}

atf_test_case gmon_bins_split_at_16_bits
gmon_bins_split_at_16_bits_head()
{
	atf_set descr "A bin of more than 65535 samples is written as two" \
	    "histogram records of the same range, which gprof adds up:" \
	    "nothing is cut"
}
gmon_bins_split_at_16_bits_body()
{
	setup_export
	for f in a b; do
		echo "bin 3 40000" | forge $f.out
	done
	atf_check -o inline:"gmon.out\n" "$PROF" -F gmon "$GRAPH" a.out b.out
	atf_check -o inline:"hists 2 rate 100 samples 80020 arcs 4 calls 2004\n" \
	    "$CHECK" gmon gmon.out
	atf_check -o match:'^ *99\.98 +800\.00 +800\.00 +2000 .* work$' \
	    gprof -b -p "$GRAPH" gmon.out
}

atf_test_case gmon_arcs_split_at_32_bits
gmon_arcs_split_at_32_bits_head()
{
	atf_set descr "An arc of more than 2^32 - 1 calls is written as" \
	    "several arcs, which gprof adds up: the calls are exact"
}
gmon_arcs_split_at_32_bits_body()
{
	setup_export
	printf 'arc %s %s 10000000000\ncell %s 10000000000\n' \
	    $(gs 3 16) $(gs 6 5) $(gs 6 5) | forge mon.out
	atf_check -o ignore "$PROF" -F gmon "$GRAPH"
	atf_check -o inline:"hists 1 rate 100 samples 110 arcs 7 calls 10000001002\n" \
	    "$CHECK" gmon gmon.out
	atf_check -o match:' 10000000000 .* leaf$' gprof -b -p "$GRAPH" gmon.out
}

atf_test_case gmon_count_too_large_refused
gmon_count_too_large_refused_head()
{
	atf_set descr "An arc of more calls than 1024 arc records hold is" \
	    "refused in one line naming the profile, and no gmon.out is" \
	    "left: nothing is cut"
}
gmon_count_too_large_refused_body()
{
	setup_export
	printf 'arc %s %s 0x7000000000000000\ncell %s 0x7000000000000000\n' \
	    $(gs 3 16) $(gs 6 5) $(gs 6 5) | forge mon.out
	atf_check -s exit:1 -o empty -e inline:"prof: mon.out: an arc of more calls than gmon.out holds in 1024 records\n" \
	    "$PROF" -F gmon "$GRAPH"
	[ ! -e gmon.out ] || atf_fail "a gmon.out was left"
}

atf_test_case gmon_refusal_leaves_no_file
gmon_refusal_leaves_no_file_head()
{
	atf_set descr "When one object's file is refused, the files of the" \
	    "objects before it are removed too and none is named on" \
	    "stdout: -F gmon writes all its files or none"
}
gmon_refusal_leaves_no_file_body()
{
	setup_export
	{ echo "obj 0x7f0000000000 0x7f0000001000 0x7f0000002000 - /nonexistent/libx.so"
	    echo "pcs 0x7f0000001100 0x7000000000000000"; } | forge mon.out
	atf_check -s exit:1 -o empty \
	    -e match:'^prof: mon.out: a bin of more samples than .* holds in 1024 records$' \
	    "$PROF" -F gmon "$GRAPH"
	for f in gmon*; do [ ! -e "$f" ] || atf_fail "$f was left"; done
}

# --- svg -----------------------------------------------------------------

atf_test_case svg_frames_proportional
svg_frames_proportional_head()
{
	atf_set descr "-F svg writes well-formed XML in which every frame is" \
	    "as wide as its samples, the root as wide as all the stacks';" \
	    "the title names the program, rate and clock; a tooltip gives" \
	    "seconds, share and the exact calls from the caller"
}
svg_frames_proportional_body()
{
	setup_export
	work_stacks | forge mon.out
	"$PROF" -F svg "$GRAPH" >out.svg || atf_fail "prof failed"
	atf_check -o inline:"frames 6 samples 110\n" "$CHECK" svg out.svg
	atf_check -o match:'t_graph: 1\.10 s of CPU; clock setitimer ITIMER_PROF, 100 Hz asked; 1 file<' \
	    cat out.svg
	atf_check -o match:'<desc>work&#10;0\.900 s, 81\.82%, 90 samples&#10;1000 calls in all, 100 from costly_caller</desc>' \
	    cat out.svg
	if grep -q 'http://[^w]\|https:\|xlink:href\|@import' out.svg; then
		atf_fail "the SVG refers to something outside itself"
	fi
}

atf_test_case svg_colours_by_object
svg_colours_by_object_head()
{
	atf_set descr "A library's frames take a hue of their own, away from" \
	    "the program's warm ones, and the legend names each object drawn"
}
svg_colours_by_object_body()
{
	setup_export
	{
		work_stacks
		echo "obj 0x7f0000000000 0x7f0000001000 0x7f0000002000 - /nonexistent/libx.so"
		echo "stack 30 0 0x7f0000001010 $(gs 7 16) $(gs 0 48)"
		echo "pcs 0x7f0000001010 30"
	} | forge mon.out
	"$PROF" -F svg "$GRAPH" >out.svg 2>/dev/null || atf_fail "prof failed"
	atf_check -o ignore "$CHECK" svg out.svg
	# Program frames: hues 0 to 44; the first library's: 200 to 220.
	awk -F'fill="hsl\\(' '/<g class="f"><desc>/ {
		split($2, h, ",")
		lib = index($0, "(/nonexistent/libx.so)&#10;") > 0
		if (lib && (h[1] < 200 || h[1] > 220) ||
		    !lib && index($0, "<desc>all&#10;") == 0 && h[1] > 44) {
			print "hue " h[1] ": " $0; bad = 1
		}
	    } END { exit bad }' out.svg || atf_fail "a frame of the wrong hue"
	atf_check -o match:'>libx\.so</text>' -o match:">$GRAPH</text>" \
	    cat out.svg
}

atf_test_case svg_names_elided_to_fit
svg_names_elided_to_fit_head()
{
	atf_set descr "A name longer than its box is cut and ends in '..';" \
	    "a box too narrow for three characters has no text"
}
svg_names_elided_to_fit_body()
{
	setup_export
	{
		work_stacks
		echo "stack 4 0 $(gs 8 8) $(gs 7 16) $(gs 0 48)"
		echo "stack 1 0 $(gs 6 8) $(gs 3 16) $(gs 1 16) $(gs 0 16)"
		echo "bin 8 4"
		echo "bin 6 1"
	} | forge mon.out
	"$PROF" -F svg "$GRAPH" >out.svg || atf_fail "prof failed"
	atf_check -o ignore "$CHECK" svg out.svg
	# 4 of 115 samples: 41 pixels, room for 4 characters.
	atf_check -o match:'>so\.\.</text>' -o match:'>co\.\.</text>' \
	    cat out.svg
	# 1 sample: 10 pixels, no text.
	atf_check -o not-match:'>leaf</text>' -o not-match:'>l\.\.</text>' \
	    cat out.svg
	atf_check -o match:'<desc>leaf&#10;' cat out.svg
}

# --- errors --------------------------------------------------------------

atf_test_case export_errors_one_line
export_errors_one_line_head()
{
	atf_set descr "An unknown format, a flame graph of no samples and a" \
	    "gmon.out that cannot be written each end prof with one line" \
	    "naming the file or option and the reason, status 1"
}
export_errors_one_line_body()
{
	setup_export
	atf_check -s exit:1 -o empty \
	    -e inline:"prof: -F nosuch: no such format (folded, svg, pprof, callgrind, gmon)\n" \
	    "$PROF" -F nosuch "$GRAPH" missing.out
	printf 'lpc %s\nhpc %s\nhist 10\ncell %s 1\n' $(gs 0) $(gs 10) \
	    $(gs 3 5) | "$MKMON" empty.out
	atf_check -s exit:1 -o empty \
	    -e inline:"prof: empty.out: no samples in the files: no flame graph to draw\n" \
	    "$PROF" -F svg "$GRAPH" empty.out
	work_stacks | forge mon.out
	mkdir gmon.out
	atf_check -s exit:1 -o empty -e inline:"prof: gmon.out: Is a directory\n" \
	    "$PROF" -F gmon "$GRAPH"
}

# --- end to end ----------------------------------------------------------

atf_test_case e2e_formats_agree_on_a_run
e2e_formats_agree_on_a_run_head()
{
	atf_set descr "A real run of h_burn exported in every format: each" \
	    "passes its checker and they count the same samples, at least" \
	    "-q's, and the same calls of burn50 as the report"
}
e2e_formats_agree_on_a_run_body()
{
	setup_export
	prog=$srcdir/h_burn
	atf_check "$prog" 300000 100
	n=$(q_samples "$prog")
	[ "${n:-0}" -gt 50 ] || atf_fail "too few samples in stacks: $n"
	export_all "$prog"
	# Every format holds the report's samples, libmon's apart: the
	# stacks' and what no stack holds (the kernel's, the unsampled).
	t=$(sed -n 's/^stacks [0-9]* samples \([0-9]*\)$/\1/p' check.folded)
	[ "${t:-0}" -ge "$n" ] || atf_fail "folded holds ${t:-no} samples, the stacks $n"
	atf_check -o match:"^frames [0-9]+ samples $t\$" cat check.svg
	atf_check -o match:"^samples $t ns" cat check.pprof
	atf_check -o match:"^totals $t " cat check.callgrind
	atf_check -o match:'^calls burn50 500$' cat check.pprof
}

atf_test_case e2e_gprof_reads_exported_gmon
e2e_gprof_reads_exported_gmon_head()
{
	atf_set descr "gprof reads the gmon.out of a real run of h_burn: its" \
	    "flat profile has the call counts of prof's report, and its" \
	    "seconds within 0.02 of prof's"
}
e2e_gprof_reads_exported_gmon_body()
{
	setup_export
	prog=$srcdir/h_burn
	atf_check "$prog" 300000 100
	atf_check -o match:'^gmon.out$' -e ignore "$PROF" -F gmon "$prog"
	atf_check -o ignore "$CHECK" gmon gmon.out
	for f in burn50 burn30 burn20; do
		p=$("$PROF" -h "$prog" | awk -v f=$f '$NF == f { print $2, $4 }')
		g=$(gprof -b -p "$prog" gmon.out |
		    awk -v f=$f '$NF == f { print $3, $4 }')
		echo "$p $g" | awk '{ d = $1 - $3; if (d < 0) d = -d;
		    exit !($2 == $4 && d <= 0.02) }' ||
		    atf_fail "$f: prof says $p, gprof $g"
	done
}

atf_test_case e2e_library_gmon_file
e2e_library_gmon_file_head()
{
	atf_set descr "A run with time in a shared library gets a second" \
	    "file, gmon.LIB.out, which gprof reads against the library;" \
	    "calls from the program into it are counted in a warning"
}
e2e_library_gmon_file_body()
{
	setup_export
	prog=$srcdir/h_solib
	atf_check -o ignore "$prog"
	# The program's file and the library's; another object that took a
	# sample (the C library, now and then) gets one too.
	atf_check -o save:files \
	    -e match:'^prof: gmon.h_solib.so.out: 300 calls from other objects left out: gprof could not name their callers$' \
	    "$PROF" -F gmon "$prog"
	atf_check -o inline:"gmon.out\ngmon.h_solib.so.out\n" \
	    grep -x -e gmon.out -e gmon.h_solib.so.out files
	atf_check -o ignore "$CHECK" gmon gmon.h_solib.so.out
	atf_check -o match:' lib_burn$' gprof -b -p "$srcdir/h_solib.so" \
	    gmon.h_solib.so.out
}

# --- the report's totals in every view ------------------------------------

# report_rows: "share<TAB>name" for each row of the flat report on stdin
# (the name from column 45, after classic's 8-column #Calls).
report_rows()
{
	awk 'NR > 1 && /^ *[0-9]/ { printf "%s\t%s\n", $1, substr($0, 45) }
	    /^$/ { exit }'
}

# folded_leaves: "share<TAB>name" of each innermost frame of the folded
# stacks on stdin, and "total<TAB>samples".
folded_leaves()
{
	awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";")
		leaf[f[k]] += n; t += n }
	    END { for (l in leaf) printf "%.4f\t%s\n", 100 * leaf[l] / t, l
		printf "total\t%d\n", t }'
}

# pprof_leaves: the same of `go tool pprof -top`'s flat% on stdin.
pprof_leaves()
{
	awk '/^ *flat  *flat%/ { on = 1; next }
	    on { pct = $2; sub(/%$/, "", pct)
		sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+  /, "")
		printf "%s\t%s\n", pct, $0 }'
}

# same_shares what report leaves: every row's share of the report within
# 0.1 point of the export's (plus 0.05 for %Time's one decimal), and no
# export frame of more than that share which the report has no row for
# but [unknown], what the report gives no function.
same_shares()
{
	awk -F'\t' -v what="$1" 'FNR == 1 { f++ }
	    f == 1 { rep[$2] = $1; next }
	    $1 != "total" { got[$2] = $1 }
	    END {
		for (n in rep) {
			d = rep[n] - got[n]; if (d < 0) d = -d
			if (d > 0.15) {
				printf "%s: %s %.2f%%, report %s%%\n", what,
				    n, got[n], rep[n]; bad = 1
			}
		}
		for (n in got)
			if (!(n in rep) && n != "[unknown]" && got[n] > 0.15) {
				printf "%s: %s %.2f%%, no row\n", what, n,
				    got[n]; bad = 1
			}
		exit bad
	    }' "$2" "$3" >verdict || atf_fail "$(tr '\n' ' ' <verdict)"
}

# totals_check clock: h_sysburn run with clock, exported in every stack
# format and held to its report and to the truth it printed.
totals_check()
{
	rm -f mon.out
	PROFCLOCK=$1 "$prog" >truth || atf_fail "h_sysburn failed"
	"$PROF" -s "$prog" >report 2>stats ||
	    atf_fail "prof failed: $(cat stats)"
	grep -q "^clock: $2" stats || { echo "$1 clock not used here"; return; }
	ran=$((ran + 1))
	report_rows <report >rep.rows
	# What %Time is a share of: every sample but libmon's.
	want=$(awk '/^seconds: / { t = $2 } /^overhead: / { o = $2 }
	    END { printf "%.3f", t - o }' stats)
	period=$(sed -n 's/^seconds: .*, \([0-9.]*\) a sample$/\1/p' stats)
	export_all "$prog"
	folded_leaves <out.folded >folded.rows
	same_shares "$1: folded" rep.rows folded.rows
	t=$(awk -F'\t' '$1 == "total" { print $2 }' folded.rows)
	awk -v t="$t" -v p="$period" -v w="$want" 'BEGIN {
	    d = t * p - w; exit d < -0.011 || d > 0.011 }' ||
	    atf_fail "$1: folded holds $t samples of $period s, the report $want s"
	atf_check -o match:"^frames [0-9]+ samples $t\$" cat check.svg
	atf_check -o match:"^samples $t ns" cat check.pprof
	atf_check -o match:"^totals $t " cat check.callgrind
	s=$(sed -n 's/.*h_sysburn: \([0-9.]*\) s of CPU.*/\1/p' \
	    out.svg | head -1)
	awk -v s="$s" -v w="$want" 'BEGIN { d = s - w
	    exit s == "" || d < -0.011 || d > 0.011 }' ||
	    atf_fail "$1: the SVG title says ${s:-no} s, the report $want s"
	grep -q 'libmon' out.folded && atf_fail "$1: libmon's time in a frame"
	if grep -q '^kernel time: sampled' stats; then
		# Sampled: the kernel's frames under sys_part's read(), but
		# for the odd fault or interrupt elsewhere.
		awk '/;\[kernel: system calls and faults\] [0-9]+$/ {
			k += $NF; if (/;sys_part;/) s += $NF }
		    END { printf "%d of %d kernel samples under sys_part\n", s, k
			exit k == 0 || s < 0.9 * k }' out.folded >verdict ||
		    atf_fail "$1: $(cat verdict)"
		atf_check -o match:'<desc>\[kernel: system calls and faults\]&#10;' \
		    cat out.svg
	elif grep -q 'kernel: system calls and faults\]$' report; then
		atf_check -o match:'^\[kernel: system calls and faults\] [0-9]+$' \
		    cat out.folded
		atf_check -o match:'<desc>\[kernel: system calls and faults\]&#10;' \
		    cat out.svg
	fi
	# The truth: sys_part's share, the kernel's frame or its stacks.
	awk -v t="$t" '$1 == "sys_part" && NF == 2 { sys = $2; next }
	    $1 == "user_part" && NF == 2 { user = $2; next }
	    /^\[kernel: / || /;sys_part(;| )/ { k += $NF }
	    END { want = 100 * sys / (sys + user); got = 100 * k / t
		printf "sys_part %.1f%% of the stacks, %.1f%% of the CPU " \
		    "clocks\n", got, want
		exit got < want - 10 || got > want + 10 }' truth out.folded \
	    >verdict || atf_fail "$1: $(cat verdict)"
	if [ -n "$go_check" ]; then
		go tool pprof -top -nodefraction=0 -nodecount=100000 \
		    out.pprof 2>/dev/null >top || atf_fail "go tool pprof failed"
		pprof_leaves <top >pprof.rows
		# pprof's function names leave the object to the mapping.
		sed 's/ ([^()]*)$//' rep.rows >rep.plain
		same_shares "$1: go tool pprof" rep.plain pprof.rows
		ms=$(sed -n 's/.* of \([0-9.]*\)ms total.*/\1/p' top)
		awk -v m="$ms" -v w="$want" 'BEGIN { d = m / 1000 - w
		    exit m == "" || d < -0.011 || d > 0.011 }' ||
		    atf_fail "$1: go tool pprof says ${ms:-no} ms, the report $want s"
	fi
}

atf_test_case e2e_exports_hold_the_report_totals
e2e_exports_hold_the_report_totals_head()
{
	atf_set descr "A run of h_sysburn, half in read() and half in user" \
	    "code, exported folded, svg, pprof and callgrind: each holds" \
	    "the report's seconds (libmon's apart), each function's share" \
	    "within 0.1 point of its row's (go tool pprof's flat% too), the" \
	    "kernel's row as a frame (under sys_part where the perf clock" \
	    "sampled kernel mode), no libmon frame; sys_part's share of" \
	    "the stacks is its thread CPU clock's within 10 points"
}
e2e_exports_hold_the_report_totals_body()
{
	setup_export
	prog=$srcdir/h_sysburn
	ran=0
	go_check=
	totals_check perf perf_event
	totals_check timer timer_create
	[ $ran -gt 0 ] || atf_fail "no clock ran"
}

atf_test_case e2e_go_pprof_holds_the_report_totals
e2e_go_pprof_holds_the_report_totals_head()
{
	atf_set descr "go tool pprof -top of the h_sysburn run's -F pprof" \
	    "gives the report's seconds (libmon's apart) and each" \
	    "function's flat% within 0.1 point of its row's share"
}
e2e_go_pprof_holds_the_report_totals_body()
{
	setup_export
	need_go
	HOME=$PWD
	export HOME
	prog=$srcdir/h_sysburn
	ran=0
	go_check=1
	totals_check perf perf_event
	totals_check timer timer_create
	[ $ran -gt 0 ] || atf_fail "no clock ran"
}

atf_test_case exports_leave_overhead_apart
exports_leave_overhead_apart_head()
{
	atf_set descr "libmon's own samples (20 of 130, in the SELF range" \
	    "over libmon_part) are in no frame of any export and not in its total," \
	    "as in no row of the report; the SVG's title gives them apart, as" \
	    "the report's overhead line does (pprof_comment_gives_overhead_apart" \
	    "reads pprof's comment)"
}

# overhead_forge: forge's mon.out, but 130 samples: 20 in libmon_part
# (slot 9), libmon's own.
overhead_forge()
{
	{
		cat <<EOF
lpc $(gs 0)
hpc $(gs 10)
hist 10
run clock=0 period=10000000 in=130 arcs=1 stack_limit=64
exec 0 $(gs 0) $(gs 10) $GID $GRAPH
self $(gs 9) $(gs 10)
bin 9 20
stack 20 0 $(gs 9 8) $(gs 0 16)
EOF
		work_counts
		work_stacks
	} | "$MKMON" mon.out || atf_fail "t_mkmon failed"
}

exports_leave_overhead_apart_body()
{
	setup_export
	overhead_forge
	atf_check -o match:'^profiling overhead, not in the rows: 0\.20 s, 15\.4% of all samples' \
	    "$PROF" "$GRAPH"
	export_all "$GRAPH"
	atf_check -o inline:"stacks 4 samples 110\n" cat check.folded
	atf_check -o match:'^frames [0-9]+ samples 110$' cat check.svg
	atf_check -o match:'^samples 110 ns' cat check.pprof
	atf_check -o match:'^totals 110 ' cat check.callgrind
	grep -q 'libmon_part\|\[libmon' out.folded out.callgrind out.svg &&
	    atf_fail "libmon's code in a frame"
	atf_check -o match:'t_graph: 1\.10 s of CPU \(profiling overhead apart: 0\.20 s, 15\.4% of all samples\);' \
	    cat out.svg
}

atf_test_case pprof_comment_gives_overhead_apart
pprof_comment_gives_overhead_apart_head()
{
	atf_set descr "go tool pprof -comments of -F pprof gives libmon's" \
	    "own time apart (0.20 s, 15.4% of all samples), as the" \
	    "report's overhead line does"
}
pprof_comment_gives_overhead_apart_body()
{
	setup_export
	need_go
	HOME=$PWD
	export HOME
	overhead_forge
	"$PROF" -F pprof "$GRAPH" >out.pprof || atf_fail "prof -F pprof"
	atf_check -o match:'profiling overhead apart: 0\.20 s, 15\.4% of all samples' \
	    -e ignore go tool pprof -comments out.pprof
}

# --- what the consumers make of callgrind and gmon ------------------------

# need_annotate: skip, with a line, where valgrind's callgrind_annotate
# is not installed.
need_annotate()
{
	command -v callgrind_annotate >/dev/null 2>&1 ||
	    atf_skip "callgrind_annotate not installed (Debian: valgrind)"
}

# annotate file yes|no event: "file:function [object]<TAB>cost" for
# every function of callgrind_annotate's table, inclusive or not.
annotate()
{
	callgrind_annotate --auto=no --threshold=100 --inclusive=$2 \
	    --show=$3 "$1" | awk '
	    /^-+$/ && top { go = 1; next }
	    /file:function$/ { top = 1; next }
	    go && NF > 0 {
		s = $0; sub(/^ +/, "", s); v = s; sub(/ .*/, "", v)
		gsub(/,/, "", v); sub(/^[0-9,]+ +/, "", s)
		sub(/^\( *[0-9.]+%\) +/, "", s); print s "\t" v }'
}

# kcachegrind file: "name<TAB>self<TAB>inclusive" a function, by
# KCachegrind's rule (libcore/tracedata.cpp, TracePartFunction::update):
# a function that call lines count calls into has for inclusive cost the
# sum of those lines' costs, but its calls of itself; any other, its
# self cost and its call lines out, but to itself.  Samples only.
kcachegrind()
{
	awk '
	function nm(kind, v,    n) {
		if (v !~ /^\(/) return v
		n = v; sub(/\).*/, "", n); sub(/^\(/, "", n)
		if (v ~ /^\([0-9]+\) /) {
			sub(/^\([0-9]+\) /, "", v); names[kind, n] = v
		}
		return names[kind, n]
	}
	/^ob=/ { ob = nm("ob", substr($0, 4)); next }
	/^fl=/ { fl = nm("fl", substr($0, 4)); next }
	/^fn=/ { fn = ob "\t" fl "\t" nm("fn", substr($0, 4)); seen[fn] = 1
		cob = cfl = ""; next }
	/^cob=/ { cob = nm("ob", substr($0, 5)); next }
	/^cfl=/ { cfl = nm("fl", substr($0, 5)); next }
	/^cfn=/ { cfn = (cob != "" ? cob : ob) "\t" (cfl != "" ? cfl : fl) \
		"\t" nm("fn", substr($0, 5)); next }
	/^calls=/ { split(substr($0, 7), a, " "); n = a[1]; call = 1; next }
	/^[0-9]/ {
		if (!call) { self[fn] += $2; next }
		called[cfn] += n; seen[cfn] = 1
		if (cfn != fn) { into[cfn] += $2; out[fn] += $2 }
		call = 0; cob = cfl = ""
	}
	END {
		for (f in seen) {
			split(f, p, "\t")
			printf "%s\t%d\t%d\n", p[3], self[f],
			    (called[f] > 0 ? into[f] : self[f] + out[f])
		}
	}' "$1"
}

# qsort_run: a run of h_qsort, whose comparator glibc's qsort calls,
# exported to callgrind in out.cg and folded in out.folded; its -q
# samples in $n, the report's seconds without libmon's own in $want,
# and the seconds a sample stands for in $period.
qsort_run()
{
	prog=$srcdir/h_qsort
	atf_check "$prog"
	n=$(q_samples "$prog")
	[ "${n:-0}" -gt 100 ] || atf_fail "too few samples in stacks: $n"
	"$PROF" -F callgrind "$prog" >out.cg 2>err ||
	    atf_fail "prof -F callgrind failed: $(cat err)"
	"$PROF" -F folded "$prog" >out.folded 2>err ||
	    atf_fail "prof -F folded failed: $(cat err)"
	# The report's total, libmon's own time apart, in samples.
	"$PROF" -s "$prog" >/dev/null 2>stats || atf_fail "prof -s failed"
	want=$(awk '/^seconds: / { t = $2 } /^overhead: / { o = $2 }
	    END { printf "%.3f", t - o }' stats)
	period=$(sed -n 's/^seconds: .*, \([0-9.]*\) a sample$/\1/p' stats)
}

atf_test_case e2e_callgrind_inclusive_at_least_self
e2e_callgrind_inclusive_at_least_self_head()
{
	atf_set descr "A run of a program whose comparator glibc's qsort" \
	    "calls, its stacks cut short where qsort keeps no frame" \
	    "pointers: in callgrind_annotate and by KCachegrind's rule" \
	    "every function's inclusive cost is at least its self cost," \
	    "its seconds those of prof -i, the totals the report's;" \
	    "the cut stacks start at a frame that says so"
}
e2e_callgrind_inclusive_at_least_self_body()
{
	setup_export
	need_annotate
	qsort_run
	"$PROF" -q "$prog" | grep -q '^short: [1-9]' ||
	    atf_fail "precondition: no stack ends short of main"
	annotate out.cg no Samples | sort >self
	annotate out.cg yes Samples | sort >incl
	[ $(wc -l <self) -gt 5 ] || atf_fail "annotate read too little"
	join -t '	' self incl | awk -F '\t' '$3 < $2 {
	    print "callgrind_annotate: " $1 " inclusive " $3 " < self " $2;
	    bad = 1 } END { exit bad }' || atf_fail "inclusive below self"
	kcachegrind out.cg | awk -F '\t' '$3 < $2 {
	    print "KCachegrind: " $1 " inclusive " $3 " < self " $2;
	    bad = 1 } END { exit bad }' || atf_fail "inclusive below self"
	t=$(callgrind_annotate --auto=no --show=Samples out.cg | tr -d , |
	    awk '/PROGRAM TOTALS$/ { print $1 }')
	awk -v t="${t:-0}" -v p="$period" -v w="$want" 'BEGIN {
	    d = t * p - w; exit d < -0.011 || d > 0.011 }' ||
	    atf_fail "callgrind_annotate's total ${t:-none} samples of" \
		"$period s, the report $want s"
	# Each function's inclusive seconds, as -i gives them: to 0.01 s or
	# a tenth, as the exports scale the stacks ending in a function to
	# its row's samples (stacks.c, reconcile()), which the histogram's
	# bins may place a few of in a neighbour, and -i counts them as
	# sampled.
	"$PROF" -i -h "$prog" | awk '$4 >= 1 { s = $0
	    sub(/^ *[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +/, "", s)
	    sub(/^[0-9]+ +[0-9.]+ +/, "", s); sub(/ \([^()]*\)$/, "", s)
	    print s "\t" $5 }' | sort >prof.i
	[ $(wc -l <prof.i) -gt 3 ] || atf_fail "prof -i gave too few rows"
	annotate out.cg yes Nanoseconds | sed 's/^[^:]*://; s/ \[[^]]*\]	/	/' |
	    sort | join -t '	' prof.i - | awk -F '\t' '{
	    d = $3 / 1e9 - $2; if (d < 0) d = -d; k++
	    if (d > 0.0101 && d > $2 / 10) { print $1 ": prof -i " $2 " s, callgrind " \
		$3 / 1e9 " s"; bad = 1 } }
	    END { exit bad || k < 4 }' || atf_fail "inclusive seconds differ"
	atf_check -o match:"^totals $t " "$CHECK" callgrind out.cg
	atf_check -o match:"^\[stack ends short: callers unknown\];" \
	    cat out.folded
}

atf_test_case e2e_callgrind_objects_and_files
e2e_callgrind_objects_and_files_head()
{
	atf_set descr "-F callgrind names each function's object in ob= and" \
	    "cob=, not in its name, and its file in fl=: the line table's" \
	    "(h_qsort.c, built with -g) or '???', the format's unknown file," \
	    "never an object's path; callgrind_annotate shows libc's" \
	    "functions under libc and h_qsort.c's under their file"
}
e2e_callgrind_objects_and_files_body()
{
	setup_export
	need_annotate
	qsort_run
	atf_check -o match:'^c?ob=\([0-9]+\) .*/libc\.so\.6$' cat out.cg
	atf_check -o match:'^c?fn=\([0-9]+\) random$' cat out.cg
	atf_check -o not-match:'^c?fn=.*\(libc\.so\.6\)' cat out.cg
	# The files named: the unknown one, h_qsort.c by its line table,
	# and maybe libc's sources (a debug file of libc); no object.
	grep -E '^c?fl=\([0-9]+\) ' out.cg | sed 's/^c//' | sort -u >fl
	atf_check -o match:'^fl=\(1\) \?\?\?$' cat fl
	atf_check -o match:'^fl=\([0-9]+\) /.*/h_qsort\.c$' cat fl
	atf_check -o not-match:'\.so|h_qsort$' cat fl
	annotate out.cg yes Samples >ann
	atf_check -o match:'^[^:]*:random \[.*/libc\.so\.6\]	' cat ann
	atf_check -o match:'^/.*/h_qsort\.c:cmp_int \[.*/h_qsort\]	' cat ann
}

atf_test_case e2e_callgrind_counted_calls_exact
e2e_callgrind_counted_calls_exact_head()
{
	atf_set descr "-F callgrind: every call mcount counted has its exact" \
	    "calls and the same in the Counted event, so callgrind_annotate's" \
	    "inclusive Counted is the report's #Calls; a call seen only in" \
	    "stacks has calls=1 and Counted 0"
}
e2e_callgrind_counted_calls_exact_body()
{
	setup_export
	need_annotate
	qsort_run
	"$PROF" -h "$prog" | awk 'NF >= 6 && $4 ~ /^[0-9]+$/ { print $NF "\t" $4 }' |
	    sort >prof.calls
	atf_check -o inline:"cmp_int\nfill	30\nmain	1\nsort	30\n" \
	    sed 's/^cmp_int	[0-9]*$/cmp_int/' prof.calls
	annotate out.cg yes Counted | sed 's/^[^:]*://; s/ \[[^]]*\]	/	/' |
	    sort >cg.calls
	join -t '	' prof.calls cg.calls | awk -F '\t' '$2 != $3 {
	    print $1 ": prof " $2 ", callgrind " $3; bad = 1 }
	    END { exit bad || NR != 4 }' || atf_fail "counted calls differ"
	# Each caller line: Counted equals its calls, or is 0 at 1x.
	callgrind_annotate --auto=no --threshold=100 --inclusive=yes \
	    --tree=caller --show=Counted out.cg | tr -d , >tree
	awk '/ < / { c = $1; x = $0; sub(/.*\(/, "", x); sub(/x\).*/, "", x)
		if (c == x) counted++
		else if (c == 0 && x == 1) inferred++
		else { print "caller line: " $0; bad = 1 } }
	    END { print counted + 0, inferred + 0; exit bad }' tree >lines ||
	    atf_fail "a caller line neither counted nor inferred: $(cat lines)"
	awk '{ exit !($1 >= 4 && $2 >= 2) }' lines ||
	    atf_fail "counted and inferred caller lines: $(cat lines)"
	# main's calls of random, through rand without a frame: inferred.
	atf_check -o match:'^ *0 +< [^ ]*h_qsort\.c:main \(1x\)' awk '
	    / < / { l[++k] = $0; next }
	    / \* / { if ($0 ~ /:random /) for (i = 1; i <= k; i++)
		if (l[i] ~ /:main \(/) print l[i]; k = 0 }' tree
}

atf_test_case e2e_callgrind_without_stacks_inclusive_at_least_self
e2e_callgrind_without_stacks_inclusive_at_least_self_head()
{
	atf_set descr "-F callgrind of a run without stacks (PROFSTACK=0):" \
	    "each counted call carries its share of its callee's self cost," \
	    "so that no function's inclusive cost in callgrind_annotate or" \
	    "by KCachegrind's rule is below its self cost"
}
e2e_callgrind_without_stacks_inclusive_at_least_self_body()
{
	setup_export
	need_annotate
	prog=$srcdir/h_qsort
	PROFSTACK=0 atf_check "$prog"
	"$PROF" -F callgrind "$prog" >out.cg 2>/dev/null ||
	    atf_fail "prof -F callgrind failed"
	annotate out.cg no Samples | sort >self
	annotate out.cg yes Samples | sort >incl
	grep -q '^[^:]*:cmp_int .*	[1-9]' self ||
	    atf_fail "precondition: cmp_int has no samples"
	join -t '	' self incl | awk -F '\t' '$3 < $2 {
	    print "callgrind_annotate: " $1 " inclusive " $3 " < self " $2;
	    bad = 1 } END { exit bad }' || atf_fail "inclusive below self"
	kcachegrind out.cg | awk -F '\t' '$3 < $2 {
	    print "KCachegrind: " $1 " inclusive " $3 " < self " $2;
	    bad = 1 } END { exit bad }' || atf_fail "inclusive below self"
	atf_check -o ignore "$CHECK" callgrind out.cg
}

atf_test_case e2e_gmon_library_without_samples
e2e_gmon_library_without_samples_head()
{
	atf_set descr "A -pg shared library that made calls but took no" \
	    "samples (a forged profile over t_graph and h_libcalls.so:" \
	    "lib_outer calls lib_inner 1000 times) gets a gmon file with" \
	    "an empty histogram: gprof -p reads it without 'missing" \
	    "histogram' and gprof -q shows its arcs with no nan"
}
e2e_gmon_library_without_samples_body()
{
	setup_export
	command -v gprof >/dev/null 2>&1 ||
	    atf_skip "gprof not installed (Debian: binutils)"
	lib=$srcdir/h_libcalls.so
	lid=$(readelf -n "$lib" | awk '/Build ID:/ { print $3 }')
	[ -n "$lid" ] || atf_fail "no build-id in $lib"
	# Where the library's functions are, and its call's return.
	inner=$(nm "$lib" | awk '$3 == "lib_inner" { print "0x" $1 }')
	outer=$(nm "$lib" | awk '$3 == "lib_outer" { print "0x" $1 }')
	ret=$(objdump -d "$lib" | awk '/call.*<lib_inner@plt>/ { getline
	    sub(/:.*/, ""); gsub(/ /, ""); print "0x" $0; exit }')
	[ -n "$inner" ] && [ -n "$outer" ] && [ -n "$ret" ] ||
	    atf_fail "lib_inner, lib_outer or the call not found in $lib"
	b=$((0x7f0000000000))
	forge mon.out <<EOF
obj $(printf '0x%x' $b) $(printf '0x%x' $((b + 0x1000))) $(printf '0x%x' $((b + 0x2000))) $lid $lib
cell $(printf '0x%x' $((b + inner + 4))) 1000
cell $(printf '0x%x' $((b + outer + 13))) 1
arc $(printf '0x%x' $((b + ret))) $(printf '0x%x' $((b + inner + 4))) 1000
arc $(gs 0 48) $(printf '0x%x' $((b + outer + 13))) 1
EOF
	"$PROF" -h "$GRAPH" >report 2>err || atf_fail "prof: $(cat err)"
	atf_check -o match:' 1000 .*lib_inner \(h_libcalls\.so\)$' cat report
	awk '/\(h_libcalls\.so\)$/ && $1 != "0.0" { exit 1 }' report ||
	    atf_fail "the library has samples: $(cat report)"
	atf_check -o inline:"gmon.out\ngmon.h_libcalls.so.out\n" -e ignore \
	    "$PROF" -F gmon "$GRAPH"
	atf_check -o match:' 1000 .* lib_inner$' -e not-match:'histogram' \
	    gprof -b -p "$lib" gmon.h_libcalls.so.out
	atf_check -o match:'1000/1000 +lib_outer' -o not-match:'nan' \
	    -e not-match:'histogram' gprof -b -q "$lib" gmon.h_libcalls.so.out
	atf_check -o match:'^hists [1-9]' "$CHECK" gmon gmon.h_libcalls.so.out
}

atf_test_case e2e_callgrind_source_file_when_known
e2e_callgrind_source_file_when_known_head()
{
	atf_set descr "-F callgrind gives a static whose name clashes (h_clash's" \
	    "two helper()s) its source file in fl=, which callgrind_annotate" \
	    "shows as FILE:helper, one for each, by the line table (the" \
	    "path it gives) as for every function with debug information"
}
e2e_callgrind_source_file_when_known_body()
{
	setup_export
	need_annotate
	prog=$srcdir/h_clash
	atf_check -o ignore "$prog"
	"$PROF" -F callgrind "$prog" >out.cg 2>/dev/null ||
	    atf_fail "prof -F callgrind failed"
	# The C library's functions have files too where its debug file is
	# installed (libc6-dbg): only the program's are held here.
	atf_check -o inline:"fl=(N) clash_a.c\nfl=(N) clash_b.c\n" \
	    -x "grep -E '^c?fl=\([0-9]+\) ' out.cg |
	    sed 's/^c//; s/([0-9]*)/(N)/; s| /.*/| |' | sort -u |
	    grep -E ' clash_[ab]\.c\$'"
	annotate out.cg no Samples | sed 's/ \[[^]]*\]	/	/' | sort >self
	atf_check -o inline:"clash_a.c:helper\nclash_b.c:helper\n" \
	    -x "grep helper self | cut -f1 | sed 's|.*/||'"
	atf_check -o not-match:'helper \[' cat out.cg
}

atf_test_case callgrind_root_called_elsewhere_ends_short
callgrind_root_called_elsewhere_ends_short_head()
{
	atf_set descr "A stack whose outermost frame is a function that another" \
	    "stack shows called ended short of its start: every stack" \
	    "export roots it at [stack ends short: callers unknown], and" \
	    "callgrind_annotate's inclusive cost of that function is then" \
	    "the samples of all the stacks it is in, as prof -i measures"
}
callgrind_root_called_elsewhere_ends_short_body()
{
	setup_export
	need_annotate
	# driver, else the root of every stack, is seen called from work
	# (in work, called from driver, called from work): the innermost
	# frames still hold the histogram's samples, as the exports check.
	{ work_stacks | sed '1s/^stack 10 /stack 6 /'
	    echo "stack 4 0 $(gs 3 8) $(gs 0 8) $(gs 3 16)"; } | forge mon.out
	"$PROF" -F folded "$GRAPH" >out.folded || atf_fail "prof failed"
	atf_check -o inline:"5 0\n" awk '
	    /^\[stack ends short: callers unknown\];/ { k++; next } { n++ }
	    END { print k + 0, n + 0 }' out.folded
	atf_check -o match:'^short: 110 samples' "$PROF" -q "$GRAPH"
	atf_check -o match:'^ +0\.0 +0\.00 +[0-9.]+ +100\.0 +1\.10 +driver$' \
	    "$PROF" -i -h "$GRAPH"
	"$PROF" -F callgrind "$GRAPH" >out.cg || atf_fail "prof failed"
	annotate out.cg yes Samples >incl
	atf_check -o inline:"110\n" -x "awk -F '\t' '/:driver / { print \$2 }' incl"
}

atf_init_test_cases()
{
	atf_add_test_case folded_stacks_root_first
	atf_add_test_case exports_put_kernel_frames_under_callers
	atf_add_test_case folded_marks_cut_stacks
	atf_add_test_case folded_ends_stacks_at_no_address
	atf_add_test_case export_keeps_statistics
	atf_add_test_case folded_merges_stacks_by_function
	atf_add_test_case folded_without_stacks_a_frame_a_function
	atf_add_test_case folded_whole_counts_at_merged_rates
	atf_add_test_case pprof_fields_and_exact_calls
	atf_add_test_case callgrind_costs_and_calls
	atf_add_test_case callgrind_uncounted_call_is_one
	atf_add_test_case gmon_layout_and_gprof_agrees
	atf_add_test_case gmon_classic_calls_said_left_out
	atf_add_test_case gmon_bins_split_at_16_bits
	atf_add_test_case gmon_arcs_split_at_32_bits
	atf_add_test_case gmon_count_too_large_refused
	atf_add_test_case gmon_refusal_leaves_no_file
	atf_add_test_case svg_frames_proportional
	atf_add_test_case svg_colours_by_object
	atf_add_test_case svg_names_elided_to_fit
	atf_add_test_case export_errors_one_line
	atf_add_test_case e2e_formats_agree_on_a_run
	atf_add_test_case e2e_gprof_reads_exported_gmon
	atf_add_test_case e2e_library_gmon_file
	atf_add_test_case e2e_exports_hold_the_report_totals
	atf_add_test_case exports_leave_overhead_apart
	atf_add_test_case e2e_callgrind_inclusive_at_least_self
	atf_add_test_case e2e_callgrind_objects_and_files
	atf_add_test_case e2e_callgrind_counted_calls_exact
	atf_add_test_case e2e_callgrind_without_stacks_inclusive_at_least_self
	atf_add_test_case e2e_gmon_library_without_samples
	atf_add_test_case e2e_callgrind_source_file_when_known
	atf_add_test_case callgrind_root_called_elsewhere_ends_short
	atf_add_test_case gzip_writer_round_trips
	atf_add_test_case pprof_file_is_gzip
	atf_add_test_case pprof_time_and_duration_of_the_run
	atf_add_test_case pprof_function_files_from_debug_info
	atf_add_test_case pprof_list_prints_source
	atf_add_test_case pprof_gzipped_run_totals_equal_report
	atf_add_test_case pprof_bad_line_table_warns
	atf_add_test_case dwline_agrees_with_addr2line
	atf_add_test_case dwline_reads_zdebug_sections
	atf_add_test_case dwline_strx_comp_dir
	atf_add_test_case pprof_time_span_of_merged_files
	atf_add_test_case e2e_go_pprof_holds_the_report_totals
	atf_add_test_case pprof_comment_gives_overhead_apart
	atf_add_test_case line_table_warning_once_printable
	atf_add_test_case pprof_function_names_leave_object_to_mapping
	atf_add_test_case pprof_unnamed_code_keeps_its_object
	atf_add_test_case pprof_lines_from_compressed_debug_info
}

# --- pprof for pprof and for services ---------------------------------
#
# What go tool pprof and profile ingest services make of -F pprof: a
# gzipped file with the run's time, and functions whose source file and
# lines are those addr2line gives from the debug information.

# A run of prog (h_burn's arguments), its start and end in seconds.
burn_run()
{
	t0=$(date +%s)
	atf_check "$1" 300000 100
	t1=$(date +%s)
}

# addr2line's file:line for function f of prog, at its entry.
entry_line()
{
	a=$(nm "$1" | awk -v f="$2" '$3 == f && $2 ~ /^[Tt]$/ { print $1; exit }')
	[ -n "$a" ] || atf_fail "no $2 in $1"
	addr2line -e "$1" "0x$a" | sed 's/ (discriminator [0-9]*)$//'
}

atf_test_case gzip_writer_round_trips
gzip_writer_round_trips_head()
{
	atf_set descr "prof's gzip writer makes files that gzip -t accepts" \
	    "and gzip -d restores byte for byte: empty, text, a program," \
	    "zeros (longest matches), random data (stored blocks), data" \
	    "repeated at the window's farthest distance, and 40 short" \
	    "files of high bytes (fixed and dynamic codes)"
}
gzip_writer_round_trips_body()
{
	setup_export
	T=$srcdir/t_gzip
	: >empty
	cp "$srcdir/export_test" text
	cp "$PROF" program
	head -c 1000000 /dev/zero >zeros
	awk 'BEGIN { srand(7); for (i = 0; i < 40000; i++)
	    printf "%c%c%c", 1 + int(rand() * 255), 1 + int(rand() * 255),
	    1 + int(rand() * 255) }' >random
	head -c 32768 random >w
	cat w w w >far
	head -c 32767 random >w
	cat w w w >near
	short=
	for i in $(seq 1 40); do
		awk -v s=$i 'BEGIN { srand(s); n = 1 + int(rand() * 40)
		    for (k = 0; k < n; k++)
			printf "%c", 128 + int(rand() * 4) * 40 }' >short$i
		short="$short short$i"
	done
	for f in empty text program zeros random far near $short; do
		"$T" <$f >$f.gz || atf_fail "t_gzip failed on $f"
		atf_check gzip -t $f.gz
		gzip -dc $f.gz | cmp -s - $f || atf_fail "$f: not restored"
	done
	# Matches found: zeros shrink to under 1%, repeats to under half;
	# prof.1, text, to within 5% of what gzip -6 makes of it.
	[ $(wc -c <zeros.gz) -lt 10000 ] ||
	    atf_fail "zeros: $(wc -c <zeros.gz) bytes"
	[ $(wc -c <far.gz) -lt $(($(wc -c <far) / 2)) ] ||
	    atf_fail "far: $(wc -c <far.gz) bytes"
	"$T" <"$srcdir/../../man1/prof.1" >man.gz || atf_fail "t_gzip"
	g=$(gzip -6c <"$srcdir/../../man1/prof.1" | wc -c)
	[ $(wc -c <man.gz) -le $((g * 105 / 100)) ] ||
	    atf_fail "prof.1: $(wc -c <man.gz) bytes, gzip -6 $g"
	# Random data is stored: 5 bytes a block of 64 KiB (or less, where
	# the blocks of codes end) more, and gzip's 18.
	[ $(wc -c <random.gz) -le $(($(wc -c <random) * 1001 / 1000 + 40)) ] ||
	    atf_fail "random: $(wc -c <random.gz) bytes"
}

atf_test_case pprof_file_is_gzip
pprof_file_is_gzip_head()
{
	atf_set descr "-F pprof writes a gzip file (magic 1f 8b) that gzip" \
	    "-t accepts and whose content is the profile.proto message"
}
pprof_file_is_gzip_body()
{
	setup_export
	work_stacks | forge mon.out
	"$PROF" -F pprof "$GRAPH" >out.gz || atf_fail "prof failed"
	atf_check -o inline:"1f8b\n" sh -c 'od -A n -N 2 -t x1 out.gz | tr -d " "'
	atf_check gzip -t out.gz
	gzip -dc out.gz >out
	atf_check -o match:'^samples 110 ns 1100000000 calls 1002$' \
	    "$CHECK" pprof out
}

atf_test_case pprof_time_and_duration_of_the_run
pprof_time_and_duration_of_the_run_head()
{
	atf_set descr "go tool pprof reads the run's start time and its wall" \
	    "duration from -F pprof of a real run of h_burn: the time within" \
	    "the run, the duration above its CPU time and within its span"
}
pprof_time_and_duration_of_the_run_body()
{
	setup_export
	prog=$srcdir/h_burn
	burn_run "$prog"
	# What libmon recorded, as t_mondump reads it, before pprof.
	"$srcdir/../lib/t_mondump" mon.out >dump || atf_fail "t_mondump"
	awk -v t0=$t0 -v t1=$t1 '$1 == "run.start_ns" { s = $2 / 1e9 }
	    $1 == "run.wall_ns" { w = $2 } $1 == "run.cpu_ns" { c = $2 }
	    END { exit !(s >= t0 && s <= t1 + 1 && w > 0 && w >= c * 0.9) }' \
	    dump || atf_fail "RUN record: $(grep -E 'start|wall|cpu_ns' dump)"
	need_go
	"$PROF" -F pprof "$prog" >app.pb.gz || atf_fail "prof failed"
	go tool pprof -raw app.pb.gz >raw 2>err || atf_fail "$(cat err)"
	# "Time: 2026-11-26 05:09:09.101058524 +0000 UTC": zone name off.
	t=$(sed -n 's/^Time: \(.* [-+][0-9]\{4\}\) .*/\1/p' raw)
	[ -n "$t" ] || atf_fail "no time in the profile"
	s=$(date -d "$t" +%s) || atf_fail "time $t"
	[ "$s" -ge "$t0" ] && [ "$s" -le "$t1" ] ||
	    atf_fail "start $t ($s) not within the run [$t0, $t1]"
	go tool pprof -top app.pb.gz >top 2>err || atf_fail "$(cat err)"
	# "Duration: 710.38ms, Total samples = 425ms (59.83%)"
	d=$(sed -n 's/^Duration: \([0-9.]*[mun]*s\),.*/\1/p' top)
	ns=$(echo "$d" | awk '{ v = $1 + 0; u = $1; sub(/^[0-9.]*/, "", u)
	    m = u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "us" ? 1e3 : 1
	    printf "%.0f\n", v * m }')
	[ "${ns:-0}" -gt 0 ] || atf_fail "duration '$d' in: $(head -3 top)"
	[ "$ns" -le $(( (t1 - t0 + 1) * 1000000000 )) ] ||
	    atf_fail "duration $d longer than the run, $t0 to $t1"
	# The run burns some 0.3 s of CPU on one thread: wall time more.
	[ "$ns" -ge 100000000 ] || atf_fail "duration $d: shorter than the burn"
}

atf_test_case pprof_function_files_from_debug_info
pprof_function_files_from_debug_info_head()
{
	atf_set descr "go tool pprof gives each function of a -g build (gcc" \
	    "DWARF 5, clang DWARF 4) the source file and line that" \
	    "addr2line gives at its entry, as file and start line, and" \
	    "never the program's path as a file"
}
pprof_function_files_from_debug_info_body()
{
	setup_export
	need_go
	for prog in "$srcdir/h_burn" "$srcdir/h_burn_clang"; do
		[ -x "$prog" ] || atf_fail "not built: $prog"
		rm -f mon.out
		burn_run "$prog"
		"$PROF" -F pprof "$prog" >app.pb.gz || atf_fail "prof failed"
		go tool pprof -raw app.pb.gz >raw 2>err || atf_fail "$(cat err)"
		# "     1: 0x10000003970 M=1 burn20 /src/h_burn.c:44 s=44"
		awk '/^Locations/ { on = 1; next } /^Mappings/ { on = 0 }
		    on && $3 == "M=1" { print $4, $5, $6 }' raw >locs
		n=0
		# A function's location at its entry is at its start line;
		# those of the lines it took samples on, at theirs.
		while read f fl sl; do
			want=$(entry_line "$prog" "$f")
			# No line for it (crt code): no file, line 0 in pprof.
			case $want in
			'??:'*)	[ "$fl" = ":0" ] && [ "$sl" = "s=0" ] ||
				    atf_fail "$prog: $f: pprof $fl $sl, addr2line $want"
				continue ;;
			esac
			[ "${fl%:*}" = "${want%:*}" ] ||
			    atf_fail "$prog: $f: pprof $fl, addr2line $want"
			[ "$sl" = "s=${want##*:}" ] ||
			    atf_fail "$prog: $f: start $sl, addr2line $want"
			n=$((n + 1))
		done <locs
		[ $n -ge 4 ] || atf_fail "$prog: $n functions: $(cat raw)"
		grep -F " $prog:" raw && atf_fail "$prog: its path as a file"
		for f in burn50 burn30 burn20 main; do
			grep -q " M=1 $f /[^ ]*/h_burn.c:[1-9]" raw ||
			    atf_fail "$prog: $f has no source line: $(cat locs)"
		done
	done
}

atf_test_case pprof_list_prints_source
pprof_list_prints_source_head()
{
	atf_set descr "go tool pprof -list burn50 prints burn50's source" \
	    "lines from h_burn.c, the samples on its line, and no control" \
	    "bytes"
}
pprof_list_prints_source_body()
{
	setup_export
	need_go
	prog=$srcdir/h_burn
	burn_run "$prog"
	"$PROF" -F pprof "$prog" >app.pb.gz || atf_fail "prof failed"
	# pprof cuts a source path after the name of the directory it runs
	# in (kyua's is "work", as is the tree's top here): run it in one
	# of a name no path holds.
	mkdir pprof.cwd
	(cd pprof.cwd && go tool pprof -list '^burn50$' ../app.pb.gz) \
	    >list 2>err || atf_fail "$(cat err)"
	src=$(entry_line "$prog" burn50)
	line=${src##*:}
	file=${src%:*}
	atf_check -o match:"^ROUTINE =+ burn50 in $file\$" cat list
	# Its entry line and the next, as the source has them.
	for k in $line $((line + 1)); do
		text=$(sed -n "${k}p" "$file")
		grep -qF "$k:$text" list || atf_fail "no line $k ($text) in: $(cat list)"
	done
	atf_check -o inline:"0\n" sh -c "tr -d '\\t\\n -~' <list | wc -c"
}

atf_test_case pprof_gzipped_run_totals_equal_report
pprof_gzipped_run_totals_equal_report_head()
{
	atf_set descr "-F pprof of a real run is gzipped, and go tool pprof" \
	    "counts in it the report's seconds (libmon's overhead apart," \
	    "as in the report) and the calls of burn50 the report gives"
}
pprof_gzipped_run_totals_equal_report_body()
{
	setup_export
	need_go
	prog=$srcdir/h_burn
	burn_run "$prog"
	# The report's total, libmon's own time apart, as prof -s gives it.
	"$PROF" -s "$prog" >/dev/null 2>stats || atf_fail "prof -s failed"
	want=$(awk '/^seconds: / { t = $2 } /^overhead: / { o = $2 }
	    END { printf "%.3f", t - o }' stats)
	period=$(sed -n 's/^seconds: .*, \([0-9.]*\) a sample$/\1/p' stats)
	"$PROF" -F pprof "$prog" >app.pb.gz || atf_fail "prof failed"
	atf_check gzip -t app.pb.gz
	go tool pprof -raw app.pb.gz >raw 2>err || atf_fail "$(cat err)"
	got=$(awk '/^Samples/ { on = 1; next } /^Locations/ { on = 0 }
	    on && $1 ~ /^[0-9]+$/ { s += $1 } END { print s + 0 }' raw)
	awk -v t="$got" -v p="$period" -v w="$want" 'BEGIN {
	    d = t * p - w; exit d < -0.011 || d > 0.011 }' ||
	    atf_fail "pprof has $got samples of $period s, the report $want s"
	calls=$("$PROF" "$prog" | awk '$NF == "burn50" { print $4 }')
	go tool pprof -sample_index=calls -top app.pb.gz >top 2>err ||
	    atf_fail "$(cat err)"
	atf_check -o match:"^ *$calls +[0-9.]+% .* burn50\$" \
	    grep ' burn50$' top
}

atf_test_case pprof_bad_line_table_warns
pprof_bad_line_table_warns_head()
{
	atf_set descr "A program whose .debug_line is truncated or garbled" \
	    "gets one warning naming it from -F pprof, which still writes" \
	    "its profile; the line reader neither crashes nor loops on 40" \
	    "mutants of a real table"
}
pprof_bad_line_table_warns_body()
{
	setup_export
	prog=$srcdir/h_burn
	atf_check "$prog" 300000 100
	objcopy --dump-section .debug_line=line "$prog" || atf_fail "objcopy"
	# Truncated: the first unit runs past the section's end.
	head -c 100 line >short
	objcopy --update-section .debug_line=short "$prog" bad ||
	    atf_fail "objcopy"
	"$PROF" -F pprof bad >out.gz 2>err || atf_fail "prof: $(cat err)"
	atf_check -o match:'^1$' sh -c 'wc -l <err'
	atf_check -o match:'^prof: warning: bad: \.debug_line: a line table runs past \.debug_line; 1 line table skipped$' cat err
	atf_check gzip -t out.gz
	gzip -dc out.gz >out
	atf_check -o ignore "$CHECK" pprof out
	# Garbled: a header's line_range 0, which would divide by 0; it
	# lies after the version's fields (32-bit DWARF).
	case $(od -A n -j 4 -N 1 -t u1 line | tr -d ' ') in
	5)	o=16 ;;
	4)	o=14 ;;
	*)	o=13 ;;
	esac
	cp line garbled
	awk 'BEGIN { printf "%c", 0 }' |
	    dd of=garbled bs=1 seek=$o conv=notrunc 2>/dev/null
	objcopy --update-section .debug_line=garbled "$prog" bad2 ||
	    atf_fail "objcopy"
	"$PROF" -F pprof bad2 >out.gz 2>err || atf_fail "prof: $(cat err)"
	atf_check -o match:'^prof: warning: bad2: \.debug_line: a malformed line table; 1 line table skipped$' cat err
	atf_check gzip -t out.gz
	# Mutants: 8 random bytes each, in the first 400 bytes.
	i=0
	while [ $i -lt 40 ]; do
		cp line m
		awk -v s=$i 'BEGIN { srand(s); for (k = 0; k < 8; k++)
		    print int(rand() * 400), int(rand() * 256) }' |
		while read off byte; do
			awk -v b=$byte 'BEGIN { printf "%c", b }' |
			    dd of=m bs=1 seek=$off conv=notrunc 2>/dev/null
		done
		objcopy --update-section .debug_line=m "$prog" mut ||
		    atf_fail "objcopy"
		echo 0x1000 | timeout 20 "$srcdir/t_dwline" mut >/dev/null 2>&1
		rc=$?
		[ $rc -le 1 ] || atf_fail "t_dwline on mutant $i: status $rc"
		i=$((i + 1))
	done
}

atf_test_case dwline_agrees_with_addr2line
dwline_agrees_with_addr2line_head()
{
	atf_set descr "prof's line-table reader gives the file and line" \
	    "addr2line gives at every instruction of h_burn (gcc, DWARF 5)," \
	    "h_burn_clang (clang, DWARF 4), and prof itself"
}
dwline_agrees_with_addr2line_body()
{
	setup_export
	for f in "$srcdir/h_burn" "$srcdir/h_burn_clang" "$PROF"; do
		objdump -d --no-show-raw-insn "$f" |
		    awk '/^ *[0-9a-f]+:/ { sub(":", "", $1); print $1 }' >addrs
		addr2line -e "$f" <addrs |
		    sed 's/ (discriminator [0-9]*)$//' >want
		"$srcdir/t_dwline" "$f" <addrs >got ||
		    atf_fail "t_dwline failed on $f"
		# Where addr2line has a line: where it has none it falls
		# back on the symbols (crtstuff.c:?), which is not the table.
		paste -d ' ' addrs want got |
		    awk '$2 !~ /:\?$/ { n++; if ($2 != $3) { print; bad++ } }
		    END { print n + 0, "compared" > "count"; exit bad > 0 }' \
		    >diff || atf_fail "$f: $(head -5 diff)"
		[ $(awk '{ print $1 }' count) -gt 100 ] ||
		    atf_fail "$f: $(cat count)"
	done
}

atf_test_case dwline_reads_zdebug_sections
dwline_reads_zdebug_sections_head()
{
	atf_set descr "prof's line-table reader reads the old-style" \
	    "compressed sections (.zdebug_*, zlib-gnu): h_burn and" \
	    "h_burn_clang so compressed give the lines their plain builds" \
	    "give (held to addr2line's by dwline_agrees_with_addr2line);" \
	    "a .zdebug_line whose header is not ZLIB gives none"
	atf_set require.progs objcopy
}
dwline_reads_zdebug_sections_body()
{
	setup_export
	for f in "$srcdir/h_burn" "$srcdir/h_burn_clang"; do
		objcopy --compress-debug-sections=zlib-gnu "$f" app.zg \
		    2>err || atf_skip "objcopy has no zlib-gnu: $(cat err)"
		readelf -S app.zg >secs
		grep -q ' \.zdebug_line ' secs && grep -q ' \.zdebug_info ' \
		    secs && ! grep -q ' \.debug_line ' secs ||
		    atf_fail "app.zg: no .zdebug_line and .zdebug_info"
		objdump -d --no-show-raw-insn "$f" |
		    awk '/^ *[0-9a-f]+:/ { sub(":", "", $1); print $1 }' >addrs
		"$srcdir/t_dwline" "$f" <addrs >want ||
		    atf_fail "t_dwline failed on $f"
		"$srcdir/t_dwline" app.zg <addrs >got 2>err ||
		    atf_fail "t_dwline failed on app.zg: $(cat err)"
		[ -s err ] && atf_fail "${f##*/}: t_dwline warned: $(cat err)"
		[ $(grep -c '/[^ ]*\.c:[1-9]' got) -gt 100 ] ||
		    atf_fail "${f##*/}: too few lines from app.zg"
		cmp -s want got || atf_fail "${f##*/}: $(diff want got | head -5)"
	done
	# "ZLIX" for "ZLIB": the table is not read, and no line is made up.
	objcopy --dump-section .zdebug_line=zl app.zg ||
	    atf_fail "objcopy --dump-section failed"
	{ printf 'ZLIX'; tail -c +5 zl; } >bad
	objcopy --update-section .zdebug_line=bad app.zg app.bad ||
	    atf_fail "objcopy --update-section failed"
	"$srcdir/t_dwline" app.bad <addrs >got || atf_fail "t_dwline failed"
	atf_check -o inline:"??:0\n" sort -u got
}

atf_test_case dwline_strx_comp_dir
dwline_strx_comp_dir_head()
{
	atf_set descr "A DWARF 5 unit that names its compilation directory" \
	    "by DW_FORM_strx1 over a version 4 line table (h_strx): prof's" \
	    "line-table reader joins its relative file names under that" \
	    "directory, as addr2line does"
}
dwline_strx_comp_dir_body()
{
	setup_export
	f=$srcdir/h_strx
	[ -x "$f" ] || atf_fail "not built: $f"
	# The preconditions, which the build in local.mk is meant to make.
	readelf --debug-dump=rawline "$f" |
	    grep -q '^ *DWARF Version: *4$' ||
	    atf_fail "h_strx: its line table is not version 4"
	readelf --debug-dump=info "$f" |
	    grep -q 'DW_AT_comp_dir *: (indexed string' ||
	    atf_fail "h_strx: its directory is no DW_FORM_strx"
	objdump -d --no-show-raw-insn "$f" |
	    awk '/^ *[0-9a-f]+:/ { sub(":", "", $1); print $1 }' >addrs
	addr2line -e "$f" <addrs | sed 's/ (discriminator [0-9]*)$//' >want
	"$srcdir/t_dwline" "$f" <addrs >got 2>err ||
	    atf_fail "t_dwline failed: $(cat err)"
	[ -s err ] && atf_fail "t_dwline warned: $(cat err)"
	paste -d ' ' addrs want got |
	    awk '$2 !~ /:\?$/ { n++; if ($2 != $3) { print; bad++ } }
	    END { exit bad > 0 || n < 5 }' >diff ||
	    atf_fail "$(head -5 diff)"
	grep -q '^/.*/tests/prof/strx\.c:[1-9]' got ||
	    atf_fail "no absolute strx.c line: $(sort -u got)"
}

# forge_run file run-keys: forge's file over t_graph with stdin's
# stacks, its RUN record with the keys given.
forge_run()
{
	{
		cat <<EOF
lpc $(gs 0)
hpc $(gs 10)
hist 10
run clock=0 period=10000000 in=110 arcs=1 stack_limit=64 $2
exec 0 $(gs 0) $(gs 10) $GID $GRAPH
EOF
		work_counts
		cat
	} | "$MKMON" "$1" || atf_fail "t_mkmon failed"
}

atf_test_case pprof_time_span_of_merged_files
pprof_time_span_of_merged_files_head()
{
	atf_set descr "-F pprof of two files gives as time the earlier start" \
	    "and as duration the span to the later end; a file of a libmon" \
	    "that wrote no start (a RUN record that ends before it) gives" \
	    "no time"
}
pprof_time_span_of_merged_files_body()
{
	setup_export
	need_go
	# [1e18 ns + 4 s, + 2 s) and [1e18 ns, + 5 s): from 1e18 ns, 6 s.
	work_stacks >stacks
	forge_run a.out "start=1000000004000000000 wall=2000000000" <stacks
	forge_run b.out "start=1000000000000000000 wall=5000000000" <stacks
	"$PROF" -F pprof "$GRAPH" a.out b.out >ab.pb.gz ||
	    atf_fail "prof failed"
	atf_check -o match:'^Time: 2001-09-09 01:46:40 \+0000 ' \
	    env TZ=UTC0 go tool pprof -raw ab.pb.gz
	atf_check -o match:'^Duration: 6s,' go tool pprof -top ab.pb.gz
	# A RUN record of 192 bytes, as libmon wrote it before start_ns
	# and wall_ns: no time.
	forge_run old.out "start=5 wall=5 len=192" <stacks
	"$PROF" -F pprof "$GRAPH" old.out >old.pb.gz || atf_fail "prof failed"
	go tool pprof -raw old.pb.gz >raw 2>err || atf_fail "$(cat err)"
	grep -q '^Samples' raw || atf_fail "no samples: $(cat raw)"
	grep '^Time:\|^Duration:' raw && atf_fail "a time from an old file"
	true
}

atf_test_case line_table_warning_once_printable
line_table_warning_once_printable_head()
{
	atf_set descr "A malformed line table is one warning, 'warning:' and" \
	    "the file's name made printable (a control byte as '?'), with" \
	    "-F callgrind as with -F pprof: the two share the tables"
}
line_table_warning_once_printable_body()
{
	setup_export
	prog=$srcdir/h_burn
	atf_check "$prog" 300000 100
	objcopy --dump-section .debug_line=line "$prog" || atf_fail "objcopy"
	head -c 100 line >short
	name=$(printf 'b\033ad')
	objcopy --update-section .debug_line=short "$prog" "$name" ||
	    atf_fail "objcopy"
	for f in callgrind pprof; do
		"$PROF" -F $f "$name" >out 2>err || atf_fail "prof: $(cat err)"
		atf_check -o inline:"prof: warning: b?ad: .debug_line: a line table runs past .debug_line; 1 line table skipped\n" \
		    cat err
	done
}

atf_test_case pprof_function_names_leave_object_to_mapping
pprof_function_names_leave_object_to_mapping_head()
{
	atf_set descr "-F pprof names a function as the report does less" \
	    "its object, which the location's mapping holds: go tool pprof" \
	    "-top shows libc's random as 'random', and -traces its object" \
	    "apart; h_qsort.c's functions carry their source file"
}
pprof_function_names_leave_object_to_mapping_body()
{
	setup_export
	need_go
	HOME=$PWD
	export HOME
	prog=$srcdir/h_qsort
	atf_check "$prog"
	"$PROF" -h "$prog" >report || atf_fail "prof failed"
	atf_check -o match:' random \(libc\.so\.6\)$' cat report
	"$PROF" -F pprof "$prog" >out.pb || atf_fail "prof -F pprof failed"
	go tool pprof -top -nodecount=100000 out.pb >top 2>err ||
	    atf_fail "go tool pprof: $(cat err)"
	atf_check -o match:'%  random$' cat top
	atf_check -o not-match:'\(libc\.so\.6\)|\(h_qsort\)' cat top
	go tool pprof -raw out.pb >raw 2>err || atf_fail "$(cat err)"
	# random's locations' mapping is libc's (a location a line).
	m=$(sed -n 's/^ *[0-9]*: 0x[0-9a-f]* M=\([0-9]*\) random .*/\1/p' raw |
	    sort -u)
	[ -n "$m" ] || atf_fail "no location of random: $(cat raw)"
	atf_check -o match:"^$m: .*/libc\\.so\\.6 " cat raw
	atf_check -o match:' M=[0-9]+ cmp_int /.*/h_qsort\.c:[0-9]+ ' cat raw
}

atf_test_case pprof_unnamed_code_keeps_its_object
pprof_unnamed_code_keeps_its_object_head()
{
	atf_set descr "go tool pprof names each object's [unnamed code] with" \
	    "its object, as the report does, and keeps two objects' apart:" \
	    "pprof cuts what is in parentheses from a name with brackets" \
	    "unless the profile's system name says it is the symbol's own"
}
pprof_unnamed_code_keeps_its_object_body()
{
	setup_export
	need_go
	{
		work_stacks
		echo "obj 0x7f0000000000 0x7f0000001000 0x7f0000002000 - /nonexistent/libx.so"
		echo "obj 0x7f1000000000 0x7f1000001000 0x7f1000002000 - /nonexistent/liby.so"
		echo "stack 3 0 0x7f0000001010 $(gs 7 16) $(gs 0 48)"
		echo "stack 2 0 0x7f1000001010 $(gs 7 16) $(gs 0 48)"
		echo "pcs 0x7f0000001010 3"
		echo "pcs 0x7f1000001010 2"
	} | forge mon.out
	"$PROF" -F pprof "$GRAPH" >out.pb.gz 2>err || atf_fail "$(cat err)"
	go tool pprof -top -nodefraction=0 out.pb.gz >top 2>err ||
	    atf_fail "$(cat err)"
	for o in "30ms.*\[unnamed code\] (/nonexistent/libx.so)$" \
	    "20ms.*\[unnamed code\] (/nonexistent/liby.so)$"; do
		grep -q "$o" top || atf_fail "no /$o/ in: $(cat top)"
	done
	# The program's own names are as they were: equal, for pprof to
	# treat as it treats any.
	go tool pprof -raw out.pb.gz >raw 2>err || atf_fail "$(cat err)"
	grep -q " M=1 sorter :0 s=0$" raw || atf_fail "sorter: $(cat raw)"
}

atf_test_case pprof_lines_from_compressed_debug_info
pprof_lines_from_compressed_debug_info_head()
{
	atf_set descr "A program whose debug sections are zlib-compressed" \
	    "(gcc -gz, objcopy --compress-debug-sections, distributions'" \
	    "debug files) gives go tool pprof the same files and lines as" \
	    "the program uncompressed; one compressed with zstd, which prof" \
	    "does not read, none, and a warning naming it"
	atf_set require.progs objcopy
}
pprof_lines_from_compressed_debug_info_body()
{
	setup_export
	need_go
	prog=$srcdir/h_burn
	burn_run "$prog"
	objcopy --compress-debug-sections=zlib "$prog" app.z ||
	    atf_fail "objcopy failed"
	readelf -S app.z | grep -A1 ' .debug_line ' | grep -q ' C ' ||
	    atf_fail "app.z: .debug_line not compressed"
	for p in "$prog" app.z; do
		"$PROF" -F pprof "$p" >out.pb.gz 2>err ||
		    atf_fail "prof failed: $(cat err)"
		[ -s err ] && atf_fail "$p: prof warned: $(cat err)"
		go tool pprof -raw out.pb.gz >raw 2>err || atf_fail "$(cat err)"
		awk '/^Locations/ { on = 1; next } /^Mappings/ { on = 0 }
		    on && $3 == "M=1" { print $4, $5, $6 }' raw >locs.${p##*/}
	done
	grep -q ' /[^ ]*/h_burn.c:[1-9]' locs.app.z ||
	    atf_fail "no source lines: $(cat locs.app.z)"
	cmp -s locs.h_burn locs.app.z ||
	    atf_fail "compressed: $(cat locs.app.z); plain: $(cat locs.h_burn)"
	if objcopy --compress-debug-sections=zstd "$prog" app.zst 2>/dev/null
	then
		atf_check -o save:zst.pb.gz -e inline:"prof: warning: app.zst: .debug_line: compressed with zstd, which prof does not read; no source lines from it\n" \
		    "$PROF" -F pprof app.zst
		go tool pprof -raw zst.pb.gz >raw 2>err || atf_fail "$(cat err)"
		grep ' M=1 burn50 :0 s=0$' raw || atf_fail "zstd: $(cat raw)"
	fi
}

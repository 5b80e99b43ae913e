#! /usr/bin/env atf-sh
#
# perfmap_test.sh -- mon_perfmap_init, _write, _fini and _copy
# (mon_perfmap(3C)) on h_jitapi, a program that writes loops into an
# executable page and names them: the names in /tmp/perf-PID.map, read
# back by perf where the kernel lets it run, and in mon.out, read by
# prof with the map gone; the calls' refusals; the map's safety.

setup_jit()
{
	srcdir=$(atf_get_srcdir)
	PROF=$srcdir/../../prof/prof
	PROG=$srcdir/h_jitapi
	unset PROFDIR PROFHZ PROFCLOCK PROFSTACK
	LC_ALL=C
	export LC_ALL
	[ -x "$PROF" ] || atf_fail "prof is not built: $PROF"
	[ -x "$PROG" ] || atf_fail "h_jitapi is not built: $PROG"
}

# The maps of the pids h_jitapi printed ("PID ..." lines in file $1)
# and of those the profiles name, removed.
remove_maps()
{
	for pid in $(awk '$1 ~ /^[0-9]+$/ { print $1 }' "$1" 2>/dev/null |
	    sort -u) $(ls *.h_jitapi 2>/dev/null | sed 's/\..*//'); do
		rm -f "/tmp/perf-$pid.map"
	done
}

# A flat report's rows on stdin: "name share" for the rows of
# generated code ("name (jit)").
jit_rows()
{
	awk '$NF == "(jit)" && $1 ~ /^[0-9.]+$/ { print $(NF - 1), $1 }'
}

# shares_hold N: the rows of generated code in report hold, within 3
# points, the shares of the process's CPU time that the N loops took by
# the thread's clock, as truth has them ("PID NAME MS", "PID total MS").
shares_hold()
{
	jit_rows <report >rows
	awk -v n="$1" '
	    NR == FNR { if ($2 == "total") all += $3; else ms[$2] += $3
			next }
	    { got[$1] = $2 }
	    END {
		for (f in ms) {
			want = 100 * ms[f] / all
			d = got[f] - want
			if (!(f in got) || d < -3 || d > 3) {
				printf "%s: %s%% in prof, %.1f%% measured\n",
				    f, got[f], want; bad = 1
			}
		}
		if (length(ms) != n) { print "no truth for " n; bad = 1 }
		exit bad
	    }' truth rows >verdict ||
	    atf_fail "$(cat verdict) -- report: $(cat report)"
}

atf_test_case names_from_profile_alone cleanup
names_from_profile_alone_head()
{
	atf_set descr "Code named with mon_perfmap_write and run in two" \
	    "threads and a fork child is named from mon.out alone, the" \
	    "maps in /tmp removed: each loop's share within 3 points of" \
	    "the CPU its calls took by the thread's clock"
}
names_from_profile_alone_body()
{
	setup_jit
	PROFDIR=. "$PROG" run >truth || atf_fail "h_jitapi failed"
	remove_maps truth
	set -- *.h_jitapi
	[ $# -eq 2 ] || atf_fail "want a profile of the parent and of the" \
	    "child, have: $*"
	"$PROF" "$PROG" "$@" >report 2>err || atf_fail "prof: $(cat err)"
	# Calls of 20 ms, some 20 ticks of the timer clock where perf is
	# refused: each is off by a tick at its ends at most, and 54 of
	# them make every share good to well under a point.
	shares_hold 3
	# Both processes' names, six entries each: the loops twice, once
	# as the program measured their speed.
	"$PROF" -s "$PROG" "$@" 2>&1 >/dev/null | grep '^JIT names:' >maps
	[ "$(grep -Eo 'names kept by process [0-9]+ \([0-9] of 6 ' maps |
	    wc -l)" -eq 2 ] || atf_fail "prof -s: $(cat maps)"
}
names_from_profile_alone_cleanup()
{
	remove_maps truth
}

atf_test_case child_names_what_it_inherited cleanup
child_names_what_it_inherited_head()
{
	atf_set descr "A fork child that named nothing itself has the" \
	    "names it inherited in its own profile, and in its own map," \
	    "which starts with them (mon_perfmap_init in the child)"
}
child_names_what_it_inherited_body()
{
	setup_jit
	PROFDIR=. "$PROG" run 5 >truth || atf_fail "h_jitapi failed"
	# The child reports first: it ends before its parent.
	child=$(awk 'NR == 1 { print $1 }' truth)
	[ -f "/tmp/perf-$child.map" ] ||
	    atf_fail "the child wrote no map of its own"
	atf_check -o match:'jit_a$' -o match:'jit_b$' -o match:'jit_c$' \
	    cat "/tmp/perf-$child.map"
	remove_maps truth
	"$PROF" "$PROG" "$child.h_jitapi" >report 2>err ||
	    atf_fail "prof: $(cat err)"
	[ "$(jit_rows <report | wc -l)" -eq 3 ] ||
	    atf_fail "the child's profile names not all three: $(cat report)"
}
child_names_what_it_inherited_cleanup()
{
	remove_maps truth
}

atf_test_case perf_reads_the_map cleanup
perf_reads_the_map_head()
{
	atf_set descr "perf, an independent reader, names the loops from" \
	    "the maps libmon wrote, the child's included"
}
perf_reads_the_map_body()
{
	setup_jit
	command -v perf >/dev/null || atf_skip "perf is not installed"
	perf record -q -o perf.data -- "$PROG" run 5 >truth 2>err ||
	    atf_skip "perf record cannot run here: $(tr "\n" " " <err | cut -c 1-100)"
	perf report -i perf.data --stdio --sort sym 2>/dev/null >report ||
	    atf_fail "perf report failed"
	for n in jit_a jit_b jit_c; do
		grep -q "\] $n\$" report ||
		    atf_fail "perf does not name $n: $(head -n 30 report)"
	done
}
perf_reads_the_map_cleanup()
{
	remove_maps truth
}

atf_test_case planted_link_not_followed
planted_link_not_followed_head()
{
	atf_set descr "A symbolic link, a second hard link or a FIFO" \
	    "planted at /tmp/perf-PID.map is refused (ELOOP, EPERM," \
	    "ENXIO; the FIFO at once, not waited on): the file a link" \
	    "leads to is left as it was; with it gone, the map is made"
}
planted_link_not_followed_body()
{
	setup_jit
	for how in symlink:ELOOP hardlink:EPERM fifo:ENXIO; do
		timeout 60 "$PROG" "${how%:*}" >out 2>err ||
		    atf_fail "h_jitapi ${how%:*}: $(cat err)"
		atf_check -o inline:"mon_perfmap_init = -1 ${how#*:}
mon_perfmap_write = -1 ${how#*:}
target: untouched
mon_perfmap_write = 0 0
" sed '$d' out
		tail -n 1 out | grep -Eq '^map: [0-9a-f]+ 10 second$' ||
		    atf_fail "no map made after the link went: $(cat out)"
	done
}
atf_test_case bad_arguments_einval
bad_arguments_einval_head()
{
	atf_set descr "A NULL or empty name, a name of two lines or of 4096" \
	    "bytes, a size of 0, code past the top of the address space," \
	    "a copy of NULL, of a device or of the process's own map get -1" \
	    "and EINVAL; a name of 4095 bytes is taken; a call that" \
	    "succeeds leaves errno alone"
}
bad_arguments_einval_body()
{
	setup_jit
	atf_check -o save:out "$PROG" badargs
	atf_check -o inline:"null name = -1 EINVAL
empty name = -1 EINVAL
zero size = -1 EINVAL
past the top = -1 EINVAL
two lines = -1 EINVAL
copy of null = -1 EINVAL
copy of a device = -1 EINVAL
4096 bytes = -1 EINVAL
4095 bytes = 0 0
good = 0 0
errno after good = EDOM
copy of its own map = -1 EINVAL
" grep -v '^map: ' out
	tail -n 1 out | grep -Eq '^map: [0-9a-f]+ 10 good one$' ||
	    atf_fail "the good entry is not in the map: $(cat out)"
}

atf_test_case copy_appends_parent_lines
copy_appends_parent_lines_head()
{
	atf_set descr "mon_perfmap_copy appends the lines of a parent's map" \
	    "that parse, skips the others as perf does, and keeps them for" \
	    "the profile, which names the code with the map gone; a map" \
	    "that is not there is ENOENT"
}
copy_appends_parent_lines_body()
{
	setup_jit
	printf '%s\n' '1000 10 parent_one' 'bad line' '0x2000 0x20 parent two' \
	    '3000 0 zero size' >parent.map
	printf '4000 10 no_newline_at_the_end' >>parent.map
	atf_check -o save:out "$PROG" copy parent.map
	atf_check -o inline:"mon_perfmap_copy = 0 0
mon_perfmap_copy of none = -1 ENOENT
map: 1000 10 parent_one
map: 2000 20 parent two
map: 4000 10 no_newline_at_the_end
" sed '$d' out
	tail -n 1 out | grep -Eq '^map: [0-9a-f]+ 10 copied_loop$' ||
	    atf_fail "the line h_jitapi added is not copied: $(cat out)"
	# The map is gone (h_jitapi removed it): the profile names the loop.
	"$PROF" "$PROG" >report 2>err || atf_fail "prof: $(cat err)"
	grep -Eq '^ *[0-9.]+ .* copied_loop \(jit\)$' report ||
	    atf_fail "the copied name is not in the profile: $(cat report)"
}

atf_test_case reused_address_named_by_part
reused_address_named_by_part_head()
{
	atf_set descr "Code freed and other code named at its address after" \
	    "a snapshot: each part names its samples with the names given" \
	    "by its end, so both functions have their rows, each within 3" \
	    "points of its thread-CPU time"
}
reused_address_named_by_part_body()
{
	setup_jit
	PROFDIR=. "$PROG" reuse >truth || atf_fail "h_jitapi failed"
	set -- *.h_jitapi.*
	[ $# -eq 2 ] || atf_fail "want two parts, have: $*"
	"$PROF" "$PROG" "$@" >report 2>err || atf_fail "prof: $(cat err)"
	shares_hold 2
}

atf_test_case unprofiled_program_names_code
unprofiled_program_names_code_head()
{
	atf_set descr "A program built without -p, linked with libmon, names" \
	    "its code in the map all the same, and writes no profile"
}
unprofiled_program_names_code_body()
{
	setup_jit
	atf_check -o save:out "$srcdir/h_jitapi_plain" badargs
	tail -n 1 out | grep -Eq '^map: [0-9a-f]+ 10 good one$' ||
	    atf_fail "the entry is not in the map: $(cat out)"
	[ ! -e mon.out ] || atf_fail "an unprofiled program wrote mon.out"
}

atf_test_case handler_and_program_write
handler_and_program_write_head()
{
	atf_set descr "Entries written from a SIGALRM handler while the" \
	    "program writes its own: no call fails or hangs, and every line" \
	    "of the map is whole"
}
handler_and_program_write_body()
{
	setup_jit
	atf_check -o save:out timeout 120 "$PROG" signals
	read made bad handled failed <out
	map=$(sed -n 2p out)
	[ "$bad" -eq 0 ] && [ "$failed" -eq 0 ] ||
	    atf_fail "calls failed: $bad in the program, $failed in handlers"
	awk -v want=$((made + handled)) '
	    !/^[0-9a-f]+ (20 from main|1 from a handler)$/ { bad++ }
	    END { if (bad || NR != want) {
		printf "%d lines, %d bad, want %d\n", NR, bad, want; exit 1 } }
	    ' "$map" >verdict || { rm -f "$map"; atf_fail "$(cat verdict)"; }
	rm -f "$map"
}

atf_test_case cut_line_taken_back
cut_line_taken_back_head()
{
	atf_set descr "A line the file's size limit cuts (as a full file" \
	    "system does) fails with ENOSPC and is taken back: once there" \
	    "is room, the next line is whole, not joined to the cut one"
}
cut_line_taken_back_body()
{
	setup_jit
	atf_check -o save:out "$PROG" full
	[ "$(head -n 1 out)" = "failed 1 ENOSPC" ] ||
	    atf_fail "want one call failed, ENOSPC: $(head -n 1 out)"
	sed 1d out | awk '
	    !/^map: [0-9a-f]+ 10 (f[0-9]+_0+|after)$/ { bad++ }
	    END { if (bad || $0 !~ / after$/) exit 1 }' ||
	    atf_fail "the map has a cut line, or lost the next: $(cat out)"
}

atf_test_case closed_descriptor_not_reused
closed_descriptor_not_reused_head()
{
	atf_set descr "A program that closes every descriptor, as a daemon" \
	    "does, then opens a file of its own: no line goes into that" \
	    "file, mon_perfmap_fini does not close it, and the next name" \
	    "goes into the map, opened again"
}
closed_descriptor_not_reused_body()
{
	setup_jit
	# Unprofiled: closing every descriptor would close the profile's.
	atf_check -o save:out "$srcdir/h_jitapi_plain" daemon
	atf_check -o inline:"data: data
data: more
" grep '^data: ' out
	grep '^map: ' out | sed 's/^map: [0-9a-f]* 10 //' >names
	atf_check -o inline:"before
after
" cat names
}

atf_init_test_cases()
{
	atf_add_test_case names_from_profile_alone
	atf_add_test_case child_names_what_it_inherited
	atf_add_test_case perf_reads_the_map
	atf_add_test_case planted_link_not_followed
	atf_add_test_case bad_arguments_einval
	atf_add_test_case copy_appends_parent_lines
	atf_add_test_case handler_and_program_write
	atf_add_test_case reused_address_named_by_part
	atf_add_test_case unprofiled_program_names_code
	atf_add_test_case cut_line_taken_back
	atf_add_test_case closed_descriptor_not_reused
}

#! /usr/bin/env atf-sh
#
# regress_test.sh -- the fuzz corpus replayed through prof itself.
#
# Every seed and every input the fuzzers once crashed on (regress/) goes
# through the real prof binary, as the harnesses fed it: a mon.out
# against the fixed program the seeds were written by (alone, and twice
# with the options fuzz_monread picks, as it merges it with itself), a
# program against a fixed real mon.out with the options of both passes
# of fuzz_elfsym, a perf map as the map of the process of a fixed
# forged mon.out.  prof must end on its own: exit 0, or exit 1 with
# exactly one line on stderr naming the input -- never a signal, never
# a sanitizer report (in a SANITIZE=1 build); a perf map, which can only
# name code, must leave it at exit 0 and silent.  No clang is needed
# here.
# The same runs go through valgrind's memcheck too (the valgrind script).

setup()
{
	srcdir=$(atf_get_srcdir)
	PROF=$srcdir/../../prof/prof
	PROG=$srcdir/seeds/elf/h_burn
	MDATA=$srcdir/seeds/monread/pie.out
	unset PROFDIR PROFHZ PROFCLOCK
	LC_ALL=C
	export LC_ALL
	[ -x "$PROF" ] || atf_fail "prof is not built: $PROF"
	[ -f "$PROG" ] && [ -f "$MDATA" ] || atf_fail "the seeds are missing"
	bad=0
	n=0
}

# judge input args...: run prof with args, say what is wrong, if anything.
judge()
{
	in=$1
	shift
	"$PROF" "$@" >out 2>err
	rc=$?
	n=$((n + 1))
	if grep -q -e 'Sanitizer' -e 'runtime error' err; then
		echo "$in: sanitizer report (prof $*):"
		cat err
		bad=$((bad + 1))
		return
	fi
	case $rc in
	0)	return ;;
	1)	;;
	*)	echo "$in: exit status $rc (prof $*)"
		cat err
		bad=$((bad + 1))
		return ;;
	esac
	# -F, -w and -T refuse after the reading's warnings: the line is
	# the last.
	if echo " $* " | grep -q -e ' -F ' -e ' -w ' -e ' -T '; then
		case $(tail -n 1 err) in
		"prof: $in: "*)
			return ;;
		esac
	fi
	case $(cat err) in
	"prof: $in: "*)
		[ "$(wc -l <err)" -eq 1 ] && return ;;
	esac
	echo "$in: exit 1 without one line naming it (prof $*):"
	cat err
	bad=$((bad + 1))
}

# The options fuzz_monread takes for an input of the size of file $1.
harness_opts()
{
	size=$(wc -c <"$1")
	printf -- '-s -%s' $(echo t c n a | cut -d' ' -f$((size % 4 + 1)))
	[ $((size & 4)) -ne 0 ] && printf ' -g'
	[ $((size & 8)) -ne 0 ] && printf ' -z'
	[ $((size & 16)) -ne 0 ] && printf ' -x'
	[ $((size & 32)) -ne 0 ] && printf ' -p'
	[ $((size & 128)) -ne 0 ] && printf ' -q'
	[ $((size & 256)) -ne 0 ] && printf ' -i'
	[ $((size & 512)) -ne 0 ] && printf ' -e'
	[ $((size & 1024)) -ne 0 ] && printf ' -F %s' \
	    $(echo folded svg pprof callgrind | cut -d' ' -f$(((size >> 11 & 3) + 1)))
	[ $((size & 1024)) -ne 0 ] && [ $((size >> 11 & 3)) -ne 3 ] &&
	    [ $((size & 8192)) -ne 0 ] && printf ' -M'
	echo
}

# The files of the corpus folders given, seeds first.
inputs()
{
	for d in "$@"; do
		[ -d "$d" ] || continue
		for f in "$d"/*; do
			[ -f "$f" ] && echo "$f"
		done
	done
}

verdict()
{
	[ $n -gt 0 ] || atf_fail "no inputs found"
	[ $bad -eq 0 ] || atf_fail "$bad of $n runs of prof went wrong"
}

atf_test_case mdata_inputs_end_cleanly
mdata_inputs_end_cleanly_head()
{
	atf_set descr "Every mon.out seed and crash input of the fuzzer ends" \
	    "prof with exit 0, or exit 1 and one line naming it"
}
mdata_inputs_end_cleanly_body()
{
	setup
	for f in $(inputs "$srcdir/seeds/monread" "$srcdir/regress/monread")
	do
		judge "$f" "$PROG" "$f"
		judge "$f" $(harness_opts "$f") "$PROG" "$f" "$f"
		judge "$f" -q -e "$PROG" "$f"
		judge "$f" -i -e -s "$PROG" "$f" "$f"
		judge "$f" -w "$PROG" "$f" "$f"
		judge "$f" -w -r "$PROG" "$f"
		judge "$f" -T -C "$PROG" "$f" "$f"
		for fmt in folded svg pprof callgrind gmon; do
			judge "$f" -F $fmt "$PROG" "$f"
		done
		for fmt in folded svg pprof; do
			judge "$f" -M -F $fmt "$PROG" "$f" "$f"
		done
	done
	verdict
}

atf_test_case program_inputs_end_cleanly
program_inputs_end_cleanly_head()
{
	atf_set descr "Every ELF seed and crash input of the fuzzer, given as" \
	    "the program, ends prof with exit 0, or exit 1 and one line" \
	    "naming it"
}
program_inputs_end_cleanly_body()
{
	setup
	for f in $(inputs "$srcdir/seeds/elf" "$srcdir/regress/elf"); do
		judge "$f" -s -p "$f" "$MDATA"
		judge "$f" -s -p -g -z -a -o "$f" "$MDATA"
		judge "$f" -F pprof -p "$f" "$MDATA"
		judge "$f" -L -p "$f" "$MDATA"
		judge "$f" -A -p "$f" "$MDATA"
	done
	verdict
}

# The process whose perf map seeds/monread/jit.out looks in.
JITMAP=/tmp/perf-4194100.map

atf_test_case perfmap_inputs_end_cleanly cleanup
perfmap_inputs_end_cleanly_head()
{
	atf_set descr "Every perf map seed and crash input of the fuzzer, as" \
	    "the map of a profile's process, leaves prof silent and at exit 0"
}
perfmap_inputs_end_cleanly_body()
{
	setup
	for f in $(inputs "$srcdir/seeds/perfmap" "$srcdir/regress/perfmap")
	do
		rm -f "$JITMAP"
		cp "$f" "$JITMAP" || atf_fail "cannot write $JITMAP"
		for o in -s "-s -x -c" "-s -p"; do
			"$PROF" $o "$PROG" "$srcdir/seeds/monread/jit.out" \
			    >out 2>err
			rc=$?
			n=$((n + 1))
			# -s prints on stderr too, but no line of its own
			# starts with prof: as warnings do.
			if [ $rc -ne 0 ] || grep -q -e '^prof:' \
			    -e 'Sanitizer' -e 'runtime error' err; then
				echo "$f: exit $rc (prof $o):"
				cat err
				bad=$((bad + 1))
			fi
		done
	done
	rm -f "$JITMAP"
	verdict
}
perfmap_inputs_end_cleanly_cleanup()
{
	rm -f "$JITMAP"
}

atf_test_case clean_under_valgrind
clean_under_valgrind_head()
{
	atf_set descr "prof reads every seed and crash input with no error" \
	    "from valgrind's memcheck (skipped without valgrind, or when" \
	    "prof is built with ASan)"
}
clean_under_valgrind_body()
{
	srcdir=$(atf_get_srcdir)
	sh "$srcdir/valgrind" >out 2>&1
	case $? in
	0)	;;
	77)	atf_skip "$(tail -1 out)" ;;
	*)	cat out
		atf_fail "$(tail -1 out)" ;;
	esac
}

atf_init_test_cases()
{
	atf_add_test_case mdata_inputs_end_cleanly
	atf_add_test_case program_inputs_end_cleanly
	atf_add_test_case perfmap_inputs_end_cleanly
	atf_add_test_case clean_under_valgrind
}

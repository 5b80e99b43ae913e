#! /usr/bin/env atf-sh
#
# gmonapi_test -- the calls glibc's gmon gives gprof users, made on
# libmon: moncontrol(), monstartup() and _mcleanup(), sprofil().

setup()
{
	. "$(atf_get_srcdir)/../harness.sh"
	srcdir=$(atf_get_srcdir)
	PROF=$srcdir/../../prof/prof
	unset PROFDIR PROFHZ PROFCLOCK
	LC_ALL=C
	export LC_ALL
	bad=
}

fact()
{
	awk -v k="$2" '$1 == k { print $2; exit }' "$1/facts"
}

# row DIR NAME: "seconds calls" of NAME's row in DIR/rows ("0 0" if none).
row()
{
	awk -v n="$2" '$NF == n { s = $2; c = (NF == 6 ? $4 : 0); found = 1 }
	    END { print (found ? s " " c : "0 0") }' "$1/rows"
}

atf_test_case moncontrol_pauses_and_resumes
moncontrol_pauses_and_resumes_head()
{
	atf_set descr "moncontrol(0) pauses samples and call counts until" \
	    "moncontrol(1), whatever the clock: the paused part has no" \
	    "time and no calls, and the rest its own CPU time"
}
moncontrol_pauses_and_resumes_body()
{
	setup
	for c in perf timer itimer; do
		mkdir $c
		( cd $c && env PROFCLOCK=$c "$srcdir/h_gmonapi" control 300 \
		    >out 2>err ) || fail "$c: status $?: $(cat $c/err)"
		( cd $c && "$PROF" "$srcdir/h_gmonapi" mon.out >rows ) ||
		    { fail "$c: prof"; continue; }
		set -- $(row $c warm)
		holds "$1 <= 0.01 && $2 == 0" \
		    "$c: paused warm() got $1 s and $2 calls"
		set -- $(row $c leaf)
		[ "$2" = 10 ] || fail "$c: leaf() $2 calls, not the 10 unpaused"
		set -- $(row $c work)
		want=$(fact $c work_ns)
		holds "($1 - $want / 1e9)^2 <= (0.15 * $want / 1e9 + 0.03)^2" \
		    "$c: work() $1 s, its thread's CPU clock $want ns"
	done
	verdict
}

atf_test_case monstartup_and_mcleanup_profile
monstartup_and_mcleanup_profile_head()
{
	atf_set descr "A program built without -p that calls monstartup()" \
	    "over its text and _mcleanup() at the end gets mon.out with its" \
	    "time, as glibc documents for gmon"
}
monstartup_and_mcleanup_profile_body()
{
	setup
	"$srcdir/h_gmonapi_plain" startup 300 >out 2>err ||
	    atf_fail "status $?: $(cat err)"
	[ -f mon.out ] || atf_fail "no mon.out"
	"$PROF" "$srcdir/h_gmonapi_plain" mon.out >rows 2>/dev/null ||
	    atf_fail "prof"
	set -- $(row . work)
	want=$(awk '$1 == "work_ns" { print $2 }' facts)
	holds "($1 - $want / 1e9)^2 <= (0.15 * $want / 1e9 + 0.03)^2" \
	    "work() $1 s, its thread's CPU clock $want ns"
	verdict
}

atf_test_case sprofil_says_enosys
sprofil_says_enosys_head()
{
	atf_set descr "sprofil(), which libmon does not provide, fails with" \
	    "ENOSYS and one line on standard error, never silently"
}
sprofil_says_enosys_body()
{
	atf_check -o inline:"sprofil: -1, errno ENOSYS\ndone\n" \
	    -e match:'^libmon: sprofil: not provided' \
	    "$(atf_get_srcdir)/h_gmonapi" sprofil
}

atf_init_test_cases()
{
	atf_add_test_case moncontrol_pauses_and_resumes
	atf_add_test_case monstartup_and_mcleanup_profile
	atf_add_test_case sprofil_says_enosys
}

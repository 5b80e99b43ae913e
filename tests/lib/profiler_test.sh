#! /usr/bin/env atf-sh
#
# profiler_test -- the profiler API of <mon.h> (lib/profiler.c) and the
# modules PROFMODULE loads (modules/).
#
# The helper (profapi.c: h_profapi by gcc, h_profapi_clang) says on
# stdout what it did ("did NAME N") and what each of its two handles
# saw; the handles' counts must be the program's own, exactly.  The
# modules' files are read against the same "did" lines: calltrace's
# JSON by python3's parser, latency's histograms by awk.

setup()
{
	srcdir=$(atf_get_srcdir)
	. "$srcdir/../harness.sh"
	MODS=$srcdir/../../modules
	PROF=$srcdir/../../prof/prof
	unset PROFDIR PROFHZ PROFCLOCK PROFSTACK PROFMODULE
	LC_ALL=C
	export LC_ALL
	bad=
}

# did DIR NAME: the program's own count of NAME's calls.
did()
{
	awk -v n="$2" '$1 == "did" && $2 == n { print $3 }' "$1/out"
}

# saw DIR WHO NAME: "ENTERS LEAVES" of handle WHO ("A", "child B").
saw()
{
	awk -v w="$2 calls $3" 'index($0, w " ") == 1 {
		n = split(w, x, " "); print $(n + 1), $(n + 2) }' "$1/out"
}

# errs DIR: DIR/err less the sanitizers' notes (make SANITIZE=1).
errs()
{
	grep -v '^==[0-9]*==' "$1/err"
}

# quiet DIR: the run ended with status 0 and nothing on stderr.
quiet()
{
	[ "$(cat "$1/status")" = 0 ] || fail "$1: status $(cat "$1/status")"
	[ -z "$(errs "$1")" ] || fail "$1: stderr: $(errs "$1" | head -3)"
}

# lines DIR TEXT...: each TEXT is a whole line of DIR/out.
lines()
{
	local d l

	d=$1
	shift
	for l in "$@"; do
		grep -qxF "$l" "$d/out" || fail "$d: no line '$l'"
	done
}

atf_test_case every_event
every_event_head()
{
	atf_set descr "Two handles each see every event -- calls through" \
	    "longjmp, pthread_exit, recursion and a dlopen'd library with" \
	    "enters equal to leaves equal to the calls made, threads," \
	    "fork in the child, library load and unload, JIT code named;" \
	    "a filter is asked once per function and a function it" \
	    "switches off reaches that handle never; a callback's own" \
	    "instrumented calls reach no handle; errno is kept (gcc, clang)"
}
every_event_body()
{
	local h d f n c

	setup
	for h in h_profapi h_profapi_clang; do
		d=$h
		run $d PROFDIR="$PWD" "$srcdir/$h" api \
		    "$srcdir/h_plib.so"
		quiet $d
		for f in work rec deep1 deep2 exit_mid exit_deep \
		    thread_work thread_exits plib_fn; do
			n=$(did $d $f)
			[ -n "$n" ] || { fail "$d: did not say $f"; continue; }
			# One signal from each filter call but hsig's own.
			[ "$f" = hsig ] && [ "$n" -lt 5 ] &&
			    fail "$d: the handler ran $n times, not 5 or more"
			for w in A B; do
				[ "$(saw $d $w $f)" = "$n $n" ] ||
				    fail "$d: $w saw $f '$(saw $d $w $f)'," \
				    "the program made $n calls"
			done
		done
		[ "$(saw $d A leaf)" = "$(saw $d A work)" ] ||
		    fail "$d: leaf and work differ"
		[ "$(saw $d A plib_leaf)" = "2 2" ] || fail "$d: plib_leaf"
		# Switched off by A's filter: A sees none, B every call.
		n=$(did $d off_fn)
		[ "$(saw $d A off_fn)" = "0 0" ] ||
		    fail "$d: A saw off_fn $(saw $d A off_fn)"
		[ "$(saw $d B off_fn)" = "$n $n" ] ||
		    fail "$d: B saw off_fn $(saw $d B off_fn), made $n"
		# Asked once per function, each function it saw.
		c=$(grep -c '^A filter ' $d/out)
		[ "$c" -ge 12 ] || fail "$d: A's filter asked of $c functions"
		awk '$1 == "A" && $2 == "filter" && $4 != 1' $d/out |
		    grep -q . && fail "$d: a filter asked more than once:" \
		    "$(awk '$2 == "filter" && $4 != 1' $d/out | head -2)"
		grep -q 'calls in_cb' $d/out &&
		    fail "$d: a callback's own call reached a handle"
		lines $d "A threads 4 4 4" "B threads 4 4 4" \
		    "A loaded h_plib.so" "B loaded h_plib.so" \
		    "A unloaded h_plib.so" "B unloaded h_plib.so" \
		    "A jit jitted_fn 64" "B jit jitted_fn 64" \
		    "A fork 0" "B fork 0" "child A fork 1" "child B fork 1" \
		    "errno kept" "child errno kept" "child"
		# The child's handles saw its one call more.
		n=$(did $d work)
		[ "$(saw $d 'child A' work)" = "$((n + 1)) $((n + 1))" ] ||
		    fail "$d: the child's A saw work $(saw $d 'child A' work)"
		# Samples with the perf clock: from libmon's thread.
		if "$srcdir/t_hasperf" 2>/dev/null; then
			set -- $(awk '$1 == "A" && $2 == "samples" {
			    print $3, $4 }' $d/out)
			[ "${1:-0}" -gt 0 ] || fail "$d: no sample delivered"
			[ "${2:-1}" = 0 ] ||
			    fail "$d: $2 samples delivered on a program thread"
		fi
	done
	verdict
}

atf_test_case pg_enter
pg_enter_head()
{
	atf_set descr "Code built with -pg gives a handle an enter for" \
	    "every call it makes (mcount and __fentry__, gcc and clang," \
	    "with endbr64, at -O2), from five threads at once, with the" \
	    "function's own address and the caller's return address; the" \
	    "calls of a signal handler that interrupted a hooked call too;" \
	    "the filter is asked once per function, a function it turns down" \
	    "is given never, a callback's own -pg calls never; no leave;" \
	    "float arguments and errno survive a hook that changes them," \
	    "and so do xmm6-15 across an ms_abi function's call;" \
	    "prof counts every call exactly"
}
pg_enter_body()
{
	local h d f n

	setup
	for h in h_pgapi h_pgapi_fentry h_pgapi_clang h_pgapi_clang_fentry \
	    h_pgapi_cet h_pgapi_o2; do
		d=$h
		run $d "$srcdir/$h"
		quiet $d
		for f in leaf dbl rec realign vsum hsig msf; do
			n=$(awk -v f=$f '$1 == "did" && $2 == f { print $3 }' \
			    $d/out)
			[ "$f" = vsum ] && [ "$n" = 0 ] && continue	# no AVX
			[ -n "$n" ] || { fail "$d: did not say $f"; continue; }
			lines $d "enter $f $n" "filter $f 1" "fn $f ok"
			"$PROF" "$srcdir/$h" $d/mon.out >$d/flat 2>/dev/null ||
			    fail "$d: prof failed"
			[ "$(awk -v f=$f '$NF == f { print $4 }' $d/flat)" = \
			    "$n" ] || fail "$d: prof counts $f" \
			    "'$(awk -v f=$f '$NF == f' $d/flat)', made $n"
		done
		lines $d "enter off_fn 0" "filter off_fn 1" "enter in_cb 0" \
		    "leaves 0" "sites bad 0" "vector ok" "msabi ok" \
		    "errno kept"
	done
	verdict
}

atf_test_case pg_signal_mixed
pg_signal_mixed_head()
{
	atf_set descr "A signal handler's -pg call is given to enter, with" \
	    "its function's own address, when the signal came while libmon" \
	    "was deciding an instrumented function (-finstrument-functions)" \
	    "of its thread, with or without PROFCALLS: its locks are held" \
	    "with signals blocked, and the handler does not wait on them"
	atf_set timeout 120
}
pg_signal_mixed_body()
{
	local h m d n

	setup
	for h in h_pgmix h_pgmix_fentry; do
		for m in lock sym; do
			d=${h}_$m
			run $d PROFCALLS="$([ $m = sym ] && echo '*')" \
			    timeout -s KILL 30 "$srcdir/$h" $m
			quiet $d
			n=$(did $d hsig)
			[ "${n:-0}" -ge 1 ] || fail "$d: the handler never ran"
			lines $d "enter hsig $n" "fn hsig ok" "done"
		done
	done
	verdict
}

atf_test_case pg_nested
pg_nested_head()
{
	atf_set descr "A GNU C nested function called through a pointer," \
	    "built with -pg (mcount, __fentry__, and __fentry__ after an" \
	    "endbr64 that comes after gcc's push of the static chain):" \
	    "enters with the function's own address (nm's) and the" \
	    "caller's return address, and prof's arcs from its caller"
}
pg_nested_body()
{
	local h n fn

	setup
	for h in h_pgnest h_pgnest_fentry h_pgnest_cet; do
		run $h "$srcdir/$h" 1000
		quiet $h
		fn=$(nm "$srcdir/$h" | awk '$3 ~ /^inner\./ {
			sub(/^0+/, "", $1); print "0x" $1 }')
		lines $h "enter inner 1000" "fn $fn" "sites bad 0" "others 0"
		"$PROF" -q "$srcdir/$h" $h/mon.out >$h/graph 2>/dev/null ||
		    fail "$h: prof -q failed"
		# inner's callers: the lines of its entry above its own; a
		# sample in inner whose stack lost outer's frame (the call
		# goes through a trampoline on the stack) adds one, from main.
		n=$(awk '/^-----/ { c = ""; next }
		    $1 ~ /^\[/ && $NF ~ /^\[/ && $(NF - 1) ~ /^inner\./ {
			printf "%s", c; exit }
		    $1 ~ /^\[/ { c = ""; next } { c = c $0 "|" }' $h/graph)
		echo "$n" | grep -q " 1000/1000  *outer " ||
		    fail "$h: inner's callers: '$n'"
	done
	verdict
}

atf_test_case pg_dlclose
pg_dlclose_head()
{
	atf_set descr "A -pg (mcount) library loaded where another was" \
	    "unloaded gives its functions' own addresses to enter, read" \
	    "from its own symbols, not the unloaded one's"
}
pg_dlclose_body()
{
	setup
	run dl "$srcdir/h_pgdl" "$srcdir"
	quiet dl
	lines dl "a_f ok" "b_f ok"
	grep -qx "place same" dl/out ||
	    echo "b was not loaded where a was: nothing shown" >&2
	verdict
}

atf_test_case exec_event
exec_event_head()
{
	atf_set descr "Each handle is told of an exec, with its path," \
	    "before the new image runs"
}
exec_event_body()
{
	setup
	run ex "$srcdir/h_profapi" exec
	quiet ex
	lines ex "A exec /proc/self/exe" "B exec /proc/self/exe" "execd"
	[ "$(sed -n 3p ex/out)" = execd ] || fail "exec: the image ran first"
	verdict
}

atf_test_case module_missing
module_missing_head()
{
	atf_set descr "A module that cannot be found is one line on stderr" \
	    "naming it and the reason; the program runs on, its status kept"
}
module_missing_body()
{
	setup
	run mm PROFDIR="$PWD" PROFMODULE=nosuch "$srcdir/h_profapi" plain 7
	[ "$(cat mm/status)" = 7 ] || fail "status $(cat mm/status), not 7"
	[ "$(cat mm/out)" = plain ] || fail "stdout: $(cat mm/out)"
	[ "$(errs mm | wc -l)" -eq 1 ] || fail "stderr: $(cat mm/err)"
	grep -q '^libmon: PROFMODULE nosuch: libmon-profiler-nosuch.so: ' \
	    mm/err || fail "stderr: $(cat mm/err)"
	verdict
}

atf_test_case module_no_entry
module_no_entry_head()
{
	atf_set descr "A module without its entry point, and a program that" \
	    "does not export the API: one line each; the program runs on"
}
module_no_entry_body()
{
	setup
	run ne PROFDIR="$PWD" PROFMODULE="$srcdir/h_badmod.so:x=1" \
	    "$srcdir/h_profapi" plain 5
	[ "$(cat ne/status)" = 5 ] || fail "status $(cat ne/status), not 5"
	[ "$(cat ne/out)" = plain ] || fail "stdout: $(cat ne/out)"
	[ "$(errs ne | wc -l)" -eq 1 ] || fail "stderr: $(cat ne/err)"
	grep -q 'PROFMODULE .*h_badmod.so: no mon_profiler_init_h_badmod in' \
	    ne/err || fail "stderr: $(cat ne/err)"
	# h_cyg is linked without -rdynamic.
	run nx PROFDIR="$PWD" LD_LIBRARY_PATH="$MODS" PROFMODULE=latency \
	    "$srcdir/h_cyg" voids
	[ "$(cat nx/status)" = 0 ] || fail "h_cyg: status $(cat nx/status)"
	[ "$(errs nx | wc -l)" -eq 1 ] || fail "h_cyg: stderr: $(cat nx/err)"
	grep -q 'PROFMODULE latency: the program does not export' nx/err ||
	    fail "h_cyg: stderr: $(cat nx/err)"
	verdict
}

atf_test_case module_setid_ignored
module_setid_ignored_head()
{
	atf_set descr "A set-user-ID program ignores PROFMODULE, as every" \
	    "PROF variable: run by nobody, the set-user-ID copy loads no" \
	    "module (no trace written, nothing said), and the same copy" \
	    "without the bit loads it"
	atf_set require.user root
	atf_set require.progs setpriv
}
module_setid_ignored_body()
{
	local nobody mod

	setup
	nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
	mod=$MODS/libmon-profiler-calltrace.so
	[ -r "$mod" ] || atf_fail "not built: $mod"
	cp "$(command -v id)" id.setuid && chmod 4755 id.setuid ||
	    atf_fail "cannot make a set-user-ID id"
	[ "$($nobody ./id.setuid -u)" = 0 ] ||
	    atf_skip "exec ignores the set-user-ID bit here (NoNewPrivs:" \
	    "$(awk '$1 == "NoNewPrivs:" { print $2 }' /proc/self/status)," \
	    "else a nosuid mount)"
	mkdir home && chown 65534:65534 home || atf_fail "set-up"
	for b in setid plain; do
		cp "$srcdir/h_profapi" home/h_$b || atf_fail "cp"
	done
	# A copy nobody may read wherever the tree lies (CI's is under a
	# directory of mode 0700).
	cp "$mod" home/ && chmod 0644 "home/${mod##*/}" || atf_fail "cp $mod"
	mod=$PWD/home/${mod##*/}
	chmod 4755 home/h_setid && chmod 0755 home/h_plain || atf_fail "chmod"
	for b in setid plain; do
		( cd home && PROFMODULE="$mod:min=0:out=$PWD/$b.json" \
		    $nobody ./h_$b calls >$b.out 2>$b.err; echo $? >$b.status )
		[ "$(cat home/$b.status)" = 0 ] ||
		    fail "h_$b: status $(cat home/$b.status): $(cat home/$b.err)"
	done
	[ -s home/plain.json ] ||
	    fail "without the bit, no trace: the module was not loaded ($(cat home/plain.err))"
	[ ! -e home/setid.json ] ||
	    fail "the set-user-ID program loaded PROFMODULE's module"
	grep -q PROFMODULE home/setid.err &&
	    fail "set-user-ID: stderr: $(cat home/setid.err)"
	verdict
}

atf_test_case calltrace_json
calltrace_json_head()
{
	atf_set descr "calltrace writes Chrome Trace Event JSON: one complete" \
	    "event per call made, with its thread, nested per thread, in" \
	    "microseconds; loaded by name from the library path"
	atf_set require.progs python3
}
calltrace_json_body()
{
	setup
	run ct PROFDIR="$PWD" LD_LIBRARY_PATH="$MODS" \
	    PROFMODULE="calltrace:min=0:out=$PWD/t.json" \
	    "$srcdir/h_profapi" calls
	quiet ct
	[ -s t.json ] || atf_fail "no t.json"
	python3 - t.json ct/out >check 2>&1 <<'EOF' || fail "$(cat check)"
import json, sys
trace = json.load(open(sys.argv[1]))
evs = trace["traceEvents"]
did = {}
for l in open(sys.argv[2]):
    w = l.split()
    if w[0] == "did":
        did[w[1]] = int(w[2])
count, bytid = {}, {}
for e in evs:
    assert e["ph"] == "X" and e["cat"] == "call", e
    assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
    assert isinstance(e["dur"], (int, float)) and e["dur"] >= 0, e
    assert isinstance(e["tid"], int) and isinstance(e["pid"], int), e
    count[e["name"]] = count.get(e["name"], 0) + 1
    bytid.setdefault(e["tid"], []).append(e)
for n, c in did.items():
    assert count.get(n, 0) == c, "%s: %d events, %d calls" % (
        n, count.get(n, 0), c)
assert len(bytid) == 5, "threads %d" % len(bytid)
# Per thread, calls nest: each ends before its caller does.
for t, l in bytid.items():
    l.sort(key=lambda e: (e["ts"], -e["dur"]))
    stack = []
    for e in l:
        end = e["ts"] + e["dur"]
        while stack and stack[-1] <= e["ts"]:
            stack.pop()
        assert not stack or end <= stack[-1] + 0.002, (t, e)
        stack.append(end)
EOF
	verdict
}

atf_test_case latency_counts
latency_counts_head()
{
	atf_set descr "latency's histograms hold every call made: each" \
	    "function's count and its buckets' sum are its calls; printed" \
	    "on stderr by default"
}
latency_counts_body()
{
	local f n

	setup
	run la PROFDIR="$PWD" \
	    PROFMODULE="$MODS/libmon-profiler-latency.so:out=$PWD/lat.txt" \
	    "$srcdir/h_profapi" calls
	quiet la
	for f in work leaf rec thread_work exit_mid; do
		n=$(did la $f)
		awk -v f=$f -v n="$n" '
		    $1 == "latency:" && NF == 5 { cur = $2; if (cur == f) c = $4 }
		    $1 == "latency:" && NF == 4 && cur == f { s += $4 }
		    END { exit !(c == n && s == n) }' lat.txt ||
		    fail "$f: $(grep "latency: $f " lat.txt), made $n"
	done
	run le PROFDIR="$PWD" LD_LIBRARY_PATH="$MODS" PROFMODULE=latency \
	    "$srcdir/h_profapi" calls
	[ "$(cat le/status)" = 0 ] || fail "stderr run: status"
	grep -q "^latency: work 0x[0-9a-f]*: $(did le work) calls$" le/err ||
	    fail "nothing for work on stderr: $(head -3 le/err)"
	verdict
}

atf_test_case jit_event_edges
jit_event_edges_head()
{
	atf_set "descr" "the JIT event: a callback that names code itself" \
	    "hears the program's names only (no recursion); a copied map's" \
	    "lines are heard; a name whose map line was refused (a symbolic" \
	    "link at the map's path) is still heard, as it is still kept"
}
jit_event_edges_body()
{
	setup
	prog=$srcdir/h_jitev
	atf_check -o inline:"returned 0\nheard 3\n" "$prog" inner
	printf '1000 40 first\n2000 40 second\n' >two.map
	atf_check -o inline:"returned 0\nheard 2\n" "$prog" copy two.map
	atf_check -o match:'^returned -1 ' -o match:'^heard 1$' -e ignore \
	    "$prog" failed
}

atf_init_test_cases()
{
	atf_add_test_case every_event
	atf_add_test_case pg_enter
	atf_add_test_case pg_signal_mixed
	atf_add_test_case pg_nested
	atf_add_test_case pg_dlclose
	atf_add_test_case exec_event
	atf_add_test_case module_missing
	atf_add_test_case module_no_entry
	atf_add_test_case calltrace_json
	atf_add_test_case module_setid_ignored
	atf_add_test_case latency_counts
	atf_add_test_case jit_event_edges
}

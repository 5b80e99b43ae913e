#! /usr/bin/env atf-sh
#
# crt_test -- cc -p start-up and mcount: a program built with -p (or
# -pg) and libmon profiles itself from before main to exit, writes
# mon.out (never gmon.out), and counts every call exactly, whatever the
# compiler, PIE or not, mcount or __fentry__, threads, recursion or
# signal handlers.
#
# The helpers are built by make (tests/crt/local.mk), one binary per
# route.  Files are read with tests/lib/t_mondump; a cell belongs to the
# function whose nm symbol range holds its address less the EXEC bias.
#

# Every build of h_calls: gcc -p (PIE), gcc -pg -no-pie, clang -pg,
# gcc -pg -mfentry, clang -pg -mfentry, gcc -specs=... -p, and gcc -p
# -flto with -lmon and through the specs file.
VARIANTS="h_calls h_calls_nopie h_calls_clang h_calls_fentry \
h_calls_clang_fentry h_calls_specs h_calls_lto h_calls_lto_specs"

dump()
{
	"$(atf_get_srcdir)/../lib/t_mondump" "$@"
}

# calls PROG DUMPFILE NAME [CALLER]: the calls DUMPFILE counts for NAME
# in PROG; with CALLER, those of its arcs whose call site is in CALLER.
# NAME may be a GNU C nested function, whose symbol is NAME.N.
calls()
{
	nm -n --defined-only "$1" | awk -v want="$3" -v caller="$4" '
	function hex(s,    i, v) {
		v = 0
		s = tolower(s)
		sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + \
			    index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	FNR == NR {
		if ($2 !~ /^[tTwW]$/)
			next
		a = hex($1)
		if (lo != "" && hi == "" && a > lo)
			hi = a
		if (clo != "" && chi == "" && a > clo)
			chi = a
		if (($3 == want || index($3, want ".") == 1) && lo == "")
			lo = a
		if (caller != "" && $3 == caller && clo == "")
			clo = a
		next
	}
	$1 == "exec.bias" { bias = hex($2) }
	$1 == "cell" && caller == "" { n++; pc[n] = hex($2); cnt[n] = $3 }
	$1 == "arc" && caller != "" {
		n++; from[n] = hex($2); pc[n] = hex($3); cnt[n] = $4
	}
	END {
		if (lo == "" || (caller != "" && clo == "")) {
			print "no-symbol"
			exit
		}
		s = 0
		for (i = 1; i <= n; i++) {
			p = pc[i] - bias
			f = from[i] - bias - 1
			if (p >= lo && (hi == "" || p < hi) && (caller == "" ||
			    (f >= clo && (chi == "" || f < chi))))
				s += cnt[i]
		}
		printf "%d\n", s
	}' - "$2"
}

# field DUMPFILE KEY: the value of a "KEY VALUE" line.
field()
{
	awk -v k="$2" '$1 == k { print $2; exit }' "$1"
}

# Run variant $1 with arguments in directory $1 (made afresh); its
# stdout goes to $1/out, its stderr to $1/err, the status to $1/status.
run()
{
	v=$1
	shift
	rm -rf "$v"
	mkdir "$v" || atf_fail "mkdir $v"
	( cd "$v" && "$(atf_get_srcdir)/$v" "$@" >out 2>err; echo $? >status )
}

# The variant's mon.out, dumped to $v/dump; a failure is recorded.
dumped()
{
	if [ ! -f "$1/mon.out" ]; then
		bad="$bad $1: no mon.out;"
		return 1
	fi
	if ! dump "$1/mon.out" >"$1/dump" 2>"$1/dumperr"; then
		bad="$bad $1: $(cat "$1/dumperr");"
		return 1
	fi
	return 0
}

# expect V FUNCTION N [CALLER]: the dump of V counts N calls of
# FUNCTION (from CALLER's call sites).
expect()
{
	got=$(calls "$(atf_get_srcdir)/$1" "$1/dump" "$2" "$4")
	[ "$got" = "$3" ] ||
	    bad="$bad $1: $2 has $got calls${4:+ from $4}, not $3;"
}

# status_is V CODE: variant V exited with CODE; a failure is recorded.
status_is()
{
	st=$(cat "$1/status")
	[ "$st" = "$2" ] || bad="$bad $1: status $st, not $2;"
}

# What run() left in directory $1 besides its own files.
left_in()
{
	(cd "$1" && ls | grep -v -x -e out -e err -e status -e 'core.*' |
	    tr '\n' ' ')
}

verdict()
{
	[ -z "$bad" ] || atf_fail "$bad"
}

atf_test_case counts_exact
counts_exact_head()
{
	atf_set "descr" "Every build route counts each call of a function " \
	    "exactly: 1,000,000 calls give a count of 1,000,000"
}
counts_exact_body()
{
	bad=
	for v in $VARIANTS; do
		run $v counts 1000000
		dumped $v || continue
		expect $v leaf 1000000
	done
	verdict
}

atf_test_case once_is_one
once_is_one_head()
{
	atf_set "descr" "A function called once, and main, have a count of 1"
}
once_is_one_body()
{
	bad=
	for v in $VARIANTS; do
		run $v counts 10
		dumped $v || continue
		expect $v once 1
		expect $v main 1
	done
	verdict
}

atf_test_case recursion_exact
recursion_exact_head()
{
	atf_set "descr" "Recursive calls are counted exactly: fib(20) is " \
	    "entered 21891 times"
}
recursion_exact_body()
{
	bad=
	for v in $VARIANTS; do
		run $v counts 0
		dumped $v || continue
		expect $v fib 21891
	done
	verdict
}

atf_test_case threads_exact
threads_exact_head()
{
	atf_set "descr" "Calls from many threads are all counted: 8 " \
	    "threads of 1,000,000 calls give exactly 8,000,000"
}
threads_exact_body()
{
	bad=
	for v in $VARIANTS; do
		run $v threads 8 1000000
		dumped $v || continue
		expect $v tleaf 8000000
		expect $v worker 8
	done
	verdict
}

atf_test_case signal_handler_exact
signal_handler_exact_head()
{
	atf_set "descr" "Calls made by a signal handler that interrupts " \
	    "counted code are counted exactly, and so is the interrupted code"
}
signal_handler_exact_body()
{
	bad=
	for v in $VARIANTS; do
		run $v signal 50
		dumped $v || continue
		loops=$(field $v/out loops)
		sigs=$(field $v/out signals)
		if [ "${sigs:-0}" -lt 50 ]; then
			bad="$bad $v: $sigs signals;"
			continue
		fi
		expect $v leaf $((loops + sigs))
		expect $v onsig "$sigs"
		expect $v sigleaf "$sigs"
	done
	verdict
}

atf_test_case realigned_stack_keeps_arguments
realigned_stack_keeps_arguments_head()
{
	atf_set "descr" "A function whose stack gcc realigns, with " \
	    "arguments past the registers, reads them right after mcount " \
	    "(which keeps r10) and is counted: vsum() of 1 to 10, 1000 " \
	    "times, is 55000"
}
realigned_stack_keeps_arguments_body()
{
	bad=
	for v in $VARIANTS; do
		run $v realign 1000
		dumped $v || continue
		sum=$(field $v/out sum)
		[ "$sum" = 55000 ] || bad="$bad $v: sum $sum, not 55000;"
		expect $v vsum 1000 realign
	done
	verdict
}

atf_test_case nested_function_call_site
nested_function_call_site_head()
{
	atf_set "descr" "A GNU C nested function's calls are arcs from the " \
	    "function it is called from, with -mfentry too, where gcc " \
	    "pushes the static chain before calling __fentry__"
}
nested_function_call_site_body()
{
	bad=
	for v in $VARIANTS; do
		run $v nested 1000
		[ "$(field $v/out nested)" = none ] && continue	# clang
		dumped $v || continue
		[ "$(field $v/out nested)" = 499500 ] ||
		    bad="$bad $v: $(cat $v/out);"
		expect $v nestleaf 1000 nested
	done
	verdict
}

atf_test_case no_gmon_out
no_gmon_out_head()
{
	atf_set "descr" "A program built with -p or -pg writes mon.out and " \
	    "no gmon.out"
}
no_gmon_out_body()
{
	bad=
	for v in $VARIANTS; do
		run $v counts 10
		[ -f $v/mon.out ] || bad="$bad $v: no mon.out;"
		[ ! -e $v/gmon.out ] || bad="$bad $v: gmon.out written;"
	done
	verdict
}

atf_test_case mon_out_in_cwd
mon_out_in_cwd_head()
{
	atf_set "descr" "With PROFDIR unset the profile is mon.out in the " \
	    "current directory, and nothing else is left there"
}
mon_out_in_cwd_body()
{
	bad=
	unset PROFDIR
	for v in $VARIANTS; do
		run $v counts 10
		left=$(left_in $v)
		[ "$left" = "mon.out " ] || bad="$bad $v: left $left;"
	done
	verdict
}

atf_test_case mon_out_in_profdir
mon_out_in_profdir_head()
{
	atf_set "descr" "With PROFDIR set to a directory the profile is " \
	    "DIR/pid.progname and no mon.out is written"
}
mon_out_in_profdir_body()
{
	bad=
	for v in $VARIANTS; do
		mkdir p.$v
		( PROFDIR=$PWD/p.$v; export PROFDIR; run $v pid )
		pid=$(field $v/out pid)
		left=$(ls p.$v | tr '\n' ' ')
		[ "$left" = "$pid.$v " ] ||
		    bad="$bad $v: PROFDIR holds '$left', not $pid.$v;"
		[ ! -e $v/mon.out ] || bad="$bad $v: mon.out written too;"
		[ -f "p.$v/$pid.$v" ] && dump "p.$v/$pid.$v" >/dev/null 2>&1 ||
		    bad="$bad $v: no valid profile;"
	done
	verdict
}

atf_test_case pie_and_nopie
pie_and_nopie_head()
{
	atf_set "descr" "Position-independent and fixed-address programs " \
	    "both record the load bias that maps their cells to symbols"
}
pie_and_nopie_body()
{
	bad=
	for v in h_calls h_calls_nopie; do
		run $v counts 100
		dumped $v || continue
		type=$(readelf -h "$(atf_get_srcdir)/$v" |
		    awk '$1 == "Type:" { print $2 }')
		bias=$(field $v/dump exec.bias)
		case $v:$type:$bias in
		h_calls:DYN:0|h_calls:DYN:) bad="$bad PIE with bias '$bias';" ;;
		h_calls:DYN:*) ;;
		h_calls_nopie:EXEC:0) ;;
		*) bad="$bad $v: type $type, bias '$bias';" ;;
		esac
		expect $v leaf 100
	done
	verdict
}

atf_test_case exit_status_kept
exit_status_kept_head()
{
	atf_set "descr" "exit() writes the profile and the program's exit " \
	    "status is kept"
}
exit_status_kept_body()
{
	bad=
	for v in $VARIANTS; do
		run $v exit 3
		status_is $v 3
		dumped $v && expect $v leaf 1
	done
	verdict
}

# No profile from an exit that skips atexit, and nothing half-written.
nofile()
{
	bad=
	for v in $VARIANTS; do
		run $v "$1"
		status_is $v "$2"
		left=$(left_in $v)
		[ -z "$left" ] || bad="$bad $v: left $left;"
	done
	verdict
}

atf_test_case _exit_writes_nothing
_exit_writes_nothing_head()
{
	atf_set "descr" "_exit() writes no profile and leaves no file"
}
_exit_writes_nothing_body()
{
	nofile _exit 0
}

atf_test_case abort_writes_nothing
abort_writes_nothing_head()
{
	atf_set "descr" "abort() writes no profile and leaves no file"
}
abort_writes_nothing_body()
{
	ulimit -c 0
	nofile abort 134
}

atf_test_case fatal_signal_writes_nothing
fatal_signal_writes_nothing_head()
{
	atf_set "descr" "Death by a fatal signal (SIGUSR1; SIGINT, SIGTERM " \
	    "and SIGHUP write the profile first: long_test) writes no " \
	    "profile and leaves no file"
}
fatal_signal_writes_nothing_body()
{
	nofile kill 138
}

atf_test_case bad_profdir_keeps_status
bad_profdir_keeps_status_head()
{
	atf_set "descr" "A PROFDIR that cannot be used costs one line on " \
	    "stderr naming it, and the exit status stays the program's"
}
bad_profdir_keeps_status_body()
{
	bad=
	for v in $VARIANTS; do
		( PROFDIR=$PWD/missing; export PROFDIR; run $v exit 5 )
		status_is $v 5
		[ "$(wc -l <$v/err)" -eq 1 ] ||
		    bad="$bad $v: stderr: $(cat $v/err);"
		grep -q "$PWD/missing" $v/err ||
		    bad="$bad $v: stderr does not name PROFDIR;"
	done
	[ ! -e missing ] || bad="$bad PROFDIR was created;"
	verdict
}

atf_test_case explicit_monitor_without_p
explicit_monitor_without_p_head()
{
	atf_set "descr" "A program not compiled with -p but linked with " \
	    "libmon can call monitor() itself: it gets a histogram and no " \
	    "call counts"
}
explicit_monitor_without_p_body()
{
	bad=
	run h_explicit_plain
	status_is h_explicit_plain 0
	dumped h_explicit_plain || verdict
	samples=$(awk '$1 == "hist" { print $3 }' h_explicit_plain/dump)
	[ "${samples:-0}" -ge 20 ] || bad="$bad $samples samples;"
	cells=$(field h_explicit_plain/dump cells)
	[ "$cells" = 0 ] || bad="$bad $cells cells;"
	# The same source built with -p counts its calls as well.
	run h_explicit
	dumped h_explicit && expect h_explicit main 1
	verdict
}

atf_test_case specs_file
specs_file_head()
{
	atf_set "descr" "gcc -specs=mon.specs -p compiles with -mfentry " \
	    "and frame pointers, links libmon and finds " \
	    "<mon.h> without naming either, and the program profiles itself"
}
specs_file_body()
{
	bad=
	nm "$(atf_get_srcdir)/h_calls_specs" | grep -q ' T __monstartup$' ||
	    bad="$bad libmon's start-up is not linked in;"
	# The specs file adds -mfentry, and the frame pointer it would drop.
	objdump -d --no-show-raw-insn "$(atf_get_srcdir)/h_calls_specs" |
	    awk '/<leaf>:$/ { f = 1; next } f && /^$/ { exit }
		f { n++; if (n == 1) c = $0 ~ /call.*<__fentry__>/
		    if (n == 2) p = $0 ~ /push +%rbp/
		    if (n == 3) m = $0 ~ /mov +%rsp,%rbp/ }
		END { exit !(c && p && m) }' ||
	    bad="$bad leaf() does not start with a call of __fentry__ and a frame;"
	run h_calls_specs counts 1000
	dumped h_calls_specs && expect h_calls_specs leaf 1000
	verdict
}

# defines_mcount PROG: PROG defines mcount itself, not taking the C
# library's; a failure is recorded.
defines_mcount()
{
	syms=$(nm "$(atf_get_srcdir)/$1")
	echo "$syms" | grep -q ' T mcount$' ||
	    bad="$bad $1: mcount is not defined in the program;"
	! echo "$syms" | grep -q ' U mcount' ||
	    bad="$bad $1: mcount is taken from a shared library;"
}

atf_test_case lto_counts
lto_counts_head()
{
	atf_set "descr" "A program compiled and linked with -flto, whose " \
	    "calls to mcount appear only at link time, defines mcount " \
	    "itself and counts each call exactly, linked with -lmon or " \
	    "through the specs file"
}
lto_counts_body()
{
	bad=
	for v in h_calls_lto h_calls_lto_specs; do
		defines_mcount $v
		run $v counts 1000
		dumped $v || continue
		expect $v leaf 1000
		expect $v main 1
	done
	verdict
}

atf_test_case clang_lto_counts
clang_lto_counts_head()
{
	atf_set "descr" "clang -pg -flto, with clang's link-time " \
	    "optimisation through the system's link editor, counts each " \
	    "call exactly"
}
clang_lto_counts_body()
{
	skip=$(atf_get_srcdir)/h_calls_clang_lto.skip
	[ ! -f "$skip" ] || atf_skip "$(cat "$skip")"
	bad=
	defines_mcount h_calls_clang_lto
	run h_calls_clang_lto counts 1000
	dumped h_calls_clang_lto && expect h_calls_clang_lto leaf 1000
	verdict
}

atf_test_case shared_library_counts
shared_library_counts_head()
{
	atf_set "descr" "A -pg -shared library built through the specs " \
	    "file carries no libmon of its own but calls the program's " \
	    "__fentry__ (the specs file adds -mfentry), so a -p program " \
	    "linked with it counts the library's calls exactly"
}
shared_library_counts_body()
{
	bad=
	lib=$(atf_get_srcdir)/h_slib.so
	nm -D "$lib" | grep -q ' U __fentry__' ||
	    bad="$bad the library does not call an outside __fentry__;"
	! nm "$lib" | grep -q -e ' __monstartup$' -e ' monitor$' ||
	    bad="$bad the library holds libmon;"
	run h_slib 1000
	status_is h_slib 0
	( cd h_slib && "$(atf_get_srcdir)/../../prof/prof" -z \
	    "$(atf_get_srcdir)/h_slib" mon.out >report 2>&1 ) ||
	    atf_fail "$bad prof: $(cat h_slib/report); h_slib: $(cat h_slib/err)"
	# A row with counts: percent, seconds, cumsecs, calls, msec/call,
	# then the name and, for a library's function, "(library)".
	for want in slib_leaf:1000 slib_run:1; do
		got=$(awk -v f=${want%:*} '
		    NF == 7 && $6 == f && $7 == "(h_slib.so)" { print $4 }
		    ' h_slib/report)
		[ "$got" = ${want#*:} ] ||
		    bad="$bad ${want%:*} has ${got:-no} calls, not ${want#*:};"
	done
	verdict
}

# refused LOG MESSAGE: the link that LOG records failed, with MESSAGE,
# and left no program behind; a failure is recorded.
refused()
{
	log=$(atf_get_srcdir)/$1
	grep -q '^status [1-9]' "$log" || bad="$bad $1: the link succeeded;"
	grep -q "$2" "$log" || bad="$bad $1: no '$2' in: $(cat "$log");"
	[ ! -e "${log%.log}" ] || bad="$bad $1: a program was written;"
}

atf_test_case static_link_refused
static_link_refused_head()
{
	atf_set "descr" "A static link with libmon (-static or " \
	    "-static-pie, -p with -lmon or through the specs file, or a " \
	    "program that calls monitor() itself) fails with a message " \
	    "that says libmon does not support it, rather than give a " \
	    "program whose threads and execs all fail"
}
static_link_refused_body()
{
	bad=
	refused h_static.log "libmon_does_not_support_static_linking"
	refused h_static_pie.log "libmon_does_not_support_static_linking"
	refused h_static_specs.log "libmon does not support static linking"
	refused h_explicit_static.log "libmon_does_not_support_static_linking"
	verdict
}

atf_test_case setid_ignores_profdir
setid_ignores_profdir_head()
{
	atf_set "descr" "A set-user-ID program ignores PROFDIR and creates " \
	    "mon.out with the real user's IDs, so only where that user could"
	atf_set "require.user" "root"
	atf_set "require.progs" "setpriv"
}
setid_ignores_profdir_body()
{
	bad=
	nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
	# Under no_new_privs (t_noperf sets it) or from a nosuid mount exec
	# ignores the bit, and there is nothing to test.
	cp "$(command -v id)" id.setuid && chmod 4755 id.setuid ||
	    atf_fail "cannot make a set-user-ID id"
	[ "$($nobody ./id.setuid -u)" = 0 ] ||
	    atf_skip "exec ignores the set-user-ID bit here (NoNewPrivs:" \
	    "$(awk '$1 == "NoNewPrivs:" { print $2 }' /proc/self/status)," \
	    "else a nosuid mount)"
	rm -f id.setuid
	cp "$(atf_get_srcdir)/h_calls" h_setid && chmod 4755 h_setid ||
	    atf_fail "cannot make a set-user-ID copy of h_calls"
	mkdir home pd shut && chown 65534:65534 home && chmod 0777 pd ||
	    atf_fail "set-up"
	( cd home && PROFDIR=$PWD/../pd $nobody ../h_setid counts 10 \
	    >out 2>err; echo $? >status )
	[ "$(cat home/status)" = 0 ] ||
	    atf_fail "h_setid: status $(cat home/status): $(cat home/err)"
	[ -z "$(ls pd)" ] || bad="$bad PROFDIR was used: $(ls pd);"
	if [ -f home/mon.out ]; then
		owner=$(stat -c %u:%g home/mon.out)
		[ "$owner" = 65534:65534 ] ||
		    bad="$bad mon.out owned by $owner;"
	else
		bad="$bad no mon.out in the current directory;"
	fi
	# A directory only root may write: the real user gets no file there.
	( cd shut && $nobody ../h_setid counts 10 >../shut.out 2>../shut.err;
	    echo $? >../shut.status )
	[ "$(cat shut.status)" = 0 ] ||
	    bad="$bad status $(cat shut.status) in a shut directory;"
	[ ! -e shut/mon.out ] ||
	    bad="$bad mon.out written where only root may write;"
	[ -z "$(ls -A shut)" ] || bad="$bad files left: $(ls -A shut);"
	[ "$(wc -l <shut.err)" -eq 1 ] && grep -q mon.out shut.err ||
	    bad="$bad stderr: $(cat shut.err);"
	verdict
}

atf_init_test_cases()
{
	atf_add_test_case counts_exact
	atf_add_test_case once_is_one
	atf_add_test_case recursion_exact
	atf_add_test_case threads_exact
	atf_add_test_case signal_handler_exact
	atf_add_test_case realigned_stack_keeps_arguments
	atf_add_test_case nested_function_call_site
	atf_add_test_case no_gmon_out
	atf_add_test_case mon_out_in_cwd
	atf_add_test_case mon_out_in_profdir
	atf_add_test_case pie_and_nopie
	atf_add_test_case exit_status_kept
	atf_add_test_case _exit_writes_nothing
	atf_add_test_case abort_writes_nothing
	atf_add_test_case fatal_signal_writes_nothing
	atf_add_test_case bad_profdir_keeps_status
	atf_add_test_case explicit_monitor_without_p
	atf_add_test_case specs_file
	atf_add_test_case lto_counts
	atf_add_test_case clang_lto_counts
	atf_add_test_case shared_library_counts
	atf_add_test_case static_link_refused
	atf_add_test_case setid_ignores_profdir
}

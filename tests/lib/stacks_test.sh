#! /usr/bin/env atf-sh
#
# stacks_test -- the call stacks libmon samples and the arcs mcount
# counts, read back from mon.out: every clock records the stack it
# interrupted, cut where PROFSTACK says and counted when it is; a frame
# pointer that points at nothing ends a walk without a fault; arcs are
# exact per caller in threads and name uninstrumented callers.
#
# h_stacks burns CPU in known call chains; h_calls (../crt) is called a
# known number of times.  t_mondump prints the files, nm names the
# addresses: a frame's function is the one holding its pc, or pc - 1
# for a return address.

setup()
{
	srcdir=$(atf_get_srcdir)
	. "$srcdir/../harness.sh"
	unset PROFDIR PROFHZ PROFCLOCK PROFSTACK
	LC_ALL=C
	export LC_ALL
	bad=
}

# named PROG DIR: DIR/dump, then DIR/named with each stack's frames
# named ("stack COUNT FLAGS f0,f1,...") and each arc's ends named
# ("arc CALLER CALLEE COUNT"; a caller outside PROG is "[other]").
named()
{
	"$srcdir/t_mondump" "$2/mon.out" >"$2/dump" 2>"$2/dumperr" ||
	    { fail "$2: $(cat "$2/dumperr")"; return 1; }
	nm -n --defined-only "$1" | awk '
	function hex(s,    i, v) {
		v = 0
		s = tolower(s)
		sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef",
			    substr(s, i, 1)) - 1
		return v
	}
	function name(a,    i) {
		a -= bias
		for (i = nsym; i >= 1; i--)
			if (addr[i] <= a)
				return a < addr[i] + 65536 ? sym[i] : "[other]"
		return "[other]"
	}
	FNR == NR {
		if ($2 ~ /^[tTwW]$/) { addr[++nsym] = hex($1); sym[nsym] = $3 }
		next
	}
	$1 == "exec.bias" { bias = hex($2) }
	$1 == "exec.hi" { hi = hex($2) }
	$1 == "arc" {
		f = hex($2)
		print "arc", (f >= hi ? "[other]" : name(f - 1)), \
		    name(hex($3)), $4
	}
	$1 == "stack" {
		n = split($4, pc, ",")
		s = name(hex(pc[1]))
		for (i = 2; i <= n; i++)
			s = s "," (hex(pc[i]) >= hi ? "[other]" : \
			    name(hex(pc[i]) - 1))
		print "stack", $2, $3, s
	}' - "$2/dump" >"$2/named"
}

# share DIR REGEX: the percentage of DIR's stacked samples whose named
# frames match REGEX.
share()
{
	awk -v re="$2" '$1 == "stack" { t += $2; if ($4 ~ re) m += $2 }
	    END { printf "%.1f\n", t ? 100 * m / t : 0 }' "$1/named"
}

# clocks CLOCK...: those of the clocks this kernel gives.
clocks()
{
	for c in "$@"; do
		[ $c = perf ] && ! "$srcdir/t_hasperf" && continue
		echo $c
	done
}

# sampled CLOCK VAR=VALUE MODE ARGS: h_stacks run under CLOCK, with one
# more variable set, in a directory named for the clock, its file named.
sampled()
{
	sc=$1
	se=$2
	shift 2
	run $sc PROFCLOCK=$sc "$se" "$srcdir/h_stacks" "$@"
	named "$srcdir/h_stacks" $sc
}

field()
{
	awk -v k="$2" '$1 == k { print $2 }' "$1/dump"
}

atf_test_case stacks_every_clock
stacks_every_clock_head()
{
	atf_set descr "Under each clock, the samples of a spin in" \
	    "inner() called by middle(), outer() and main() carry that" \
	    "stack, innermost first; every sample has one"
}
stacks_every_clock_body()
{
	setup
	for c in $(clocks perf timer itimer); do
		sampled $c LC_ALL=C chain 400 || continue
		s=$(share $c '^inner,middle,outer,main(,|$)')
		holds "$s >= 90" "$c: $s% of samples in the chain"
		n=$(awk '$1 == "stack" { t += $2 } END { print t + 0 }' \
		    $c/named)
		in=$(field $c run.samples_in)
		out=$(field $c run.samples_out)
		# The perf clock's samples in the kernel have stacks too.
		k=$(field $c run.samples_kernel)
		holds "$n == $in + $out + ${k:-0} && $n > 20" \
		    "$c: $n samples in stacks, $in + $out + ${k:-0} sampled"
		holds "$(field $c run.stack_limit) == 64" "$c: limit not 64"
	done
	verdict
}

atf_test_case syscall_stacks_reach_the_caller
syscall_stacks_reach_the_caller_head()
{
	atf_set descr "Under each clock, the samples of syscaller(), which" \
	    "writes to /dev/null through the C library's write() (a wrapper" \
	    "with a frame of its own but no frame pointer once a second" \
	    "thread exists), carry write, syscaller, main: at least 70%;" \
	    "where the perf clock sampled kernel mode (run.flags bit 1), its" \
	    "samples there have stacks flagged 2, 90% of them through" \
	    "syscaller, and every one is a stack or a stack lost"
}
syscall_stacks_reach_the_caller_body()
{
	setup
	for c in $(clocks perf timer itimer); do
		sampled $c LC_ALL=C syscalls 400 || continue
		# About 15% fall in write's own callees (cancellation on
		# and off), frameless too, where syscaller stays hidden;
		# itimer takes some 100 samples.
		s=$(share $c '^\[other\],syscaller,main(,|$)')
		holds "$s >= 70" "$c: $s% of samples in write, syscaller, main"
		# run.flags bit 1 (MONX_RUN_KERNEL): kernel mode sampled.
		f=$(field $c run.flags)
		[ $(( ${f:-0} % 2 )) = 1 ] || continue
		k=$(field $c run.samples_kernel)
		awk '$1 == "stack" && $3 >= 2 { t += $2
			if ($4 ~ /^\[other\],syscaller,main(,|$)/) m += $2 }
		    END { print t + 0, m + 0 }' $c/named >$c/kernel
		read kt km <$c/kernel
		lost=$(field $c run.stacks_lost)
		holds "$kt > 0 && $kt <= $k && $kt + $lost >= $k" \
		    "$c: $kt samples in kernel stacks, $k in the kernel, $lost stacks lost"
		holds "$km >= 0.9 * $kt" \
		    "$c: $km of $kt kernel stacks through syscaller"
	done
	verdict
}

atf_test_case nested_wrappers_reach_the_caller
nested_wrappers_reach_the_caller_head()
{
	atf_set descr "Under each clock, the samples of napper(), which" \
	    "calls nanosleep() for no time, carry __clock_nanosleep," \
	    "nanosleep, napper, main -- both of libc's wrappers keep no" \
	    "frame pointer, so napper is found above the second: at least" \
	    "60%, and at most 5% with main right above the wrappers"
}
nested_wrappers_reach_the_caller_body()
{
	setup
	for c in $(clocks perf timer itimer); do
		sampled $c LC_ALL=C naps 300 || continue
		# Some samples fall in the wrappers' callees (cancellation
		# on and off) or in napper's own loop.
		s=$(share $c '^\[other\],\[other\],napper,main(,|$)')
		holds "$s >= 60" \
		    "$c: $s% of samples in the wrappers, napper, main"
		s=$(share $c '^\[other\],\[other\],main(,|$)')
		holds "$s <= 5" "$c: $s% of samples skip napper"
	done
	verdict
}

atf_test_case stack_limit_cuts
stack_limit_cuts_head()
{
	atf_set descr "PROFSTACK=8 keeps 8 frames of a 40-deep recursion," \
	    "marks them cut and counts the cut samples, under each clock"
}
stack_limit_cuts_body()
{
	setup
	for c in $(clocks perf timer); do
		sampled $c PROFSTACK=8 deep 40 300 || continue
		deepest=$(awk '$1 == "stack" { n = split($4, f, ",");
		    if (n > m) m = n } END { print m + 0 }' $c/named)
		holds "$deepest == 8" "$c: deepest stack $deepest frames"
		s=$(share $c '^down,down,down,down,down,down,down,down$')
		holds "$s >= 90" "$c: $s% of samples cut in down()"
		# Flag 1 is cut, 2 in the kernel: a stack may have both.
		cut=$(awk '$1 == "stack" && $3 % 2 == 1 { t += $2 }
		    END { print t + 0 }' $c/named)
		holds "$cut > 0 && $cut == $(field $c run.stacks_cut)" \
		    "$c: $cut samples marked cut, run.stacks_cut" \
		    "$(field $c run.stacks_cut)"
	done
	verdict
}

atf_test_case no_stacks_asked
no_stacks_asked_head()
{
	atf_set descr "PROFSTACK=0 records no stack; a bad PROFSTACK draws" \
	    "one line naming it and the default is used"
}
no_stacks_asked_body()
{
	setup
	run none PROFSTACK=0 "$srcdir/h_stacks" chain 200
	named "$srcdir/h_stacks" none &&
	    holds "$(grep -c '^stack' none/named) == 0" "stacks with 0"
	holds "$(field none run.stack_limit) == 0" "limit not 0"
	run junk PROFSTACK=500 "$srcdir/h_stacks" chain 200
	grep -q "PROFSTACK" junk/err || fail "no warning: $(cat junk/err)"
	holds "$(wc -l <junk/err) == 1" "warning not one line"
	named "$srcdir/h_stacks" junk &&
	    holds "$(field junk run.stack_limit) == 64" "limit not 64"
	verdict
}

atf_test_case frameless_leaf_keeps_its_caller
frameless_leaf_keeps_its_caller_head()
{
	atf_set descr "A leaf with no frame of its own, called by framer()," \
	    "is sampled with framer as its caller, not framer's caller," \
	    "under each clock"
}
frameless_leaf_keeps_its_caller_body()
{
	setup
	for c in $(clocks perf timer itimer); do
		sampled $c LC_ALL=C frameless 300 || continue
		s=$(share $c '^frameless,framer,main(,|$)')
		holds "$s >= 80" "$c: $s% of samples in frameless under framer"
	done
	verdict
}

atf_test_case handler_stack_goes_on_past_signal
handler_stack_goes_on_past_signal_head()
{
	atf_set descr "Under the signal clocks, a signal handler running" \
	    "on an alternate stack is sampled with the code the signal" \
	    "interrupted and its callers out to main above it"
}
handler_stack_goes_on_past_signal_body()
{
	setup
	for c in timer itimer; do
		run $c PROFCLOCK=$c "$srcdir/h_stacks" onstack 300
		holds "$(cat $c/status) == 0" "$c: status $(cat $c/status)"
		named "$srcdir/h_stacks" $c || continue
		s=$(share $c '^inhandler,onusr1,.*,main(,|$)')
		holds "$s >= 80" "$c: $s% of samples in inhandler reach main"
	done
	verdict
}

atf_test_case bad_frame_pointer_survives
bad_frame_pointer_survives_head()
{
	atf_set descr "A spin whose frame pointer points at unmapped" \
	    "memory above the stack is sampled under every clock: the" \
	    "walk ends there, the program exits 0, the pc is kept"
}
bad_frame_pointer_survives_body()
{
	setup
	for c in $(clocks perf timer itimer); do
		sampled $c LC_ALL=C badframe 300
		holds "$(cat $c/status) == 0" "$c: status $(cat $c/status)"
		[ -s $c/named ] || continue
		s=$(share $c '^badframe$')
		holds "$s >= 80" "$c: $s% of samples with badframe alone"
	done
	verdict
}

atf_test_case arcs_exact_per_caller
arcs_exact_per_caller_head()
{
	atf_set descr "Every arc is exact: leaf() 1000 times from counts()," \
	    "fib() 21890 times from fib() and once from counts(); in 8" \
	    "threads, tleaf() 8 x 200000 times from worker(); each" \
	    "compiler and start-up route"
}
arcs_exact_per_caller_body()
{
	setup
	for v in h_calls h_calls_clang h_calls_fentry h_calls_clang_fentry \
	    h_calls_lto; do
		p=$srcdir/../crt/$v
		run $v.c "$p" counts 1000
		named "$p" $v.c || continue
		for want in "counts leaf 1000" "fib fib 21890" \
		    "counts fib 1" "counts once 1"; do
			set -- $want
			got=$(awk -v a=$1 -v b=$2 '$1 == "arc" && $2 == a &&
			    $3 == b { s += $4 } END { print s + 0 }' \
			    $v.c/named)
			holds "$got == $3" "$v: $1 -> $2 $got calls, not $3"
		done
		run $v.t "$p" threads 8 200000
		named "$p" $v.t || continue
		got=$(awk '$1 == "arc" && $2 == "worker" && $3 == "tleaf" {
		    s += $4 } END { print s + 0 }' $v.t/named)
		holds "$got == 1600000" "$v: worker -> tleaf $got, not 1600000"
	done
	verdict
}

atf_test_case arcs_through_pointers_exact
arcs_through_pointers_exact_head()
{
	atf_set descr "Calls from one call site through a pointer to eight" \
	    "functions in turn, in 4 threads, are eight exact arcs of" \
	    "400000 each, through mcount and __fentry__, gcc and clang"
}
arcs_through_pointers_exact_body()
{
	setup
	for v in h_calls h_calls_clang h_calls_fentry h_calls_clang_fentry; do
		p=$srcdir/../crt/$v
		run $v "$p" pointers 4 800000
		named "$p" $v || continue
		for k in 0 1 2 3 4 5 6 7; do
			got=$(awk -v f=pt$k '$1 == "arc" &&
			    $2 == "ptrworker" && $3 == f { s += $4 }
			    END { print s + 0 }' $v/named)
			holds "$got == 400000" \
			    "$v: ptrworker -> pt$k $got calls, not 400000"
		done
		holds "$(field $v run.cells_lost) == 0" "$v: calls lost"
	done
	verdict
}

atf_test_case arcs_from_uninstrumented_code
arcs_from_uninstrumented_code_head()
{
	atf_set descr "A qsort() comparator's calls are arcs from the C" \
	    "library: their call site is in libc's text, and they add up" \
	    "to the comparator's count"
}
arcs_from_uninstrumented_code_body()
{
	setup
	p=$srcdir/../crt/h_calls
	run q "$p" qsort 5000
	named "$p" q || { verdict; return; }
	got=$(awk '$1 == "arc" && $2 == "[other]" && $3 == "bycmp" {
	    s += $4 } END { print s + 0 }' q/named)
	n=$(awk '$1 == "compares" { print $2 }' q/out)
	holds "$got > 0 && $got == $n" "bycmp: $got arcs from libc, $n calls"
	# The busiest arc's call site lies in an object whose path names libc.
	from=$(awk '$1 == "arc" { print $4, $2 }' q/dump | sort -n |
	    awk 'END { print $2 }')
	awk -v f="$from" '
	function hex(s,    i, v) {
		v = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	BEGIN { a = hex(f) }
	$1 == "obj" && hex($3) <= a && a < hex($4) && $6 ~ /libc\.so/ { ok = 1 }
	END { exit !ok }' q/dump ||
	    fail "first arc's call site $from not in libc"
	verdict
}

atf_test_case arcs_in_fork_children
arcs_in_fork_children_head()
{
	atf_set descr "Each of 5 fork children writes its own arcs: child i" \
	    "has i + 1 calls from call() to kid(), the parent none; the" \
	    "parent's 1000 calls to pre() before the forks stay its own"
}
arcs_in_fork_children_body()
{
	setup
	H=$srcdir/h_fault
	mkdir p
	run f PROFDIR=$PWD/p "$H" fork 5
	holds "$(cat f/status) == 3" "status $(cat f/status)"
	kids=
	for m in p/*; do
		mkdir -p "d/$m" && cp "$m" "d/$m/mon.out" || atf_fail "cp $m"
		named "$H" "d/$m" || continue
		k=$(awk '$1 == "arc" && $2 == "call" && $3 == "kid" {
		    s += $4 } END { print s + 0 }' "d/$m/named")
		pre=$(awk '$1 == "arc" && $2 == "call" && $3 == "pre" {
		    s += $4 } END { print s + 0 }' "d/$m/named")
		if [ "$pre" = 1000 ]; then
			holds "$k == 0" "parent: $k calls to kid"
			parent=1
		else
			holds "$pre == 0" "$m: a child with $pre calls to pre"
			kids="$kids $k"
		fi
	done
	[ -n "$parent" ] || fail "no parent's file with pre's 1000 calls"
	got=$(echo $kids | tr ' ' '\n' | sort -n | tr '\n' ' ')
	[ "$got" = "1 2 3 4 5 " ] || fail "children's calls to kid: $got"
	verdict
}

atf_test_case arcs_into_dlopened_library
arcs_into_dlopened_library_head()
{
	atf_set descr "A -pg library dlopen'd and dlclose'd before exit:" \
	    "its dl_leaf()'s 1000 calls are one arc into the library's" \
	    "text, as its unloaded object records it, from the program's"
}
arcs_into_dlopened_library_body()
{
	setup
	H=$srcdir/h_fault_dl
	run d "$H" dl "$srcdir/h_dlib_p.so" 50 close
	holds "$(cat d/status) == 3" "status $(cat d/status)"
	named "$H" d || { verdict; return; }
	awk '
	function hex(s,    i, v) {
		v = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	$1 == "exec.lo" { elo = hex($2) }
	$1 == "exec.hi" { ehi = hex($2) }
	$1 == "obj" && $6 ~ /h_dlib_p\.so$/ { lo = hex($3); hi = hex($4) }
	$1 == "arc" { n++; f[n] = hex($2); t[n] = hex($3); c[n] = $4 }
	END {
		for (i = 1; i <= n; i++)
			if (c[i] == 1000 && t[i] >= lo && t[i] < hi &&
			    f[i] > elo && f[i] <= ehi)
				ok = 1
		exit !ok
	}' d/dump || fail "no arc of 1000 calls from the program into the library"
	verdict
}

atf_init_test_cases()
{
	atf_add_test_case stacks_every_clock
	atf_add_test_case syscall_stacks_reach_the_caller
	atf_add_test_case nested_wrappers_reach_the_caller
	atf_add_test_case stack_limit_cuts
	atf_add_test_case no_stacks_asked
	atf_add_test_case frameless_leaf_keeps_its_caller
	atf_add_test_case handler_stack_goes_on_past_signal
	atf_add_test_case bad_frame_pointer_survives
	atf_add_test_case arcs_exact_per_caller
	atf_add_test_case arcs_through_pointers_exact
	atf_add_test_case arcs_from_uninstrumented_code
	atf_add_test_case arcs_in_fork_children
	atf_add_test_case arcs_into_dlopened_library
}

#! /usr/bin/env atf-sh
#
# tables_test -- libmon's address tables, past their first sizes: the
# outside table (samples outside the histogram, by address) and the
# call-count tables (a cell per function a thread calls).  Each grows as
# it fills instead of dropping what it cannot place, costs the program
# memory by the functions it calls rather than by the size of its text,
# and prof reads what the runtime had to coarsen.
#
# h_tables feeds the tables through the entry points the clocks and
# mcount use, with as many distinct addresses as a case asks, so that no
# case waits for real samples; t_mondump reads the files.

setup()
{
	srcdir=$(atf_get_srcdir)
	DUMP=$srcdir/t_mondump
	PROF=$srcdir/../../prof/prof
	unset PROFDIR PROFHZ PROFCLOCK
	LC_ALL=C
	export LC_ALL
}

# dump: mon.out as t_mondump prints it, in dump.
dump()
{
	"$DUMP" mon.out >dump || atf_fail "t_mondump failed: $(cat dump)"
}

# field NAME: the value of line "NAME VALUE" of dump.
field()
{
	awk -v k="$1" '$1 == k { print $2 }' dump
}

# h_tables' addresses in dump, by kind (pc or cell): "places total odd",
# odd counting the places with the low bit set (4 KiB page keys).
far()
{
	awk -v k="$1" '$1 == k && $2 ~ /^0x3000/ {
		n++; s += $3; if ($2 ~ /[13579bdf]$/) odd++
	} END { printf "%d %d %d\n", n, s, odd }' dump
}

atf_test_case outside_grows_past_first_size
outside_grows_past_first_size_head()
{
	atf_set descr "200000 samples at 200000 distinct addresses outside" \
	    "the histogram are all kept, each at its own address"
}
outside_grows_past_first_size_body()
{
	setup
	atf_check "$srcdir/h_tables" outside 200000
	dump
	atf_check_equal 0 "$(field run.outside_lost)"
	atf_check_equal "200000 200000 0" "$(far pc)"
}

atf_test_case outside_full_counts_by_page
outside_full_counts_by_page_head()
{
	atf_set descr "Past the outside table's largest size samples are" \
	    "counted by 4 KiB page (odd keys), none lost"
}
outside_full_counts_by_page_body()
{
	setup
	atf_check "$srcdir/h_tables" outside 3000000
	dump
	atf_check_equal 0 "$(field run.outside_lost)"
	set -- $(far pc)
	atf_check_equal 3000000 "$2"
	[ "$3" -gt 0 ] || atf_fail "no page keys among $1 places"
	[ "$1" -gt 1000000 ] || atf_fail "only $1 places kept by address"
}

atf_test_case spill_grows_past_first_size
spill_grows_past_first_size_head()
{
	atf_set descr "200000 calls from 200000 distinct addresses outside" \
	    "the text all get a cell: none lost"
}
spill_grows_past_first_size_body()
{
	setup
	atf_check "$srcdir/h_tables" calls 200000
	dump
	atf_check_equal 0 "$(field run.cells_lost)"
	atf_check_equal "200000 200000 0" "$(far cell)"
}

atf_test_case arcs_sort_as_written
arcs_sort_as_written_head()
{
	atf_set descr "300000 arcs into 7 callees, 6 of them close together," \
	    "sort by callee then call site as qsort sorts them: with a" \
	    "scratch array, with one mapped, and in place with no memory"
}
arcs_sort_as_written_body()
{
	setup
	atf_check "$srcdir/h_tables" sort 300000
}

atf_test_case arcs_exact_across_growth
arcs_exact_across_growth_head()
{
	atf_set descr "100000 arcs called three times each, round after" \
	    "round: the thread's cell array grows under them, and each" \
	    "arc still has exactly 3 calls"
}
arcs_exact_across_growth_body()
{
	setup
	atf_check "$srcdir/h_tables" rounds 100000
	dump
	atf_check_equal 0 "$(field run.cells_lost)"
	atf_check_equal "100000 300000 0" "$(far cell)"
	awk '$1 == "cell" && $2 ~ /^0x3000/ && $3 != 3 { n++ }
	    END { exit n != 0 }' dump ||
	    atf_fail "arcs without exactly 3 calls: $(awk '$1 == "cell" &&
	    $2 ~ /^0x3000/ && $3 != 3' dump | head -n 3)"
}

atf_test_case big_text_threads_keep_mallocs
big_text_threads_keep_mallocs_head()
{
	atf_set descr "Under ulimit -v, a program of 20 MiB of text running" \
	    "100 threads at once gets all its mallocs and threads, and" \
	    "every call is counted"
}
big_text_threads_keep_mallocs_body()
{
	setup
	# The program needs about 130 MiB; libmon's tables once took 60 MiB
	# a thread here.
	atf_check -o inline:"mallocs failed 0 of 100\nthreads failed 0\n" \
	    sh -c "ulimit -v 400000 && exec '$srcdir/h_bigtext' 100"
	dump
	atf_check_equal 0 "$(field run.cells_lost)"
	atf_check_equal 101 "$(field run.threads)"
	# work() once in each thread
	awk '$1 == "cell" && $3 == 100 { n++ } END { exit n != 1 }' dump ||
	    atf_fail "no cell of 100 calls: $(grep '^cell' dump)"
}

atf_test_case prof_shares_page_keys
prof_shares_page_keys_head()
{
	atf_set descr "prof shares the samples of a page key over the" \
	    "functions of its page by their bytes, as it does a" \
	    "histogram bin"
}
prof_shares_page_keys_body()
{
	local syms mk eta page

	setup
	syms=$srcdir/../prof/t_syms
	mk=$srcdir/../prof/t_mkmon
	eta=$(nm "$syms" | awk '$3 == "eta" { print "0x" $1 }')
	[ -n "$eta" ] || atf_fail "no eta in $syms"
	page=$(( eta & ~4095 ))
	# eta and theta are 64 bytes each, in one page: equal shares.
	"$mk" mon.out <<EOF || atf_fail "t_mkmon failed"
lpc $page
hpc $(( page + 8 ))
hist 1
run clock=1 period=1000000 cpu=1000000000 in=0 out=4096 scale=2048
exec 0 $page $(( page + 4096 )) - $syms
pcs $(( page + 1 )) 4096
EOF
	"$PROF" -s "$syms" mon.out >report 2>stats ||
	    atf_fail "prof failed: $(cat stats)"
	grep -q '^unattributed: 0 samples' stats ||
	    atf_fail "page left unattributed: $(grep unattributed stats)"
	set -- $(awk '$NF == "eta" || $NF == "theta" { print $2 }' report)
	[ $# -eq 2 ] && [ "$1" = "$2" ] && [ "$1" != "0.00" ] ||
	    atf_fail "eta and theta not equal shares: $(cat report)"
}

atf_init_test_cases()
{
	atf_add_test_case outside_grows_past_first_size
	atf_add_test_case outside_full_counts_by_page
	atf_add_test_case spill_grows_past_first_size
	atf_add_test_case arcs_exact_across_growth
	atf_add_test_case arcs_sort_as_written
	atf_add_test_case big_text_threads_keep_mallocs
	atf_add_test_case prof_shares_page_keys
}

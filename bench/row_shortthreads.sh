#!/bin/sh
# row_shortthreads.sh -- issue #23 item 7: threads shorter than a
# sampling period.  bench/shortthr (1000 threads of 0.5 ms in task(),
# 0.3 s in mainwork() on the main thread) built unprofiled, with glibc's
# -pg and with libmon's -p; run interleaved RUNS times.  Prints per run
# the threads' own CPU clocks (truth) and what each profiler reports for
# task and mainwork, per libmon clock.  Run from the top of the tree
# after make.
set -e
RUNS=${RUNS:-3}
W=${TMPDIR:-/tmp}/row_shortthreads.$$
mkdir -p $W
trap 'rm -rf $W' EXIT
CC=${CC:-cc}
$CC -O1 -fno-inline -o $W/plain bench/shortthr.c -lpthread
$CC -O1 -fno-inline -pg -o $W/gpg bench/shortthr.c -lpthread
$CC -p -std=c11 -D_DEFAULT_SOURCE -Iinclude -O1 -fno-inline -o $W/mon \
    bench/shortthr.c lib/libmon.a -lpthread
P=$PWD/prof/prof
# secs NAME [COLUMN]: NAME's self seconds in a flat profile (prof: 2,
# gprof -p: 3).
secs() {
	awk -v f=$1 -v c=${2:-2} '$NF == f { s = $c } END { printf "%.2f", s + 0 }'
}
printf '%-10s %-22s %-14s %-14s\n' run truth-task/main task mainwork
for i in $(seq $RUNS); do
	( cd $W && ./plain 1000 500 300 >/dev/null )
	( cd $W && rm -f gmon.out && ./gpg 1000 500 300 >t.gpg &&
	    gprof -b -p ./gpg gmon.out >r.gpg 2>/dev/null )
	printf '%-10s %-22s %-14s %-14s\n' "glibc-pg" "$(cat $W/t.gpg)" \
	    $(secs task 3 <$W/r.gpg) $(secs mainwork 3 <$W/r.gpg)
	for c in perf timer itimer; do
		( cd $W && rm -f mon.out &&
		    PROFCLOCK=$c ./mon 1000 500 300 >t.$c &&
		    $P ./mon mon.out >r.$c 2>/dev/null )
		printf '%-10s %-22s %-14s %-14s\n' "libmon-$c" "$(cat $W/t.$c)" \
		    $(secs task <$W/r.$c) $(secs mainwork <$W/r.$c)
	done
done

#!/bin/sh
# row_snapfine.sh -- issue #23 item 8: parts every 0.01 s.
# bench/shortthr spends 1 s of its main thread's CPU in mainwork(),
# built with libmon's -p; per clock, run interleaved RUNS times without
# parts, with PROFINTERVAL=0.1 and with PROFINTERVAL=0.01.  Prints the
# seconds prof gives mainwork from the parts merged (truth 1.00 s, the
# thread's own CPU clock) and the run's CPU time (user + system, from
# time(1)) against the run without parts.  Run from the top of the tree
# after make.
set -e
RUNS=${RUNS:-3}
W=${TMPDIR:-/tmp}/row_snapfine.$$
mkdir -p $W
trap 'rm -rf $W' EXIT
$CC -p -std=c11 -D_DEFAULT_SOURCE -Iinclude -O1 -fno-inline -o $W/mon \
    bench/shortthr.c lib/libmon.a -lpthread 2>/dev/null ||
cc -p -std=c11 -D_DEFAULT_SOURCE -Iinclude -O1 -fno-inline -o $W/mon \
    bench/shortthr.c lib/libmon.a -lpthread
P=$PWD/prof/prof
printf '%-7s %-9s %-6s %-9s %-8s\n' clock interval parts mainwork cpu_s
for i in $(seq $RUNS); do
	for c in perf timer itimer; do
		for iv in none 0.1 0.01; do
			rm -rf $W/d && mkdir $W/d
			if [ $iv = none ]; then set -- ; else
				set -- PROFINTERVAL=$iv; fi
			( cd $W/d && env PROFCLOCK=$c PROFDIR=. "$@" \
			    /usr/bin/time -f '%U %S' -o ../time ../mon 0 0 1000 \
			    >../out )
			s=$(cd $W/d && $P ../mon $(ls) 2>/dev/null |
			    awk '$NF == "mainwork" { print $2 }')
			printf '%-7s %-9s %-6s %-9s %-8s\n' $c $iv \
			    $(ls $W/d | wc -l) $s \
			    $(awk '{ printf "%.3f", $1 + $2 }' $W/time)
		done
	done
done

# machine.sh -- what the table was measured on, for its head.
#
# Sourced by bench/run: the processor, the kernel and its tick, the
# compilers and libraries, the versions of libmon and of the tools the
# rows use (perf, the SQLite of row 14), and the date.

machine() {
	cpu=$(sed -n 's/^model name[ \t]*: *//p' /proc/cpuinfo 2>/dev/null |
	    head -n 1)
	cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
	cfg=/boot/config-$(uname -r)
	hz=""
	if [ -r "$cfg" ]; then
		hz=$(sed -n 's/^CONFIG_HZ=//p' "$cfg")
		[ -n "$hz" ] && hz="$hz (from $cfg)"
	elif [ -r /proc/config.gz ]; then
		hz=$(gzip -dc /proc/config.gz | sed -n 's/^CONFIG_HZ=//p')
		[ -n "$hz" ] && hz="$hz (from /proc/config.gz)"
	fi
	tick=$("$RUNNER" -t 2>/dev/null)
	[ -z "$hz" ] && hz="about ${tick:-?} (measured)"
	echo "cpu: ${cpu:-unknown}, $cores cores online"
	echo "kernel: $(uname -sr), CONFIG_HZ=$hz;" \
	    "ITIMER_PROF asked for 10000 Hz delivers ${tick:-?} Hz"
	echo "compiler: $($CC --version 2>/dev/null | head -n 1)"
	echo "libc: $(getconf GNU_LIBC_VERSION 2>/dev/null || echo unknown);" \
	    "$(gprof --version 2>/dev/null | head -n 1 || echo no gprof)"
	pv=missing
	[ -x "$PROF" ] && pv=$($PROF -V 2>&1 | head -n 1 | sed 's/^prof: //')
	# Dirty: changed files but BENCHMARKS.md, the bench's own output.
	if gd=$(git describe --always 2>/dev/null); then
		git diff --quiet HEAD -- . ':(exclude)BENCHMARKS.md' ||
		    gd="$gd-dirty"
	else
		gd=unknown
	fi
	echo "libmon: git $gd; prof -V: $pv"
	f=$R/burn1.mon/mon.out
	if [ -x "$PROF" ] && [ -s "$f" ]; then
		echo "libmon's sampling clock (prof -s, burn, 1 thread):" \
		    "$($PROF -s "$B/burn.mon" "$f" 2>&1 >/dev/null |
		    sed -n 's/^clock: //p')"
	fi
	pf=$(perf --version 2>/dev/null)
	echo "perf: ${pf:-missing}; rows 9 and 14's reference:" \
	    "perf record -e cpu-clock -F $PERFHZ," \
	    "one run of the unprofiled build a round, pooled"
	sv=$(sed -n 's/^#define SQLITE_VERSION  *"\(.*\)"/\1/p' \
	    "$CACHE/sqlite3.h" 2>/dev/null)
	echo "SQLite: ${sv:-not fetched} (npm pack $SQLPKG), $SQLDEFS"
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
}

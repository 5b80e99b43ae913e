# build.sh -- the builds of the rows' workloads.
#
# Sourced by bench/run.  Each row's on_build hook calls build() for the
# programs its jobs run; a program two rows share is built once.  A
# build that fails, or lacks libmon.a, writes n/a lines for the jobs
# that would run it instead of stopping the bench.

BUILT=" "

# build PROG VAR SRC [LINK...]: $B/PROG.VAR, or n/a lines for its jobs.
build() {
	bp=$1 bv=$2 bs=$3
	shift 3
	wants "$bp" || return 0
	case $BUILT in
	*" $bp.$bv "*)	[ -f "$B/$bp.$bv" ]; return ;;
	esac
	BUILT="$BUILT$bp.$bv "
	case $bv in
	base)	pre="" post="" ;;
	pg)	pre="-pg" post="" ;;
	mon)	pre="-p" post=$LIBMON ;;
	monitor) pre="-DMONITOR -Iinclude" post=$LIBMON ;;
	gmon)	pre="-DGMON" post="" ;;
	floor)	pre="-DFLOOR" post="" ;;
	esac
	why=""
	if [ -n "$post" ] && [ ! -f "$LIBMON" ]; then
		why="no $LIBMON"
	elif ! $CC $CFLAGS $pre -pthread -o "$B/$bp.$bv" "$bs" $post "$@" \
	    >>"$O/build.log" 2>&1; then
		why="build failed"
		fail "$bp.$bv: build failed (see $O/build.log)"
	fi
	[ -z "$why" ] && return 0
	rm -f "$B/$bp.$bv"
	for bj in $JOBS; do
		[ "$(job_prog "$bj")" = "$bp" ] || continue
		rec "$bj $bv na $why"
		[ "$bv" = mon ] && rec "$bj mont na $why"
	done
	return 1
}

# build3 PROG SRC [LINK...]: the three builds of every row.
build3() {
	b3p=$1 b3s=$2
	shift 2
	for b3 in base mon pg; do
		build "$b3p" $b3 "$b3s" "$@"
	done
}

# solib NAME SRC: the uninstrumented library $B/libNAME.so.
solib() {
	$CC $CFLAGS -fPIC -shared -o "$B/lib$1.so" "$2" \
	    >>"$O/build.log" 2>&1 || fail "lib$1.so: build failed"
}

build_all() {
	rm -rf "$B"
	mkdir -p "$B"
	: >"$O/build.log"
	$CC $CFLAGS -o "$RUNNER" bench/runner.c >>"$O/build.log" 2>&1 ||
	    { log "bench: cannot build bench/runner.c"; exit 1; }
	for bf in $BUILDS; do
		$bf
	done
}

# build.sh -- the builds of the rows' workloads.
#
# Sourced by bench/run.  Each row's on_build hook calls build() for the
# programs its jobs run; a program two rows share is built once.  A
# build that fails, or lacks libmon.a, writes n/a lines for the jobs
# that would run it instead of stopping the bench.
#
# Besides the three builds of every row (base, mon, pg) and row 7's,
# rows 11, 12 and 25 build through libmon's specs file, as users do:
# monp, monpg and monfe are cc -specs=lib/mon-build.specs with -p, -pg
# and -pg -mfentry, whatever flags the specs add to them; hookp, hookpg
# and hookfe the same compilations linked with bench/floor.S, the empty
# hook, instead of libmon.  A hook build is compiled with -c and linked
# without -p or -pg: linked with them, gcrt1.o would start a profiler
# (the specs' libmon.a, or glibc's gmon) that the floor must not have.
# It takes no further LINK arguments.  Row 28 builds with
# -finstrument-functions: moncy linked with libmon, hookcy with the
# floor's empty hooks, uftcy run under uftrace record (the per-call
# peer), a script that execs it.

BUILT=" "
SPECS=lib/mon-build.specs
CYGFLAGS="-finstrument-functions -fno-omit-frame-pointer"	# row 28

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
	moncy)	pre=$CYGFLAGS post=$LIBMON ;;
	hookcy)	pre=$CYGFLAGS post="" ;;
	uftcy)	pre=$CYGFLAGS post="" ;;
	*p)	pre="-specs=$SPECS -p" post="" ;;
	*pg)	pre="-specs=$SPECS -pg" post="" ;;
	*fe)	pre="-specs=$SPECS -pg -mfentry" post="" ;;
	*mc)	pre="-specs=$SPECS -pg -mno-fentry" post="" ;;
	esac
	need=$post
	why=""
	case $bv in
	monp|monpg|monfe|monmc) need="$SPECS $LIBMON" ;;
	hookcy)	need="" ;;
	hook*)	need=$SPECS ;;
	uftcy)	command -v uftrace >/dev/null 2>&1 || why="no uftrace" ;;
	esac
	for f in $need; do
		[ -f "$f" ] || why="no $f"
	done
	if [ -z "$why" ] && ! case $bv in
	    hook*) hook "$bp" "$bv" "$bs" "$pre" ;;
	    uftcy) uftrace_wrap "$bp" "$bv" "$bs" "$pre" ;;
	    *) $CC $CFLAGS $pre -pthread -o "$B/$bp.$bv" "$bs" $post "$@" ;;
	    esac >>"$O/build.log" 2>&1; then
		why="build failed"
		fail "$bp.$bv: build failed (see $O/build.log)"
	fi
	[ -z "$why" ] && return 0
	rm -f "$B/$bp.$bv"
	for bj in $JOBS; do
		[ "$(job_prog "$bj")" = "$bp" ] || continue
		rec "$bj $bv na $why"
		for bw in $(job_vars "$bj"); do
			case $bv:$bw in
			mon:mont|mon:monw|mon:monwt|monpg:montpg|floor:floortk|floor:floorev)
				rec "$bj $bw na $why" ;;
			esac
		done
	done
	return 1
}

# hook PROG VAR SRC FLAGS: the floor, $B/PROG.VAR, SRC compiled with
# FLAGS and linked with bench/floor.S.
hook() {
	floor_o || return 1
	$CC $CFLAGS $4 -pthread -c -o "$B/$1.$2.o" "$3" &&
	    $CC $CFLAGS -pthread -o "$B/$1.$2" "$B/$1.$2.o" "$O/floor.o"
}

# uftrace_wrap PROG VAR SRC FLAGS: $B/PROG.VAR runs SRC, compiled with
# FLAGS into $B/PROG.VAR.bin, under uftrace record, its trace in the
# run's directory; the runner's rusage holds uftrace and the program.
uftrace_wrap() {
	$CC $CFLAGS $4 -pthread -o "$B/$1.$2.bin" "$3" || return 1
	printf '#!/bin/sh\nexec uftrace record -d uftrace.data %s "$@"\n' \
	    "$PWD/$B/$1.$2.bin" >"$B/$1.$2" && chmod +x "$B/$1.$2"
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
	rm -rf "$B" "$O/floor.o"
	mkdir -p "$B"
	: >"$O/build.log"
	$CC $CFLAGS -o "$RUNNER" bench/runner.c >>"$O/build.log" 2>&1 ||
	    { log "bench: cannot build bench/runner.c"; exit 1; }
	for bf in $BUILDS; do
		$bf
	done
}

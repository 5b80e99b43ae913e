# arcs.sh -- the generated arcs programs of rows 23, 24 and 26: many
# small functions in one of two shapes (bench/arcs.awk's copies of
# gcc's assembly of bench/arcsfn.c), driven by bench/arcs.c.
#
# Sourced by bench/run.  A row names a program with arcsprog NAME SHAPE
# N and gives it jobs as usual; each program is built four ways:
#
#	base	unprofiled
#	mon	cc -specs=lib/mon-build.specs -p: libmon as users get it
#	pg	cc -pg: glibc's gmon
#	hook	mon's objects linked, without -p, with bench/floor.S: the
#		empty hook, the floor under any -p build
#
# The driver is built without -p or -pg in all four, so the calls a
# profiler counts are the generated functions' alone.  The functions'
# objects are generated once for each shape, size and assembly of
# arcsfn.c (what the flags change in it: -p and -pg give the same, and
# share their objects) into $ACACHE, which git ignores, in parts of
# ARCSPART functions, two parts at a time; the programs are linked
# there too, and linked again only when what they are made of changes
# (libmon.a, for mon).  At a million functions generating takes minutes
# and linking about ten seconds of CPU a build: the bench says how
# long, when it does them.  BENCH_CACHE names another cache directory
# (another checkout's bench/cache), so that a second tree need not
# generate them again.

ACACHE=${BENCH_CACHE:-bench/cache}/arcs
ARCSPART=100000		# functions a part
ARCSPROGS=""

# arcsprog NAME SHAPE N: program NAME is N functions in shape SHAPE.
arcsprog() {
	ARCSPROGS="$ARCSPROGS $1"
	eval "A_shape_$1=\$2 A_n_$1=\$3"
}

# floor_o: bench/floor.S assembled, $O/floor.o.
floor_o() {
	[ -f "$O/floor.o" ] || $CC -c -o "$O/floor.o" bench/floor.S \
	    >>"$O/build.log" 2>&1
}

# arcs_asm NAME FLAGS...: gcc's assembly of arcsfn.c with FLAGS, as
# $O/arcsfn.NAME.s; the name of the first of them with the same, if
# another is (so that one set of objects serves both).
arcs_asm() {
	an=$1
	shift
	$CC $CFLAGS "$@" -S -o "$O/arcsfn.$an.s" bench/arcsfn.c \
	    >>"$O/build.log" 2>&1 || return 1
	for ao in $ASMS; do
		if cmp -s "$O/arcsfn.$ao.s" "$O/arcsfn.$an.s"; then
			eval "A_asm_$an=$ao"
			return 0
		fi
	done
	ASMS="$ASMS $an"
	eval "A_asm_$an=$an"
}

# arcs_part SHAPE N ASM K DIR: part K of the functions, DIR/partK.o.
arcs_part() {
	awk -v n=$2 -v shape=$1 -v from=$(($4 * ARCSPART)) \
	    -v to=$((($4 + 1) * ARCSPART)) -f bench/arcs.awk \
	    "$O/arcsfn.$3.s" | $CC -c -x assembler -o "$5/part$4.o.tmp" - \
	    >>"$O/build.log" 2>&1 && mv "$5/part$4.o.tmp" "$5/part$4.o"
}

# arcs_objects SHAPE N ASM: the functions, generated once into
# $ACACHE/SHAPE-N.ASM (its key file says from what), and the table the
# driver sweeps; the directory in $ad.
arcs_objects() {
	ad=$ACACHE/$1-$2.$3
	akey="$(cksum <"$O/arcsfn.$3.s") $(cksum <bench/arcs.awk)"
	akey="$akey $($CC --version 2>&1 | head -n 1) $1 $2 $ARCSPART"
	[ "$(cat "$ad/key" 2>/dev/null)" = "$akey" ] && return 0
	rm -rf "$ad"
	mkdir -p "$ad"
	log "bench: generating $2 functions, $1, assembly $3" \
	    "(once; kept in $ad)"
	at0=$(date +%s)
	k=0
	while [ $((k * ARCSPART)) -lt "$2" ]; do
		arcs_part "$1" "$2" "$3" $k "$ad" &
		k=$((k + 1))
		[ $((k % 2)) -eq 0 ] && wait
	done
	wait
	while [ $k -gt 0 ]; do
		k=$((k - 1))
		[ -f "$ad/part$k.o" ] || return 1
	done
	awk -v n=$2 -v shape=$1 -v table=1 -f bench/arcs.awk |
	    $CC -c -x assembler -o "$ad/top.o" - >>"$O/build.log" 2>&1 ||
	    return 1
	echo "$akey" >"$ad/key"
	log "bench: generated $2 functions, $1, assembly $3:" \
	    "$(($(date +%s) - at0)) s"
}

# arcs_link PROG VAR ASM FLAGS...: $B/PROG.VAR, the driver and the
# functions of assembly ASM linked with FLAGS (mon's and hook's add
# what they need), from $ACACHE/PROG.VAR, linked again if its key has
# changed.
arcs_link() {
	lp=$1 lv=$2
	shift 2
	arcs_objects "$(eval "echo \$A_shape_$lp")" \
	    "$(eval "echo \$A_n_$lp")" "$1" || return 1
	shift
	lx=$ACACHE/$lp.$lv
	lkey="$(cat "$ad/key") $(cksum <"$O/arcs.o") $CFLAGS $*"
	case $lv in
	mon)	lkey="$lkey $(cksum <"$LIBMON") $(cksum <"$SPECS")" ;;
	hook)	lkey="$lkey $(cksum <"$O/floor.o")" ;;
	esac
	if [ "$(cat "$lx.key" 2>/dev/null)" != "$lkey" ]; then
		rm -f "$lx" "$lx.key"
		at0=$(date +%s)
		$CC $CFLAGS -pthread -o "$lx.tmp" "$O/arcs.o" "$ad/top.o" \
		    "$ad"/part*.o "$@" >>"$O/build.log" 2>&1 &&
		    mv "$lx.tmp" "$lx" || return 1
		echo "$lkey" >"$lx.key"
		at1=$(date +%s)
		[ $((at1 - at0)) -ge 5 ] &&
		    log "bench: linked $lp.$lv: $((at1 - at0)) s"
	fi
	case $lx in
	/*)	ln -s "$lx" "$B/$lp.$lv" ;;
	*)	ln -s "$PWD/$lx" "$B/$lp.$lv" ;;
	esac
}

# What every program is made of: the driver, the floor, arcsfn.c's
# assembly for each build.
arcs_start() {
	[ -n "$ASMS" ] && return 0
	$CC $CFLAGS -pthread -c -o "$O/arcs.o" bench/arcs.c \
	    >>"$O/build.log" 2>&1 && floor_o && arcs_asm plain &&
	    arcs_asm mon -specs="$SPECS" -p && arcs_asm pg -pg
}

# The four builds of each program a job runs; their text in MiB, as
# "JOB mon text" for every job that runs it.
build_arcs() {
	ASMS=""
	for ap in $ARCSPROGS; do
		wants "$ap" || continue
		if ! arcs_start; then
			fail "bench/arcs.c, arcsfn.c or floor.S: build failed" \
			    "(see $O/build.log)"
			ASMS=" "
		fi
		for av in base mon pg hook; do
			case $av in
			base)	set -- "$A_asm_plain" ;;
			mon)	set -- "$A_asm_mon" -specs="$SPECS" -p ;;
			pg)	set -- "$A_asm_pg" -pg ;;
			hook)	set -- "$A_asm_mon" "$O/floor.o" ;;
			esac
			aw="build failed"
			if [ $av = mon ] && [ ! -f "$LIBMON" ]; then
				aw="no $LIBMON"
			elif [ "$ASMS" != " " ] && arcs_link "$ap" $av "$@"
			then
				continue
			else
				fail "$ap.$av: build failed (see $O/build.log)"
			fi
			rm -f "$B/$ap.$av"
			for aj in $JOBS; do
				[ "$(job_prog "$aj")" = "$ap" ] &&
				    rec "$aj $av na $aw"
			done
		done
		at=$(size -A "$B/$ap.mon" 2>/dev/null |
		    awk '$1 == ".text" { printf "%.2f", $2 / 1048576 }')
		for aj in $JOBS; do
			[ "$(job_prog "$aj")" = "$ap" ] &&
			    rec "$aj mon text $at"
		done
	done
}
on_build build_arcs

# perf.sh -- perf as the reference a report is held to (rows 9 and 14).
#
# Sourced by bench/run.  A job held to perf runs its unprofiled build
# under `perf record -e cpu-clock` once a round, user and kernel mode,
# as one more build of the round (VAR perf); after the rounds,
# bench/agree.awk compares each round's libmon and gprof reports with
# the pooled samples (top-10 overlap, L1 distance of the shares; how
# names are matched is written there).  A row uses it by adding perf to
# its job's builds and calling perf_finish and top5 from its on_finish
# hook.

PERFHZ=4000		# perf's sampling rate
tablevar perfhz $PERFHZ

# perfrun JOB VAR [TAG]: perf's samples of one run of the build, user
# and kernel mode, at PERFHZ, as $R/JOB.perf-TAG/script (TAG is VAR by
# default); the run's profile is written there too.  0 if all went well.
perfrun() {
	bin=$PWD/$(job_bin "$1" "$2")
	d=$R/$1.perf-${3:-$2}
	[ -x "$bin" ] || return 1
	mkdir -p "$d"
	if ! (cd "$d" && env $(job_env "$1" "$2") perf record -q \
	    -e cpu-clock -F $PERFHZ -o perf.data -- "$bin" $(job_args "$1") \
	    >stdout 2>stderr </dev/null); then
		pwhy="perf record failed"
		pmore="$d/stderr"
		return 1
	fi
	rec "$1 perf sum $(sed -n 's/.*checksum \([0-9a-f]*\).*/\1/p' \
	    "$d/stdout")"
	if ! perf script -i "$d/perf.data" -F ip,sym,dso >"$d/script" \
	    2>"$d/script.err"; then
		pwhy="perf script failed"
		pmore="$d/script.err"
		return 1
	fi
}

# The symbols of the shared objects perf sampled in, "object address
# name", for agree.awk to know the names of one address as one.
objsyms() {
	for p in $(awk '{ print $NF }' "$@" | sort -u | tr -d '()'); do
		[ -f "$p" ] || continue
		ob=$(basename "$p")
		{ nm -D --defined-only "$p"; nm --defined-only "$p"; } \
		    2>/dev/null | awk -v o="$ob" 'NF == 3 {
			n = $3; sub(/@.*/, "", n); print o, $1, n
		}'
	done | sort -u
}

# The rows that are a profiler's own code, left out of perf's samples
# of its build as its report leaves them out: for libmon, the functions
# of libmon.a the unprofiled program does not define; for glibc, its
# mcount and its profil() signal handler in the C library.
profcode() {
	if [ "$2" = mon ]; then
		nm --defined-only "$PWD/$(job_bin "$1" base)" 2>/dev/null |
		    awk '{ print $3 }' | sort -u >"$O/prog.names"
		nm --defined-only "$LIBMON" 2>/dev/null |
		    awk '$2 ~ /^[TtWw]$/ { print $3 }' | sort -u |
		    comm -23 - "$O/prog.names"
	else
		for f in mcount _mcount __mcount_internal profil_counter \
		    __profil_counter; do
			echo "$f (libc.so.6)"
		done
	fi
}

# perfround JOB REP: a round's run of the unprofiled build under perf,
# in turn with the job's other builds.  Pooled, these runs are the
# reference the job's reports are held to: the shares of one run move
# with the load on the machine, well beyond what sampling alone makes.
perfround() {
	[ -f "$R/$1.noperf" ] && return 0
	[ -x "$(job_bin "$1" base)" ] || return 0
	pwhy="" pmore="PATH"
	if ! command -v perf >/dev/null 2>&1; then
		pwhy="no perf"
	else
		perfrun "$1" base "r$2"
	fi
	if [ -n "$pwhy" ]; then
		log "bench: $1 not held to perf: $pwhy (see $pmore)"
		rec "$1 perf na $pwhy"
		: >"$R/$1.noperf"
		return 0
	fi
	# perf_event_paranoid above 1 leaves a user's perf user mode only.
	[ "$2" = 1 ] && perf evlist -i "$R/$1.perf-r1/perf.data" 2>/dev/null |
	    grep -q ':u' && rec "$1 perf mode user mode only" &&
	    log "bench: perf sampled user mode only (perf_event_paranoid);" \
	    "$1's reference lacks the kernel's time"
	return 0
}

# perfflat JOB VAR SCRIPT...: perf's samples as rows, a profiler's code
# left out.
perfflat() {
	pj=$1 pv=$2
	shift 2
	: >"$O/drop"
	[ "$pv" != base ] && profcode "$pj" "$pv" >"$O/drop"
	awk -f bench/perfflat.awk -v drop="$O/drop" \
	    -v prog="$(basename "$(job_bin "$pj" "$pv")")" "$@"
}

# perf_finish JOB: after the rounds, every round's reports held to the
# pooled reference.  Then, once, perf on each profiled build, its
# profiler's code left out, which tells apart what the build changed in
# the program (against the reference) from what the report got wrong
# about that very run; and each of perf's runs against the others,
# the distance that chance alone puts between two runs of one build.
perf_finish() {
	j=$1
	set -- "$R/$j".perf-r*/script
	[ -s "$1" ] || return 0
	nref=$#
	rec "$j perf runs $nref"
	for v in mon pg; do
		perfrun "$j" $v || continue
		perfflat "$j" $v "$R/$j.perf-$v/script" >"$R/$j.perf-$v/perf.flat"
	done
	objsyms "$R/$j".perf-*/script >"$R/$j.syms"
	perfflat "$j" base "$@" >"$R/$j.ref"
	ag -v ref="$R/$j.ref" -v top="$R/$j.top" >/dev/null
	sed "s/^/$j base top /" "$R/$j.top" >>"$RES"
	r=1
	while [ $r -le "$REPS" ]; do
		agree "$j" $r
		r=$((r + 1))
	done
	# One run of perf's against the others.
	[ $nref -gt 1 ] && for f in "$@"; do
		perfflat "$j" base "$f" >"$O/one"
		for g in "$@"; do
			[ "$g" = "$f" ] || echo "$g"
		done | xargs awk -f bench/perfflat.awk \
		    -v prog="$(basename "$(job_bin "$j" base)")" >"$O/others"
		ag -v ref="$O/others" -v base="$O/one" |
		    sed -n "s/^base l1 /$j base bl1 /p" >>"$RES"
	done
	# What each build changed, and what its report got wrong.
	ag -v ref="$R/$j.ref" -v mon="$R/$j.perf-mon/perf.flat" \
	    -v pg="$R/$j.perf-pg/perf.flat" -v detail="$R/$j.agree.builds" |
	    sed -n "s/^\([a-z]*\) l1 /$j \1 bl1 /p" >>"$RES"
	for v in mon pg; do
		dv=$R/$j.perf-$v
		[ -s "$dv/perf.flat" ] && report "$j" $v run "$dv" || continue
		ag -v ref="$dv/perf.flat" -v $v="$dv/flat.run" \
		    -v detail="$dv/agree" |
		    sed -n "s/^\([a-z]*\) l1 /$j \1 al1 /p" >>"$RES"
	done
}

# agree.awk on the files named, the symbols of perf's objects known.
ag() {
	awk -f bench/agree.awk -v syms="$R/$j.syms" "$@" </dev/null
}

# agree JOB REP: round REP's reports of JOB against perf's.
agree() {
	am=$R/$1.mon/flat.$2
	ap=$R/$1.pg/flat.$2
	[ -f "$am" ] || am=""
	[ -f "$ap" ] || ap=""
	ag -v ref="$R/$1.ref" -v mon="$am" -v pg="$ap" \
	    -v detail="$R/$1.agree.$2" | sed "s/^/$1 /" >>"$RES"
}

# top5 JOB: the top of the last round's reports, for the table's side
# by side lines.
top5() {
	for v in mon pg; do
		f=$R/$1.$v/flat.$REPS
		[ -f "$f" ] || continue
		head -n 5 "$f" | awk -F '\t' -v j=$1 -v v=$v '{
			printf "%s %s top %d %s %s\n", j, v, NR, $2, $1
		}' >>"$RES"
	done
}

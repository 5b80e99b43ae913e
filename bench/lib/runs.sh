# runs.sh -- the rounds: timed runs, their reports, the rows' figures.
#
# Sourced by bench/run.  Each round runs every build of every job once,
# in a rotating order so that drift in the machine hits all builds
# alike.  A run goes through bench/runner, which reaps the child with
# wait4(): CPU is user+sys of all its threads.  After a run the row
# hooks take their figures: from the run's output, then from its call
# graph (prof -q, gprof -q) and its flat report (prof, gprof -b -p),
# each made only when a row asks for it.

FLAT="awk -f bench/flat.awk"

# The tools' reports, flattened: report JOB VAR REP [DIR] ->
# DIR/flat.REP, DIR by default the build's run directory.
report() {
	rj=$1 rv=$2 rr=$3
	d=${4:-$R/$rj.$rv}
	bin=$(job_bin "$rj" "$rv")
	case $rv in
	mon|mont)
		if [ ! -x "$PROF" ]; then
			rec "$rj $rv rna no $PROF"
			return 1
		fi
		if [ ! -s "$d/mon.out" ]; then
			rec "$rj $rv rna no mon.out written"
			return 1
		fi
		if ! $PROF "$bin" "$d/mon.out" >"$d/report.$rr" \
		    2>"$d/report.err.$rr"; then
			rec "$rj $rv rna prof failed"
			return 1
		fi
		$FLAT -v fmt=prof "$d/report.$rr" >"$d/flat.$rr"
		;;
	pg)
		if ! command -v gprof >/dev/null 2>&1; then
			rec "$rj $rv rna no gprof"
			return 1
		fi
		if [ ! -s "$d/gmon.out" ]; then
			rec "$rj $rv rna no gmon.out written"
			return 1
		fi
		if ! gprof -b -p "$bin" "$d/gmon.out" >"$d/report.$rr" \
		    2>"$d/report.err.$rr"; then
			rec "$rj $rv rna gprof failed"
			return 1
		fi
		$FLAT -v fmt=gprof "$d/report.$rr" >"$d/flat.$rr"
		;;
	*)
		return 1
		;;
	esac
}

# graph JOB VAR REP: the call graph of the run, prof -q or gprof -q, as
# $d/graph.REP.
graph() {
	gd=$R/$1.$2
	bin=$(job_bin "$1" "$2")
	case $2 in
	mon)
		[ -x "$PROF" ] && [ -s "$gd/mon.out" ] &&
		    $PROF -q "$bin" "$gd/mon.out" >"$gd/graph.$3" \
		    2>"$gd/graph.err.$3"
		;;
	pg)
		command -v gprof >/dev/null 2>&1 && [ -s "$gd/gmon.out" ] &&
		    gprof -b -q "$bin" "$gd/gmon.out" >"$gd/graph.$3" \
		    2>"$gd/graph.err.$3"
		;;
	*)
		return 1
		;;
	esac
}

# The figures each job takes from its run and its reports: the
# checksum, then the rows' hooks.  Unless the job says noreport, the
# flat report is made even when no row reads it, so that what the
# reporting tools say on stderr is seen for every job.
metrics() {
	mj=$1 mv=$2 mr=$3
	d=$R/$mj.$mv
	tcpu= truth=
	out=$d/stdout
	sum=$(sed -n 's/.*checksum \([0-9a-f]*\).*/\1/p' "$out")
	rec "$mj $mv sum ${sum:-none}"
	for h in $(hooks "$RUNHOOKS" "$mj"); do
		$h
	done
	case $NOREPORT in
	*" $mj "*)	return 0 ;;
	esac
	gh=$(hooks "$GRAPHHOOKS" "$mj")
	if [ -n "$gh" ] && graph "$mj" "$mv" "$mr"; then
		for h in $gh; do
			$h "$d/graph.$mr"
		done
	fi
	report "$mj" "$mv" "$mr" || return 0
	for h in $(hooks "$FLATHOOKS" "$mj"); do
		$h "$d/flat.$mr"
	done
}

# run1 JOB VAR REP: one timed run and what it tells: CPU seconds, wall
# seconds, peak RSS in KiB; the runner's whole line stays in $line for
# the hooks.
run1() {
	j=$1 v=$2 rep=$3
	if [ "$v" = perf ]; then
		perfround "$j" "$rep"
		return 0
	fi
	bin=$PWD/$(job_bin "$j" "$v")
	[ -x "$bin" ] || return 0
	d=$R/$j.$v
	mkdir -p "$d"
	rm -f "$d/mon.out" "$d"/mon.out.* "$d/gmon.out"
	line=$(env $(job_env "$j" "$v") "$RUNNER" -d "$d" -o "$d/stdout" \
	    -e "$d/stderr" -- "$bin" $(job_args "$j") </dev/null)
	st=$(field status "$line")
	if [ "${st:-127}" != 0 ]; then
		fail "$j.$v: exit status ${st:-unknown} (see $d/stderr)"
		rec "$j $v na run failed (status ${st:-?})"
		return 0
	fi
	cpu=$(field cpu "$line")
	rec "$j $v cpu $cpu"
	rec "$j $v wall $(field wall "$line")"
	rec "$j $v rss $(field rss "$line")"
	metrics "$j" "$v" "$rep"
}

run_all() {
	for h in $STARTS; do
		$h
	done
	rep=1
	while [ $rep -le "$REPS" ]; do
		log "bench: round $rep of $REPS at $(($(date +%s) - T0)) s"
		for j in $JOBS; do
			for v in $(rotate $((rep - 1)) $(job_vars "$j")); do
				run1 "$j" "$v" "$rep"
			done
		done
		for h in $ROUNDS; do
			$h "$rep"
		done
		rep=$((rep + 1))
	done
	# What the reporting tools said on stderr, once per kind of line.
	cat "$R"/*/report.err.* 2>/dev/null | sed 's/[0-9a-f]\{16,\}/ID/g' |
	    sort | uniq -c | sed 's/^/bench: report stderr: /' >&2
	for h in $FINISHES; do
		$h
	done
}

# jobs.sh -- what the rows tell the runner: their jobs, their hooks.
#
# Sourced by bench/run before the rows.  A job is one workload with its
# arguments, run every round in each of its builds (VARs: base, mon,
# pg, ...).  A row file registers its jobs and hooks with the functions
# below and bench/run does the rest; this file keeps the registry and
# the small helpers every part uses.
#
#	job NAME PROG VARS ARGS	NAME runs $B/PROG.VAR ARGS, for each VAR
#	jobvars NAME VARS	NAME's builds are VARS after all
#	jobenv NAME VAR X=Y	the environment of NAME's VAR runs
#	noreport NAME...	the run's own figures are all: no report
#	on_build FN		FN builds the row's programs (see build.sh)
#	on_run PAT FN		after a run of a job matching PAT, FN takes
#				figures from its output ($out)
#	on_graph PAT FN		then FN reads the run's call graph ($1)
#	on_flat PAT FN		then FN reads its flat report ($1)
#	on_start FN		before the rounds
#	on_round FN		after each round's jobs ($1: the round)
#	on_finish FN		after the rounds
#	extra NAME		a name BENCH_ONLY takes that is no job
#	tablevar NAME VALUE	a value table.awk sees as NAME
#	table <<'EOF'		the row's awk: its lines of the table
#
# Hooks see the job in $mj, the build in $mv, the round in $mr, the
# run's directory in $d; hooks of one stage run in the order the rows
# registered them.

ALLJOBS=""
EXTRAS=""
BUILDS=""
STARTS=""
ROUNDS=""
FINISHES=""
RUNHOOKS=""
GRAPHHOOKS=""
FLATHOOKS=""
NOREPORT=" "
TABLEVARS=""
TABLE_AWK=""

log() {
	printf '%s\n' "$*" >&2
}

fail() {
	log "bench: $*"
	failed=1
}

job() {
	ALLJOBS="${ALLJOBS:+$ALLJOBS }$1"
	eval "J_prog_$1=\$2 J_vars_$1=\$3 J_args_$1=\$4"
}

jobvars() {
	eval "J_vars_$1=\$2"
}

jobenv() {
	eval "J_env_$1_$2=\$3"
}

noreport() {
	NOREPORT="$NOREPORT$* "
}

on_build() { BUILDS="$BUILDS $1"; }
on_start() { STARTS="$STARTS $1"; }
on_round() { ROUNDS="$ROUNDS $1"; }
on_finish() { FINISHES="$FINISHES $1"; }
on_run() { RUNHOOKS="$RUNHOOKS $1:$2"; }
on_graph() { GRAPHHOOKS="$GRAPHHOOKS $1:$2"; }
on_flat() { FLATHOOKS="$FLATHOOKS $1:$2"; }
extra() { EXTRAS="$EXTRAS $1"; }

tablevar() {
	TABLEVARS="$TABLEVARS -v $1=$2"
}

# The row's part of the table program, from stdin.
table() {
	TABLE_AWK="$TABLE_AWK$(cat)
"
}

# hooks LIST JOB: the functions of LIST whose pattern matches JOB.
hooks() {
	set -f
	for h in $1; do
		case $2 in
		${h%%:*})	echo "${h#*:}" ;;
		esac
	done
	set +f
}

job_prog() {
	eval "echo \"\$J_prog_$1\""
}

job_args() {
	eval "echo \"\$J_args_$1\""
}

job_vars() {
	eval "echo \"\$J_vars_$1\""
}

# job_env JOB VAR: the environment a run of the build has, as NAME=VALUE.
job_env() {
	eval "je=\${J_env_$1_$2:-LC_ALL=C}"
	echo "$je"
}

# rec "JOB VAR KEY VALUE...": one line of results; none without a value.
rec() {
	case $* in
	*" "*" "*" "?*)	echo "$*" >>"$RES" ;;
	esac
}

# The list rotated left by n places.
rotate() {
	n=$1
	shift
	while [ "$n" -gt 0 ]; do
		x=$1
		shift
		set -- "$@" "$x"
		n=$((n - 1))
	done
	echo "$@"
}

# The build a job's VAR runs: sys's, short's and thrs's mont is the mon
# build under another clock, burn1's monns and monitorns its mon and monitor
# builds recording no stacks, fine*'s monparts the mon build in parts,
# row 29's monw and monwt the mon build in wall mode (under the default
# clock, under the timer clock), row 25's montpg its monpg build under
# the timer clock, row 12's floortk its floor build with events of a
# period of 10 ms (FLOOR_PERIOD=10000000), row 11's floorev its floor
# build with the perf clock's events in the parent (FLOOR_EVENTS).
job_bin() {
	case $2 in
	mont|monns|monparts|monw|monwt) echo "$B/$(job_prog "$1").mon" ;;
	montpg)	echo "$B/$(job_prog "$1").monpg" ;;
	floortk|floorev) echo "$B/$(job_prog "$1").floor" ;;
	monitorns) echo "$B/$(job_prog "$1").monitor" ;;
	*)	echo "$B/$(job_prog "$1").$2" ;;
	esac
}

# running JOB: whether the job is one to run.
running() {
	case " $JOBS " in
	*" $1 "*)	return 0 ;;
	esac
	return 1
}

# picked NAME: whether BENCH_ONLY (or its absence) takes the extra NAME.
picked() {
	[ -z "$BENCH_ONLY" ] && return 0
	case " $BENCH_ONLY " in
	*" $1 "*)	return 0 ;;
	esac
	return 1
}

# wants PROG: whether a job to run uses the program.
wants() {
	for wj in $JOBS; do
		[ "$(job_prog "$wj")" = "$1" ] && return 0
	done
	return 1
}

# field NAME LINE: the value of NAME=value in runner's line.
field() {
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# col FLAT NAME N: column N of NAME's row (0 if no row).
col() {
	awk -F '\t' -v name="$2" -v n="$3" \
	    '$1 == name { v = $n } END { print v == "" ? 0 : v }' "$1"
}

# Row 23: no cliff -- one thread calls ARCSCALLS functions, each once a
# sweep, of 1k to 1M generated functions (bench/lib/arcs.sh) in two
# shapes: sites, each function called from a call site of its own, and
# fan, one call site calling them all through a table.  Each is built
# unprofiled, with libmon (through its specs file), with glibc's -pg
# and on the empty hook (bench/floor.S): CPU nanoseconds a call, from
# the program's own clock, libmon and glibc over the floor.  libmon's
# calls counted (prof's overhead line) must equal the calls made in
# every run.
#
# glibc keeps the callees of a call site in a list that it walks on
# every call, so in the fan shape a call costs it the walk of up to N
# arcs: it runs only at 1k, in a job of its own (fanpg1k) making
# ARCSPGCALLS calls.  Row 26 reads the million-arc runs' exit and
# profile.

ARCSCALLS=16000000	# calls a run
ARCSPGCALLS=1000000	# glibc's fan at 1k
ARCSPROFREPS=3		# rounds prof reads the million-arc profiles
tablevar arcscalls $ARCSCALLS
tablevar arcspgcalls $ARCSPGCALLS

for s in sites fan; do
	for z in 1k:1000 10k:10000 100k:100000 1m:1000000; do
		arcsprog $s${z%:*} $s ${z#*:}
		v="base mon mont pg hook"
		[ $s = fan ] && v="base mon mont hook"
		job $s${z%:*} $s${z%:*} "$v" "1 $((ARCSCALLS / ${z#*:}))"
		jobenv $s${z%:*} mont PROFCLOCK=timer
		noreport $s${z%:*}
	done
done
job fanpg1k fan1k pg "1 $((ARCSPGCALLS / 1000))"
noreport fanpg1k

# The run's own figures: calls made, nanoseconds a call, and the
# seconds from main's return to the process's end (its exit).
arcs_figures() {
	set -- $(sed -n \
	    's/^arcs [0-9]* calls made \([0-9]*\) ns \([0-9.]*\).*/\1 \2/p' \
	    "$out")
	rec "$mj $mv made $1"
	rec "$mj $mv ns $2"
	set -- $(sed -n 's/^exit at \([0-9.]*\)$/\1/p' "$out") \
	    $(field end "$line")
	[ $# -eq 2 ] && rec "$mj $mv exit $(awk -v a=$1 -v b=$2 \
	    'BEGIN { printf "%.4f", b - a }')"
}

# libmon's calls counted, from prof's report; with a million arcs prof
# is timed (row 26), prof -q too, in the first ARCSPROFREPS rounds only
# (they take seconds).
arcs_counted() {
	[ "$mv" = mon ] && [ -x "$PROF" ] || return 0
	case $mj in
	*1m)	[ "$mr" -le $ARCSPROFREPS ] || return 0 ;;
	esac
	if [ ! -s "$d/mon.out" ]; then
		rec "$mj mon rna no mon.out written"
		return 0
	fi
	bin=$PWD/$(job_bin "$mj" mon)
	pl=$("$RUNNER" -d "$d" -o "$d/report" -e "$d/report.err" -- \
	    "$PWD/$PROF" "$bin" mon.out </dev/null)
	if [ "$(field status "$pl")" != 0 ]; then
		rec "$mj mon rna prof failed"
		return 0
	fi
	rec "$mj mon calls $(sed -n 's/.* \([0-9]*\) calls counted.*/\1/p' \
	    "$d/report")"
	case $mj in
	*1m)	;;
	*)	return 0 ;;
	esac
	rec "$mj mon pcpu $(field cpu "$pl")"
	rec "$mj mon prss $(field rss "$pl")"
	pl=$("$RUNNER" -d "$d" -o "$d/graph" -e "$d/graph.err" -- \
	    "$PWD/$PROF" -q "$bin" mon.out </dev/null)
	if [ "$(field status "$pl")" != 0 ]; then
		rec "$mj mon rna prof -q failed"
		return 0
	fi
	rec "$mj mon qcpu $(field cpu "$pl")"
	rec "$mj mon qrss $(field rss "$pl")"
}
on_run 'sites*' arcs_figures
on_run 'fan*' arcs_figures
on_run 'sites*' arcs_counted
on_run 'fan*' arcs_counted

table <<'AWK'
END {
	nz23 = split("1k 10k 100k 1m", z23, " ")
	for (s23 = 1; s23 <= 2; s23++) {
		sh = s23 == 1 ? "sites" : "fan"
		for (k23 = 1; k23 <= nz23; k23++) {
			j = sh z23[k23]
			jp = pgjob23(sh, z23[k23])
			t = "?"
			if (has(j, "mon", "text"))
				t = sprintf("%.2f", med(j, "mon", "text"))
			pg = "n/a (a list walk of N arcs a call)"
			pr = "-"
			if (jp != "") {
				pg = cell(jp, "pg", "ns", "%.2f")
				pr = ratio(jp, "pg", "ns", j, "hook")
			}
			row(23, sprintf("ns per call, %s arcs, %s, %s MiB" \
			    " text; unprofiled / floor, ratios over the floor",
			    z23[k23], sh, t), floorcell(j, "ns", "%.2f"),
			    cell(j, "mon", "ns", "%.2f"), pg,
			    ratio(j, "mon", "ns", j, "hook"), pr, "<= 1.5x")
			row(23, "  the same, libmon PROFCLOCK=timer", "-",
			    cell(j, "mont", "ns", "%.2f"), "-",
			    ratio(j, "mont", "ns", j, "hook"), "-", "-")
		}
		for (k23 = 1; k23 <= nz23; k23++) {
			j = sh z23[k23]
			jp = pgjob23(sh, z23[k23])
			pg = pr = "-"
			if (jp != "") {
				pg = mbcell(jp, "pg", "rss")
				pr = ratio(jp, "pg", "rss", j, "hook")
			}
			row(23, sprintf("peak RSS MB, %s arcs, %s;" \
			    " unprofiled / floor", z23[k23], sh),
			    floorcell(j, "rss", "%.0f", 1024),
			    mbcell(j, "mon", "rss"), pg,
			    ratio(j, "mon", "rss", j, "hook"), pr, "-")
		}
	}
	for (s23 = 1; s23 <= 2; s23++) {
		sh = s23 == 1 ? "sites" : "fan"
		x = worst23(sh, "mon")
		s = x == "" ? "n/a" : sprintf("%s (worst %.2fx)",
		    x > 1.5 ? "MISS" : "PASS", x)
		goal("row 23, no cliff, " sh ": libmon <= 1.5x the empty hook" \
		    " a call, 1k to 1M arcs: " s)
		x = worst23(sh, "mont")
		s = x == "" ? "n/a" : sprintf("worst %.2fx", x)
		goal("row 23, " sh ", libmon under PROFCLOCK=timer (its" \
		    " clock's cost apart, not a target): " s)
	}
	goal("row 23, libmon's calls exact at every scale, both shapes: " \
	    exact23())
	note("23. Generated programs (bench/arcs.awk, bench/lib/arcs.sh) of")
	note("   1k to 1M small functions, each called once a sweep, one")
	note("   thread making " arcscalls / 1e6 "M calls a run.  sites: the")
	note("   functions are a binary tree, each called from a call site")
	note("   of its own in its parent; fan: the driver calls them all")
	note("   from one site through a table.  Built unprofiled, with")
	note("   libmon through `-specs=lib/mon-build.specs -p`, with glibc's")
	note("   `-pg`, and on the empty hook (`bench/floor.S`: the same")
	note("   objects as libmon's, linked with a bare-ret `mcount`); CPU")
	note("   ns a call by the program's own clock (start-up and exit")
	note("   left out), the least of the runs; ratios over the floor.")
	note("   glibc's fan runs only at 1k and " arcspgcalls / 1e6 "M calls:")
	note("   its mcount walks the site's list of callees on every call.")
	note("   A second libmon line runs the same build under the timer")
	note("   clock, which adds no interrupt of its own: a perf clock's")
	note("   interrupts cost tens of microseconds each under some")
	note("   hypervisors; the empty hook samples nothing.")
	note("   libmon's calls counted (prof's overhead line) must equal")
	note("   the calls made in every run (at 1M, every run of the first")
	note("   three rounds, in which row 26 times prof).")
}

# Build v's worst ratio over the empty hook a call, of shape sh's sizes;
# "" if a size has no figure.
function worst23(sh, v,    k, j, x, w) {
	for (k = 1; k <= nz23; k++) {
		j = sh z23[k]
		if (!has(j, v, "ns") || !has(j, "hook", "ns"))
			return ""
		x = med(j, v, "ns") / med(j, "hook", "ns")
		if (k == 1 || x > w)
			w = x
	}
	return w
}

# The job of glibc's figures at size z of shape sh, or "" if none.
function pgjob23(sh, z) {
	if (sh == "sites")
		return sh z
	return z == "1k" ? "fanpg1k" : ""
}

# Unprofiled / floor: key k of job j, divided by div.
function floorcell(j, k, fmt, div) {
	if (div == "")
		div = 1
	return divcell(j, "base", k, fmt, div) " / " \
	    divcell(j, "hook", k, fmt, div)
}

# Key k of build v of job j, divided by div.
function divcell(j, v, k, fmt, div) {
	if (!has(j, v, k))
		return why(j, v, k, 0)
	return sprintf(fmt, med(j, v, k) / div)
}

# Peak RSS in MB.
function mbcell(j, v, k) {
	if (!has(j, v, k))
		return why(j, v, k, 0)
	return sprintf("%.0f", med(j, v, k) / 1024)
}

# Whether libmon's calls counted equalled the calls made in every run of
# every scale and shape.
function exact23(    s, k, j, i, r) {
	r = "PASS"
	for (s = 1; s <= 2; s++)
		for (k = 1; k <= nz23; k++) {
			j = (s == 1 ? "sites" : "fan") z23[k]
			if (!has(j, "mon", "calls") || !has(j, "base", "made"))
				return "n/a"
			for (i = 1; i <= n[j, "mon", "calls"]; i++)
				if (val[j, "mon", "calls", i] + 0 != \
				    med(j, "base", "made"))
					r = "MISS"
		}
	return r
}
AWK

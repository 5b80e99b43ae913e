# show.awk -- print the bench's results: awk -f show.awk -v fmt=text|md
# MACHINE TABLE.
#
# MACHINE holds "what: description" lines, TABLE the output of
# table.awk.  fmt=text prints an aligned table for the terminal; fmt=md
# prints the whole of BENCHMARKS.md: the same figures, the machine, and
# how each row is measured (each row's note is in its file in
# bench/rows).
BEGIN {
	FS = "\t"
	nh = split("row\tmeasure\tunprofiled\tlibmon -p\tglibc -pg\t" \
	    "libmon ratio\tglibc ratio\ttarget", head, "\t")
	for (i = 1; i <= nh; i++)
		w[i] = length(head[i])
}

FNR == NR {
	mach[++nm] = $0
	next
}

$1 == "R" {
	nr++
	for (i = 1; i <= nh; i++) {
		c[nr, i] = $(i + 1)
		if (length(c[nr, i]) > w[i])
			w[i] = length(c[nr, i])
	}
	next
}

$1 == "V" {
	v[++nv] = $2
	next
}

$1 == "F" {
	f[++nf] = $2
	next
}

$1 == "N" {
	note[++nn] = $2
	next
}

function line(a,    i, s) {
	s = ""
	for (i = 1; i <= nh; i++)
		s = s (i > 1 ? " | " : "") sprintf(i == 2 ? "%-*s" : \
		    i == 1 ? "%-*s" : "%*s", w[i], a[i])
	return s
}

function rule(    i, s) {
	s = ""
	for (i = 1; i <= nh; i++)
		s = s (i > 1 ? "-+-" : "") sprintf("%*s", w[i], "")
	gsub(/ /, "-", s)
	return s
}

function mdrow(a,    i, s) {
	s = "|"
	for (i = 1; i <= nh; i++)
		s = s " " a[i] " |"
	return s
}

END {
	if (fmt == "md")
		markdown()
	else
		text()
}

function text(    i, j, a) {
	print ""
	for (i = 1; i <= nm; i++)
		print mach[i]
	print ""
	print line(head)
	print rule()
	for (i = 1; i <= nr; i++) {
		for (j = 1; j <= nh; j++)
			a[j] = c[i, j]
		print line(a)
	}
	print ""
	for (i = 1; i <= nv; i++)
		print "target " v[i]
	for (i = 1; i <= nf; i++)
		print "FAILED " f[i]
}

function markdown(    i, j, a) {
	print "# Benchmarks"
	print ""
	print "Generated whole by `make bench` (`bench/run`); do not edit by hand."
	print "Every figure below is one the bench printed on that run."
	print ""
	print "## Machine and tools"
	print ""
	for (i = 1; i <= nm; i++)
		print "- " mach[i]
	print ""
	print "## Results"
	print ""
	print mdrow(head)
	s = "|"
	for (j = 1; j <= nh; j++)
		s = s (j <= 2 ? " --- |" : " ---: |")
	print s
	for (i = 1; i <= nr; i++) {
		for (j = 1; j <= nh; j++)
			a[j] = c[i, j]
		gsub(/\|/, "\\|", a[2])
		print mdrow(a)
	}
	print ""
	print "## libmon's targets"
	print ""
	for (i = 1; i <= nv; i++)
		print "- " v[i]
	for (i = 1; i <= nf; i++)
		print "- FAILED: " f[i]
	print ""
	notes()
}

function notes(    i) {
	print "## How each row is measured"
	print ""
	print "Every workload (bench/*.c) is built with `cc -O2` three ways:"
	print "unprofiled; `-pg` with glibc's gmon, reported by `gprof -b -p`;"
	print "`-p` linked with `lib/libmon.a`, reported by plain `prof` (its"
	print "default report, which names static functions).  The"
	print "builds of a workload run in turn, in a rotating order, several"
	print "times; a figure is the median of the runs and a ratio is the"
	print "profiled median over the unprofiled one (row 6: report seconds"
	print "over thread CPU clock seconds; row 8: against gprof; calls:"
	print "recorded over made).  CPU is user+sys of the"
	print "child and all its threads, from `wait4()` in `bench/runner.c`,"
	print "and includes writing the profile at exit.  Each workload prints"
	print "a checksum; the bench fails if a profiled build's differs."
	print ""
	for (i = 1; i <= nn; i++)
		print note[i]
	print ""
	print "Rows 1 to 3 and 7 run with arcs and stacks on, libmon's default;"
	print "row 7's two middle lines run the same builds with and without"
	print "stacks (`PROFSTACK=0`): the perf clock's `-p` build and the"
	print "`monitor()` build, whose classic clock is `ITIMER_PROF`."
}

# show.awk -- print the bench's results: awk -f show.awk -v fmt=text|md
# MACHINE TABLE.
#
# MACHINE holds "what: description" lines, TABLE the output of
# table.awk.  fmt=text prints an aligned table for the terminal; fmt=md
# prints the whole of BENCHMARKS.md: the same figures, the machine, and
# how each row is measured.
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

function notes() {
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
	print "1. `calls`: one thread calls a noinline, noipa `leaf()` whose"
	print "   results are summed and printed.  Calls recorded are the"
	print "   `#Calls` of `leaf` in prof and the calls column of gprof."
	print "2. `fib`: naive recursive Fibonacci at -O2, repeated; every call"
	print "   goes through mcount."
	print "3. `calls` again, the calls split over 1, 2, 4 and 8 threads."
	print "   libmon's count must equal the calls made in every run.  The"
	print "   glibc CPU figures swing from run to run with how often its"
	print "   threads run at once on the two cores: its mcount takes one"
	print "   process-wide busy flag, and a call that finds it taken is"
	print "   not counted."
	print "4. `burn`: `part_a`, `part_b`, `part_c` run one inlined loop"
	print "   (bench/spin.h) for 5, 3 and 2 tenths of the work, in 40"
	print "   alternating rounds per thread.  Each run times every piece on"
	print "   the thread CPU clock; the error is the largest distance, in"
	print "   points, between a profiler's %time and that run's measured"
	print "   split.  The unprofiled column is the measured split."
	print "5. `solib`: `main_part` in the program, `lib_part` in"
	print "   `libsolib.so`, 1 : 3 by work.  The library is built without"
	print "   -p/-pg (as a distribution ships one); only the program is"
	print "   instrumented.  The share is the %time of the rows naming"
	print "   `lib_part` or `libsolib`; 0 means the report does not show"
	print "   the library.  The next line is the %time each gives"
	print "   `main_part`."
	print "6. `burn` again: the seconds the report gives `part_a`,"
	print "   `part_b` and `part_c` together over the seconds the same"
	print "   run's threads spent in them by their own CPU clocks (which"
	print "   no profiler touches), at each tool's default rate.  A"
	print "   report scaled to the process's CPU time could not be caught"
	print "   by comparing its total with that same time."
	print "7. `burn`, 1 thread, built with neither -p nor -pg: libmon's"
	print "   build calls `monitor()` on its own text (`__executable_start`"
	print "   to `etext`, no call-count cells), glibc's calls"
	print "   `monstartup()`; the cost of sampling alone.  The next line is"
	print "   the same program with no profiler, each thread opening the"
	print "   clock libmon uses (a perf_event task-clock at 1000 Hz) with"
	print "   nowhere for its samples to go: the kernel's timer interrupts"
	print "   alone, the floor under libmon's figure (libmon adds a ring"
	print "   the kernel writes and a few signals a second to drain it)."
	print "   As the cost is weighed to a tenth of a percent, these builds"
	print "   run more times than the others (see the bench line above)."
	print "8. A generated program of that many functions and one caller"
	print "   for each hundred (bench/manyfuncs.awk), every function called"
	print "   20 times, compiled once at -O0 with -pg (gcc emits the same"
	print "   code for -p) and linked both ways.  Timed is the report step"
	print "   alone, as CPU seconds: `prof prog mon.out` against"
	print "   `gprof -b -p prog gmon.out`, output to a file; median of the"
	print "   first 3 rounds (gprof takes seconds here)."
	print "9. `real`: 4 threads, each generating text, counting words in a"
	print "   hash table keyed by `libreal.so`'s hash, qsort'ing them,"
	print "   building, evaluating and freeing expression trees by"
	print "   recursion, and checksumming with `libreal.so`'s CRC.  The"
	print "   library is not instrumented.  Held to perf as row 14 is (see"
	print "   there); top 5 are perf's first rows and those of each report"
	print "   from the last run."
	print "10. `sled`: the program calls `sled()` in `libsled.so`, built"
	print "   without -p/-pg: 64 functions laid end to end, 1 MiB of"
	print "   straight-line additions, 262144 distinct instruction"
	print "   addresses.  libmon's build samples at the rate the row names"
	print "   (PROFHZ), so that a run of a second or two puts 100k and"
	print "   more distinct library pcs in its outside table, as a long run"
	print "   in libc or libcrypto does at the default rate.  The next"
	print "   line is the samples of libmon's run and the share `prof -s`"
	print "   finds in no known function (samples the runtime had no room"
	print "   for end there).  glibc's gmon does not sample outside the"
	print "   program."
	print "11. `forkexec`: a program with 20 MiB of text (padding that"
	print "   never runs) forks, the child execs /bin/true, the parent"
	print "   waits; the wall-clock time of one, from the program's own"
	print "   clock."
	print "12. `threads`: threads created and joined one after the other,"
	print "   each calling one function; the wall-clock time of one."
	print "13. `calls` of row 1 again, each build compiled and linked with"
	print "   `-flto`, where the calls to mcount are made at link time."
	print "14. `sqlite`: the SQLite amalgamation (`sqlite3.c` of the npm"
	print "   package named above, fetched once with `npm pack` into"
	print "   `bench/cache`), compiled with the flags of its driver,"
	print "   `bench/sqlite.c`, and the defines above: an in-memory"
	print "   database, tables filled by prepared inserts in transactions,"
	print "   indexes, joins, LIKE scans, GROUP BY and ORDER BY aggregates,"
	print "   updates and deletes.  Held to perf: `perf record -e"
	print "   cpu-clock` (user and kernel mode) on the unprofiled build,"
	print "   once a round in turn with the other builds, the samples of"
	print "   all rounds pooled as the shares each round's reports are held"
	print "   to (one run's shares move with the load on the machine, more"
	print "   than sampling alone makes).  Names are matched by one rule for all"
	print "   (bench/agree.awk): a shared object's function is `name"
	print "   (object)`, every kernel symbol is the kernel's one row (prof's"
	print "   `[kernel: system calls and faults]`), clone suffixes such as"
	print "   `.part.0` are dropped, names of one address are one.  Each"
	print "   report's shares are its own: prof's %Time leaves libmon's code"
	print "   out; gprof's %time is of the program's text alone, as it sees"
	print "   no library and no kernel.  The overlap is how many of a"
	print "   report's top 10 are in perf's top 10; the L1 distance is the"
	print "   sum, in points, of the differences of the shares over the"
	print "   union of perf's, libmon's and gprof's top 20 (median of the"
	print "   rounds).  The next two lines split that distance, from one"
	print "   more perf run of each build: perf on the profiled build, its"
	print "   profiler's code left out (libmon.a's functions; glibc's"
	print "   mcount and profil handler), against the reference -- how"
	print "   much compiling with -p/-pg changed where the program spends"
	print "   its time; and the report of that same run against perf's"
	print "   samples of it -- how far the report is from its own run.  In"
	print "   the unprofiled column, each of perf's runs against the others"
	print "   pooled (median): the distance chance alone puts between two"
	print "   runs of one build."
	print "15. `sysburn`: `user_part` runs an arithmetic loop,"
	print "   `sys_part` reads 64 KiB from /dev/zero over and over"
	print "   (nearly all of it kernel time), in 20 alternating rounds,"
	print "   each timed on the thread CPU clock (user and system time);"
	print "   the unprofiled column is that measured split.  A report's"
	print "   user part is `user_part`'s row; its system part is"
	print "   `sys_part`'s row plus the rows that hold the reads' time:"
	print "   the kernel's row (libmon's perf clock samples user mode only"
	print "   and shows the run's system time on that row) and the C"
	print "   library's rows (the timer clocks charge kernel time to the"
	print "   call site, `read`).  The error is the larger distance, in"
	print "   points, from that run's own measured split.  libmon runs"
	print "   once more a round with `PROFCLOCK=timer`.  gprof samples the"
	print "   program's text alone and so gives `sys_part` none of the"
	print "   reads' time."
	print "16. `calls` of row 3: the calls along the one arc, `loop()` to"
	print "   `leaf()`, as each call graph gives them (`prof -q`,"
	print "   `gprof -b -q`), over the calls made; libmon's must be exact"
	print "   in every run."
	print "17. `callers`: `cheap_caller()` calls `work()` 9 times a round"
	print "   with 1 unit, `costly_caller()` once with 81: 90% of the calls,"
	print "   10% of the time.  Each caller is timed whole on the thread"
	print "   CPU clock, and its measured inclusive share is the truth; the"
	print "   call graph's %time of each caller's own line is held to it."
	print "   libmon's is measured from the sampled stacks; gprof's is its"
	print "   estimate, which shares `work()`'s time by calls."
	print "18. `mutual`: `ping()` and `pong()` call each other 5 deep, a"
	print "   chain started at each in turn, its top frame spinning more."
	print "   The truth is each function's inclusive share, from the"
	print "   chains and their top frames' own spins timed on the thread"
	print "   CPU clock.  gprof puts both in one cycle and gives each its"
	print "   share of the cycle's self time."
	print "19. `snap`: 4 threads of CPU work (each step 200 calls of"
	print "   `leaf()`), each noting the longest wall-clock gap between"
	print "   two of its steps, while the main thread calls `monsnapshot()`"
	print "   every 50 ms and times each call: a part's cost, and whether"
	print "   any thread is held while it is written."
	print "20. The same threads with no snapshots, then with `PROFINTERVAL=1`"
	print "   (libmon's own thread writes a part each second): the cost of"
	print "   profiling a server in parts."
	print ""
	print "Rows 1 to 3 and 7 run with arcs and stacks on, libmon's default;"
	print "row 7's two middle lines run the same builds with and without"
	print "stacks (`PROFSTACK=0`): the perf clock's `-p` build and the"
	print "`monitor()` build, whose classic clock is `ITIMER_PROF`."
}

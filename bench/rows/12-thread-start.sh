# Row 12: thread start and end -- THREADS threads created and joined one
# after the other; microseconds per thread (us_each is row 11's), also
# on the empty hook (bench/floor.S, build hookp), with libmon's timer
# clock (mont), and unprofiled under perf events like libmon's perf
# clock's whose rings nobody reads (threads.c -DFLOOR): what the kernel
# costs a thread for such events; and the same with a period of 10 ms,
# longer than the kernel's tick where HZ is 250 or more (floortk): what
# is left when the kernel need not reprogram the CPU's timer for the
# event's each time the thread is switched in (nor take its samples).

THREADS=20000		# threads created and joined

job thrs threads "base mon pg hookp mont floor floortk" "$THREADS"
jobenv thrs mont PROFCLOCK=timer
jobenv thrs floortk FLOOR_PERIOD=10000000
noreport thrs

build_threads() {
	build3 threads bench/threads.c
	build threads hookp bench/threads.c
	build threads floor bench/threads.c
}
on_build build_threads
on_run thrs us_each

table <<'AWK'
END {
	row(12, "us per thread created and joined",
	    cell("thrs", "base", "us", "%.1f"),
	    cell("thrs", "mon", "us", "%.1f"),
	    cell("thrs", "pg", "us", "%.1f"),
	    ratio("thrs", "mon", "us"), ratio("thrs", "pg", "us"),
	    "<= 1.2x")
	row(12, "  the same, -p on the empty hook (bench/floor.S)", "-",
	    cell("thrs", "hookp", "us", "%.1f"), "-",
	    ratio("thrs", "hookp", "us"), "-", "-")
	row(12, "  the same, libmon PROFCLOCK=timer", "-",
	    cell("thrs", "mont", "us", "%.1f"), "-",
	    ratio("thrs", "mont", "us"), "-", "-")
	row(12, "  the same, no profiler: perf events like libmon's perf" \
	    " clock's, rings never read (threads.c -DFLOOR)", "-",
	    cell("thrs", "floor", "us", "%.1f"), "-",
	    ratio("thrs", "floor", "us"), "-", "-")
	row(12, "  the same, no profiler: those events sampling every" \
	    " 10 ms, longer than a tick (FLOOR_PERIOD=10000000)", "-",
	    cell("thrs", "floortk", "us", "%.1f"), "-",
	    ratio("thrs", "floortk", "us"), "-", "-")
	goal(verdict("row 12, thread created and joined, libmon <= 1.2x",
	    "thrs", "mon", "us", 1.2))
	check("row 12, thread created and joined, for comparison, not" \
	    " targets: libmon under PROFCLOCK=timer " \
	    ratio("thrs", "mont", "us") "; no profiler, the kernel's" \
	    " part of the default (perf) clock " \
	    ratio("thrs", "floor", "us") ", with a 10 ms period " \
	    ratio("thrs", "floortk", "us"))
	note("12. `threads`: threads created and joined one after the other,")
	note("   each calling one function; the wall-clock time of one.  The")
	note("   empty hook is built as row 11's.  The events build opens,")
	note("   unprofiled, per-CPU inherited task-clocks and rings as libmon's")
	note("   perf clock does, and never reads them (once full, the kernel")
	note("   counts the samples it cannot write): the kernel's part of a")
	note("   thread's cost under such a clock.  The line after opens the")
	note("   same events with a period of 10 ms: the kernel arms a timer")
	note("   for such an event each time its thread is switched in, and")
	note("   reprograms the CPU's timer when that one expires first, as it")
	note("   does for a period shorter than the tick (under a hypervisor,")
	note("   an exit from the guest each time); at 10 ms, longer than the")
	note("   tick where HZ is 250 or more, it seldom does, and the samples")
	note("   are fewer.  The lines marked no profiler sit in libmon's")
	note("   column but run no profiler: the events line is what libmon's")
	note("   own line cannot go below under its default clock.  The timer")
	note("   clock (PROFCLOCK=timer) opens no events; each thread's timer")
	note("   is checked at the tick.")
}
AWK

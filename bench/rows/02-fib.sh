# Row 2: recursion -- naive fib(FIBN), FIBREPS times, at -O2.

FIBN=35
FIBREPS=8
tablevar fibn $FIBN
tablevar fibreps $FIBREPS

job fib fib "base mon pg" "$FIBN $FIBREPS"

build_fib() {
	build3 fib bench/fib.c
}
on_build build_fib

table <<'AWK'
END {
	row(2, sprintf("CPU s, fib(%d) x %d, -O2", fibn, fibreps),
	    cell("fib", "base", "cpu", "%.3f"), cell("fib", "mon", "cpu", "%.3f"),
	    cell("fib", "pg", "cpu", "%.3f"),
	    ratio("fib", "mon", "cpu"), ratio("fib", "pg", "cpu"), "<= 3x")
	goal(verdict("row 2, fib, libmon <= 3x", "fib", "mon", "cpu", 3))
	check(cheaper("row 2, libmon at least 1.5x cheaper than glibc", "fib"))
	note("2. `fib`: naive recursive Fibonacci at -O2, repeated; every call")
	note("   goes through mcount.")
}
AWK

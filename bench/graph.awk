# graph.awk -- one function's entry of a call graph, from prof -q or
# gprof -q -b (both print gprof's layout), as lines the bench reads:
#
#	incl PCT		the %time of the function's own line
#	from CALLER N		N calls from CALLER (the "N/TOTAL" field of
#				a caller's line)
#
# usage: awk -v fn=NAME -f bench/graph.awk REPORT.  A name matches with
# or without gprof's " <cycle N>" and prof's " (object)" after it.

function named(line, want,    s) {
	s = line
	sub(/ \[[0-9]+\]$/, "", s)
	sub(/ <cycle [0-9]+>$/, "", s)
	sub(/ \([^()]*\)$/, "", s)
	n = split(s, w, " ")
	return w[n] == want
}

function callee(line,    s, n, w) {
	s = line
	sub(/ \[[0-9]+\]$/, "", s)
	sub(/ <cycle [0-9]+>$/, "", s)
	n = split(s, w, " ")
	return w[n]
}

/^-+$/ {
	nabove = 0
	next
}

/^\[[0-9]+\]/ {
	if (named($0, fn)) {
		print "incl", $2
		for (i = 1; i <= nabove; i++)
			print above[i]
	}
	nabove = 0
	skip = 1
	next
}

{
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\/[0-9]+$/) {
			split($i, c, "/")
			above[++nabove] = "from " callee($0) " " c[1]
			break
		}
}

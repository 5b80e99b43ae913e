# lines.awk -- row 30: a report by source line held to lines.c's truth.
#
#	awk -f bench/lines.awk -v fmt=prof|gprof -v truth="F:L S F:L S F:L S"
#
# truth is what bench/lines.c printed: three file:line and the CPU
# seconds its loop on that line took.  The report is prof -L's (rows
# " %Time Seconds Cumsecs Calls  file:line function [(object)]") or the
# flat profile of gprof -b -l -p (rows "%time cumsec self [calls ...]
# function (file:line @ addr)", one for each run of addresses, so a
# line may have several rows).  A line is matched by its file's last
# component and its number, so that how a tool names the directory does
# not matter, and the %time of every row of it is summed.  Prints
#
#	pa pb pc err cov
#
# pa, pb, pc the three lines' shares of their sum, in percent; err the
# largest distance in points from the truth's shares of its sum; cov
# the %time the report gave the three lines together (of its own
# total).  Prints nothing when the report charged the lines no time.

function base(s) {
	sub(/.*\//, "", s)
	return s
}

function add(where, pct) {
	where = base(where)
	if (where in want)
		got[where] += pct
}

BEGIN {
	if (split(truth, t, " ") != 6)
		exit 1
	for (i = 1; i <= 3; i++) {
		key[i] = base(t[2 * i - 1])
		want[key[i]] = t[2 * i] + 0
		tsum += t[2 * i]
	}
}

# prof -L: the first field after Cumsecs that ends in :number.
fmt == "prof" && $1 ~ /^[0-9.]+$/ && NF >= 5 {
	for (i = 4; i <= NF; i++)
		if ($i ~ /:[0-9]+$/) {
			add($i, $1)
			break
		}
	next
}

# gprof -l: "(file:line @ addr)" ends the row.
fmt == "gprof" && $1 ~ /^[0-9.]+$/ && $NF ~ /\)$/ && $(NF - 1) == "@" {
	s = $(NF - 2)
	sub(/^\(/, "", s)
	add(s, $1)
}

END {
	for (i = 1; i <= 3; i++)
		psum += got[key[i]]
	if (psum <= 0 || tsum <= 0)
		exit
	err = 0
	for (i = 1; i <= 3; i++) {
		p[i] = 100 * got[key[i]] / psum
		d = p[i] - 100 * want[key[i]] / tsum
		if (d < 0)
			d = -d
		if (d > err)
			err = d
	}
	printf "%.2f %.2f %.2f %.2f %.2f\n", p[1], p[2], p[3], err, psum
}

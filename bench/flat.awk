# flat.awk -- one profiler report as tab-separated rows:
#
#	name	%time	seconds	cumsecs	calls
#
# calls empty where the report has none.  -v fmt=prof reads prof(1)'s
# report (" %Time Seconds Cumsecs  #Calls   msec/call  Name"), whose
# first three fields are fixed-width (%6.1f%8.2f%8.2f: 22 columns), so
# it is cut there by columns (a Seconds or Cumsecs of 10000 s or more
# would fill its field); -v fmt=gprof reads the flat profile of
# gprof -b -p.
function rest(s, n,    i) {
	# s without its first n blank-separated fields and the blanks after
	for (i = 0; i < n; i++)
		sub(/^[ \t]*[^ \t]+[ \t]*/, "", s)
	sub(/^[ \t]+/, "", s)
	return s
}
function out(name, pct, secs, cum, calls) {
	printf "%s\t%s\t%s\t%s\t%s\n", name, pct, secs, cum, calls
}
fmt == "prof" && !body {
	if ($0 ~ /%Time[ \t]+Seconds[ \t]+Cumsecs/)
		body = 1
	next
}
fmt == "prof" && NF == 0 {
	exit		# the overhead line follows the rows
}
fmt == "prof" {
	head = substr($0, 1, 22)
	tail = substr($0, 23)
	if (split(head, f, " ") != 3)
		next
	n = split(tail, g, " ")
	if (n >= 3 && g[1] ~ /^[0-9]+$/ && g[2] ~ /^[0-9.]+$/)
		out(rest(tail, 2), f[1], f[2], f[3], g[1])
	else
		out(rest(tail, 0), f[1], f[2], f[3], "")
	next
}
fmt == "gprof" && !body {
	if ($1 == "time" && $2 == "seconds")
		body = 1
	next
}
fmt == "gprof" && NF == 0 {
	exit
}
fmt == "gprof" {
	if (NF >= 7 && $4 ~ /^[0-9]+$/)
		out(rest($0, 6), $1, $3, $2, $4)
	else if (NF >= 5 && $4 ~ /^[0-9]+$/)
		out(rest($0, 4), $1, $3, $2, $4)
	else
		out(rest($0, 3), $1, $3, $2, "")
}

# agree.awk -- how far profilers' reports are from a reference's.
#
#	awk -f agree.awk -v ref=FLAT [-v base=FLAT] [-v mon=FLAT] \
#	    [-v pg=FLAT] [-v syms=FILE] [-v detail=FILE] [-v top=FILE] \
#	    </dev/null
#
# Each FLAT is a report's rows as flat.awk gives them (name, %time,
# ...): ref is perf's samples (perfflat.awk), mon libmon's report, pg
# gprof's, base another of perf's.  A file that is empty or not given
# is left out.  Prints, for each report read besides ref:
#
#	mon overlap 9		names of its top 10 also in ref's top 10
#	mon l1 6.4		sum of |share - ref's share|, in points,
#				over the union of every list's top 20
#
# Names are brought to one form so that the reports agree, by the same
# rule for all:
#
#  - the compiler's clone suffixes (.isra.0, .part.0, .constprop.0,
#    .cold, .lto_priv.0, ...) are dropped, their shares summed with the
#    function's own: the code is that function's whichever tool split
#    it off;
#  - "[kernel: system calls and faults]" is the kernel's one row;
#  - names that share one address in a shared object are one function:
#    prof prints them once as "a, b (obj)", perf by one of them, not
#    always one prof lists (cfree for free); syms, lines "object
#    address name" of the objects' symbol tables, makes such names one;
#  - prof's " [file.c]", which tells apart local functions of one name,
#    is dropped (perf and gprof do not print it; such rows sum).
#
# Shares are each report's own: perf's samples over all its samples
# (the kernel's included), prof's %Time (the program's time, libmon's
# own code left out), gprof's %time (the samples in the program's text:
# gprof sees neither shared objects nor the kernel, and what it does
# not see is a difference like any other).  Ties in a top list go by
# name.  With detail=FILE, the union's shares are written there, one
# name a line, ref's first; with top=FILE, ref's first five rows as
# "rank share name".

function strip(f) {
	sub(/ \[[^]]*\]$/, "", f)
	while (match(f, clone))
		f = substr(f, 1, RSTART - 1)
	return f
}

# One name of object obj ("" for the program) in its one form.
function norm(f, obj,    k) {
	f = strip(f)
	k = obj SUBSEP f
	if (k in group)
		f = group[k]
	return obj == "" ? f : f " (" obj ")"
}

# A row's name: "f", "f (obj)", or synonyms "a, b (obj)".
function rowname(s,    obj, m, a, i, n) {
	obj = ""
	if (s == "[kernel: system calls and faults]")
		return s
	if (match(s, / \([^()]+\)$/)) {
		obj = substr(s, RSTART + 2, RLENGTH - 3)
		s = substr(s, 1, RSTART - 1)
	}
	m = split(s, a, /, /)
	n = norm(a[1], obj)
	for (i = 2; i <= m; i++)
		syn[norm(a[i], obj)] = n
	return n
}

# Object, address, name: names at one address take the smallest.
function readsyms(file,    line, f, k, a) {
	while ((getline line < file) > 0) {
		if (split(line, f, " ") != 3)
			continue
		a = f[1] SUBSEP f[2]
		f[3] = strip(f[3])
		if (!(a in first) || f[3] < first[a])
			first[a] = f[3]
		at[f[1] SUBSEP f[3]] = a
	}
	close(file)
	for (k in at)
		group[k] = first[at[k]]
}

function readflat(who, file,    line, f, n) {
	if (file == "")
		return
	while ((getline line < file) > 0) {
		split(line, f, "\t")
		if (f[1] == "")
			continue
		n = rowname(f[1])
		share[who, n] += f[2]
		got[who] = 1
	}
	close(file)
}

# A name given as one of prof's synonyms is the synonyms' row.
function merge(    k, p, m, i, moved) {
	m = 0
	for (k in share) {
		split(k, p, SUBSEP)
		if (p[2] in syn && syn[p[2]] != p[2])
			moved[++m] = k
	}
	for (i = 1; i <= m; i++) {
		split(moved[i], p, SUBSEP)
		share[p[1], syn[p[2]]] += share[moved[i]]
		delete share[moved[i]]
	}
}

# who's names sorted by share into list[who, 1..len[who]].
function rank(who,    k, p, m, i, j, t, r) {
	m = 0
	for (k in share) {
		split(k, p, SUBSEP)
		if (p[1] == who)
			r[++m] = p[2]
	}
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && before(who, r[j], r[j - 1]); j--) {
			t = r[j]; r[j] = r[j - 1]; r[j - 1] = t
		}
	for (i = 1; i <= m; i++)
		list[who, i] = r[i]
	len[who] = m
}

function before(who, a, b) {
	if (share[who, a] != share[who, b])
		return share[who, a] > share[who, b]
	return a < b
}

function sh(who, n) {
	return (who SUBSEP n) in share ? share[who, n] : 0
}

function abs(x) {
	return x < 0 ? -x : x
}

function compare(who,    i, j, o, d, n) {
	o = 0
	for (i = 1; i <= 10 && i <= len[who]; i++)
		for (j = 1; j <= 10 && j <= len["ref"]; j++)
			if (list[who, i] == list["ref", j])
				o++
	d = 0
	for (n in uni)
		d += abs(sh(who, n) - sh("ref", n))
	printf "%s overlap %d\n", who, o
	printf "%s l1 %.1f\n", who, d
}

function write(    w, i, n) {
	if (top != "")
		for (i = 1; i <= 5 && i <= len["ref"]; i++)
			printf "%d %.1f %s\n", i, share["ref", list["ref", i]],
			    list["ref", i] >top
	if (detail == "")
		return
	printf "%6s %6s %6s %6s  %s\n", "ref", "base", "mon", "pg", "name" \
	    >detail
	for (w = 1; w <= nw; w++)
		for (i = 1; i <= len[who[w]]; i++) {
			n = list[who[w], i]
			if (!(n in uni) || n in shown)
				continue
			shown[n] = 1
			printf "%6.2f %6.2f %6.2f %6.2f  %s\n", sh("ref", n),
			    sh("base", n), sh("mon", n), sh("pg", n), n >detail
		}
}

BEGIN {
	clone = "\\.(isra|part|constprop|cold|lto_priv|localalias)(\\.[0-9]+)?$"
	if (syms != "")
		readsyms(syms)
	readflat("base", base)
	readflat("mon", mon)
	readflat("pg", pg)
	readflat("ref", ref)
	if (!("ref" in got))
		exit 0
	merge()
	nw = split("ref base mon pg", who, " ")
	for (w = 1; w <= nw; w++) {
		if (!(who[w] in got))
			continue
		rank(who[w])
		for (i = 1; i <= 20 && i <= len[who[w]]; i++)
			uni[list[who[w], i]] = 1
	}
	for (w = 2; w <= nw; w++)
		if (who[w] in got)
			compare(who[w])
	write()
}

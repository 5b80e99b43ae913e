# arcs.awk -- write the assembly of a generated arcs program: n small
# functions in one of two shapes, copied from gcc's assembly of
# bench/arcsfn.c (that file says why).
#
#	awk -v n=N -v shape=sites|fan [-v from=I -v to=J] -f arcs.awk \
#	    arcsfn.s > funcs.s
#	awk -v n=N -v shape=sites|fan -v table=1 -f arcs.awk > table.s
#
# The functions are f0 to f<n-1> (from and to, if given, write only
# f<from> to f<to-1>, a part of them), each called once a sweep: n
# calls, n arcs.
#
#	sites	a call site per function: the functions are a binary tree,
#		f<i> calling f<2i+1> and f<2i+2> from sites of its own
#		(arcs_node, arcs_link, arcs_leaf), and a sweep is one call
#		of the root, f0, 20 calls deep at a million
#	fan	one call site calling every function: all are leaves, and
#		a sweep is the driver's loop over a table of them, its one
#		indirect call reaching n functions
#
# With table=1 it writes the table the driver (bench/arcs.c) sweeps:
# arcs_top[arcs_ntop], the functions it calls, and arcs_calls, the
# calls a sweep makes.  Function i's constants are 4194305 + 2i and
# 1048576 + i, so every function computes something of its own and
# the program's checksum depends on every call.  The output depends
# on n, shape and the assembly alone.

BEGIN {
	if (n == "" || n < 1 || (shape != "sites" && shape != "fan")) {
		print "arcs.awk: need n >= 1 and shape sites or fan" \
		    >"/dev/stderr"
		bad = 2
		exit 2
	}
	if (table)
		exit
	TOK = "arcs_(leaf|link|node|left|next|right)|7654321|1234567|" \
	    "\\.L[A-Za-z_]*[0-9]+"
	part = "head"
}

# The template: what comes before the first function (head), each
# function's lines ending at its .size, and what comes after (tail).
# A function's lines are kept as pieces, each token (a name, a
# constant, a local label) apart from the text around it, so that a
# copy is the pieces put together.
/^[ \t]*\.(file|ident)[ \t]/ {
	next
}

{
	if (part != "fn" && $0 ~ /^[ \t]*\.(p2align|globl|type)[ \t]/) {
		part = "fn"
		text["tail"] = ""
	}
	if (part == "head" || part == "tail") {
		text[part] = text[part] $0 "\n"
		next
	}
	k = nfn + 1
	s = $0 "\n"
	while (match(s, TOK)) {
		lit(k, substr(s, 1, RSTART - 1))
		t = substr(s, RSTART, RLENGTH)
		if (t ~ /^arcs_(leaf|link|node)$/)
			t = "name"
		else if (t == "arcs_left" || t == "arcs_next")
			t = "left"
		else if (t == "arcs_right")
			t = "right"
		else if (t == "7654321")
			t = "mul"
		else if (t == "1234567")
			t = "add"
		else {
			lit(k, t)
			t = "label"
		}
		tok[k, ++np[k]] = t
		s = substr(s, RSTART + RLENGTH)
	}
	lit(k, s)
	if ($0 ~ /^[ \t]*\.size[ \t]/) {
		nfn++
		if (match($0, /arcs_(leaf|link|node)/))
			fn[substr($0, RSTART, RLENGTH)] = nfn
		part = "tail"
	}
}

# Text s at the end of function k's pieces.
function lit(k, s) {
	if (np[k] && !((k, np[k]) in tok))
		piece[k, np[k]] = piece[k, np[k]] s
	else if (s != "")
		piece[k, ++np[k]] = s
}

# Function k's copy as function i: its tokens given i's names and
# constants, a local label i's own by a suffix.
function copy(k, i,    p, v, out) {
	v["name"] = "f" i
	v["left"] = "f" (2 * i + 1)
	v["right"] = "f" (2 * i + 2)
	v["mul"] = 4194305 + 2 * i
	v["add"] = 1048576 + i
	v["label"] = "_" i
	out = ""
	for (p = 1; p <= np[k]; p++)
		out = out ((k, p) in tok ? v[tok[k, p]] : piece[k, p])
	return out
}

function tables(    i, ntop) {
	ntop = shape == "fan" ? n : 1
	print "\t.section\t.data.rel.ro,\"aw\""
	print "\t.p2align 3"
	print "\t.globl\tarcs_top"
	print "\t.type\tarcs_top, @object"
	print "\t.size\tarcs_top, " 8 * ntop
	print "arcs_top:"
	for (i = 0; i < ntop; i++)
		print "\t.quad\tf" i
	print "\t.globl\tarcs_ntop"
	print "\t.type\tarcs_ntop, @object"
	print "\t.size\tarcs_ntop, 8"
	print "arcs_ntop:"
	print "\t.quad\t" ntop
	print "\t.globl\tarcs_calls"
	print "\t.type\tarcs_calls, @object"
	print "\t.size\tarcs_calls, 8"
	print "arcs_calls:"
	print "\t.quad\t" n
	print "\t.section\t.note.GNU-stack,\"\",@progbits"
}

END {
	if (bad)
		exit bad
	if (table) {
		tables()
		exit
	}
	if (!("arcs_leaf" in fn) || !("arcs_link" in fn) ||
	    !("arcs_node" in fn)) {
		print "arcs.awk: arcs_leaf, arcs_link or arcs_node missing" \
		    " from the assembly" >"/dev/stderr"
		exit 1
	}
	if (to == "" || to > n)
		to = n
	printf "%s", text["head"]
	for (i = from + 0; i < to; i++) {
		if (shape == "fan" || 2 * i + 1 >= n)
			k = fn["arcs_leaf"]
		else if (2 * i + 2 >= n)
			k = fn["arcs_link"]
		else
			k = fn["arcs_node"]
		printf "%s", copy(k, i)
	}
	printf "%s", text["tail"]
}

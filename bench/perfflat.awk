# perfflat.awk -- perf's samples as the rows of a report, as flat.awk
# gives them:
#
#	awk -f perfflat.awk -v prog=NAME [-v drop=FILE] SCRIPT
#
# SCRIPT is `perf script -F ip,sym,dso` of `perf record -e cpu-clock`,
# one line a sample: "ip sym (path)".  NAME is the file name of the
# program perf ran.  Each row is "name<tab>%time", its share of the
# samples, named as prof(1) names its rows: a function of the program
# by its name, one of a shared object as "name (object)" with the
# object's file name, the vDSO's as "name (vdso)", code no symbol
# covers as "[unnamed code] (object)" or "[unknown]", and every sample
# in the kernel, which perf sees and prof measures from the run's
# user/system split, on the one row "[kernel: system calls and
# faults]".  perf names a versioned symbol with its version
# (cfree@GLIBC_2.2.5); the version is dropped.
#
# FILE lists rows to leave out, one name a line as above: a profiler's
# own code when perf ran a profiled build.  Their samples count
# nowhere, so that the shares are of the program's own time, as the
# profiler's report gives them.
BEGIN {
	if (drop != "")
		while ((getline line < drop) > 0)
			dropped[line] = 1
}

{
	path = $NF
	gsub(/^\(|\)$/, "", path)
	sym = $2
	for (i = 3; i < NF; i++)
		sym = sym " " $i
	if (NF < 3 || sym == "[unknown]")
		sym = "[unnamed code]"
	sub(/@.*/, "", sym)
	if (path ~ /^\[kernel/ || $1 ~ /^ffff/ ||
	    (path ~ /^\[/ && path != "[vdso]" && path != "[unknown]"))
		name = "[kernel: system calls and faults]"
	else if (path == "[unknown]")
		name = sym == "[unnamed code]" ? "[unknown]" : sym
	else {
		obj = path
		sub(/.*\//, "", obj)
		if (obj == "[vdso]")
			obj = "vdso"
		name = obj == prog ? sym : sym " (" obj ")"
	}
	if (name in dropped)
		next
	n[name]++
	total++
}

END {
	for (name in n)
		printf "%s\t%.4f\n", name, 100 * n[name] / total
}

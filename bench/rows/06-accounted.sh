# Row 6: time accounted -- the seconds burn's report (row 4's runs)
# gives part_a, part_b and part_c over the seconds the same run's
# threads measured there on their own CPU clocks.

# The three parts' thread CPU seconds, summed: the truth.
burn_tcpu() {
	tcpu=$(sed -n 's/^truth .* cpu \([0-9.]*\) .*/\1/p' "$out")
	rec "$mj $mv tcpu $tcpu"
}
burn_acct() {
	secs=$(awk -F '\t' '$1 ~ /^part_[abc]$/ { s += $3 }
	    END { print s + 0 }' "$1")
	rec "$mj $mv secs $secs"
	[ -n "$tcpu" ] && rec "$mj $mv acct $(awk -v s="$secs" \
	    -v c="$tcpu" 'BEGIN { printf "%.4f", (c > 0 ? s / c : 0) }')"
}
on_run 'burn*' burn_tcpu
on_flat 'burn*' burn_acct

table <<'AWK'
END {
	for (t = 1; t <= 4; t *= 4) {
		j = "burn" t
		row(6, sprintf("report s / thread CPU clock s, parts a+b+c," \
		    " burn, %d thread%s", t, t > 1 ? "s" : ""),
		    cell(j, "base", "tcpu", "%.3f s measured"), acct(j, "mon"),
		    acct(j, "pg"),
		    cell(j, "mon", "acct", "%.3f", 1),
		    cell(j, "pg", "acct", "%.3f", 1), "~1.0")
	}
	note("6. `burn` again: the seconds the report gives `part_a`,")
	note("   `part_b` and `part_c` together over the seconds the same")
	note("   run's threads spent in them by their own CPU clocks (which")
	note("   no profiler touches), at each tool's default rate.  A")
	note("   report scaled to the process's CPU time could not be caught")
	note("   by comparing its total with that same time.")
}

# The report's seconds in part_a, part_b and part_c over the seconds the
# same runs' threads measured there on their own CPU clocks.
function acct(j, v) {
	if (!has(j, v, "secs"))
		return why(j, v, "secs", 1)
	return sprintf("%.3f / %.3f", med(j, v, "secs"), med(j, v, "tcpu"))
}
AWK

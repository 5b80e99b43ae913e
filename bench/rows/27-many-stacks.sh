# Row 27: many distinct stacks (issue 26 item 9) -- a profile in
# STKPARTS parts of STKEACH distinct stacks of STKDEPTH frames each, a
# million in all, over row 23's program of a million functions
# (fan1m.base, bench/lib/arcs.sh), forged by bench/manystacks.c once
# into bench/cache/stacks.  prof's flat report of the first 1, 4 and
# all STKPARTS parts (read and merged in time linear in the input),
# prof -q of all, and `go tool pprof -top` of the same data through
# prof -F pprof, each run once a round in the first STKREPS rounds
# through bench/runner: CPU seconds and peak RSS.  It is no job of the
# rounds: BENCH_ONLY names it "stacks".

STKPARTS=20		# parts (mon.out files)
STKEACH=50000		# distinct stacks a part
STKDEPTH=12		# frames a stack
STKREPS=3		# rounds that run it
SCACHE=bench/cache/stacks
tablevar stkparts $STKPARTS
tablevar stkeach $STKEACH
extra stacks

# The forger, the program (row 23's fan1m, built here if no job of
# row 23 built it) and the parts, made again only when one of them has
# changed.
build_stacks() {
	picked stacks || return 0
	if ! $CC -O2 -Iinclude -Ilib -o "$B/manystacks" bench/manystacks.c \
	    >>"$O/build.log" 2>&1; then
		fail "manystacks: build failed (see $O/build.log)"
		rec "stacks flat20 na build failed"
		return 0
	fi
	if [ ! -e "$B/fan1m.base" ]; then
		ASMS=""
		if ! arcs_start || ! arcs_link fan1m base "$A_asm_plain"; then
			fail "fan1m.base: build failed (see $O/build.log)"
			rec "stacks flat20 na build failed"
			return 0
		fi
	fi
	skey="$(cksum <bench/manystacks.c) $(cat "$ACACHE/fan1m.base.key")"
	skey="$skey $STKPARTS $STKEACH $STKDEPTH"
	[ "$(cat "$SCACHE/key" 2>/dev/null)" = "$skey" ] && return 0
	rm -rf "$SCACHE"
	mkdir -p "$SCACHE"
	log "bench: forging $STKPARTS parts of $STKEACH stacks (once; kept" \
	    "in $SCACHE)"
	if nm -S --defined-only "$B/fan1m.base" |
	    awk '$3 ~ /^[tT]$/ && NF == 4 { print $1, $2 }' |
	    "$B/manystacks" "$PWD/$ACACHE/fan1m.base" $STKPARTS $STKEACH \
	    $STKDEPTH "$SCACHE" 2>>"$O/build.log"; then
		echo "$skey" >"$SCACHE/key"
	else
		fail "manystacks: forging failed (see $O/build.log)"
		rm -rf "$SCACHE"
		rec "stacks flat20 na forging failed"
	fi
}
on_build build_stacks

# stacks_run VAR OUT CMD...: one timed run of CMD, stdout to OUT; its
# CPU seconds and peak RSS as VAR's.
stacks_run() {
	sv=$1 so=$2
	shift 2
	line=$("$RUNNER" -d "$R/stacks" -o "$so" -e "$R/stacks/$sv.err" -- \
	    "$@" </dev/null)
	if [ "$(field status "$line")" != 0 ]; then
		rec "stacks $sv na failed (status $(field status "$line"))"
		return 1
	fi
	rec "stacks $sv cpu $(field cpu "$line")"
	rec "stacks $sv rss $(field rss "$line")"
}

# The parts 1 to N, as arguments.
stacks_parts() {
	k=1
	while [ $k -le "$1" ]; do
		echo "$PWD/$SCACHE/mon.out.$k"
		k=$((k + 1))
	done
}

stacks_round() {
	picked stacks && [ "$1" -le $STKREPS ] || return 0
	[ -f "$SCACHE/key" ] && [ -x "$PROF" ] || {
		[ -x "$PROF" ] || rec "stacks flat20 na no $PROF"
		return 0
	}
	mkdir -p "$R/stacks"
	sb=$PWD/$B/fan1m.base
	for sn in 1 4 $STKPARTS; do
		stacks_run flat$sn "$R/stacks/flat$sn" "$PWD/$PROF" "$sb" \
		    $(stacks_parts $sn)
	done
	stacks_run q$STKPARTS /dev/null "$PWD/$PROF" -q "$sb" \
	    $(stacks_parts $STKPARTS)
	# pprof's input, once: prof's export of the same parts.
	if [ ! -s "$R/stacks/all.pb" ]; then
		stacks_run export "$R/stacks/all.pb" "$PWD/$PROF" -F pprof \
		    "$sb" $(stacks_parts $STKPARTS) || return 0
	fi
	if ! command -v go >/dev/null 2>&1; then
		rec "stacks pprof na no go"
		return 0
	fi
	stacks_run pprof "$R/stacks/pprof" go tool pprof -top \
	    "$PWD/$R/stacks/all.pb"
}
on_round stacks_round

table <<'AWK'
END {
	row(27, sprintf("prof flat: CPU s, 1 / 4 / %d parts of %d distinct" \
	    " stacks", stkparts, stkeach), "-",
	    cell("stacks", "flat1", "cpu", "%.2f") " / " \
	    cell("stacks", "flat4", "cpu", "%.2f") " / " \
	    cell("stacks", "flat" stkparts, "cpu", "%.2f"), "-",
	    ratio("stacks", "flat" stkparts, "cpu", "stacks", "flat1"), "-",
	    "linear")
	row(27, sprintf("prof flat: CPU s / peak RSS MB, %d parts", stkparts),
	    "-", cell("stacks", "flat" stkparts, "cpu", "%.2f") " / " \
	    mbcell("stacks", "flat" stkparts, "rss"), "-", "-", "-",
	    "<= 10 s, 1 GB")
	row(27, sprintf("prof -q: CPU s / peak RSS MB, %d parts", stkparts),
	    "-", cell("stacks", "q" stkparts, "cpu", "%.2f") " / " \
	    mbcell("stacks", "q" stkparts, "rss"), "-", "-", "-", "<= 20 s")
	row(27, "prof -F pprof, then go tool pprof -top of its file: CPU s" \
	    " / peak RSS MB", "-",
	    cell("stacks", "export", "cpu", "%.2f") " / " \
	    mbcell("stacks", "export", "rss"),
	    cell("stacks", "pprof", "cpu", "%.2f") " / " \
	    mbcell("stacks", "pprof", "rss"),
	    ratio("stacks", "flat" stkparts, "cpu", "stacks", "pprof"), "-",
	    "-")
	goal(target("row 27, " stkparts " parts of distinct stacks, prof's" \
	    " CPU <= 10 s", "stacks", "flat" stkparts, "cpu", 10))
	goal(target("row 27, " stkparts " parts of distinct stacks, prof" \
	    " -q's CPU <= 20 s", "stacks", "q" stkparts, "cpu", 20))
	note("27. A profile in 20 parts of 50,000 distinct stacks of 12")
	note("   frames, every pc drawn at random in a function of row 23's")
	note("   million-function program (bench/manystacks.c; a million")
	note("   distinct stacks, forged once into bench/cache/stacks): prof")
	note("   reads the first part, the first 4 and all 20 (the ratio is")
	note("   20 parts' CPU over 1 part's), then -q of all 20, output")
	note("   discarded; `prof -F pprof` exports them once and")
	note("   `go tool pprof -top` reads that file (glibc column; the")
	note("   ratio is prof's flat report over pprof's).  Once a round in")
	note("   the first three rounds: CPU seconds (the least) and peak RSS.")
}
AWK

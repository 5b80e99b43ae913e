# harness.sh -- the helpers the atf-sh test programs share; each sources
# it from its setup().  A case records its failures and goes on, so that
# one run reports them all.

# run DIR [VAR=VALUE ...] PROG ARGS...: run in DIR, made afresh, with
# the environment given; stdout to DIR/out, stderr to DIR/err, the
# status to DIR/status.
run()
{
	local d

	d=$1
	shift
	rm -rf "$d"
	mkdir "$d" || atf_fail "mkdir $d"
	( cd "$d" && env "$@" >out 2>err; echo $? >status )
}

# fail WHAT: record a failure; the case goes on and reports them all.
fail()
{
	bad="$bad $(echo "$*" | tr '\n' ' ');"
}

verdict()
{
	[ -z "$bad" ] || atf_fail "$bad"
}

# holds AWK-EXPRESSION WHAT: WHAT is a failure unless the expression
# (numbers substituted in by the caller) is true.
holds()
{
	awk "BEGIN { exit !($1) }" </dev/null || fail "$2"
}

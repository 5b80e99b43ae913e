# graph.sh -- the call graph's forged fixture over t_graph (functions
# in known 64-byte slots, see t_graph.c), which prof_test and
# export_test share; each sources it from its setup, with GBASE set to
# where t_graph's slot 0, driver, is.

# gs n [off]: the address of t_graph slot n, plus off bytes.  A caller
# is slot n + 16 (a return address), a callee's cell n + 5, a sampled
# pc n + 8.
gs()
{
	printf '0x%x' $(( ${BIAS:-0} + GBASE + $1 * 64 + ${2:-0} ))
}

# The case of issue 14.  work() is called 900 times from cheap_caller
# and 100 times from costly_caller, but the calls from costly_caller are
# the long ones: 90 of work's 100 samples are under it.  Each caller has
# 5 samples of its own; driver calls each once.  110 samples of 10 ms:
# work_counts the histogram, counts and arcs, work_stacks the stacks.
work_counts()
{
	cat <<EOF
bin 1 5
bin 2 5
bin 3 100
cell $(gs 1 5) 1
cell $(gs 2 5) 1
cell $(gs 3 5) 1000
arc $(gs 0 16) $(gs 1 5) 1
arc $(gs 0 32) $(gs 2 5) 1
arc $(gs 1 16) $(gs 3 5) 900
arc $(gs 2 16) $(gs 3 5) 100
EOF
}

work_stacks()
{
	cat <<EOF
stack 10 0 $(gs 3 8) $(gs 1 16) $(gs 0 16)
stack 90 0 $(gs 3 8) $(gs 2 16) $(gs 0 32)
stack 5 0 $(gs 1 8) $(gs 0 16)
stack 5 0 $(gs 2 8) $(gs 0 32)
EOF
}

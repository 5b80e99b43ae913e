/*
 * arcsfn.c -- the three functions every generated arcs program is made
 * of, for bench/arcs.awk to copy.
 *
 * Compiling a million small functions takes gcc about half an hour at
 * -O2 (2 ms of CPU each) and ten minutes at -O0, once per set of flags.
 * So the bench compiles these three once per set of flags, to assembly,
 * and bench/arcs.awk copies that assembly as often as it is asked,
 * changing only the names (the function's, its callees') and the two
 * constants: the generated program is what gcc emits for these flags,
 * at any size, and assembles in seconds.  The constants are large odd
 * numbers that the copies replace with others of the same size, so the
 * instructions gcc chose for them fit every copy.
 *
 *	arcs_leaf	calls nothing
 *	arcs_link	calls arcs_next
 *	arcs_node	calls arcs_left, then arcs_right
 */
unsigned long	arcs_left(unsigned long);
unsigned long	arcs_next(unsigned long);
unsigned long	arcs_right(unsigned long);

unsigned long
arcs_leaf(unsigned long x)
{
	return (x ^ (x >> 7)) * 7654321u + 1234567;
}

unsigned long
arcs_link(unsigned long x)
{
	x = (x ^ (x >> 7)) * 7654321u;
	return arcs_next(x) * 3u + 1234567;
}

unsigned long
arcs_node(unsigned long x)
{
	x = arcs_left((x ^ (x >> 7)) * 7654321u);
	return arcs_right(x) * 3u + 1234567;
}

/* inline.h -- code in a header, inlined where it is used (h_inline). */
static inline unsigned long
scramble(unsigned long x)
{
	x ^= x >> 13;			/* HDR1 */
	x *= 0xff51afd7ed558ccdUL;	/* HDR2 */
	x ^= x >> 33;			/* HDR3 */
	return x;
}

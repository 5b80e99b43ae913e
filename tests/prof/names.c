/*
 * names.c -- a shared object whose symbol table has what prof must
 * name with care in a library:
 *
 *	pub		global
 *	helper		local, right after pub: its own row, not pub's
 *	both		global, with a local alias both_internal (as glibc's
 *			__GI_ names): the row is "both" alone
 *	cur		global, with the compatibility alias legacy@V1: the
 *			row is "cur" alone
 *	old_f		hidden by the version script, exported only as f@V1:
 *			the row is "f@V1"
 *
 * Built as h_names.so, with names.map as its version script.
 */
int	pub(int);
int	both(int);
int	cur(int);
int	old_f(int);

__asm__(".symver cur, legacy@V1");
__asm__(".symver old_f, f@V1");
__asm__(".local both_internal\n.set both_internal, both");

int
pub(int x)
{
	return x + 1;
}

static __attribute__((noinline, used)) int
helper(int x)
{
	return x * 3 + pub(x);
}

int
both(int x)
{
	return helper(x) - 1;
}

int
cur(int x)
{
	return x * 5;
}

int
old_f(int x)
{
	return x * 7;
}

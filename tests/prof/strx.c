/*
 * strx.c -- the source of h_strx, a program whose DWARF 5 compilation
 * unit names its directory by DW_FORM_strx1 over a version 4 line table
 * that leaves the directory to the unit (local.mk says how it is made):
 * prof's line reader must look the name up in .debug_str_offsets.
 */
int	twice(int);

int
twice(int x)
{
	return 2 * x;
}

int
main(int argc, char *argv[])
{
	(void)argv;
	return twice(argc) - 2;
}

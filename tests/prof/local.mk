# prof's own test variants (see tests/tests.mk): the burn helper built
# without PIE, with clang and with -mfentry; a program whose shared
# library is compiled for profiling too; the symbol fixture t_syms
# without PIE and with its functions exported; a generated program of
# 50,000 functions.  -pg rather than -p: gcc takes them alike, clang
# knows only -pg.  Every variant depends on this file, so that a change
# of rule rebuilds it.

PT	= tests/prof
PT_LIBS	= lib/libmon.a -lpthread
PT_BURN	= $(PT)/h_burn.c $(PT)/h_burn.h lib/libmon.a $(HDRS) $(PT)/local.mk

VARIANTS += $(PT)/h_burn_nopie $(PT)/h_burn_clang $(PT)/h_burn_fentry \
	$(PT)/h_solib.so $(PT)/h_solib $(PT)/t_syms_nopie $(PT)/t_syms_dyn \
	$(PT)/h_big

$(PT)/h_burn_nopie: $(PT_BURN)
	$(CC) -pg $(TEST_CFLAGS) -fno-inline -no-pie -o $@ $< $(PT_LIBS)

$(PT)/h_burn_clang: $(PT_BURN)
	$(CLANG) -pg $(TEST_CFLAGS) -fno-inline -o $@ $< $(PT_LIBS)

$(PT)/h_burn_fentry: $(PT_BURN)
	$(CC) -pg -mfentry $(TEST_CFLAGS) -fno-inline -o $@ $< $(PT_LIBS)

$(PT)/h_solib.so: $(PT)/solib.c $(PT)/h_burn.h $(PT)/local.mk
	$(CC) -pg $(TEST_CFLAGS) -fno-inline -fPIC -shared \
	    -Wl,-soname,h_solib.so -o $@ $<

# mcount is exported so that the library's calls reach libmon's.
$(PT)/h_solib: $(PT)/solib_main.c $(PT)/h_solib.so lib/libmon.a $(HDRS) \
    $(PT)/local.mk
	$(CC) -pg $(TEST_CFLAGS) -fno-inline -o $@ $< $(PT)/h_solib.so \
	    $(PT_LIBS) -Wl,--export-dynamic-symbol=mcount -Wl,-rpath,'$$ORIGIN'

$(PT)/t_syms_nopie: $(PT)/t_syms.c $(PT)/local.mk
	$(CC) $(TEST_CFLAGS) -no-pie -o $@ $<

$(PT)/t_syms_dyn: $(PT)/t_syms.c $(PT)/local.mk
	$(CC) $(TEST_CFLAGS) -rdynamic -o $@ $<

# 50,000 one-byte functions 16 bytes apart, f00000 to f49999, a main,
# and 16 bytes of padding so that nothing else follows f49999 closely.
$(PT)/h_big: $(PT)/local.mk
	awk 'BEGIN { \
	    print "\t.section .note.GNU-stack,\"\",@progbits\n\t.text"; \
	    print "\t.globl main\nmain:\txor %eax, %eax\n\tret"; \
	    for (i = 0; i < 50000; i++) \
		printf "\t.p2align 4\n\t.globl f%05d\n" \
		    "\t.type f%05d, @function\nf%05d:\tret\n" \
		    "\t.size f%05d, 1\n", i, i, i, i; \
	    print "\t.p2align 4\n\t.fill 16, 1, 0xcc" }' | \
	    $(CC) -x assembler -o $@ -

# Statics around a global, at -O2 with the source order kept: gcc's
# layout (main in .text.startup) is the point, so gcc builds it always.
VARIANTS += $(PT)/h_statics
$(PT)/h_statics: $(PT)/statics.c $(PT)/h_burn.h lib/libmon.a $(HDRS) \
    $(PT)/local.mk
	$(GCC) -p $(TEST_CFLAGS) -O2 -fno-toplevel-reorder -o $@ $< \
	    $(PT_LIBS)

# Stripped builds of t_syms whose symbols are in separate debug files,
# tied to them by a .gnu_debuglink: t_syms_dyn's, with the build-id that
# must match, and one without a build-id, which only the debuglink's CRC
# ties to its debug file -- there the unstripped build itself.
OBJCOPY	?= objcopy
STRIP	?= strip
VARIANTS += $(PT)/t_syms_dbg.debug $(PT)/t_syms_dbg \
	$(PT)/t_syms_nobid.debug $(PT)/t_syms_nobid

$(PT)/t_syms_dbg.debug: $(PT)/t_syms_dyn $(PT)/local.mk
	$(OBJCOPY) --only-keep-debug $< $@

$(PT)/t_syms_dbg: $(PT)/t_syms_dyn $(PT)/t_syms_dbg.debug
	$(STRIP) --strip-all -o $@.tmp $<
	$(OBJCOPY) --add-gnu-debuglink=$@.debug $@.tmp $@
	rm -f $@.tmp

$(PT)/t_syms_nobid.debug: $(PT)/t_syms.c $(PT)/local.mk
	$(CC) $(TEST_CFLAGS) -rdynamic -Wl,--build-id=none -o $@ $<

$(PT)/t_syms_nobid: $(PT)/t_syms_nobid.debug
	$(STRIP) --strip-all -o $@.tmp $<
	$(OBJCOPY) --add-gnu-debuglink=$< $@.tmp $@
	rm -f $@.tmp

# A shared object with a static after a global, an internal alias and
# versioned names (names.c), for how prof names a library's rows.
VARIANTS += $(PT)/h_names.so
$(PT)/h_names.so: $(PT)/names.c $(PT)/names.map $(PT)/local.mk
	$(CC) $(TEST_CFLAGS) -O1 -fPIC -shared \
	    -Wl,--version-script=$(PT)/names.map -o $@ $<

# Two source files with a static helper() each (clash_a.c, clash_b.c).
VARIANTS += $(PT)/h_clash
$(PT)/h_clash: $(PT)/clash_a.c $(PT)/clash_b.c $(PT)/h_burn.h lib/libmon.a \
    $(HDRS) $(PT)/local.mk
	$(CC) -pg $(TEST_CFLAGS) -fno-inline -o $@ $(PT)/clash_a.c \
	    $(PT)/clash_b.c $(PT_LIBS)

# h_focus built again with a function more before the others: another
# build-id, other addresses, for prof -d across builds (focus_test).
VARIANTS += $(PT)/h_focus_other
$(PT)/h_focus_other: $(PT)/h_focus.c $(PT)/h_burn.h lib/libmon.a $(HDRS) \
    $(PT)/local.mk
	$(CC) $(PFLAG) $(TEST_CFLAGS) -fno-inline -DOTHER_BUILD -o $@ $< \
	    $(PT_LIBS)

# A library whose functions call each other but take no samples
# (libcalls.c), and a program that calls it (libcalls_main.c).
VARIANTS += $(PT)/h_libcalls.so $(PT)/h_libcalls
$(PT)/h_libcalls.so: $(PT)/libcalls.c $(PT)/local.mk
	$(CC) -pg $(TEST_CFLAGS) -fno-inline -fPIC -shared \
	    -Wl,-soname,h_libcalls.so -o $@ $<

$(PT)/h_libcalls: $(PT)/libcalls_main.c $(PT)/h_libcalls.so lib/libmon.a \
    $(HDRS) $(PT)/local.mk
	$(CC) -pg $(TEST_CFLAGS) -fno-inline -o $@ $< $(PT)/h_libcalls.so \
	    $(PT_LIBS) -Wl,--export-dynamic-symbol=mcount -Wl,-rpath,'$$ORIGIN'

# prof's DWARF line-table reader alone, for comparison with addr2line.
DWLINE_SRC = prof/read/dwline.c prof/read/elfsym.c prof/read/inflate.c \
	prof/util/crc32.c prof/util/deflate.c prof/util/xmalloc.c
$(PT)/t_dwline: $(PT)/t_dwline.c $(DWLINE_SRC) $(HDRS) $(PT)/local.mk
	$(CC) $(TEST_CFLAGS) -Iprof -o $@ $< $(DWLINE_SRC)

# prof's gzip writer alone, for gzip(1) to read back.
GZIP_SRC = prof/export/gzip.c prof/util/crc32.c prof/util/deflate.c \
	prof/util/xmalloc.c
$(PT)/t_gzip: $(PT)/t_gzip.c $(GZIP_SRC) $(HDRS) $(PT)/local.mk
	$(CC) $(TEST_CFLAGS) -Iprof -o $@ $< $(GZIP_SRC)

# h_strx: clang's DWARF 5 unit names its compilation directory by
# DW_FORM_strx1 (an index into .debug_str_offsets), over a version 4
# line table whose file name is relative, so that the directory comes
# from the unit -- as clang -gdwarf-5 -fno-integrated-as makes it with
# an assembler that writes DWARF 4 line tables.  Made here from clang's
# assembly, its file 0 turned into a DWARF 4 file 1, put through GNU
# as --gdwarf-4 (by gcc, whatever CC is: clang's own assembler takes
# no such option).
VARIANTS += $(PT)/h_strx
$(PT)/h_strx: $(PT)/strx.c $(PT)/local.mk
	$(CLANG) -S -gdwarf-5 -O1 -o $@.5.s $(PT)/strx.c
	sed -e 's/^\([[:space:]]*\)\.file[[:space:]]*0 "[^"]*" "\([^"]*\)".*/\1.file 1 "\2"/' \
	    -e 's/^\([[:space:]]*\.loc[[:space:]]*\)0 /\11 /' \
	    -e '/\.addrsig/d' $@.5.s >$@.4.s
	$(GCC) -c -Wa,--gdwarf-4 -o $@.o $@.4.s
	$(GCC) -o $@ $@.o
	rm -f $@.5.s $@.4.s $@.o

# h_jitapi built without -p: the perf map calls with no profile running.
VARIANTS += $(PT)/h_jitapi_plain
$(PT)/h_jitapi_plain: $(PT)/h_jitapi.c lib/libmon.a $(HDRS) $(PT)/local.mk
	$(CC) $(TEST_CFLAGS) -o $@ $< $(PT_LIBS)

# h_lines, for prof -L and -A (lines_test): by gcc with DWARF 4 (the
# default build is gcc's DWARF 5, or clang's 4), by clang with DWARF 5
# and 4, stripped with its lines in a debug file tied by a
# .gnu_debuglink (of all its symbols, or of its debug sections alone),
# without -g, and built from a copy of its source that
# is then removed, for -A's source not found and -S.
PT_LINES = $(PT)/h_lines.c lib/libmon.a $(HDRS) $(PT)/local.mk
VARIANTS += $(PT)/h_lines_gcc4 $(PT)/h_lines_clang5 $(PT)/h_lines_clang4 \
	$(PT)/h_lines_full $(PT)/h_lines_dbg.debug $(PT)/h_lines_dbg \
	$(PT)/h_lines_nog $(PT)/h_lines_moved $(PT)/h_lines_dbgsym

$(PT)/h_lines_gcc4: $(PT_LINES)
	$(GCC) -pg $(TEST_CFLAGS) -gdwarf-4 -fno-inline -o $@ $< $(PT_LIBS)

$(PT)/h_lines_clang5: $(PT_LINES)
	$(CLANG) -pg $(TEST_CFLAGS) -gdwarf-5 -fno-inline -o $@ $< $(PT_LIBS)

$(PT)/h_lines_clang4: $(PT_LINES)
	$(CLANG) -pg $(TEST_CFLAGS) -gdwarf-4 -fno-inline -o $@ $< $(PT_LIBS)

$(PT)/h_lines_full: $(PT_LINES)
	$(CC) $(PFLAG) $(TEST_CFLAGS) -fno-inline -o $@ $< $(PT_LIBS)

$(PT)/h_lines_dbg.debug: $(PT)/h_lines_full
	$(OBJCOPY) --only-keep-debug $< $@

$(PT)/h_lines_dbg: $(PT)/h_lines_full $(PT)/h_lines_dbg.debug
	$(STRIP) --strip-all -o $@.tmp $<
	$(OBJCOPY) --add-gnu-debuglink=$@.debug $@.tmp $@
	rm -f $@.tmp

# Stripped of its debug sections alone (its .symtab kept), tied to the
# same debug file.
$(PT)/h_lines_dbgsym: $(PT)/h_lines_full $(PT)/h_lines_dbg.debug
	$(OBJCOPY) --strip-debug $< $@.tmp
	$(OBJCOPY) --add-gnu-debuglink=$(PT)/h_lines_dbg.debug $@.tmp $@
	rm -f $@.tmp

$(PT)/h_lines_nog: $(PT_LINES)
	$(CC) $(PFLAG) $(TEST_CFLAGS) -g0 -fno-inline -o $@ $< $(PT_LIBS)

$(PT)/h_lines_moved: $(PT_LINES)
	rm -rf $@.src && mkdir $@.src
	cp $< $@.src/h_lines_moved.c
	$(CC) $(PFLAG) $(TEST_CFLAGS) -fno-inline -o $@ \
	    $@.src/h_lines_moved.c $(PT_LIBS)
	rm -rf $@.src

# h_wall as users build: -O2, inlining left on (wall_test's
# optimized_waits_in_callers), so that the walk of a blocked thread
# meets libc's wrappers below code gcc has rearranged.
VARIANTS += $(PT)/h_wall_o2
$(PT)/h_wall_o2: $(PT)/h_wall.c lib/libmon.a $(HDRS) $(PT)/local.mk
	$(CC) $(PFLAG) $(TEST_CFLAGS) -O2 -o $@ $< $(PT_LIBS)

# h_inline, for the exports' source lines (lines_test): inline.h's
# static inline function inlined at -O2 into work() of inline.c, whose
# own lines of the same numbers hold no code; work() called from two
# sites of different cost.  inline.c is not an h_*.c: the helpers' rule
# builds those with -fno-inline.
VARIANTS += $(PT)/h_inline
$(PT)/h_inline: $(PT)/inline.c $(PT)/inline.h lib/libmon.a $(HDRS) \
    $(PT)/local.mk
	$(CC) -pg $(TEST_CFLAGS) -O2 -o $@ $(PT)/inline.c $(PT_LIBS)

# wall_test's program that dlopens a library after profiling started
# (a frameless leaf and a sleep in it), the library built plainly.
VARIANTS += $(PT)/h_dlstack $(PT)/h_dlstack.so
$(PT)/h_dlstack: $(PT)/dlstack.c lib/libmon.a $(HDRS) $(PT)/local.mk
	$(CC) -pg $(TEST_CFLAGS) -o $@ $< lib/libmon.a -lpthread -ldl
$(PT)/h_dlstack.so: $(PT)/dlstack_lib.c $(PT)/local.mk .flags
	$(CC) $(CPPFLAGS_) $(WARN) -O1 -g -fno-omit-frame-pointer -fPIC \
	    -shared -o $@ $<

# wall_test's program that dlopens and dlcloses that library in a loop
# while sampled.
VARIANTS += $(PT)/h_dlloop
$(PT)/h_dlloop: $(PT)/dlloop.c lib/libmon.a $(HDRS) $(PT)/local.mk
	$(CC) -pg $(TEST_CFLAGS) -o $@ $< lib/libmon.a -lpthread -ldl

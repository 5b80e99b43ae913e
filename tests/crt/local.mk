# tests/crt: h_calls built by every compiler and start-up route, and
# h_explicit without -p.  The plain h_calls (gcc -p, PIE) and h_explicit
# (gcc -p) come from the generic helper rule.
CRT_FLAGS = $(TEST_CFLAGS) -fno-inline
CRT_NOINC = $(filter-out -I%,$(TEST_CFLAGS)) -fno-inline
CRT_SPECS = -specs=lib/mon-build.specs

VARIANTS += tests/crt/h_calls_nopie tests/crt/h_calls_clang \
	tests/crt/h_calls_fentry tests/crt/h_calls_clang_fentry \
	tests/crt/h_calls_specs tests/crt/h_explicit_plain \
	tests/crt/h_calls_lto tests/crt/h_calls_lto_specs \
	tests/crt/h_calls_clang_lto tests/crt/h_slib.so tests/crt/h_slib \
	tests/crt/h_static.log tests/crt/h_static_pie.log \
	tests/crt/h_static_specs.log tests/crt/h_explicit_static.log

tests/crt/h_calls_nopie: tests/crt/h_calls.c lib/libmon.a
	$(CC) -pg -no-pie $(CRT_FLAGS) -o $@ $< lib/libmon.a -lpthread
tests/crt/h_calls_clang: tests/crt/h_calls.c lib/libmon.a
	$(CLANG) -pg $(CRT_FLAGS) -o $@ $< lib/libmon.a -lpthread
tests/crt/h_calls_fentry: tests/crt/h_calls.c lib/libmon.a
	$(CC) -pg -mfentry $(CRT_FLAGS) -o $@ $< lib/libmon.a -lpthread
tests/crt/h_calls_clang_fentry: tests/crt/h_calls.c lib/libmon.a
	$(CLANG) -pg -mfentry $(CRT_FLAGS) -o $@ $< lib/libmon.a -lpthread
# The specs route names neither the library nor the include directory.
tests/crt/h_calls_specs: tests/crt/h_calls.c lib/mon-build.specs lib/libmon.a
	$(GCC) $(CRT_SPECS) -p $(CRT_NOINC) -o $@ $< -lpthread
tests/crt/h_explicit_plain: tests/crt/h_explicit.c lib/libmon.a \
    tests/lib/h_burn.h
	$(CC) $(TEST_CFLAGS) -o $@ $< lib/libmon.a

tests/crt/h_explicit: tests/lib/h_burn.h

# Link-time optimisation: mcount is called only from the code generated
# at link time.  gcc the way a user writes it (-lmon) and through the
# specs file; clang when its LTO plug-in works with the system's link
# editor, else the reason why not is left in h_calls_clang_lto.skip.
tests/crt/h_calls_lto: tests/crt/h_calls.c lib/libmon.a
	$(GCC) -p -flto $(CRT_FLAGS) -o $@ $< -Llib -lmon -lpthread
tests/crt/h_calls_lto_specs: tests/crt/h_calls.c lib/mon-build.specs \
    lib/libmon.a
	$(GCC) $(CRT_SPECS) -p -flto $(CRT_NOINC) -o $@ $< -lpthread
tests/crt/h_calls_clang_lto: tests/crt/h_calls.c lib/libmon.a
	@rm -f $@.skip
	$(CLANG) -pg -flto $(CRT_FLAGS) -o $@ $< lib/libmon.a -lpthread \
	    2>$@.err || { echo "clang -flto cannot link here:" \
	    "$$(head -1 $@.err)" >$@.skip; rm -f $@; }
	@rm -f $@.err

# A -pg -shared library built through the specs file, and a -p program
# linked with it, which finds it beside itself.
tests/crt/h_slib.so: tests/crt/slib.c lib/mon-build.specs lib/libmon.a \
    tests/crt/local.mk
	$(GCC) $(CRT_SPECS) -pg -fPIC -shared $(CRT_NOINC) \
	    -Wl,-soname,h_slib.so -o $@ $<
tests/crt/h_slib: tests/crt/slibmain.c tests/crt/h_slib.so
	$(GCC) $(CRT_SPECS) -p $(CRT_NOINC) -o $@ $< tests/crt/h_slib.so \
	    -Wl,-rpath,'$$ORIGIN'

# Static links, which must be refused: each log keeps the link's
# messages and its exit status for crt_test.  Sanitizers have static
# rules of their own, so they are left out.
CRT_STATIC = $(filter-out -fsanitize% -fno-sanitize%,$(CRT_FLAGS))
tests/crt/h_static.log: tests/crt/h_calls.c lib/libmon.a
	rm -f $(@:.log=)
	$(CC) $(PFLAG) -static $(CRT_STATIC) -o $(@:.log=) $< -Llib -lmon \
	    -lpthread >$@ 2>&1; echo "status $$?" >>$@
tests/crt/h_static_pie.log: tests/crt/h_calls.c lib/libmon.a
	rm -f $(@:.log=)
	$(CC) $(PFLAG) -static-pie $(CRT_STATIC) -o $(@:.log=) $< -Llib \
	    -lmon -lpthread >$@ 2>&1; echo "status $$?" >>$@
tests/crt/h_static_specs.log: tests/crt/h_calls.c lib/mon-build.specs \
    lib/libmon.a
	rm -f $(@:.log=)
	$(GCC) $(CRT_SPECS) -p -static $(filter-out -I%,$(CRT_STATIC)) \
	    -o $(@:.log=) $< -lpthread >$@ 2>&1; echo "status $$?" >>$@
tests/crt/h_explicit_static.log: tests/crt/h_explicit.c lib/libmon.a \
    tests/lib/h_burn.h
	rm -f $(@:.log=)
	$(CC) -static $(filter-out -fno-inline,$(CRT_STATIC)) -o $(@:.log=) \
	    $< -Llib -lmon >$@ 2>&1; echo "status $$?" >>$@

# glibc's calls from a program built without -p, as glibc documents.
VARIANTS += tests/crt/h_gmonapi_plain
tests/crt/h_gmonapi: tests/lib/h_spin.h
tests/crt/h_gmonapi_plain: tests/crt/h_gmonapi.c tests/lib/h_spin.h \
    lib/libmon.a
	$(CC) $(TEST_CFLAGS) -fno-inline -o $@ $< lib/libmon.a

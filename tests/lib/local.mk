# tests/lib: the shared headers are not in HDRS; rebuild what uses them.
tests/lib/profil_test: tests/lib/h_support.h tests/lib/h_burn.h
tests/lib/monitor_test: tests/lib/h_support.h tests/lib/h_burn.h \
	tests/lib/h_monread.h
tests/lib/signals_test: tests/lib/h_support.h tests/lib/h_burn.h \
	tests/lib/h_monread.h
tests/lib/h_monitor: tests/lib/h_burn.h
tests/lib/t_mondump: tests/lib/h_monread.h
tests/lib/h_fault tests/lib/h_never tests/lib/t_spin tests/lib/t_exec: tests/lib/h_spin.h

# faults_test: h_fault again, linked with mcount exported as the specs
# file asks (GNU ld exports it anyway, glibc defining it too), so that a
# dlopen'd library built with -p counts into it; and that library, built
# without -p and with it.
LT	= tests/lib
VARIANTS += $(LT)/h_fault_dl $(LT)/h_dlib_plain.so $(LT)/h_dlib_p.so

$(LT)/h_fault_dl: $(LT)/h_fault.c $(LT)/h_spin.h lib/libmon.a $(HDRS) \
    $(LT)/local.mk
	$(CC) $(PFLAG) $(TEST_CFLAGS) -fno-inline -o $@ $< lib/libmon.a -lpthread \
	    -Wl,--export-dynamic-symbol=mcount

$(LT)/h_dlib_plain.so: $(LT)/dlib.c $(LT)/h_spin.h $(LT)/local.mk
	$(CC) $(TEST_CFLAGS) -fPIC -shared -o $@ $<

$(LT)/h_dlib_p.so: $(LT)/dlib.c $(LT)/h_spin.h $(LT)/local.mk
	$(CC) -pg $(TEST_CFLAGS) -fno-inline -fPIC -shared -o $@ $<

# accuracy_test's helper is the bench's short-threads workload, built as
# the other helpers are.
VARIANTS += $(LT)/h_shortthr

$(LT)/h_shortthr: bench/shortthr.c lib/libmon.a $(HDRS) $(LT)/local.mk
	$(CC) $(PFLAG) $(TEST_CFLAGS) -fno-inline -o $@ $< lib/libmon.a -lpthread

# arcs_test's helper: arcs.c calls the functions mkarcs writes, many
# thousands, into a file of their own, compiled without optimisation so
# that every call stays a call and the build stays quick.
ARCS_GEN = 4000 40 4
VARIANTS += $(LT)/h_arcs
GENERATED += $(LT)/arcs.gen.c $(LT)/arcs.gen.o

$(LT)/arcs.gen.c: $(LT)/mkarcs $(LT)/local.mk
	sh $(LT)/mkarcs $(ARCS_GEN) >$@.tmp && mv $@.tmp $@
$(LT)/arcs.gen.o: $(LT)/arcs.gen.c .flags
	$(CC) $(PFLAG) $(TEST_CFLAGS) -O0 -c -o $@ $(LT)/arcs.gen.c
$(LT)/h_arcs: $(LT)/arcs.c $(LT)/arcs.gen.o lib/libmon.a $(HDRS) \
    $(LT)/local.mk
	$(CC) $(PFLAG) $(TEST_CFLAGS) -fno-inline -o $@ $< $(LT)/arcs.gen.o \
	    lib/libmon.a -lpthread

# calls_test's helpers: cyg.c built with -finstrument-functions, not -p
# (libmon starts itself), with -p as well (started once), and by clang.
VARIANTS += $(LT)/h_cyg $(LT)/h_cyg_p $(LT)/h_cyg_clang

$(LT)/h_cyg: $(LT)/cyg.c lib/libmon.a $(HDRS) $(LT)/local.mk
	$(CC) -finstrument-functions $(TEST_CFLAGS) -o $@ $< lib/libmon.a \
	    -lpthread
$(LT)/h_cyg_p: $(LT)/cyg.c lib/libmon.a $(HDRS) $(LT)/local.mk
	$(CC) $(PFLAG) -finstrument-functions $(TEST_CFLAGS) -o $@ $< \
	    lib/libmon.a -lpthread
$(LT)/h_cyg_clang: $(LT)/cyg.c lib/libmon.a $(HDRS) $(LT)/local.mk
	$(CLANG) -finstrument-functions $(TEST_CFLAGS) -gdwarf-4 -o $@ $< \
	    lib/libmon.a -lpthread

# And at -O2, where a void function jumps to its exit hook, by both.
VARIANTS += $(LT)/h_cyg_o2 $(LT)/h_cyg_clang_o2
$(LT)/h_cyg_o2: $(LT)/cyg.c lib/libmon.a $(HDRS) $(LT)/local.mk
	$(GCC) -finstrument-functions $(TEST_CFLAGS) -O2 -o $@ $< \
	    lib/libmon.a -lpthread
$(LT)/h_cyg_clang_o2: $(LT)/cyg.c lib/libmon.a $(HDRS) $(LT)/local.mk
	$(CLANG) -finstrument-functions $(TEST_CFLAGS) -O2 -gdwarf-4 -o $@ \
	    $< lib/libmon.a -lpthread

# profiler_test's helpers: profapi.c with -finstrument-functions and
# -rdynamic (modules call the API in it), by gcc and clang; the library
# it dlopens, instrumented; a module with no entry point.
VARIANTS += $(LT)/h_profapi $(LT)/h_profapi_clang $(LT)/h_plib.so \
	$(LT)/h_badmod.so

$(LT)/h_profapi: $(LT)/profapi.c lib/libmon.a $(HDRS) $(LT)/local.mk
	$(CC) -finstrument-functions -rdynamic $(TEST_CFLAGS) -o $@ $< \
	    lib/libmon.a -lpthread
$(LT)/h_profapi_clang: $(LT)/profapi.c lib/libmon.a $(HDRS) $(LT)/local.mk
	$(CLANG) -finstrument-functions -rdynamic $(TEST_CFLAGS) -gdwarf-4 \
	    -o $@ $< lib/libmon.a -lpthread
# The libraries without the sanitizers: one built by gcc's would bring
# its runtime into h_profapi_clang, which has clang's.
$(LT)/h_plib.so: $(LT)/plib.c $(LT)/local.mk .flags
	$(CC) -finstrument-functions $(CPPFLAGS_) $(WARN) -O1 -g -fPIC -shared \
	    -o $@ $<
$(LT)/h_badmod.so: $(LT)/badmod.c $(LT)/local.mk .flags
	$(CC) $(CPPFLAGS_) $(WARN) -O1 -g -fPIC -shared -o $@ $<

# profiler_test's -pg helper: pgapi.c built with -pg (mcount) and
# -pg -mfentry (__fentry__), by gcc and clang, and by gcc with endbr64
# at each function's start and at -O2.
PGAPI	= $(LT)/h_pgapi $(LT)/h_pgapi_fentry $(LT)/h_pgapi_clang \
	$(LT)/h_pgapi_clang_fentry $(LT)/h_pgapi_cet $(LT)/h_pgapi_o2
VARIANTS += $(PGAPI)
$(PGAPI): $(LT)/pgapi.c lib/libmon.a $(HDRS) $(LT)/local.mk
$(LT)/h_pgapi:
	$(CC) -pg $(TEST_CFLAGS) -o $@ $(LT)/pgapi.c lib/libmon.a -lpthread
$(LT)/h_pgapi_fentry:
	$(CC) -pg -mfentry $(TEST_CFLAGS) -o $@ $(LT)/pgapi.c lib/libmon.a \
	    -lpthread
$(LT)/h_pgapi_clang:
	$(CLANG) -pg $(TEST_CFLAGS) -gdwarf-4 -o $@ $(LT)/pgapi.c \
	    lib/libmon.a -lpthread
$(LT)/h_pgapi_clang_fentry:
	$(CLANG) -pg -mfentry $(TEST_CFLAGS) -gdwarf-4 -o $@ $(LT)/pgapi.c \
	    lib/libmon.a -lpthread
$(LT)/h_pgapi_cet:
	$(CC) -pg -mfentry -fcf-protection $(TEST_CFLAGS) -o $@ \
	    $(LT)/pgapi.c lib/libmon.a -lpthread
$(LT)/h_pgapi_o2:
	$(CC) -pg $(TEST_CFLAGS) -O2 -o $@ $(LT)/pgapi.c lib/libmon.a \
	    -lpthread

# profiler_test's helper of -pg and -finstrument-functions code together
# (pgmix_fi.c), with mcount and with __fentry__.
PGMIX	= $(LT)/h_pgmix $(LT)/h_pgmix_fentry
VARIANTS += $(PGMIX)
$(PGMIX): $(LT)/pgmix.c $(LT)/pgmix_fi.c lib/libmon.a $(HDRS) $(LT)/local.mk
$(LT)/h_pgmix:
	$(CC) -finstrument-functions $(TEST_CFLAGS) -c -o $@.fi.o \
	    $(LT)/pgmix_fi.c
	$(CC) -pg $(TEST_CFLAGS) -o $@ $(LT)/pgmix.c $@.fi.o lib/libmon.a \
	    -lpthread
	rm -f $@.fi.o
$(LT)/h_pgmix_fentry:
	$(CC) -finstrument-functions $(TEST_CFLAGS) -c -o $@.fi.o \
	    $(LT)/pgmix_fi.c
	$(CC) -pg -mfentry $(TEST_CFLAGS) -o $@ $(LT)/pgmix.c $@.fi.o \
	    lib/libmon.a -lpthread
	rm -f $@.fi.o

# profiler_test's GNU C nested function called through a pointer (gcc
# only): -pg, -pg -mfentry, and -mfentry with endbr64.  Its trampoline is
# on the stack, which must then be executable.
PGNEST	= $(LT)/h_pgnest $(LT)/h_pgnest_fentry $(LT)/h_pgnest_cet
VARIANTS += $(PGNEST)
$(PGNEST): $(LT)/pgnest.c lib/libmon.a $(HDRS) $(LT)/local.mk
$(LT)/h_pgnest:
	$(GCC) -pg -no-pie $(TEST_CFLAGS) -z execstack -o $@ $(LT)/pgnest.c \
	    lib/libmon.a -lpthread
$(LT)/h_pgnest_fentry:
	$(GCC) -pg -mfentry -no-pie $(TEST_CFLAGS) -z execstack -o $@ \
	    $(LT)/pgnest.c lib/libmon.a -lpthread
$(LT)/h_pgnest_cet:
	$(GCC) -pg -mfentry -fcf-protection -no-pie $(TEST_CFLAGS) \
	    -z execstack -o $@ $(LT)/pgnest.c lib/libmon.a -lpthread

# profiler_test's -pg (mcount) libraries, one loaded where the other
# was unloaded, and the program that loads them.
PGDL	= $(LT)/h_pgdl $(LT)/h_pgdl_a.so $(LT)/h_pgdl_b.so
VARIANTS += $(PGDL)
$(PGDL): $(LT)/pgdl.c lib/libmon.a $(HDRS) $(LT)/local.mk
$(LT)/h_pgdl:
	$(CC) -pg $(TEST_CFLAGS) -o $@ $(LT)/pgdl.c lib/libmon.a -ldl \
	    -lpthread
$(LT)/h_pgdl_a.so:
	$(CC) -pg -DPGDL_A $(TEST_CFLAGS) -fPIC -shared -o $@ $(LT)/pgdl.c
$(LT)/h_pgdl_b.so:
	$(CC) -pg -DPGDL_B $(TEST_CFLAGS) -fPIC -shared -o $@ $(LT)/pgdl.c

# calls_test's C++ helper: exceptions and swapcontext leave frames
# without their exit hook; built by g++ and clang++ where they are (the
# case skips a compiler that is not).
CXX_	?= g++
CLANGXX	?= clang++
CXXFLAGS_ = -Iinclude -Wall -Wextra -Werror -O1 -g -fno-omit-frame-pointer \
	-finstrument-functions $(SAN)
VARIANTS += $(if $(shell command -v $(CXX_)),$(LT)/h_cygxx)
VARIANTS += $(if $(shell command -v $(CLANGXX)),$(LT)/h_cygxx_clang)
$(LT)/h_cygxx: $(LT)/cygxx.cc lib/libmon.a $(HDRS) $(LT)/local.mk
	$(CXX_) $(CXXFLAGS_) -o $@ $< lib/libmon.a -lpthread
$(LT)/h_cygxx_clang: $(LT)/cygxx.cc lib/libmon.a $(HDRS) $(LT)/local.mk
	$(CLANGXX) $(CXXFLAGS_) -gdwarf-4 -o $@ $< lib/libmon.a -lpthread

# knobs_test's helper: knobs.c with -finstrument-functions, for
# PROFCALLS, PROFDEPTH and PROFSLOW.
VARIANTS += $(LT)/h_knobs
$(LT)/h_knobs: $(LT)/knobs.c lib/libmon.a $(HDRS) $(LT)/local.mk
	$(CC) -finstrument-functions $(TEST_CFLAGS) -o $@ $< lib/libmon.a \
	    -lpthread

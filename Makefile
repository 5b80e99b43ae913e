# libmon -- classic prof/monitor(3C) profiling for C on Linux x86_64.
# One non-recursive Makefile; settings first.

PREFIX	?= /usr/local
BINDIR	 = $(PREFIX)/bin
LIBDIR	 = $(PREFIX)/lib
INCDIR	 = $(PREFIX)/include
MANDIR	 = $(PREFIX)/share/man
DATADIR	 = $(PREFIX)/lib/libmon

CC	?= cc
CLANG	?= clang
GCC	?= gcc
# clang takes only -pg; gcc takes -p, the classic spelling, alike.
PFLAG	 = $(if $(findstring clang,$(CC)),-pg,-p)
AR	?= ar
OBJCOPY	?= objcopy
# clang 14's DWARF 5 is more than valgrind 3.19 reads.
CFLAGS	?= -O2 -g $(if $(findstring clang,$(CC)),-gdwarf-4)
LDFLAGS	?=
WARN	 = -Wall -Wextra -Werror
CPPFLAGS_ = -std=c11 -D_DEFAULT_SOURCE -Iinclude -Ilib
# The runtime runs inside instrumented code and signal handlers: it must
# never be instrumented itself nor touch vector registers in mcount's path.
# -fno-plt: its calls into libc go through GOT entries the dynamic linker
# fills as the program starts, never through lazy binding -- which a fork
# child would otherwise do afresh for each function its parent had not
# called, faulting in pages of symbol tables before an exec.
LIB_CFLAGS = $(CPPFLAGS_) $(WARN) $(CFLAGS) $(SAN) -fno-omit-frame-pointer \
	-fno-stack-protector -fvisibility=hidden -fPIC -fno-plt
ALL_CFLAGS = $(CPPFLAGS_) $(WARN) $(CFLAGS)

ifeq ($(SANITIZE),1)
SAN	 = -fsanitize=address,undefined -fno-sanitize-recover=all
ALL_CFLAGS += $(SAN)
LDFLAGS += $(SAN)
endif

LIB_C	 = $(wildcard lib/*.c)
LIB_S	 = $(wildcard lib/x86_64/*.S)
CRT_C	 = $(wildcard crt/*.c)
LIB_O	 = $(LIB_C:.c=.o) $(LIB_S:.S=.o) $(CRT_C:.c=.o)
# prof's rooms, lowest first, in the order data passes through them
# (prof/prof.h); a room calls only rooms before it, print and export
# stand side by side.  make lint checks it (tests/run-layers).
comma	:= ,
PROF_LAYERS = util read model print,export
PROF_ROOMS = $(subst $(comma), ,$(PROF_LAYERS))
PROF_C	 = $(wildcard prof/*.c $(PROF_ROOMS:%=prof/%/*.c))
PROF_O	 = $(PROF_C:.c=.o)
# The profiler modules that ship (mon_profiler(3C)): modules/NAME.c is
# libmon-profiler-NAME.so, loaded by PROFMODULE=NAME.
MOD_C	 = $(wildcard modules/*.c)
MODULES	 = $(MOD_C:modules/%.c=modules/libmon-profiler-%.so)
HDRS	 = include/mon.h $(wildcard lib/*.h) $(wildcard prof/*.h) \
	$(wildcard $(PROF_ROOMS:%=prof/%/*.h)) .flags

MAN1	 = $(wildcard man1/*.1)
MAN3	 = $(wildcard man3c/*.3c)
MAN7	 = $(wildcard man7/*.7)
# Names a page documents besides its own: link page:name, installed as
# links so that man finds them.
MLINKS	 = monitor.3c:monsnapshot.3c mon_perfmap.3c:mon_perfmap_init.3c \
	mon_perfmap.3c:mon_perfmap_write.3c mon_perfmap.3c:mon_perfmap_fini.3c \
	mon_perfmap.3c:mon_perfmap_copy.3c \
	$(foreach f,create name set_enter_leave set_call_filter set_thread \
	    set_sample set_shutdown set_fork set_exec set_library set_jit, \
	    mon_profiler.3c:mon_profiler_$(f).3c)

.PHONY: all check lint demo flamegraph bench fuzz install uninstall clean tests FORCE

# Everything is rebuilt when the compiler or its flags change (SANITIZE=1).
.flags: FORCE
	@echo '$(CC) $(CFLAGS) $(SAN)' | cmp -s - $@ || \
	    echo '$(CC) $(CFLAGS) $(SAN)' > $@

all: lib/libmon.a prof/prof lib/mon-build.specs $(MODULES)

# libmon's code goes into a section of its own, libmon_text, which the
# link editor keeps in one piece: the runtime records where it lies, so
# that prof can keep libmon's time apart from the program's.  The
# compiler is asked for one .text per file to rename, and the pieces it
# makes anyway are renamed with it: .text.startup, where gcc puts
# constructors, and the others a compiler may split off.
SELFSEC	 = alloc,load,readonly,code,contents
SELF	 = $(OBJCOPY) --rename-section .text=libmon_text,$(SELFSEC) \
	--rename-section .text.startup=libmon_text,$(SELFSEC) \
	--rename-section .text.unlikely=libmon_text,$(SELFSEC) \
	--rename-section .text.hot=libmon_text,$(SELFSEC) \
	--rename-section .text.exit=libmon_text,$(SELFSEC) $@
LIB_CFLAGS += $(if $(findstring clang,$(CC)),,-fno-reorder-blocks-and-partition)

lib/%.o: lib/%.c $(HDRS)
	$(CC) $(LIB_CFLAGS) -c -o $@ $<
	$(SELF)
lib/x86_64/%.o: lib/x86_64/%.S .flags
	$(CC) $(CPPFLAGS_) $(CFLAGS) -fPIC -c -o $@ $<
	$(SELF)
crt/%.o: crt/%.c $(HDRS)
	$(CC) $(LIB_CFLAGS) -c -o $@ $<
	$(SELF)

# mcount's slow path, and the code it reads callers with, run with
# vector registers live in the caller.
lib/mcount.o lib/callsite.o: LIB_CFLAGS += -mgeneral-regs-only

lib/libmon.a: $(LIB_O)
	rm -f $@
	$(AR) rcs $@ $(LIB_O)

# A gcc specs file so that "cc -specs=mon.specs -p prog.c" needs no -lmon:
# installed with the PREFIX of the install; this one points at the build
# tree, for the tests and the bench.
lib/mon-build.specs: lib/mon.specs.in Makefile
	sed -e 's|@LIBDIR@|$(CURDIR)/lib|g' -e 's|@INCDIR@|$(CURDIR)/include|g' \
	    lib/mon.specs.in > $@

# A module is an ordinary shared library: it calls libmon's API in the
# program that loads it, which exports it (-rdynamic).
modules/libmon-profiler-%.so: modules/%.c modules/module.h include/mon.h .flags
	$(CC) $(CPPFLAGS_) $(WARN) $(CFLAGS) -fPIC -shared -o $@ $<

prof/%.o: prof/%.c $(HDRS)
	$(CC) $(ALL_CFLAGS) -Iprof -c -o $@ $<
prof/prof: $(PROF_O)
	$(CC) $(LDFLAGS) -o $@ $(PROF_O)

include tests/tests.mk

check:
	@sh tests/need-atf
	@$(MAKE) --no-print-directory all tests
	@LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	    sh tests/run-kyua

lint: lib/libmon.a prof/prof
	@sh tests/run-lint $(MAN1) $(MAN3) $(MAN7)
	@sh tests/run-layers lib $(LIB_O)
	@sh tests/run-layers prof $(PROF_O)
	@sh tests/run-layers -o "$(PROF_LAYERS)" prof $(PROF_O)

# The demo: the example compiled the classic way, run, and reported.
demo: all
	$(CC) $(PFLAG) -O2 -Iinclude -o examples/demo examples/demo.c lib/libmon.a
	cd examples && rm -f mon.out && ./demo
	cd examples && ../prof/prof demo mon.out

# The flame graph the README shows: the demo's run, drawn by prof.
flamegraph: demo
	cd examples && ../prof/prof -F svg demo mon.out > demo.svg.tmp && \
	    mv demo.svg.tmp demo.svg

bench: all
	@sh bench/run

# The fuzzers (clang, libFuzzer): seconds per harness; see tests/fuzz/run.
FUZZTIME ?= 60
fuzz:
	@sh tests/fuzz/run $(FUZZTIME)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
	    $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3c \
	    $(DESTDIR)$(MANDIR)/man7
	install -m 755 prof/prof $(DESTDIR)$(BINDIR)/prof
	install -m 644 lib/libmon.a $(DESTDIR)$(LIBDIR)/libmon.a
	install -m 755 $(MODULES) $(DESTDIR)$(LIBDIR)/
	install -m 644 include/mon.h $(DESTDIR)$(INCDIR)/mon.h
	install -m 644 $(CRT_C:.c=.o) $(DESTDIR)$(DATADIR)/
	sed -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCDIR@|$(INCDIR)|g' \
	    lib/mon.specs.in > $(DESTDIR)$(DATADIR)/mon.specs
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(MAN3) $(DESTDIR)$(MANDIR)/man3c/
	for l in $(MLINKS); do \
		ln -sf $${l%%:*} $(DESTDIR)$(MANDIR)/man3c/$${l#*:} || exit 1; \
	done
	install -m 644 $(MAN7) $(DESTDIR)$(MANDIR)/man7/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,$(notdir $(MODULES)))
	rm -f $(DESTDIR)$(BINDIR)/prof $(DESTDIR)$(LIBDIR)/libmon.a \
	    $(DESTDIR)$(INCDIR)/mon.h $(DESTDIR)$(DATADIR)/mon.specs
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/,$(notdir $(CRT_C:.c=.o)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man3c/,$(notdir $(MAN3)))
	for l in $(MLINKS); do rm -f $(DESTDIR)$(MANDIR)/man3c/$${l#*:}; done
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man7/,$(notdir $(MAN7)))
	-rmdir --ignore-fail-on-non-empty $(DESTDIR)$(DATADIR) \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3c \
	    $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(MANDIR) \
	    $(DESTDIR)$(PREFIX)/share $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(INCDIR)

clean:
	rm -f lib/*.o lib/x86_64/*.o crt/*.o prof/*.o prof/*/*.o lib/libmon.a \
	    lib/mon-build.specs prof/prof examples/demo $(MODULES) \
	    examples/mon.out
	rm -f $(TEST_BINS) $(GENERATED)
	rm -rf bench/out
	rm -f .flags

# Test programs, included by the top-level Makefile.  Every helper is built
# here, never at test time.  Naming:
#   tests/*/NAME_test.c	atf-c test program  -> tests/*/NAME_test
#   tests/*/NAME_test.sh	atf-sh test program -> tests/*/NAME_test
#   tests/*/h_NAME.c	helper, compiled with -p (-pg for clang) and linked
#			with libmon.a
#   tests/*/t_NAME.c	plain tool: no -p, no libmon (e.g. a file forger)
#   tests/t_noperf.c	the same, for the whole suite: runs it with
#			perf_event_open refused (.ci/run)
#   tests/*/local.mk	a folder's own extra rules (variants, libraries);
#			it adds its targets to VARIANTS
# Variants of one helper (other compiler, no-pie, -mfentry) are listed
# under VARIANTS with their own rules; files a rule writes on the way
# to them (sources written by a script) under GENERATED, for make clean.

TEST_CFLAGS = $(CPPFLAGS_) -Wall -Wextra -Werror -O1 -g $(SAN) \
	$(if $(findstring clang,$(CC)),-gdwarf-4)
ATF_LIBS    = -latf-c

C_TESTS  = $(patsubst %.c,%,$(wildcard tests/*/*_test.c))
SH_TESTS = $(patsubst %.sh,%,$(wildcard tests/*/*_test.sh))
HELPERS  = $(patsubst %.c,%,$(wildcard tests/*/h_*.c))
TOOLS    = $(patsubst %.c,%,$(wildcard tests/*/t_*.c)) tests/t_noperf
VARIANTS =
GENERATED =

-include $(wildcard tests/*/local.mk)

TEST_BINS = $(C_TESTS) $(SH_TESTS) $(HELPERS) $(TOOLS) $(VARIANTS)

tests: $(TEST_BINS)

# A change of compiler or flags (SANITIZE=1) rebuilds every test binary.
$(TEST_BINS): .flags

tests/%_test: tests/%_test.c lib/libmon.a $(HDRS)
	$(CC) $(TEST_CFLAGS) -o $@ $< lib/libmon.a $(ATF_LIBS) -lpthread

tests/%_test: tests/%_test.sh
	cp $< $@ && chmod +x $@

tests/%: tests/%.c $(HDRS)
	$(CC) $(TEST_CFLAGS) -o $@ $<

$(HELPERS): tests/%: tests/%.c lib/libmon.a $(HDRS)
	$(CC) $(PFLAG) $(TEST_CFLAGS) -fno-inline -o $@ $< lib/libmon.a -lpthread

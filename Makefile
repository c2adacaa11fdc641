# perfbot — plain GNU Makefile.
#
#   make            build ./perfbot
#   make check      what a developer runs: one build, the unit tests (cmocka)
#                   and the end-to-end shell tests, CHECK_JOBS at a time in
#                   one pool (make check-unit, check-e2e: either alone)
#   make check-full what CI runs (.ci/run): check with every package and the
#                   conformance data required, the mutants' and the fuzzers'
#                   smoke tests, then unit and e2e again under ASan+UBSan
#   make demo       install missing packages (as root), build, run the demo
#   make demo-kernel  the same for a kernel bisect in QEMU (scripts/demo-kernel.sh)
#   make demo-seed    seed 001's story: watch a kernel branch, mail the regression (scripts/demo-seed.sh)
#   make demo-watch   perfbot watch finds, bisects and reports a regression (scripts/demo-watch.sh)
#   make coverage   line and branch coverage per folder (gcov + lcov)
#   make mutate     the mutation test: tests/mutants.txt, score per layer
#   make fuzz       the libFuzzer targets of tests/fuzz, FUZZ_SECONDS each
#
# Sources are found by wildcard: adding src/<layer>/foo.c or
# tests/unit/test_foo.c needs no edit here.  BUILD selects the object
# directory so that a sanitizer build and a normal one never share objects.

CC      ?= cc
BUILD   ?= build
PKGS     = libfyaml json-c zlib sqlite3 libpq
WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -Isrc $(shell pkg-config --cflags $(PKGS))
# not -lpq: src/pg/libpq.c loads it on first use (its 24 libraries cost
# every command ~30 ms at start); -ldl for glibc before 2.34
LIBS     = $(shell pkg-config --libs $(filter-out libpq,$(PKGS))) -ldl -lm -lpthread
SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

SRCS     = $(sort $(shell find src -name '*.c'))
LIB_SRCS = $(filter-out src/perfbot.c,$(SRCS))
# files generated from src/ at build time (never committed)
GEN_OBJS = $(BUILD)/gen/kernel/tiny_config.o $(BUILD)/gen/kernel/small_config.o \
	$(BUILD)/gen/pg/migrations.o $(BUILD)/gen/store/sqlite_migrations.o \
	$(BUILD)/gen/store/pg_migrations.o
OBJS     = $(LIB_SRCS:%.c=$(BUILD)/%.o) $(GEN_OBJS)
TEST_SRCS= $(sort $(wildcard tests/unit/test_*.c))
TESTS    = $(TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

PERFBOT  = $(if $(filter build,$(BUILD)),perfbot,$(BUILD)/perfbot)

.PHONY: all check check-full check-unit check-e2e check-asan demo demo-kernel demo-seed demo-watch clean deps bench
.PHONY: unit-tests coverage mutate check-mutants

all: $(PERFBOT)

# Each object depends on the headers it includes, as the compiler lists
# them (-MMD into a .d beside it; -MP keeps a removed header from breaking
# the build): touching one header rebuilds its users, not every object.
# The Makefile too, for its flags: a build dir from before the .d files
# is then rebuilt once, whole.
DEPFLAGS = -MMD -MP
$(BUILD)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# perfbot embeds its kernel config fragments, tiny and small
# (src/kernel/kconfig.h): src/kernel/NAME.config becomes kernel_NAME_config
$(BUILD)/gen/kernel/%_config.c: src/kernel/%.config
	@mkdir -p $(dir $@)
	{ echo '/* generated from $< by the Makefile */'; \
	  echo 'extern const char kernel_$*_config[];'; \
	  echo 'const char kernel_$*_config[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/.*/"&\\n"/' $<; echo ';'; } >$@.tmp && mv $@.tmp $@
# the lab schema's migrations (src/pg/migrations.h): each NNN-name.sql
# becomes { "<what>", "<sql>" } of lab_migrations, in the order of NNN;
# its first line, "-- <what>", names it; its other lines that are blank
# or comments ("--" after blanks) are left out
MIGRATIONS = $(sort $(wildcard src/pg/migrations/*.sql))
$(BUILD)/gen/pg/migrations.c: $(MIGRATIONS) Makefile
	@mkdir -p $(dir $@)
	{ echo '/* generated from src/pg/migrations/ by the Makefile */'; \
	  echo '#include "pg/migrations.h"'; \
	  echo 'const struct lab_migration lab_migrations[] = {'; \
	  for f in $(MIGRATIONS); do \
	    sed -e '1!{/^[[:space:]]*\(--.*\)\{0,1\}$$/d;}' -e 's/\\/\\\\/g' -e 's/"/\\"/g' \
	        -e '1{s/^-- \(.*\)/{ "\1",/;b;}' -e 's/.*/"&\\n"/' $$f && echo '},' || exit 1; \
	  done; \
	  echo '};'; \
	  echo 'const int lab_nr_migrations = (int)(sizeof(lab_migrations) / sizeof(lab_migrations[0]));'; \
	} >$@.tmp && mv $@.tmp $@
$(BUILD)/gen/pg/migrations.o: src/pg/migrations.h
# a store's schema (src/store/<backend>_migrations.h): each
# src/store/<backend>/NNN-name.sql becomes { NNN, "<sql>" } of
# store_<backend>_migrations, by the same rules as the lab's, its
# "-- <what>" line a C comment.
# $(call store_migrations,BACKEND,NR_MACRO,FILES)
define store_migrations
	@mkdir -p $(dir $@)
	{ echo '/* generated from src/store/$(1)/ by the Makefile */'; \
	  echo '#include "store/$(1)_migrations.h"'; \
	  echo 'const struct store_migration store_$(1)_migrations[] = {'; \
	  for f in $(3); do \
	    n=$$(basename $$f | sed 's/-.*//; s/^0*//'); \
	    sed -e '1!{/^[[:space:]]*\(--.*\)\{0,1\}$$/d;}' -e 's/\\/\\\\/g' -e 's/"/\\"/g' \
	        -e "1{s|^-- \(.*\)|{ $$n, /* \1 */|;b;}" -e 's/.*/"&\\n"/' $$f && echo '},' || exit 1; \
	  done; \
	  echo '};'; \
	  echo '_Static_assert(sizeof(store_$(1)_migrations) / sizeof(store_$(1)_migrations[0]) =='; \
	  echo '	       $(2), "src/store/$(1)/ has not $(2) files");'; \
	} >$@.tmp && mv $@.tmp $@
endef
STORE_MIGRATIONS = $(sort $(wildcard src/store/sqlite/*.sql))
$(BUILD)/gen/store/sqlite_migrations.c: $(STORE_MIGRATIONS) Makefile
	$(call store_migrations,sqlite,STORE_SQLITE_NR_MIGRATIONS,$(STORE_MIGRATIONS))
STORE_PG_MIGRATIONS = $(sort $(wildcard src/store/pg/*.sql))
$(BUILD)/gen/store/pg_migrations.c: $(STORE_PG_MIGRATIONS) Makefile
	$(call store_migrations,pg,STORE_PG_NR_MIGRATIONS,$(STORE_PG_MIGRATIONS))
$(BUILD)/gen/store/pg_migrations.o: src/store/pg_migrations.h src/store/backend.h
$(BUILD)/gen/store/sqlite_migrations.o: src/store/sqlite_migrations.h src/store/backend.h
# kept: they are what the objects were compiled from
.SECONDARY: $(GEN_OBJS:%.o=%.c)
$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/libperfbot.a: $(OBJS)
	@rm -f $@
	ar rcs $@ $^

$(PERFBOT): $(BUILD)/src/perfbot.o $(BUILD)/libperfbot.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS)

# (a program's header list goes into .deps/ beside it, out of the globs
# that run what is in the folder)
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libperfbot.a Makefile
	@mkdir -p $(dir $@).deps
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -MF $(dir $@).deps/$*.d -MT $@ -Itests/unit -o $@ $< $(BUILD)/libperfbot.a $(LIBS) $(shell pkg-config --libs cmocka) $(TEST_LIBS_$*)

# GSL is used only by tests, to check our own statistics.
TEST_LIBS_test_stat_tests = $(shell pkg-config --libs gsl 2>/dev/null)
TEST_LIBS_test_summary = $(shell pkg-config --libs gsl 2>/dev/null)
TEST_LIBS_test_bisect_trend = $(shell pkg-config --libs gsl 2>/dev/null)

unit-tests: $(TESTS)

check-unit: $(TESTS) $(PERFBOT)
	@sh tests/run-unit.sh -j $(CHECK_JOBS) $(TESTS)

# e2e scripts side by side (tests/run-e2e.sh -j): most of their time is
# spent waiting on children, so twice the CPUs keeps the CPUs busy
CHECK_JOBS ?= $(shell echo $$(( $$(nproc) * 2 )))
check-e2e: $(PERFBOT)
	@PERFBOT=$(abspath $(PERFBOT)) sh tests/run-e2e.sh -j $(CHECK_JOBS)

# What check-full's packages (scripts/deps.sh test) install and the tests
# use, and the conformance data (../shared/conformance): named in
# PERFBOT_REQUIRE, a test that would skip for want of one fails instead
# (tests/t/lib.sh, test_have; tests/unit/test_helpers.h), so that CI
# never loses a check silently.  make check alone still skips.
CHECK_REQUIRE = chromium hackbench stress-ng fio perf qemu-system-x86_64 busybox vmlinuz valgrind \
	postgresql netns conformance

# no cycle and no include upward between src/'s directories (doc/design/layers.md)
.PHONY: check-layers check-full check-tests
check-layers: ; @sh scripts/layers.sh -q
# The packages (scripts/deps.sh), one build (in parallel unless make was
# given -j), then the tests.
check: deps check-layers
	$(MAKE) $(if $(filter -j%,$(MAKEFLAGS)),,-j$(CHECK_JOBS)) all unit-tests bench-progs
	$(MAKE) check-tests

# check-unit and check-e2e at once: the unit binaries and the e2e scripts
# in one pool of CHECK_JOBS (tests/run-e2e.sh --unit), so that neither
# leaves the CPUs idle while the other waits
check-tests: $(TESTS) $(PERFBOT)
	@PERFBOT=$(abspath $(PERFBOT)) sh tests/run-e2e.sh -j $(CHECK_JOBS) --unit "$(TESTS)"

check-full: deps
	PERFBOT_REQUIRE="$(CHECK_REQUIRE)" $(MAKE) check
	$(MAKE) check-mutants
	$(MAKE) check-fuzz
	PERFBOT_REQUIRE="$(CHECK_REQUIRE)" $(MAKE) BUILD=build-asan CFLAGS="-O1 -g $(SAN)" check-asan

check-asan: $(TESTS) $(PERFBOT)
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 sh tests/run-unit.sh -j $(CHECK_JOBS) $(TESTS)
	@ASAN_OPTIONS=detect_leaks=1 PERFBOT=$(abspath $(PERFBOT)) sh tests/run-e2e.sh -j $(CHECK_JOBS)

deps:
	@sh scripts/deps.sh check

demo:
	@sh scripts/deps.sh install
	$(MAKE) all
	@sh scripts/demo.sh

# perfbot watch on a tagged history: the regression between v1.1 and v1.2
demo-watch:
	@sh scripts/deps.sh install
	$(MAKE) all
	@sh scripts/demo-watch.sh

# a kernel regression bisected by building and booting each commit in QEMU
demo-kernel:
	@sh scripts/deps.sh kernel
	$(MAKE) all
	@sh scripts/demo-kernel.sh

# seed 001 on kernels: perfbot watch --kernel-tree finds, bisects and mails
# a reclaim regression planted in Debian's linux-source-6.1
demo-seed:
	@sh scripts/deps.sh kernel
	$(MAKE) all
	@sh scripts/demo-seed.sh

# Coverage and mutation testing (README.md, "Testing"): slow, not part
# of check; each builds in a directory of its own.
coverage:
	@sh scripts/deps.sh coverage
	@sh scripts/coverage.sh

mutate:
	@python3 scripts/mutate.py

# check-full's smoke test of the mutation test: the few mutants marked
# `smoke: yes`, each killed by its own quick tests, in well under a minute
check-mutants: $(TESTS) $(PERFBOT)
	@python3 scripts/mutate.py --smoke

bench: $(PERFBOT)
	@sh bench/compare.sh

# Man pages, made from Documentation/ (scripts/gen-man.sh), and bash
# completion; `make install PREFIX=/usr DESTDIR=pkg` for packages.
PREFIX  ?= /usr/local
MANDIR   = $(PREFIX)/share/man/man1
COMPDIR  = $(PREFIX)/share/bash-completion/completions
.PHONY: man install
# the manual pages, from Documentation/*.txt (tests/t/t0055-man.sh checks
# them against each command's --help)
man: $(BUILD)/man/perfbot.1
$(BUILD)/man/perfbot.1: $(PERFBOT) scripts/gen-man.sh $(wildcard Documentation/*.txt)
	sh scripts/gen-man.sh ./$(PERFBOT) $(BUILD)/man
install: $(PERFBOT) $(BUILD)/man/perfbot.1
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPDIR)
	install -m 755 $(PERFBOT) $(DESTDIR)$(PREFIX)/bin/perfbot
	install -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)
	install -m 644 scripts/perfbot-completion.bash $(DESTDIR)$(COMPDIR)/perfbot

clean:
	rm -rf build build-asan build-cov build-fuzz perfbot tests/out

# The bisection strategies measured on simulated histories (bench/bisect-sim.sh).
.PHONY: bisect-sim
bisect-sim: $(BUILD)/bench/bisect-sim
$(BUILD)/bench/bisect-sim: bench/bisect-sim.c $(BUILD)/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libperfbot.a $(LIBS)

# util/rx against glibc's regexec on long digit runs (bench/rx.sh)
$(BUILD)/bench/rx: bench/rx.c $(BUILD)/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libperfbot.a $(LIBS)

# what touching memory costs after an idle second (bench/monitors.sh)
$(BUILD)/bench/page-touch: bench/page-touch.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $<

# developer entry point to the monitor sampler (bench/monitors.sh)
$(BUILD)/bench/monitor-sampler: bench/monitor-sampler.c $(BUILD)/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libperfbot.a $(LIBS)

# Built-in benchmarks (workloads/<name>/, standalone C programs) and
# bench-harness, which runs Debian's benchmarks for src/runner/ (it links
# libperfbot.a for the runners' output adapters).  They go to
# $(BUILD)/bin, where src/runner/runner.c looks for them; the tests run
# them, hence the extra prerequisites of the check targets.
BENCH_BINS = $(BUILD)/bin/vm-scalability $(BUILD)/bin/will-it-scale $(BUILD)/bin/aim7 \
	$(BUILD)/bin/ebizzy $(BUILD)/bin/bench-harness
all: $(BENCH_BINS)
check-unit check-e2e check-tests check-asan: $(BENCH_BINS)
$(BUILD)/bin/vm-scalability: workloads/vm-scalability/vm-scalability.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lpthread
WIS_SRCS = $(wildcard workloads/will-it-scale/*.c)
$(BUILD)/bin/will-it-scale: $(WIS_SRCS) workloads/will-it-scale/wis.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $(WIS_SRCS) -lpthread
$(BUILD)/bin/ebizzy: workloads/ebizzy/ebizzy.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lpthread
$(BUILD)/bin/aim7: workloads/aim7/aim7.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lm
$(BUILD)/bin/bench-harness: workloads/harness/bench-harness.c $(BUILD)/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libperfbot.a $(LIBS)

# false alarms and power of the change rules on generated matrices (bench/aa.sh)
$(BUILD)/bench/aa: bench/aa.c $(BUILD)/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libperfbot.a $(LIBS)

# Change-point detection measured on synthetic histories (bench/detect-sim.sh).
$(BUILD)/bench/detect-sim: bench/detect-sim.c $(BUILD)/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libperfbot.a $(LIBS)

# Static programs for the initramfs of a kernel under test (src/kernel/
# initramfs.h looks for them in $(BUILD)/static).  Never sanitized: the
# guest has no ASan runtime, so BUILD=build-asan gets copies of
# build/static's, made with the default flags.
STATIC_BINS = $(BUILD)/static/perfbot $(BUILD)/static/will-it-scale \
	$(BUILD)/static/vm-scalability $(BUILD)/static/aim7 $(BUILD)/static/ebizzy \
	$(BUILD)/static/bench-harness
# Without lab mode (PERFBOT_NO_LAB: no src/lab, no src/pg, no PostgreSQL store): a
# test kernel's initramfs has no lab database to talk to, and Debian's
# libpq has no static build (no libpgcommon.a, no static Kerberos).
STATIC_PKGS = $(filter-out libpq,$(PKGS))
STATIC_LIBS = $(shell pkg-config --static --libs $(STATIC_PKGS)) -lm -lpthread
STATIC_SRCS = $(filter-out src/lab/% src/pg/% src/store/store_pg.c,$(LIB_SRCS))
.PHONY: static
static: $(STATIC_BINS)
all: static
check-unit check-e2e check-tests check-asan: static
ifeq ($(BUILD),build)
# Most files read nothing of PERFBOT_NO_LAB: where neither the file nor
# a header it includes (its .d from build/ lists them) names it, the
# object is build/'s, copied, not compiled a second time (a quarter of
# the static build's CPU).
build/static-obj/%.o: %.c Makefile build/%.o
	@mkdir -p $(dir $@)
	@if tr ' \\' '\n\n' <build/$*.d | grep -E '\.[ch]$$' | sort -u | \
		xargs grep -l PERFBOT_NO_LAB | grep -q .; then \
		$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -DPERFBOT_NO_LAB -c -o $@ $<; \
	else cp build/$*.o $@ && sed 's|^build/|build/static-obj/|' build/$*.d >$(@:.o=.d); fi
build/static-obj/libperfbot.a: $(STATIC_SRCS:%.c=build/static-obj/%.o) $(filter-out $(BUILD)/gen/pg/%,$(GEN_OBJS))
	@rm -f $@
	ar rcs $@ $^
build/static/perfbot: build/static-obj/src/perfbot.o build/static-obj/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -static -o $@ $^ $(STATIC_LIBS)
build/static/bench-harness: workloads/harness/bench-harness.c build/static-obj/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -static -o $@ $< build/static-obj/libperfbot.a $(STATIC_LIBS)
build/static/will-it-scale: $(WIS_SRCS) workloads/will-it-scale/wis.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -static -o $@ $(WIS_SRCS) -lpthread
build/static/vm-scalability: workloads/vm-scalability/vm-scalability.c
build/static/ebizzy: workloads/ebizzy/ebizzy.c
build/static/vm-scalability build/static/ebizzy:
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -static -o $@ $< -lpthread
build/static/aim7: workloads/aim7/aim7.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -static -o $@ $< -lm
else
.PHONY: static-from-build
static-from-build:
	$(MAKE) BUILD=build CFLAGS="-O2 -g" static
$(STATIC_BINS): static-from-build
	@mkdir -p $(dir $@)
	cp build/static/$(notdir $@) $@
endif
# what the shared-tree rules (O_EXCL temps, fresh run dirs) cost (bench/shared-tree.sh)
$(BUILD)/bench/shared-tree: bench/shared-tree.c $(BUILD)/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libperfbot.a $(LIBS)
# the lab queue's claim/complete throughput and upload time (bench/queue.sh)
$(BUILD)/bench/queue-bench: bench/queue-bench.c $(BUILD)/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libperfbot.a $(LIBS)

# Fuzzing (tests/fuzz/, doc/design/fuzzing.md): libFuzzer targets, built
# with Debian's clang and ASan+UBSan into build-fuzz, run one after the
# other for FUZZ_SECONDS each by scripts/fuzz.sh; check-full runs each briefly.
# clang's -Wstring-concatenation and -Wstring-plus-int flag idioms gcc
# accepts (a long regexp split over lines, a string literal's tail).
FUZZ_CFLAGS = -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -Wno-string-concatenation -Wno-string-plus-int
FUZZ_BINS = $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 60
# check-full: the same 1,000 inputs a target everywhere (a fixed seed),
# at most 30 s each
CHECK_FUZZ_RUNS = 1000
CHECK_FUZZ_SECONDS = 30
.PHONY: fuzz fuzz-build fuzz-bins check-fuzz
fuzz-build:
	@sh scripts/deps.sh fuzz
	$(MAKE) BUILD=build-fuzz CC=clang CFLAGS="$(FUZZ_CFLAGS)" fuzz-bins
fuzz-bins: $(FUZZ_BINS)
$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/libperfbot.a Makefile
	@mkdir -p $(dir $@).deps
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -MF $(dir $@).deps/$*.d -MT $@ -fsanitize=fuzzer -Itests/fuzz -o $@ $< $(BUILD)/libperfbot.a $(LIBS)
fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) sh scripts/fuzz.sh
check-fuzz: fuzz-build
	@FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS) FUZZ_RUNS=$(CHECK_FUZZ_RUNS) sh scripts/fuzz.sh

# the header lists the compiler wrote (none before the first build)
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# the bench/ programs, built by make check so that a moved header cannot
# leave the figures of doc/design without the program that makes them
BENCH_PROGS = $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))
.PHONY: bench-progs
bench-progs: $(BENCH_PROGS)

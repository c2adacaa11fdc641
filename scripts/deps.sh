#!/bin/sh
# Debian packages perfbot needs: the one list, used by make and .ci/run.
#
#   deps.sh check    what `make check-full` needs: build + test packages
#   deps.sh install  what `make demo` needs: build + demo packages
#   deps.sh kernel   what `make demo-kernel` needs (kernel sources, QEMU)
#   deps.sh coverage what `make coverage` needs (gcov comes with gcc)
#   deps.sh fuzz     what `make fuzz` needs (check-full includes it: its smoke run)
#   deps.sh lkp      what bench/lkp-ratio.sh needs to run lkp-tests' Ruby
#   deps.sh list GROUP...   print the packages of GROUPs (build test demo kernel coverage fuzz lkp)
#
# As root, missing packages are installed (so a second run is instant);
# anyone else gets the exact apt-get line and exit 1.  A test whose
# package is missing anyway skips with the reason.
set -e

# Compile and link perfbot and its unit tests.
BUILD_PKGS="gcc make pkg-config libfyaml-dev libjson-c-dev zlib1g-dev
	libsqlite3-dev libpq-dev libcmocka-dev libgsl-dev git"
# What the end-to-end tests exercise: the HTML report in a browser,
# filesystems on loop devices, the Debian benchmarks, perf, a kernel
# under test (Debian's packaged kernel booted in QEMU; CI builds none),
# a throwaway PostgreSQL server for lab mode (tests/pg.sh) and network
# namespaces; man renders the pages make install puts in place; valgrind
# counts instructions (`measure: instructions`).
TEST_PKGS="python3 chromium e2fsprogs xfsprogs btrfs-progs kmod mount
	procps linux-perf ca-certificates rt-tests stress-ng fio valgrind
	qemu-system-x86 busybox-static linux-image-amd64
	postgresql-15 iproute2 man-db"
# make demo: bisect with monitors and perf-profile.
DEMO_PKGS="linux-perf procps"
# make demo-kernel: build and boot a kernel under test.
KERNEL_PKGS="qemu-system-x86 busybox-static linux-source-6.1 build-essential
	bc flex bison libelf-dev libssl-dev cpio xz-utils"

# make fuzz: libFuzzer with ASan+UBSan (tests/fuzz/); clang-14 leaves
# the fuzzer runtime to libclang-rt-14-dev, a Recommends only.
FUZZ_PKGS="clang libclang-rt-14-dev"

# bench/lkp-ratio.sh: lkp-tests' own Ruby (unite-stats, ncompare's
# engine) to time against; no make target installs it: deps.sh lkp.
LKP_PKGS="ruby ruby-activesupport ruby-git ruby-tty-command"

# make coverage: lcov and genhtml over gcc's gcov counts.
COVERAGE_PKGS="lcov"

pkgs() {
	for g in "$@"; do
		case $g in
		build) echo $BUILD_PKGS ;;
		test) echo $TEST_PKGS ;;
		demo) echo $DEMO_PKGS ;;
		kernel) echo $KERNEL_PKGS ;;
		coverage) echo $COVERAGE_PKGS ;;
		fuzz) echo $FUZZ_PKGS ;;
		lkp) echo $LKP_PKGS ;;
		*) echo "deps.sh: unknown group '$g'" >&2; exit 2 ;;
		esac
	done
}

case ${1:-} in
check) want=$(pkgs build test fuzz) ;;
install) want=$(pkgs build demo) ;;
kernel) want=$(pkgs build demo kernel) ;;
coverage) want=$(pkgs build test coverage) ;;
fuzz) want=$(pkgs build fuzz) ;;
lkp) want=$(pkgs lkp) ;;
list) shift; pkgs "$@"; exit 0 ;;
*) echo "usage: deps.sh check|install|kernel|coverage|fuzz|lkp|list GROUP..." >&2; exit 2 ;;
esac

missing=""
for p in $want; do
	case " $missing " in *" $p "*) continue ;; esac
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
	echo "perfbot: installing missing packages:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
	echo "perfbot: missing packages:$missing" >&2
	echo "run: sudo apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi

#!/bin/sh
# build.sh - the one entry point for building, testing and benchmarking
# gemmkit from a fresh clone. It needs only a POSIX shell: on Debian or
# Ubuntu, run as root, it installs the packages it needs when they are
# missing (apt-get); as another user it says which ones to install.
#
#   ./build.sh bench [gemmkit bench options]   build, then run `gemmkit bench`
#   ./build.sh test                            build, then run the test suite
#   ./build.sh sanitize                        build and test under ASan + UBSan
#   ./build.sh build                           build only (into ./build)
#   ./build.sh install [PREFIX]                build, then install (default /usr/local)
#   ./build.sh deps                            install the packages only
#
# Environment: BUILD_DIR (default build), JOBS (default: number of CPUs),
# CMAKE_FLAGS (extra cmake arguments), GK_SKIP_DEPS=1 (do not install anything).
set -eu

cd "$(dirname "$0")"
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
CMAKE_FLAGS=${CMAKE_FLAGS:-}

# Needed to build and test.
REQUIRED="cmake make gcc libc6-dev pkg-config"
# References for the benchmarks and cross-checks: each is skipped, with a
# message, when it cannot be had.
OPTIONAL="libopenblas-dev libblis-dev libisal-dev gnuplot-nox libblas-test"

missing() {
	for p in "$@"; do
		have_tool "$p" && continue
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || printf '%s ' "$p"
	done
}

# A required tool that is there without its Debian package (cmake from pip
# or a tarball, a compiler in /opt) counts as present.
have_tool() {
	case "$1" in
	cmake | make | gcc | pkg-config) command -v "$1" >/dev/null 2>&1 ;;
	libc6-dev) [ -e /usr/include/stdio.h ] ;;
	*) return 1 ;;
	esac
}

deps() {
	[ "${GK_SKIP_DEPS:-0}" = 1 ] && return 0
	if ! command -v dpkg-query >/dev/null 2>&1; then
		echo "build.sh: not a Debian-based system: install cmake, make, a C compiler with OpenMP," >&2
		echo "          and optionally OpenBLAS, BLIS, ISA-L and gnuplot yourself." >&2
		return 0
	fi
	req=$(missing $REQUIRED)
	opt=$(missing $OPTIONAL)
	[ -z "$req$opt" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		if [ -n "$req" ]; then
			echo "build.sh: missing packages: $req" >&2
			echo "          run as root: apt-get install $req" >&2
			exit 1
		fi
		echo "build.sh: optional packages missing (their references will be skipped): $opt" >&2
		return 0
	fi
	echo "build.sh: installing: $req$opt" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || echo "build.sh: apt-get update failed; trying with the lists at hand" >&2
	if [ -n "$req" ] && ! apt-get install -y -qq --no-install-recommends $req >/dev/null; then
		echo "build.sh: could not install the required packages: $req" >&2
		exit 1
	fi
	for p in $opt; do
		if ! apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1; then
			echo "build.sh: optional package $p could not be installed: it is skipped" >&2
		fi
	done
}

configure_and_build() {
	dir=$1; shift
	cmake -S . -B "$dir" "$@" $CMAKE_FLAGS
	cmake --build "$dir" -j "$JOBS"
}

cmd=${1:-test}
[ $# -gt 0 ] && shift
case "$cmd" in
deps)
	deps ;;
build)
	deps
	configure_and_build "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release ;;
test)
	deps
	configure_and_build "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
	ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" ;;
sanitize)
	deps
	configure_and_build build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGK_SANITIZE=ON -DGK_WITH_CUDA=OFF
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
		ctest --test-dir build-sanitize --output-on-failure -j "$JOBS" ;;
bench)
	deps
	configure_and_build "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
	exec "$BUILD_DIR/gemmkit" bench "$@" ;;
install)
	deps
	configure_and_build "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
	cmake --install "$BUILD_DIR" --prefix "${1:-/usr/local}" ;;
-h|--help|help)
	sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' ;;
*)
	echo "build.sh: unknown command '$cmd' (bench, test, sanitize, build, install, deps, help)" >&2
	exit 2 ;;
esac

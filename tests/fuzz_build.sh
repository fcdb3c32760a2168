#!/usr/bin/env bash
# fuzz_build.sh - build the shard header fuzzer with clang (libFuzzer +
# AddressSanitizer + UndefinedBehaviorSanitizer) and run it for a while.
#
# usage: tests/fuzz_build.sh [SECONDS] [BUILD_DIR]     (defaults: 30, build-fuzz)
# Run from anywhere; paths are relative to the repository root. Exits 0 when
# the fuzzer ran clean, 1 when it found a crash (the reproducer is left in
# BUILD_DIR), and 0 with a message when no libFuzzer-capable clang is found.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_TO_RUN=${1:-30}
OUT=${2:-$ROOT/build-fuzz}
mkdir -p "$OUT"

CC=${FUZZ_CC:-}
if [ -z "$CC" ]; then
	for c in clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
		if command -v "$c" >/dev/null 2>&1; then CC=$c; break; fi
	done
fi
if [ -z "$CC" ]; then
	echo "fuzz_build: no clang found: fuzzer skipped"
	exit 0
fi

probe() {
	echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' \
		> "$OUT/probe.c"
	"$CC" -fsanitize=fuzzer,address,undefined "$OUT/probe.c" -o "$OUT/probe" >/dev/null 2>&1
}
if ! probe; then
	# Debian ships libFuzzer's runtime separately from clang.
	ver=$("$CC" --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 && [ -n "$ver" ]; then
		echo "fuzz_build: installing libclang-rt-$ver-dev for libFuzzer"
		apt-get install -y "libclang-rt-$ver-dev" >/dev/null 2>&1 ||
			{ apt-get update >/dev/null 2>&1 && apt-get install -y "libclang-rt-$ver-dev" >/dev/null 2>&1; } || true
	fi
	if ! probe; then
		echo "fuzz_build: $CC cannot link -fsanitize=fuzzer (libFuzzer runtime missing): fuzzer skipped"
		exit 0
	fi
fi

"$CC" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I "$ROOT/include" -I "$ROOT/tools/gemmkit" \
	"$ROOT/tests/fuzz_shard_header.c" "$ROOT/tools/gemmkit/shard_format.c" \
	-o "$OUT/fuzz_shard_header"
echo "fuzz_build: built $OUT/fuzz_shard_header with $CC; running ${SECONDS_TO_RUN}s"
mkdir -p "$OUT/fuzz_corpus"
cd "$OUT"
./fuzz_shard_header -max_total_time="$SECONDS_TO_RUN" -max_len=512 -print_final_stats=1 \
	fuzz_corpus 2>&1 | tail -n 15
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 0 ]; then
	echo "fuzz_build: the fuzzer found a problem (exit $rc); reproducer: $OUT/crash-*"
	exit 1
fi
echo "fuzz_build: clean"

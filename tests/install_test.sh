#!/usr/bin/env bash
# install_test.sh SRC BUILD WORK CC - install gemmkit into WORK/prefix, then
# build and run examples/hello_gemm.c against it three ways.
set -euo pipefail
src=$1 build=$2 work=$3 cc=$4
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log"

for f in include/gemmkit.h include/gemmkit_cblas.h include/gemmkit_gf256.h include/gemmkit_hxv.h bin/gemmkit; do
	[ -f "$prefix/$f" ] || fail "$f was not installed"
done
pcdir=$(dirname "$(find "$prefix" -name gemmkit.pc | head -n1)")
[ -f "$pcdir/gemmkit.pc" ] || fail "gemmkit.pc was not installed"
libdir=$(dirname "$pcdir")
for f in libgemmkit.so libgemmkit.a cmake/gemmkit/gemmkitConfig.cmake cmake/gemmkit/gemmkitConfigVersion.cmake; do
	[ -e "$libdir/$f" ] || fail "$f was not installed in $libdir"
done

expected=$'58 64\n139 154'
check_run() { # name, program
	out=$("$2") || fail "$1: the example exited with $?"
	[ "$out" = "$expected" ] || fail "$1: the example printed '$out'"
	echo "ok: $1"
}

# The README shows the example verbatim.
example=$(cat "$src/examples/hello_gemm.c")
readme=$(cat "$src/README.md")
[[ "$readme" == *"$example"* ]] || fail "README.md does not contain examples/hello_gemm.c verbatim"
echo "ok: README shows examples/hello_gemm.c"

# pkg-config, shared library.
export PKG_CONFIG_PATH=$pcdir
# shellcheck disable=SC2046
"$cc" "$src/examples/hello_gemm.c" -o "$work/hello_shared" $(pkg-config --cflags --libs gemmkit)
LD_LIBRARY_PATH=$libdir check_run "pkg-config (shared)" "$work/hello_shared"

# pkg-config, static library.
# shellcheck disable=SC2046
"$cc" "$src/examples/hello_gemm.c" -o "$work/hello_static" $(pkg-config --cflags gemmkit) \
	$(pkg-config --static --libs gemmkit | sed "s|-lgemmkit|$libdir/libgemmkit.a|")
check_run "static library" "$work/hello_static"

# CMake: find_package(gemmkit).
cmake -S "$src/examples/cmake_consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_C_COMPILER="$cc" >"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "find_package(gemmkit) failed"; }
cmake --build "$work/consumer" >>"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "the CMake consumer did not build"; }
LD_LIBRARY_PATH=$libdir check_run "find_package(gemmkit)" "$work/consumer/hello_gemm"

# The installed CLI finds its library through its RPATH.
"$prefix/bin/gemmkit" --version >/dev/null || fail "the installed gemmkit does not run"
echo "ok: installed gemmkit runs"
echo "install_and_link: 5 passed, 0 failed"

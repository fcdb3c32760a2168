#!/bin/sh
# run.sh - the reference BLAS level-3 test programs of netlib (Debian's
# libblas-test: xblat3s, xblat3d for the Fortran 77 interface, xscblat3,
# xdcblat3 for CBLAS) run against libgemmkit's sgemm_, dgemm_, cblas_sgemm
# and cblas_dgemm: computational tests and error exits, both layouts for
# CBLAS. Only the GEMM rows run: the input files are the package's, with
# every other routine set to F.
#
# The programs are linked against the reference libblas.so.3, which
# provides what gemmkit does not (the other level-3 routines, lsame, and
# the CBLAS test programs' RowMajorStrg); libgemmkit.so is preloaded so that
# its GEMM symbols come first. The programs define xerbla_ and cblas_xerbla
# themselves, which replace gemmkit's. The dynamic linker's log of its
# bindings must show each GEMM symbol bound to libgemmkit, so that a GEMM
# from elsewhere cannot pass for gemmkit's.
#
# Usage: run.sh LIBGEMMKIT [SANITIZE] [CC]; the programs are looked for in
# $GK_BLAS_TEST_DIR, then in /usr/lib/<multiarch>/blas (where Debian puts them).
#   SANITIZE: ON when the library is built with ASan/UBSan; the ASan runtime
#   (found through CC) is then preloaded first, as it must be.
# Exit status: 0 pass, 1 fail, 77 skipped (the programs are not installed).
set -u

lib=$1
sanitize=${2:-OFF}
cc=${3:-cc}

dir=
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch 2>/dev/null || true)
for d in ${GK_BLAS_TEST_DIR:-} ${arch:+/usr/lib/$arch/blas} /usr/lib/blas /usr/lib64/blas; do
	if [ -x "$d/xblat3s" ] && [ -x "$d/xscblat3" ]; then
		dir=$d
		break
	fi
done
if [ -z "$dir" ]; then
	echo "blas_reference: netlib's BLAS test programs not found: skipped" \
	     "(on Debian and Ubuntu: apt-get install libblas-test)"
	exit 77
fi
if [ ! -f "$lib" ]; then
	echo "blas_reference: $lib not found" >&2
	exit 1
fi

preload=$lib
if [ "$sanitize" = ON ]; then
	asan=$("$cc" -print-file-name=libasan.so)
	case $asan in
	/*) preload="$asan $lib" ;;
	*)
		echo "blas_reference: the ASan runtime of $cc not found: skipped"
		exit 77 ;;
	esac
	# The programs' own allocations are not gemmkit's to answer for.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export ASAN_OPTIONS
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/gk_blas_reference.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

status=0
fail() {
	echo "blas_reference: FAIL: $*"
	status=1
}

# The package's input file with only GEMM set to T.
input() {
	sed -E -e 's/^([SD][A-Z0-9]+|cblas_[sd][a-z0-9]+)( +)T /\1\2F /' \
	       -e 's/^(SGEMM|DGEMM|cblas_sgemm|cblas_dgemm)( +)F /\1\2T /' "$dir/$1" > "$2"
	on=$(grep -Ec '^[A-Za-z_][A-Za-z_0-9]* +T( |$)' "$2")
	if [ "$on" != 1 ] || ! grep -Eq '^(SGEMM|DGEMM|cblas_sgemm|cblas_dgemm) +T ' "$2"; then
		fail "$dir/$1: no GEMM row, or rows other than GEMM left on"
		return 1
	fi
}

# run PROGRAM INPUT OUTPUT SYMBOL: the program with libgemmkit preloaded,
# its summary in OUTPUT; SYMBOL must be bound to libgemmkit.
run() {
	prog=$1; in=$2; out=$3; sym=$4
	rm -f ld.*
	LD_PRELOAD=$preload LD_DEBUG=bindings LD_DEBUG_OUTPUT=$work/ld \
		"$dir/$prog" < "$in" > "$prog.stdout" 2> "$prog.stderr"
	rc=$?
	[ -f "$out" ] || out=$prog.stdout
	echo "--- $prog ($dir/$prog < $in, libgemmkit preloaded)"
	grep -v '^ *$' "$out" | grep -E 'GEMM|gemm|\*\*|FAIL|END OF TESTS'
	[ "$out" = "$prog.stdout" ] || grep -E '\*\*|FAIL' "$prog.stdout"
	grep -v '^ *$' "$prog.stderr"
	[ $rc = 0 ] || fail "$prog exited with status $rc"
	if ! cat ld.* 2>/dev/null | grep -Eq "to [^ ]*libgemmkit[^ ]* \[[0-9]+\]: normal symbol \`$sym'"; then
		fail "$prog: $sym was not bound to libgemmkit"
	fi
	if cat ld.* 2>/dev/null | grep "normal symbol \`$sym'" | grep -vq libgemmkit; then
		fail "$prog: $sym was bound elsewhere too"
	fi
}

for p in s d; do
	P=$(echo $p | tr sd SD)
	input ${p}blat3.in ${p}blat3.in || continue
	run xblat3$p ${p}blat3.in ${p}blat3.out ${p}gemm_
	f=${p}blat3.out
	[ -f "$f" ] || f=xblat3$p.stdout
	grep -q "^ *${P}GEMM  PASSED THE TESTS OF ERROR-EXITS" "$f" ||
		fail "xblat3$p: ${P}GEMM error exits"
	grep -q "^ *${P}GEMM  PASSED THE COMPUTATIONAL TESTS" "$f" ||
		fail "xblat3$p: ${P}GEMM computational tests"
	grep -q "END OF TESTS" "$f" || fail "xblat3$p: did not reach the end"
	! grep -Eq 'FAIL|\*\*\*\*\*' "$f" xblat3$p.stdout || fail "xblat3$p: a failure reported"

	input ${p}in3 ${p}in3 || continue
	run x${p}cblat3 ${p}in3 none cblas_${p}gemm
	f=x${p}cblat3.stdout
	grep -q "^ *cblas_${p}gemm  PASSED THE TESTS OF ERROR-EXITS" "$f" ||
		fail "x${p}cblat3: cblas_${p}gemm error exits"
	grep -q "^ *cblas_${p}gemm  PASSED THE COLUMN-MAJOR COMPUTATIONAL TESTS" "$f" ||
		fail "x${p}cblat3: cblas_${p}gemm column-major computational tests"
	grep -q "^ *cblas_${p}gemm  PASSED THE ROW-MAJOR  *COMPUTATIONAL TESTS" "$f" ||
		fail "x${p}cblat3: cblas_${p}gemm row-major computational tests"
	grep -q "END OF TESTS" "$f" || fail "x${p}cblat3: did not reach the end"
	! grep -Eq 'FAIL|\*\*\*\*\*' "$f" || fail "x${p}cblat3: a failure reported"
done

[ $status = 0 ] && echo "blas_reference: all four programs passed their GEMM rows"
exit $status

#!/usr/bin/env bash
# cli_test.sh - tests of the gemmkit command line (everything but the
# timings of `bench`). Usage: cli_test.sh /path/to/gemmkit
#
# Exit statuses under test: 0 success; 1 failure while working (library
# error, failed check, output file not written); 2 bad command line or an
# unusable input file (nothing computed).
set -u

G=${1:?usage: cli_test.sh /path/to/gemmkit}
SEED=${GK_TEST_SEED:-$(( (RANDOM << 15 | RANDOM) ))}
echo "cli_test: seed $SEED (set GK_TEST_SEED to repeat)"
T=$(mktemp -d "${TMPDIR:-/tmp}/gemmkit_cli.XXXXXX")
trap 'rm -rf "$T"' EXIT

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# run ARGS...: runs gemmkit, leaving the status in $rc and output in files.
run() {
	"$G" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# expect CODE DESCRIPTION ARGS...: the status must be CODE; for 1 and 2 there
# must be a message on stderr (and never a crash).
expect() {
	local want=$1 what=$2
	shift 2
	run "$@"
	if [ "$rc" -ne "$want" ]; then
		bad "$what: 'gemmkit $*' exited $rc, expected $want"
		sed 's/^/    /' "$T/err" | head -5
	elif [ "$want" -ne 0 ] && [ ! -s "$T/err" ]; then
		bad "$what: 'gemmkit $*' exited $rc with nothing on stderr"
	else
		ok
	fi
}

# contains FILE TEXT DESCRIPTION
contains() {
	if grep -qF -- "$2" "$1"; then ok; else bad "$3: '$2' not in the output"; fi
}

# A .npy file by hand: mknpy FILE 'HEADER DICT' DATA_BYTES [MAJOR]
mknpy() {
	local f=$1 hdr=$2 nbytes=$3 major=${4:-1}
	local len=${#hdr}
	{
		printf '\x93NUMPY'
		# %b, not the format string: a length byte may be '%'.
		printf '%b' "\\x$(printf %02x "$major")\\x00\\x$(printf %02x $((len & 255)))\\x$(printf %02x $((len >> 8)))"
		[ "$major" = 1 ] || printf '%b' '\x00\x00'
		printf '%s' "$hdr"
		head -c "$nbytes" /dev/zero
	} >"$f"
}

# Little-endian float32 bytes of small whole numbers, for known answers.
f32() {
	local v
	for v in "$@"; do
		case $v in
		0) printf '\x00\x00\x00\x00' ;; 1) printf '\x00\x00\x80\x3f' ;;
		2) printf '\x00\x00\x00\x40' ;; 3) printf '\x00\x00\x40\x40' ;;
		4) printf '\x00\x00\x80\x40' ;; 5) printf '\x00\x00\xa0\x40' ;;
		6) printf '\x00\x00\xc0\x40' ;;
		esac
	done
}

# --- top level ----------------------------------------------------------------
for h in --help -h help; do
	expect 0 "top-level $h" "$h"
	for c in bench gemm info; do contains "$T/out" "$c" "top-level $h"; done
done
expect 0 "--version" --version
if grep -qE '^gemmkit [0-9]+\.[0-9]+\.[0-9]+$' "$T/out"; then ok; else bad "--version prints '$(cat "$T/out")'"; fi
expect 2 "no command" ; contains "$T/err" "usage" "no command"
expect 2 "unknown command" frobnicate
for c in bench gemm info; do contains "$T/err" "$c" "unknown command names the commands"; done

# --- help of each command -------------------------------------------------------
expect 0 "gemm --help" gemm --help
for o in M N K --algo --dtype --threads --layout --transa --transb --alpha --beta --repeat \
	--seed --a --b --c --save-a --save-b --save-c --save --no-check --tol --print --devices; do
	contains "$T/out" " $o" "gemm --help"
done
expect 0 "help gemm" help gemm ; contains "$T/out" "--transa" "help gemm"
expect 0 "info --help" info --help
for o in --algos --list-algos GK_ARCH GK_NUM_THREADS; do contains "$T/out" "$o" "info --help"; done
run bench --help
if grep -q "not built yet" "$T/err"; then
	: # bench is not part of this build yet
elif [ "$rc" -eq 0 ] && grep -q -- "--" "$T/out"; then ok
else bad "bench --help exited $rc or lists no option"; fi
# The multi-GPU suite: its own --help; its contenders listed without a GPU
# (in a build with CUDA; without, the suite says so and exits 1).
expect 0 "bench gpu-multi --help" bench --suite gpu-multi --help
contains "$T/out" "gemmkit-det-dN" "bench gpu-multi --help"
run bench --suite gpu-multi --list --algos gemmkit-det-w2,cublasxt-d4
if [ "$rc" -eq 0 ]; then
	contains "$T/out" "gemmkit-det-d1" "gpu-multi adds the -det-d1 reference"
	contains "$T/out" "devices 0,1,2,3" "gpu-multi --list"
	expect 2 "bench gpu-multi bad contender" bench --suite gpu-multi --list --algos gemmkit-d9
elif [ "$rc" -eq 1 ]; then contains "$T/err" "without CUDA" "gpu-multi without CUDA"
else bad "bench --suite gpu-multi --list exited $rc"; fi

# --- bad command lines ----------------------------------------------------------
expect 2 "unknown option" gemm 8 8 8 --frobnicate
expect 2 "unknown short option" gemm -q
expect 2 "non-numeric size" gemm 8 x 8
expect 2 "negative size" gemm 8 -8 8
expect 2 "zero size" gemm 0 8 8
expect 2 "two sizes" gemm 8 8
expect 2 "four sizes" gemm 8 8 8 8
# 12 TiB of operands: refused before anything is allocated, on any machine.
expect 1 "larger than memory" gemm 1048576 1048576 1048576
contains "$T/err" "GiB of memory" "larger than memory"
# GK_MEM_AVAILABLE replaces the figure (a VM whose memory grows as it is
# used reads too little): 4.5 GiB of operands against 2 GiB.
GK_MEM_AVAILABLE=2G expect 1 "GK_MEM_AVAILABLE=2G" gemm 20000 20000 20000
contains "$T/err" "2.0 GiB are available (GK_MEM_AVAILABLE)" "GK_MEM_AVAILABLE=2G"
GK_MEM_AVAILABLE=lots expect 1 "GK_MEM_AVAILABLE not a size" gemm 1048576 1048576 1048576
contains "$T/err" "is not a size" "GK_MEM_AVAILABLE not a size"
expect 2 "unknown algo" gemm 8 8 8 --algo no.such.algo
contains "$T/err" "cpu.plain" "unknown algo lists the valid names"
expect 2 "bad dtype" gemm 8 8 8 --dtype h
expect 2 "bad layout" gemm 8 8 8 --layout diagonal
expect 2 "bad transa" gemm 8 8 8 --transa x
expect 2 "negative threads" gemm 8 8 8 --threads -2
expect 2 "bad repeat" gemm 8 8 8 --repeat 0
expect 2 "bad alpha" gemm 8 8 8 --alpha one
expect 2 "missing value" gemm 8 8 8 --algo
expect 2 "info unknown option" info --frobnicate

# Precision modes and backends: bad names are command-line errors; on the
# CPU every mode computes strictly (the strict bound passes).
expect 2 "bad --precision" gemm 8 8 8 --precision fp16
contains "$T/err" "strict" "bad --precision names the modes"
expect 2 "bad --backend" gemm 8 8 8 --backend gpu
# --devices: ordinals separated by commas, or all; a bad list is refused
# before anything runs, naming the entry at fault.
expect 2 "--devices empty" gemm 8 8 8 --devices ""
expect 2 "--devices empty entry" gemm 8 8 8 --devices 0,,1
contains "$T/err" "entry 2 is empty" "--devices empty entry"
expect 2 "--devices trailing comma" gemm 8 8 8 --devices 0,
expect 2 "--devices negative" gemm 8 8 8 --devices 0,-1
contains "$T/err" "negative" "--devices negative"
expect 2 "--devices not a number" gemm 8 8 8 --devices 0,one
expect 2 "--devices hex" gemm 8 8 8 --devices 0x1
expect 2 "--devices too many" gemm 8 8 8 --devices "$(seq -s, 0 64)"
contains "$T/err" "more than 64 entries" "--devices too many"
expect 0 "--devices on the CPU" gemm 8 8 8 --devices 0,1,1 --seed "$SEED"
contains "$T/out" "devices:   0,1,1 (3 workers)" "--devices on the CPU"
contains "$T/err" "runs on the CPU" "--devices on the CPU"
expect 0 "--devices all" gemm 8 8 8 --devices all --seed "$SEED"
contains "$T/out" "all visible" "--devices all"
expect 0 "--precision tf32 on the CPU" gemm 33 17 65 --precision tf32 --seed "$SEED"
contains "$T/out" "check:     PASS" "--precision tf32 on the CPU"
# The seed's time-cost model needs no GPU with a device from its tables:
# its own worked choices (seed 003, Tables 3 and 4).
expect 0 "model A100" model --seed-device a100
contains "$T/out" "GS(864)/BS(256)" "model A100"
expect 0 "model 2080 Ti" model --seed-device 2080ti
contains "$T/out" "GS(136)/BS(512)" "model 2080 Ti"
expect 2 "model bad device" model --seed-device v100

# --- computing ------------------------------------------------------------------
expect 0 "cpu.plain 33 17 65" gemm 33 17 65 --algo cpu.plain --seed "$SEED"
contains "$T/out" "check:     PASS" "cpu.plain 33 17 65"
contains "$T/out" "M = 33, N = 17, K = 65" "cpu.plain 33 17 65"
for key in "algorithm: cpu.plain" "time:" "GFLOPS:" "error:" "bound:"; do
	contains "$T/out" "$key" "cpu.plain 33 17 65"
done
# The check can fail: an absurdly tight bound must give FAIL and status 1.
expect 1 "a failing check" gemm 33 17 65 --algo cpu.plain --seed "$SEED" --tol 1e-12
contains "$T/out" "check:     FAIL" "a failing check"
expect 0 "--dtype d" gemm 40 9 70 --dtype d --seed "$SEED" --repeat 3
contains "$T/out" "float64" "--dtype d"
contains "$T/out" "check:     PASS" "--dtype d"

# Every available algorithm, each dtype it handles (the dtypes column: "s",
# "d" or "s,d"), with transposes, column-major and beta. An algorithm asked
# for a dtype it does not handle is refused with status 2.
expect 0 "info --algos" info --algos
contains "$T/out" "cpu.plain" "info --algos"
algos=$(awk 'NR > 1 && $5 == "yes" { print $1 ":" $3 }' "$T/out")
for ad in $algos; do
	a=${ad%%:*}
	dts=$(echo "${ad#*:}" | tr ',' ' ')
	case " $dts " in
	*" s "*) ;;
	*) expect 2 "$a refuses s" gemm 8 8 8 --algo "$a" --dtype s ;;
	esac
	for dt in $dts; do
		expect 0 "$a $dt" gemm 31 19 23 --algo "$a" --dtype "$dt" --layout col --transa t \
			--alpha -0.5 --beta 0.75 --seed "$SEED"
		contains "$T/out" "check:     PASS" "$a $dt col t n beta"
		expect 0 "$a $dt" gemm 17 35 9 --algo "$a" --dtype "$dt" --transb t --threads 2 --seed "$SEED"
		contains "$T/out" "check:     PASS" "$a $dt row n t"
	done
done
expect 0 "--list-algos" info --list-algos ; contains "$T/out" "cpu.plain" "info --list-algos"
expect 0 "info" info
for key in "CPU kernels:" "CUDA built:" "GPUs:" "threads:"; do contains "$T/out" "$key" "info"; done

# Above 2^31 multiply-adds the check samples 64 rows of C.
expect 0 "sampled check" gemm 1291 1291 1291 --seed "$SEED"
contains "$T/out" "64 random rows" "sampled check"
contains "$T/out" "check:     PASS" "sampled check"

# Random sizes in [128, 2048], printed.
expect 0 "random sizes" gemm --seed "$SEED" --no-check
if grep -E '^sizes: ' "$T/out" | grep -q '(random)'; then
	read -r m n k < <(sed -n 's/^sizes: *M = \([0-9]*\), N = \([0-9]*\), K = \([0-9]*\).*/\1 \2 \3/p' "$T/out")
	if [ "${m:-0}" -ge 128 ] && [ "$m" -le 2048 ] && [ "$n" -ge 128 ] && [ "$n" -le 2048 ] &&
		[ "$k" -ge 128 ] && [ "$k" -le 2048 ]; then ok; else bad "random sizes out of range: $m $n $k"; fi
else
	bad "random sizes not printed"
fi

# --- .npy round trips -------------------------------------------------------------
D=$T/d1
expect 0 "--save DIR" gemm 33 17 65 --algo cpu.plain --seed "$SEED" --save "$D"
for f in A B C; do [ -s "$D/$f.npy" ] && ok || bad "--save did not write $f.npy"; done
[ -e "$D/C0.npy" ] && bad "--save wrote C0.npy with beta = 0" || ok
expect 0 "read back" gemm --a "$D/A.npy" --b "$D/B.npy" --algo cpu.plain --save-c "$T/X.npy" --save-a "$T/A2.npy"
contains "$T/out" "M = 33, N = 17, K = 65" "sizes from the files"
cmp -s "$D/C.npy" "$T/X.npy" && ok || bad "C from the .npy inputs differs from the saved C"
cmp -s "$D/A.npy" "$T/A2.npy" && ok || bad "A written back differs from A read"
ls "$T"/*.tmp "$D"/*.tmp >/dev/null 2>&1 && bad "a .tmp file was left behind" || ok
# Another seed gives another C: the comparison above can fail.
expect 0 "other seed" gemm 33 17 65 --algo cpu.plain --seed "$((SEED + 1))" --save-c "$T/Y.npy"
cmp -s "$D/C.npy" "$T/Y.npy" && bad "different seeds gave the same C" || ok

# float64, column-major (fortran_order True), A transposed, beta with an input C.
D2=$T/d2
expect 0 "--save d col t beta" gemm 20 30 40 --dtype d --layout col --transa t --beta 2 --alpha 0.5 \
	--algo cpu.plain --seed "$SEED" --save "$D2"
[ -s "$D2/C0.npy" ] && ok || bad "--save with beta != 0 did not write C0.npy"
expect 0 "read back d col t beta" gemm --a "$D2/A.npy" --b "$D2/B.npy" --c "$D2/C0.npy" --layout col \
	--transa t --beta 2 --alpha 0.5 --algo cpu.plain --save-c "$T/X2.npy"
contains "$T/out" "float64" "dtype from the files"
cmp -s "$D2/C.npy" "$T/X2.npy" && ok || bad "float64 column-major round trip differs"
# A column-major file read for a row-major call is converted: same product.
expect 0 "fortran order to row" gemm --a "$D2/A.npy" --b "$D2/B.npy" --c "$D2/C0.npy" --transa t \
	--beta 2 --alpha 0.5 --algo cpu.plain --print
sed -n '/^C (/,$p' "$T/out" | grep -v '^[a-z]' >"$T/c_row"
expect 0 "column-major print" gemm --a "$D2/A.npy" --b "$D2/B.npy" --c "$D2/C0.npy" --layout col \
	--transa t --beta 2 --alpha 0.5 --algo cpu.plain --print
sed -n '/^C (/,$p' "$T/out" | grep -v '^[a-z]' >"$T/c_col"
[ -s "$T/c_row" ] && cmp -s "$T/c_row" "$T/c_col" && ok || bad "row-major and column-major results differ"
# float64 files into a float32 call are converted, with a note.
expect 0 "convert d to s" gemm --a "$D2/A.npy" --b "$D2/B.npy" --transa t --dtype s --algo cpu.plain
contains "$T/err" "converted" "conversion note"
contains "$T/out" "float32" "convert d to s"

# Files NumPy could have written: known answers.
# A (2 x 3) in Fortran order holds 1..6, so A = [[1,3,5],[2,4,6]]; B = ones(3,1).
{ mknpy "$T/fa.npy" "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }" 0; f32 1 2 3 4 5 6 >>"$T/fa.npy"; }
{ mknpy "$T/ones.npy" '{"shape": (3,1,) ,"fortran_order":False , "descr":"<f4",}   ' 0; f32 1 1 1 >>"$T/ones.npy"; }
{ mknpy "$T/ones_v2.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 1)}" 0 2; f32 1 1 1 >>"$T/ones_v2.npy"; }
{ mknpy "$T/ones_v3.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 1)}" 0 3; f32 1 1 1 >>"$T/ones_v3.npy"; }
for b in ones ones_v2 ones_v3; do
	expect 0 "known answer $b" gemm --a "$T/fa.npy" --b "$T/$b.npy" --algo cpu.plain --print
	sed -n '/^C (/,$p' "$T/out" | grep -v '^[a-z]' | tr -s ' ' | tr '\n' ';' >"$T/ka"
	[ "$(cat "$T/ka")" = "C (2 x 1):; 9; 12;" ] && ok || bad "known answer $b: got '$(cat "$T/ka")'"
done

# --- unusable input files: status 2, a message, never a crash ---------------------
V=$T/d1/B.npy
expect 2 "missing .npy" gemm --a "$T/none.npy" --b "$V"
expect 2 "directory as .npy" gemm --a "$T" --b "$V"
printf 'not a numpy file at all' >"$T/junk.npy"
expect 2 "corrupt .npy" gemm --a "$T/junk.npy" --b "$V"
head -c 200 "$D/A.npy" >"$T/trunc.npy"
expect 2 "truncated .npy" gemm --a "$T/trunc.npy" --b "$V"
contains "$T/err" "truncated" "truncated .npy"
H="'descr': '<f4', 'fortran_order': False"
mknpy "$T/1d.npy" "{$H, 'shape': (12,), }" 48
expect 2 "1-D .npy" gemm --a "$T/1d.npy" --b "$V" ; contains "$T/err" "1-D" "1-D .npy"
mknpy "$T/3d.npy" "{$H, 'shape': (2, 2, 3), }" 48
expect 2 "3-D .npy" gemm --a "$T/3d.npy" --b "$V"
mknpy "$T/i4.npy" "{'descr': '<i4', 'fortran_order': False, 'shape': (3, 4), }" 48
expect 2 "int32 .npy" gemm --a "$T/i4.npy" --b "$V" ; contains "$T/err" "<i4" "int32 .npy"
mknpy "$T/be.npy" "{'descr': '>f8', 'fortran_order': False, 'shape': (3, 4), }" 96
expect 2 "big-endian .npy" gemm --a "$T/be.npy" --b "$V"
mknpy "$T/neg.npy" "{$H, 'shape': (-3, 4), }" 48
expect 2 "negative shape" gemm --a "$T/neg.npy" --b "$V"
mknpy "$T/huge.npy" "{$H, 'shape': (4611686018427387904, 4611686018427387904), }" 48
expect 2 "shape product overflow" gemm --a "$T/huge.npy" --b "$V"
mknpy "$T/big.npy" "{$H, 'shape': (100000, 100000), }" 48
expect 2 "shape larger than the file" gemm --a "$T/big.npy" --b "$V"
mknpy "$T/key.npy" "{$H, 'shape': (3, 4), 'extra': 1}" 48
expect 2 "unknown header key" gemm --a "$T/key.npy" --b "$V"
printf '\x93NUMPY\x01\x00\xff\x7f{' >"$T/hdrlen.npy"
expect 2 "header length past the end" gemm --a "$T/hdrlen.npy" --b "$V"
expect 2 "shape mismatch" gemm --a "$D/A.npy" --b "$D/A.npy"
expect 2 "sizes disagree with the file" gemm 5 5 5 --a "$D/A.npy" --b "$D/B.npy"
expect 1 "unwritable output" gemm 8 8 8 --seed "$SEED" --save-c "$T/no/such/dir/C.npy"

# --- NumPy itself, when it is installed ---------------------------------------------
PY=""
for p in python3 /usr/bin/python3; do
	if "$p" -c "import numpy" >/dev/null 2>&1; then PY=$p; break; fi
done
if [ -n "$PY" ]; then
	expect 0 "numpy reads --save" gemm 13 11 7 --dtype d --layout col --transb t --alpha 1.5 --beta -1 \
		--seed "$SEED" --save "$T/np1"
	if "$PY" - "$T" "$SEED" <<'EOF'; then ok; else bad "NumPy disagrees with gemmkit's files"; fi
import sys, numpy as np
t = sys.argv[1]
a, b, c0, c = (np.load(f"{t}/np1/{x}.npy") for x in ("A", "B", "C0", "C"))
assert a.shape == (13, 7) and b.shape == (11, 7) and c.shape == (13, 11), (a.shape, b.shape, c.shape)
assert c.flags["F_CONTIGUOUS"] and c.dtype == np.float64
ref = 1.5 * a @ b.T - c0
assert np.abs(c - ref).max() <= 1e-13 * (1 + np.abs(ref).max()), np.abs(c - ref).max()
rng = np.random.default_rng(int(sys.argv[2]))
np.save(f"{t}/npA.npy", np.asfortranarray(rng.uniform(-1, 1, (9, 14))))
np.save(f"{t}/npB.npy", rng.uniform(-1, 1, (14, 6)).astype(np.float32))
EOF
	expect 0 "gemmkit reads NumPy's files" gemm --a "$T/npA.npy" --b "$T/npB.npy" --dtype d --save-c "$T/npC.npy"
	if "$PY" - "$T" <<'EOF'; then ok; else bad "gemmkit's product of NumPy's files is wrong"; fi
import sys, numpy as np
t = sys.argv[1]
a, b, c = np.load(f"{t}/npA.npy"), np.load(f"{t}/npB.npy").astype(np.float64), np.load(f"{t}/npC.npy")
assert np.abs(c - a @ b).max() <= 1e-13, np.abs(c - a @ b).max()
EOF
fi

echo "cli_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

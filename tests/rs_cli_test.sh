#!/usr/bin/env bash
# rs_cli_test.sh - end-to-end tests of `gemmkit rs encode|decode|verify` and
# of the shard file format (docs/RS_FORMAT.md).
#
# usage: rs_cli_test.sh GEMMKIT [WORKDIR]
# Inputs are random; GK_TEST_SEED makes them reproducible (the seed in use
# is printed). WORKDIR is kept when a check fails, removed otherwise.
set -u

GK=${1:?usage: rs_cli_test.sh GEMMKIT [WORKDIR]}
W=${2:-$(mktemp -d "${TMPDIR:-/tmp}/gk_rs_test.XXXXXX")}
rm -rf "$W" && mkdir -p "$W" || exit 1
SEED=${GK_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "rs_cli_test: seed $SEED (set GK_TEST_SEED to repeat), work dir $W"

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
# check DESCRIPTION COMMAND...: the command must succeed.
check() { local d=$1; shift; if "$@"; then pass; else fail "$d"; fi; }

# Random bytes, reproducible from SEED and a per-file tag.
gen_counter=0
gen() { # gen FILE BYTES
	gen_counter=$((gen_counter + 1))
	if command -v openssl >/dev/null 2>&1; then
		head -c "$2" /dev/zero | openssl enc -aes-128-ctr -nosalt -pbkdf2 -iter 1 \
			-pass "pass:$SEED-$gen_counter" 2>/dev/null > "$1"
	else
		head -c "$2" /dev/urandom > "$1"
	fi
	[ "$(stat -c %s "$1")" -eq "$2" ] || { echo "cannot make test input $1"; exit 1; }
}

# A byte stream reproducible from SEED and a tag (for shuf --random-source).
rand_stream() {
	if command -v openssl >/dev/null 2>&1; then
		openssl enc -aes-128-ctr -nosalt -pbkdf2 -iter 1 -pass "pass:$SEED-$1" < /dev/zero 2>/dev/null
	else
		cat /dev/urandom
	fi
}

enc() { "$GK" rs encode --quiet "$@"; }
dec() { "$GK" rs decode --quiet "$@"; }

# shard DIR I -> the path of shard I
shard() { printf '%s/%s.%03d.gkrs' "$1" "$2" "$3"; }
# flip_byte FILE OFFSET: xor one byte with 0x5a
flip_byte() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((b ^ 0x5a)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# roundtrip NAME BYTES K M STRIPE [extra encode options]: encode, decode, compare.
roundtrip() {
	local name=$1 size=$2 k=$3 m=$4 stripe=$5
	shift 5
	local d="$W/rt_$name"
	mkdir -p "$d"
	gen "$d/in" "$size"
	if ! enc -k "$k" -m "$m" --stripe "$stripe" "$@" -o "$d/sh" "$d/in"; then
		fail "encode $name (size $size, k=$k m=$m stripe $stripe)"
		return
	fi
	local count
	count=$(ls "$d/sh" | grep -c '\.gkrs$')
	[ "$count" -eq $((k + m)) ] || fail "encode $name: $count shard files, expected $((k + m))"
	# Nothing but the shards is left in DIR (no temporary files).
	[ "$(ls -A "$d/sh" | grep -vc '\.gkrs$')" -eq 0 ] || fail "encode $name left other files in DIR"
	if dec -o "$d/out" "$d/sh" && cmp -s "$d/in" "$d/out"; then pass; else fail "round trip $name"; fi
}

# ---- 1. round trips over sizes and codes ------------------------------------------
S=4096
for spec in "4 2" "1 1" "3 5" "10 4"; do
	set -- $spec
	k=$1 m=$2
	j=0
	for size in 0 1 $((S - 1)) $S $((S + 1)) $((k * S - 1)) $((k * S)) $((k * S + 1)) 100000; do
		j=$((j + 1))
		roundtrip "k${k}m${m}_${j}_$size" "$size" "$k" "$m" "$S"
	done
done
roundtrip big_default 3000000 4 2 1M
roundtrip big_12_4 3000000 12 4 64k --threads 2
roundtrip odd_stripe 1000003 6 3 1001
roundtrip vandermonde 300000 4 2 8192 --matrix isal-vandermonde
roundtrip k255 70000 200 56 1000

# ---- 2. the format, read independently of gemmkit -----------------------------------
if command -v python3 >/dev/null 2>&1; then
	d="$W/format"
	mkdir -p "$d"
	gen "$d/in" 20000
	enc -k 3 -m 2 --stripe 4000 -o "$d/sh" "$d/in" || fail "encode for the format check"
	check "format: header, sizes, block CRCs and systematic data (python reader)" \
		python3 - "$d/in" "$d/sh" <<'EOF'
import os, struct, sys
def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF
assert crc32c(b"123456789") == 0xE3069283
orig = open(sys.argv[1], "rb").read()
ids = set()
for i in range(5):
    raw = open(os.path.join(sys.argv[2], "in.%03d.gkrs" % i), "rb").read()
    h = raw[:128]
    assert h[:8] == b"GKRS\r\n\x1a\n", "magic"
    (ver, hsize, k, m, idx, mat, flags, stripe, fsize, blocks, last, res) = \
        struct.unpack_from("<HHHHHBBIQQII", h, 8)
    assert (ver, hsize, k, m, idx, mat, flags, res) == (1, 128, 3, 2, i, 0, 0, 0)
    assert stripe == 4000 and fsize == len(orig)
    assert blocks == -(-fsize // (k * stripe)), "block count"
    rest = fsize - (blocks - 1) * k * stripe
    assert last == -(-rest // k), "last block size"
    assert struct.unpack_from("<I", h, 124)[0] == crc32c(h[:124]), "header CRC"
    assert h[72:124].rstrip(b"\0") == b"in", "name"
    ids.add(h[48:64])
    off = 128
    for b in range(blocks):
        n = stripe if b + 1 < blocks else last
        blk = raw[off:off + n]
        crc = struct.unpack_from("<I", raw, off + n)[0]
        assert crc == crc32c(h[48:64] + struct.pack("<IQ", i, b), crc32c(blk)), "block CRC"
        if i < k:  # systematic: data shard i holds bytes [i*n, (i+1)*n) of the stripe
            start = b * k * stripe + i * n
            want = orig[start:start + n]
            assert blk == want + b"\0" * (n - len(want)), "data block contents"
        off += n + 4
    assert off == len(raw), "shard file size"
assert len(ids) == 1, "one file id for all shards"
EOF
else
	echo "rs_cli_test: python3 not found: independent format check skipped"
fi

# ---- 3. lost shards ------------------------------------------------------------------
d="$W/lost"
mkdir -p "$d"
gen "$d/in" 1234567
enc -k 4 -m 2 --stripe 64k -o "$d/sh" "$d/in" || fail "encode for the lost-shard tests"
for pattern in "0" "5" "0 1" "0 5" "2 3" "4 5" "1 4"; do
	rm -rf "$d/w" && cp -r "$d/sh" "$d/w"
	for i in $pattern; do rm "$(shard "$d/w" in "$i")"; done
	if dec -o "$d/out_$RANDOM" "$d/w" >/dev/null; then pass; else fail "decode with shards { $pattern } lost"; fi
	out=$(ls "$d"/out_* 2>/dev/null | head -1)
	check "decode with shards { $pattern } lost gives the original" cmp -s "$d/in" "$out"
	rm -f "$d"/out_*
done
# k=10 m=4: random sets of 4 lost shards.
d2="$W/lost14"
mkdir -p "$d2"
gen "$d2/in" 2000000
enc -k 10 -m 4 --stripe 32k -o "$d2/sh" "$d2/in" || fail "encode 10+4"
for trial in 1 2 3; do
	rm -rf "$d2/w" && cp -r "$d2/sh" "$d2/w"
	lost=$(shuf -i 0-13 -n 4 --random-source=<(rand_stream "shuf$trial") | tr '\n' ' ')
	for i in $lost; do rm "$(shard "$d2/w" in "$i")"; done
	if dec -o "$d2/out" "$d2/w" && cmp -s "$d2/in" "$d2/out"; then pass; else fail "10+4 with shards { $lost} lost"; fi
	rm -f "$d2/out"
done

# m + 1 lost: a clear failure, and no output file (nor a temporary one).
rm -rf "$d/w" && cp -r "$d/sh" "$d/w"
rm "$(shard "$d/w" in 0)" "$(shard "$d/w" in 2)" "$(shard "$d/w" in 5)"
mkdir -p "$d/outdir"
"$GK" rs decode -o "$d/outdir/out" "$d/w" 2>"$d/err"
rc=$?
check "decode with m+1 lost exits non-zero" [ $rc -ne 0 ]
check "decode with m+1 lost leaves no file" [ -z "$(ls -A "$d/outdir")" ]
check "decode with m+1 lost says why" grep -q "needed" "$d/err"
"$GK" rs verify "$d/w" >"$d/verify.txt"
check "verify with m+1 lost exits 1" [ $? -eq 1 ]
check "verify with m+1 lost: NOT decodable" grep -q "result: NOT decodable" "$d/verify.txt"
check "verify lists the missing shards" [ "$(grep -c ': missing' "$d/verify.txt")" -eq 3 ]

# The empty file needs k shards as well.
d3="$W/empty"
mkdir -p "$d3"
: > "$d3/in"
enc -k 2 -m 1 -o "$d3/sh" "$d3/in"
check "empty file: shards are bare headers" [ "$(stat -c %s "$(shard "$d3/sh" in 0)")" -eq 128 ]
rm "$(shard "$d3/sh" in 0)" "$(shard "$d3/sh" in 1)"
dec -o "$d3/out" "$d3/sh" 2>/dev/null
check "empty file with m+1 lost fails" [ $? -ne 0 ] && check "... and writes nothing" [ ! -e "$d3/out" ]

# ---- 4. corruption -----------------------------------------------------------------
# Stripes of 64k x 4 = 256 KiB: 1234567 bytes are 5 stripes.
BLK=$((65536 + 4))
rm -rf "$d/w" && cp -r "$d/sh" "$d/w"
flip_byte "$(shard "$d/w" in 0)" $((128 + 100))
"$GK" rs verify "$d/w" >"$d/verify.txt"
check "verify: data block corruption exits 1" [ $? -eq 1 ]
check "verify: data block corruption reported" grep -q "shard   0: corrupt .*1 of 5 blocks fail their CRC (first: #0)" "$d/verify.txt"
check "verify: still decodable" grep -q "result: damaged, decodable" "$d/verify.txt"
check "decode around a corrupt data block" dec -o "$d/out" "$d/w"
check "... gives the original" cmp -s "$d/in" "$d/out"
rm -f "$d/out"

# A corrupt header: the file is unusable, the others suffice.
flip_byte "$(shard "$d/w" in 3)" 20
"$GK" rs verify "$d/w" >"$d/verify.txt"
check "verify: header corruption reported" grep -q "file in.003.gkrs: unusable: header CRC mismatch" "$d/verify.txt"
check "verify: shard with a bad header counts as missing" grep -q "shard   3: missing" "$d/verify.txt"
check "decode around a corrupt header" dec -o "$d/out" "$d/w"
check "... gives the original" cmp -s "$d/in" "$d/out"
rm -f "$d/out"

# Damage in different stripes of m + 1 shards: each stripe still has k good blocks.
rm -rf "$d/w" && cp -r "$d/sh" "$d/w"
flip_byte "$(shard "$d/w" in 0)" $((128 + 0 * BLK + 7))
flip_byte "$(shard "$d/w" in 1)" $((128 + 1 * BLK + 65535))
flip_byte "$(shard "$d/w" in 4)" $((128 + 2 * BLK + 65536)) # the CRC itself
rm "$(shard "$d/w" in 2)"
check "decode with damage spread over stripes of m + 2 shards" dec -o "$d/out" "$d/w"
check "... gives the original" cmp -s "$d/in" "$d/out"
rm -f "$d/out"
# The same stripe damaged in m + 1 shards: not decodable, no output.
flip_byte "$(shard "$d/w" in 3)" $((128 + 1 * BLK + 3))
flip_byte "$(shard "$d/w" in 5)" $((128 + 1 * BLK + 3))
dec -o "$d/out" "$d/w" 2>"$d/err"
check "decode fails when one stripe has fewer than k good blocks" [ $? -ne 0 ]
check "... and writes nothing" [ ! -e "$d/out" ]
check "... naming the stripe" grep -q "stripe #1 (of 5)" "$d/err"

# ---- 5. truncated shard ---------------------------------------------------------------
rm -rf "$d/w" && cp -r "$d/sh" "$d/w"
truncate -s $((128 + 2 * BLK + 10)) "$(shard "$d/w" in 1)"
"$GK" rs verify "$d/w" >"$d/verify.txt"
check "verify: truncated shard reported" grep -q "shard   1: corrupt .*truncated.*3 blocks missing" "$d/verify.txt"
check "decode around a truncated shard" dec -o "$d/out" "$d/w"
check "... gives the original" cmp -s "$d/in" "$d/out"
rm -f "$d/out"
truncate -s 50 "$(shard "$d/w" in 0)"
check "decode with a truncated header and a truncated shard" dec -o "$d/out" "$d/w"
check "... gives the original" cmp -s "$d/in" "$d/out"
rm -f "$d/out"

# ---- 6. duplicated shard (shard 1 copied over the name of shard 2) -----------------------
rm -rf "$d/w" && cp -r "$d/sh" "$d/w"
cp "$(shard "$d/w" in 1)" "$(shard "$d/w" in 2)"
"$GK" rs verify "$d/w" >"$d/verify.txt"
check "verify: duplicate exits 1" [ $? -eq 1 ]
check "verify: duplicate reported" grep -q "file in.002.gkrs: duplicate: holds shard 1" "$d/verify.txt"
check "verify: duplicated-over shard is missing" grep -q "shard   2: missing" "$d/verify.txt"
check "decode with a duplicate" dec -o "$d/out" "$d/w"
check "... gives the original" cmp -s "$d/in" "$d/out"
rm -f "$d/out"
rm "$(shard "$d/w" in 0)" "$(shard "$d/w" in 3)"
dec -o "$d/out" "$d/w" 2>/dev/null
check "a duplicate does not count twice" [ $? -ne 0 ] && check "... no output" [ ! -e "$d/out" ]

# ---- 7. a shard of another encode ---------------------------------------------------------
gen "$W/other" 1234567
enc -k 4 -m 2 --stripe 64k -o "$W/other_sh" "$W/other"
rm -rf "$d/w" && cp -r "$d/sh" "$d/w"
cp "$(shard "$W/other_sh" other 4)" "$(shard "$d/w" in 4)"
"$GK" rs verify "$d/w" >"$d/verify.txt"
check "verify: foreign shard reported" grep -q "file in.004.gkrs: foreign" "$d/verify.txt"
check "verify: foreign shard counts as missing" grep -q "shard   4: missing" "$d/verify.txt"
check "decode ignores a foreign shard" dec -o "$d/out" "$d/w"
check "... gives the original" cmp -s "$d/in" "$d/out"
rm -f "$d/out"
# Same geometry, other id: blocks of another encode spliced under a good header fail their CRC.
rm -rf "$d/w" && cp -r "$d/sh" "$d/w"
f0=$(shard "$d/w" in 0)
dd if="$(shard "$W/other_sh" other 0)" of="$f0" bs=1 skip=128 seek=128 conv=notrunc status=none
"$GK" rs verify "$d/w" >"$d/verify.txt"
check "verify: spliced blocks fail their CRC" grep -q "shard   0: corrupt .*5 of 5 blocks" "$d/verify.txt"
check "decode around spliced blocks" dec -o "$d/out" "$d/w"
check "... gives the original" cmp -s "$d/in" "$d/out"
rm -f "$d/out"

# ---- 8. --force ------------------------------------------------------------------------------
gen "$W/f1" 5000
enc -k 4 -m 2 -o "$W/fdir" "$W/f1"
id1=$("$GK" rs verify "$W/fdir" | sed -n 's/.*, id \([0-9a-f]*\)$/\1/p')
"$GK" rs encode -q -k 2 -m 1 -o "$W/fdir" "$W/f1" 2>"$W/err"
check "encode refuses a DIR with shards" [ $? -eq 1 ]
check "... saying --force" grep -q -- "--force" "$W/err"
id2=$("$GK" rs verify "$W/fdir" | sed -n 's/.*, id \([0-9a-f]*\)$/\1/p')
check "... and leaves them alone" [ -n "$id1" ] && [ "$id1" = "$id2" ]
check "encode --force replaces them" enc --force -k 2 -m 1 -o "$W/fdir" "$W/f1"
check "... removing the old shards" [ "$(ls "$W/fdir" | wc -l)" -eq 3 ]
check "... and the set verifies" "$GK" rs verify -q "$W/fdir" >/dev/null
echo "precious" > "$W/fout"
dec -o "$W/fout" "$W/fdir" 2>"$W/err"
check "decode refuses to overwrite" [ $? -eq 1 ]
check "... leaving the file alone" grep -q precious "$W/fout"
check "decode --force overwrites" dec --force -o "$W/fout" "$W/fdir"
check "... with the original" cmp -s "$W/f1" "$W/fout"

# ---- 9. verify, help and the command line ------------------------------------------------------
"$GK" rs verify "$d/sh" >"$d/verify.txt"
check "verify: a good set exits 0" [ $? -eq 0 ]
check "verify: one good line per shard" [ "$(grep -c '^shard .*: good ' "$d/verify.txt")" -eq 6 ]
check "verify: result ok" grep -q "^result: ok$" "$d/verify.txt"
check "verify --quiet prints only the result" [ "$("$GK" rs verify --quiet "$d/sh")" = "result: ok" ]
for sub in encode decode verify; do
	check "rs $sub --help" "$GK" rs $sub --help >"$W/help.txt"
	check "rs $sub --help is its own" grep -q "usage: gemmkit rs $sub" "$W/help.txt"
done
check "rs encode --help mentions --stripe" grep -q -- "--stripe" <("$GK" rs encode --help)
"$GK" rs encode --bogus -o "$W/x" "$W/f1" 2>/dev/null
check "an unknown option exits 2" [ $? -eq 2 ]
"$GK" rs decode --stripe 4096 -o "$W/x" "$d/sh" 2>/dev/null
check "decode takes no --stripe" [ $? -eq 2 ]
"$GK" rs encode -k 200 -m 57 -o "$W/x" "$W/f1" 2>/dev/null
check "k + m > 256 exits 2" [ $? -eq 2 ]
"$GK" rs decode -o "$W/x" "$W/nonexistent" 2>/dev/null
check "decode of a missing DIR fails" [ $? -eq 1 ]
"$GK" rs encode -o "$W/x" /dev/null 2>/dev/null
check "encode of a non-regular file fails" [ $? -eq 1 ] && check "... creating no DIR" [ ! -e "$W/x" ]
"$GK" rs encode --matrix isal-vandermonde -k 30 -m 20 -o "$W/x" "$W/f1" 2>"$W/err"
check "isal-vandermonde is refused where it is not MDS" [ $? -eq 1 ]
check "... saying so" grep -q "not MDS" "$W/err"
check "... creating no DIR" [ ! -e "$W/x" ]

echo "rs_cli_test: $passed passed, $failed failed"
if [ "$failed" -eq 0 ]; then
	rm -rf "$W"
else
	echo "rs_cli_test: inputs kept in $W"
fi
[ "$failed" -eq 0 ]

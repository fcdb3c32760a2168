#!/usr/bin/env bash
# rs_fail_test.sh - the failure paths of `gemmkit rs encode` and `decode`:
# out of memory, a full disk, a file size limit, an unwritable directory and
# an interrupted run. After each, the output directory must be exactly as it
# was before (every entry, hidden ones included, with its checksum): no new
# shard, no replaced shard, no temporary file, no directory left behind.
#
# usage: rs_fail_test.sh GEMMKIT [WORKDIR]
#
# What a machine does not allow is skipped with a message: the memory limit
# (`ulimit -v`) under a sanitizer, which reserves terabytes of address space;
# the full disk and the read-only directory need a tmpfs and a bind mount in
# a private mount namespace (`unshare -m` as root, `unshare -rm` otherwise;
# without either, an unprivileged user gets the read-only directory from
# chmod, which root ignores).
set -u

GK=${1:?usage: rs_fail_test.sh GEMMKIT [WORKDIR]}
W=${2:-$(mktemp -d "${TMPDIR:-/tmp}/gk_rs_fail.XXXXXX")}
PART=${3:-main}

passed=0
failed=0
skipped=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
skip() { skipped=$((skipped + 1)); echo "skipped: $*"; }
check() { local d=$1; shift; if "$@"; then pass; else fail "$d"; fi; }

# snap DIR: every entry under DIR with its type, and every file's checksum.
snap() {
	if [ ! -e "$1" ]; then
		echo "(absent)"
		return
	fi
	(cd "$1" && find . -mindepth 1 -printf '%y %p\n' | LC_ALL=C sort &&
		find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum)
}
# same DESCRIPTION DIR SNAPSHOT: DIR must be as in SNAPSHOT.
same() {
	local now
	now=$(snap "$2")
	if [ "$now" = "$3" ]; then
		pass
	else
		fail "$1: the directory changed"
		diff <(echo "$3") <(echo "$now") | head -20
	fi
}
# fails DESCRIPTION ERRFILE PATTERN COMMAND...: the command exits 1 saying PATTERN.
fails() {
	local d=$1 err=$2 pat=$3
	shift 3
	"$@" 2>"$err"
	local rc=$?
	if [ $rc -eq 1 ] && grep -q -- "$pat" "$err"; then
		pass
	else
		fail "$d: exit status $rc, expected 1 with '$pat'; stderr:"
		head -5 "$err"
	fi
}

# A directory holding the shards of an earlier encode and a file of another
# program: the state a failed encode --force must leave alone.
old_set() { # old_set DIR
	mkdir -p "$1"
	head -c 50000 /dev/urandom >"$W/old_input"
	"$GK" rs encode -q -k 2 -m 1 --stripe 4k -o "$1" "$W/old_input" || fail "encode the old set"
	echo "not a shard" >"$1/notes.txt"
}

finish() {
	echo "rs_fail_test ($PART): $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
}

# ---- in a private mount namespace: a full disk, a read-only directory -----------
if [ "$PART" = ns ]; then
	F="$W/full"
	mkdir -p "$F"
	if ! mount -t tmpfs -o size=1m tmpfs "$F" 2>/dev/null; then
		skip "a full disk: cannot mount a tmpfs here"
	else
		old_set "$F/sh"
		before=$(snap "$F")
		fails "encode --force onto a full disk" "$W/err" "No space left" \
			"$GK" rs encode -q --force -k 2 -m 1 --stripe 64k -o "$F/sh" "$W/in3m"
		same "encode --force onto a full disk" "$F" "$before"
		fails "encode into a new directory on a full disk" "$W/err" "No space left" \
			"$GK" rs encode -q -k 2 -m 1 -o "$F/new" "$W/in3m"
		same "encode into a new directory on a full disk" "$F" "$before"
		echo "old output" >"$F/out"
		before=$(snap "$F")
		fails "decode --force onto a full disk" "$W/err" "No space left" \
			"$GK" rs decode -q --force -o "$F/out" "$W/set3m"
		same "decode --force onto a full disk" "$F" "$before"
		umount "$F"
	fi

	R="$W/ro"
	old_set "$R/sh"
	if ! { mount --bind "$R" "$R" && mount -o remount,bind,ro "$R"; } 2>/dev/null; then
		skip "a read-only directory: cannot bind-mount one here"
	else
		before=$(snap "$R")
		fails "encode --force into a read-only directory" "$W/err" "Read-only" \
			"$GK" rs encode -q --force -k 2 -m 1 -o "$R/sh" "$W/in3m"
		fails "encode into a new directory under a read-only one" "$W/err" "Read-only" \
			"$GK" rs encode -q -k 2 -m 1 -o "$R/new" "$W/in3m"
		fails "decode into a read-only directory" "$W/err" "Read-only" \
			"$GK" rs decode -q -o "$R/out" "$W/set3m"
		same "read-only directory" "$R" "$before"
		umount "$R"
	fi
	finish
	exit $?
fi

rm -rf "$W" && mkdir -p "$W" || exit 1
echo "rs_fail_test: work dir $W"
T0=$SECONDS

# A file of 3 MiB and its shards, for the runs that fail on the way.
head -c $((3 << 20)) /dev/urandom >"$W/in3m"
"$GK" rs encode -q -k 2 -m 1 --stripe 64k -o "$W/set3m" "$W/in3m" || fail "encode the 3 MiB set"

# ---- 1. out of memory --------------------------------------------------------------------
# Under `ulimit -v` of 1 GiB, a stripe of 4 x 512 MiB cannot be allocated.
# The input is sparse (1 GiB of nothing on disk); the stripe buffer is
# allocated after the temporaries exist, so their removal is what is tested.
LIMIT_KB=$((1 << 20))
truncate -s 1G "$W/sparse1g"
if ! { (ulimit -v $LIMIT_KB && "$GK" rs encode -q -k 2 -m 1 -o "$W/probe" "$W/in3m"); } 2>/dev/null; then
	skip "out of memory: gemmkit does not run under ulimit -v $LIMIT_KB (a sanitizer build?)"
else
	d="$W/oom"
	old_set "$d"
	before=$(snap "$d")
	fails "encode --force out of memory" "$W/err" "out of memory" \
		bash -c 'ulimit -v '$LIMIT_KB' && exec "$0" rs encode -q --force -k 2 -m 2 --stripe 512M -o "$1" "$2"' \
		"$GK" "$d" "$W/sparse1g"
	same "encode --force out of memory" "$d" "$before"
	fails "encode into a new directory out of memory" "$W/err" "out of memory" \
		bash -c 'ulimit -v '$LIMIT_KB' && exec "$0" rs encode -q -k 2 -m 2 --stripe 512M -o "$1" "$2"' \
		"$GK" "$W/oom_new" "$W/sparse1g"
	check "encode into a new directory out of memory leaves no directory" [ ! -e "$W/oom_new" ]

	# Decode: the headers of a 2 + 1 code of a 1 GiB file in stripes of
	# 512 MiB (the blocks themselves are not needed: the stripe buffer is
	# allocated before any is read).
	if command -v python3 >/dev/null 2>&1; then
		mkdir -p "$W/oom_set" "$W/oom_out"
		python3 - "$W/oom_set" <<'EOF'
import os, struct, sys
def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF
k, m, stripe, size = 2, 1, 512 << 20, 1 << 30
for i in range(k + m):
    h = b"GKRS\r\n\x1a\n" + struct.pack("<HHHHHBBIQQII", 1, 128, k, m, i, 0, 0, stripe, size, 1, stripe, 0)
    h += bytes(range(16)) + struct.pack("<Q", 1700000000) + b"big".ljust(52, b"\0")
    h += struct.pack("<I", crc32c(h))
    open(os.path.join(sys.argv[1], "big.%03d.gkrs" % i), "wb").write(h)
EOF
		echo "old output" >"$W/oom_out/big"
		before=$(snap "$W/oom_out")
		fails "decode --force out of memory" "$W/err" "out of memory" \
			bash -c 'ulimit -v '$LIMIT_KB' && exec "$0" rs decode -q --force -o "$1/big" "$2"' \
			"$GK" "$W/oom_out" "$W/oom_set"
		same "decode --force out of memory" "$W/oom_out" "$before"
	else
		skip "decode out of memory: python3 not found to write the shard headers"
	fi
fi
rm -f "$W/sparse1g"

# ---- 2. a file size limit (a full disk for any user) ---------------------------------------
d="$W/fsize"
old_set "$d"
before=$(snap "$d")
fails "encode --force past a file size limit" "$W/err" "File too large" \
	bash -c 'ulimit -f 1000 && exec "$0" rs encode -q --force -k 2 -m 1 --stripe 64k -o "$1" "$2"' \
	"$GK" "$d" "$W/in3m"
same "encode --force past a file size limit" "$d" "$before"
echo "old output" >"$d/out"
before=$(snap "$d")
fails "decode --force past a file size limit" "$W/err" "File too large" \
	bash -c 'ulimit -f 1000 && exec "$0" rs decode -q --force -o "$1/out" "$2"' "$GK" "$d" "$W/set3m"
same "decode --force past a file size limit" "$d" "$before"

# ---- 3. a full disk and a read-only directory (private mount namespace) ---------------------
if [ "$(id -u)" -eq 0 ]; then NS="unshare -m --propagation private"; else NS="unshare -rm --propagation private"; fi
if $NS true 2>/dev/null; then
	out=$($NS bash "$0" "$GK" "$W" ns 2>&1)
	echo "$out" | grep -v '^rs_fail_test (ns)'
	p=$(echo "$out" | sed -n 's/^rs_fail_test (ns): \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
	if [ -n "$p" ]; then
		read -r np nf ns <<<"$p"
		passed=$((passed + np))
		failed=$((failed + nf))
		skipped=$((skipped + ns))
	else
		fail "the mount namespace part did not finish"
	fi
else
	skip "a full disk: no private mount namespace here (unshare)"
	if [ "$(id -u)" -ne 0 ]; then
		d="$W/ro"
		old_set "$d/sh"
		chmod 555 "$d" "$d/sh"
		before=$(snap "$d")
		fails "encode --force into a read-only directory" "$W/err" "Permission denied" \
			"$GK" rs encode -q --force -k 2 -m 1 -o "$d/sh" "$W/in3m"
		fails "decode into a read-only directory" "$W/err" "Permission denied" \
			"$GK" rs decode -q -o "$d/out" "$W/set3m"
		same "read-only directory" "$d" "$before"
		chmod 755 "$d" "$d/sh"
	else
		skip "a read-only directory: root ignores chmod and no bind mount is possible"
	fi
fi

# ---- 4. an interrupted run -----------------------------------------------------------------
# The run is stopped (SIGSTOP) as soon as a temporary exists, then sent
# SIGINT or SIGTERM and continued: it must remove its temporaries and die of
# the signal. A background job of a script ignores SIGINT unless it is reset.
INT_WRAP=""
if env --default-signal=INT true 2>/dev/null; then INT_WRAP="env --default-signal=INT"; fi

# interrupt SIG DIR COMMAND...: run COMMAND, stop it once DIR holds a
# temporary, send SIG; 0 when it died of SIG with the temporary existing
# until then.
interrupt() {
	local sig=$1 dir=$2 pid t found=""
	shift 2
	"$@" 2>"$W/err" &
	pid=$!
	t=$SECONDS
	while [ -z "$found" ] && [ $((SECONDS - t)) -lt 20 ] && kill -0 $pid 2>/dev/null; do
		for f in "$dir"/.*.tmp-*; do
			[ -e "$f" ] && found=$f && break
		done
	done
	kill -STOP $pid 2>/dev/null
	if [ -z "$found" ] || [ ! -e "$found" ]; then
		kill -CONT $pid 2>/dev/null
		wait $pid
		echo "no temporary seen before the run ended (status $?)"
		return 2
	fi
	kill -"$sig" $pid
	kill -CONT $pid
	wait $pid
	local rc=$? want=$((128 + $(kill -l "$sig")))
	[ $rc -eq $want ] || { echo "exit status $rc, expected $want"; cat "$W/err"; return 1; }
	return 0
}
# interrupted DESCRIPTION SIG DIR SNAPSHOT COMMAND...
interrupted() {
	local d=$1 sig=$2 dir=$3 before=$4
	shift 4
	interrupt "$sig" "$dir" "$@"
	case $? in
	0) pass; same "$d" "$dir" "$before" ;;
	2) skip "$d: the run ended before it could be interrupted" ;;
	*) fail "$d" ;;
	esac
}

truncate -s 1G "$W/sparse1g"
d="$W/int_enc"
old_set "$d"
before=$(snap "$d")
if [ -n "$INT_WRAP" ]; then
	interrupted "encode --force, SIGINT" INT "$d" "$before" \
		$INT_WRAP "$GK" rs encode -q --force --threads 1 -k 4 -m 2 --stripe 64k -o "$d" "$W/sparse1g"
else
	skip "SIGINT: env --default-signal is missing"
fi
interrupted "encode --force, SIGTERM" TERM "$d" "$before" \
	"$GK" rs encode -q --force -k 4 -m 2 --stripe 64k -o "$d" "$W/sparse1g"
rm -f "$W/sparse1g"

# Decode: a set of 64 MiB in 4 KiB stripes, one data shard lost, so that
# every stripe is rebuilt.
truncate -s 64M "$W/sparse64m"
"$GK" rs encode -q -k 2 -m 1 --stripe 4k -o "$W/set64m" "$W/sparse64m" || fail "encode 64 MiB"
rm -f "$W/sparse64m" "$W/set64m/sparse64m.000.gkrs"
d="$W/int_dec"
mkdir -p "$d"
echo "old output" >"$d/out"
before=$(snap "$d")
if [ -n "$INT_WRAP" ]; then
	interrupted "decode --force, SIGINT" INT "$d" "$before" \
		$INT_WRAP "$GK" rs decode -q --force --threads 1 -o "$d/out" "$W/set64m"
fi
interrupted "decode --force, SIGTERM" TERM "$d" "$before" \
	"$GK" rs decode -q --force --threads 1 -o "$d/out" "$W/set64m"
# And after all that, the same runs complete.
check "decode of the same set completes" "$GK" rs decode -q --force -o "$d/out" "$W/set64m"
check "... to the original size" [ "$(stat -c %s "$d/out")" -eq $((64 << 20)) ]

echo "rs_fail_test: $((SECONDS - T0)) s"
if finish; then
	rm -rf "$W"
	exit 0
fi
echo "rs_fail_test: files kept in $W"
exit 1

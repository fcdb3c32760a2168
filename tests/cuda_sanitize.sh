#!/bin/sh
# cuda_sanitize.sh SANITIZER TOOL TEST - run the GPU test under
# compute-sanitizer (TOOL: memcheck or racecheck) on its short case list,
# which reaches every cuda.* kernel. Exit 77 (skipped) without a device.
# A reported hazard or error fails the test. (No leak check: the pinned
# staging buffers of the host-pointer path are kept for the life of the
# process by design.)
set -u
san=$1 tool=$2 test=$3
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
	echo "skipped: no CUDA device"
	exit 77
fi
extra=""
[ "$tool" = racecheck ] && extra="--racecheck-report hazard"
GK_TEST_SMALL=1 "$san" --tool "$tool" $extra --error-exitcode 3 "$test"
rc=$?
[ $rc -eq 77 ] && { echo "skipped: the test found no device"; exit 77; }
exit $rc

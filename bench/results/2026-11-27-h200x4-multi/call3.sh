#!/bin/bash
# Run 3 (run from the repository root): repeat of the rows that scaled
# worst, with nvidia-smi dmon (read-only) sampling SM use and PCIe traffic of
# every GPU each second. Builds first when build/ is not there.
set -o pipefail
export NCCL_NVLS_ENABLE=0
O=${1:?usage: call3.sh OUTDIR}; mkdir -p "$O"
if [ ! -x build/gemmkit ]; then
  GK_SKIP_DEPS=1 JOBS=64 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" timeout 200 ./build.sh build >"$O/build3.log" 2>&1 || exit 1
fi
nvidia-smi dmon -s put -d 1 -o T >"$O/dmon.log" 2>&1 &
DM=$!
R() { echo "== build/gemmkit bench --suite gpu-multi --reps 1 $*" | tee -a "$O/rerun.log"
  timeout 260 build/gemmkit bench --suite gpu-multi --reps 1 "$@" 2>&1 | tee -a "$O/rerun.log"
  echo "rc=$? at $(date -u +%T)" | tee -a "$O/rerun.log"; }
date -u +%T >>"$O/rerun.log"
R --sizes 32768 --algos gemmkit-d1,gemmkit-d2,gemmkit-d4,gemmkit-det-d1,gemmkit-det-d2,gemmkit-tf32-d1,gemmkit-tf32-d2,gemmkit-tf32-d4 --out "$O/r32768"
R --sizes 65536 --algos gemmkit-accurate-d1,gemmkit-accurate-d2,gemmkit-accurate-d4,gemmkit-tf32-d1,gemmkit-tf32-d2,gemmkit-tf32-d4,cublasxt-d4 --out "$O/r65536"
kill $DM
cd "$O" && tar czf rerun_tables.tgz r32768 r65536 && rm -rf r32768 r65536
ls -la "$O"

#!/bin/bash
# On the machine of run.sh, after it (build/ present): the gpu-multi
# one-device cells at 32768 with the driver before the change and after,
# alternately, twice each (the driver before given as the first argument).
set -o pipefail
BEFORE=${1:?usage: ab.sh BEFORE.cu OUTDIR}; O=${2:?}; mkdir -p "$O"
cp src/cuda/hostmem/hm_driver.cu "$O/after.cu"
for r in 1 2; do
  for v in before after; do
    if [ $v = before ]; then cp "$BEFORE" src/cuda/hostmem/hm_driver.cu; else cp "$O/after.cu" src/cuda/hostmem/hm_driver.cu; fi
    timeout 120 cmake --build build -j16 >"$O/build_$v$r.log" 2>&1 || { echo "build $v failed"; tail "$O/build_$v$r.log"; exit 1; }
    timeout 150 build/gemmkit bench --suite gpu-multi --no-plot --reps 3 --sizes 32768 --out "$O/$v$r" \
      --algos gemmkit-d1,gemmkit-accurate-d1,gemmkit-tf32-d1 >"$O/bench_$v$r.log" 2>&1
    echo "$v $r: $(grep -E '^\| gemmkit' "$O/$v$r/results.md" | head -3 | awk -F'|' '{printf "%s %s;", $2, $4}')"
  done
done
cp "$O/after.cu" src/cuda/hostmem/hm_driver.cu; rm "$O/after.cu"

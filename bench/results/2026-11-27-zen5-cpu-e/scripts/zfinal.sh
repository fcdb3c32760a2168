#!/bin/bash
. /tmp/proto/env.sh
cd /tmp; NEW=/tmp/bnew/libgemmkit.so.0; OLD=/tmp/bold2/libgemmkit.so.0; L=/work/main/bench/results/2026-11-27-zen5-cpu-e/logs
{ echo "# $(date -u); $(lscpu | grep 'Model name' | sed 's/  */ /g'), family 26 model 2 (Zen 5), 2 vCPUs, 1 MiB L2; 1 thread"
  echo "# OpenBLAS 0.3.21 OPENBLAS_CORETYPE=SkylakeX, BLIS 0.9.0 BLIS_ARCH_TYPE=0 (skx); gemmkit old = commit 5e0f996, new = commit 56d9362 (dot tiles)"
  echo "# abdl A B type m n k rounds calls: A and B alternated call by call; B/A median of per-round ratios > 1: B faster"
  for s in "s 64 4 64" "s 128 4 128" "s 64 8 64" "s 128 8 128" "s 64 5 64" "s 64 6 64" "s 16 8 256" "s 64 8 300" "s 16 4 256" "s 512 4 512" "s 1000 2 1000" "d 64 2 64" "d 64 4 64" "d 16 4 256" "d 128 4 128" "d 512 2 512"; do
    echo "$s | OpenBLAS vs new: $(./abdl $OB $NEW $s 1001 20 | sed 's/.*: A/A/') | BLIS vs new: $(BLIS_ARCH_TYPE=0 ./abdl $BL $NEW $s 301 20 | sed 's/.*ratios//') | old vs new: $(./abdl $OLD $NEW $s 1001 20 | sed 's/.*ratios//')"
  done
  for s in "s 4096 4 4096" "d 4096 4 4096"; do
    echo "$s | OpenBLAS vs new: $(./abdl $OB $NEW $s 21 2 | sed 's/.*: A/A/') | old vs new: $(./abdl $OLD $NEW $s 21 2 | sed 's/.*ratios//')"
  done
} > $L/dot_tiles.log 2>&1
{ echo "# $(date -u); old (5e0f996) vs new (56d9362), call by call, 301 rounds of 10 calls, 1 thread; n = width of C; ratio > 1: new faster"; /tmp/sweep.sh; } > $L/dot_sweep.log 2>&1

#!/bin/bash
# Xeon of the device machine: the GFNI row changes (gk_h0 = 7b5c421, gk_head = HEAD) A/B, the shard layout, the gf256 suite.
R=$OUT/r; mkdir -p $R
B=$PWD/build-gf
export LD_LIBRARY_PATH=$B
{ date -u; lscpu | grep -E "Model name|Model:|CPU family|^CPU\(s\)|L1d|L2|L3|Flags" | sed 's/Flags:.*\(gfni\).*/Flags: ... gfni .../'; } > $R/machine.txt 2>&1
{ echo "# $(date -u) gfdl A/B pinned to CPU 3; AB: A=7b5c421 B=HEAD; BA: reversed"
for arch in "" avx2; do for a in "4 2 65536 1 11 0" "4 2 65536 1 11 1" "6 3 65536 1 11 1" "4 2 16384 1 11 0" "12 4 65536 1 11 1" "4 2 1048576 1 7 0"; do
 echo "GK_ARCH=$arch AB $(GK_ARCH=$arch taskset -c 3 $B/gfdl $B/gk_h0.so $B/gk_head.so $a)"
 echo "GK_ARCH=$arch BA $(GK_ARCH=$arch taskset -c 3 $B/gfdl $B/gk_head.so $B/gk_h0.so $a)"; done; done; } > $R/gfni_rows12_ab.log 2>&1
{ echo "# $(date -u) shard layout, pinned to CPU 3, HEAD, 1 thread encode"
for len in 16384 65536; do for km in "6 3" "10 4" "12 4"; do for pad in 0 64 2048; do
 g=$(taskset -c 3 $B/gfdl4 $B/gk_head.so $B/gk_head.so $km $len 1 7 0 $pad 0 | awk '{print $10}')
 i=$(taskset -c 3 $B/isal_layout_bin $km $len $pad | awk '{print $6}')
 echo "$km len $len pad $pad: gemmkit $g isal $i GB/s"; done; done; done; } > $R/gf_layout.log 2>&1
$B/gemmkit_cli bench --suite gf256 --out $R/gf256 > $R/gf256.log 2>&1
GK_ARCH=avx2 $B/gemmkit_cli bench --suite gf256 --out $R/gf256-avx2-gfni > $R/gf256-avx2.log 2>&1
cd $OUT && tar czf res.tgz r

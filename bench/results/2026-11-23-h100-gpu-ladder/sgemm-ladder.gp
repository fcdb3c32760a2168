# Redraw with: gnuplot sgemm-ladder.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced font ",11"
} else {
  set terminal png size 1100,650 noenhanced
}
set output "sgemm-ladder.png"
set title "SGEMM ladder, row-major C = A*B, operands in GPU memory: NVIDIA H100 80GB HBM3 (sm_90) (2026-11-23 19:43:50 UTC)"
set xlabel "N (m = n = k)"
set ylabel "GFLOPS"
set datafile separator "\t"
set datafile missing "?"
set grid
set key outside right top
set yrange [0:*]
set logscale x 2
set format x "%g"
plot \
  "sgemm-ladder.dat" using 1:3 with linespoints lw 2 lc rgb "#1f77b4" pt 1 dt 1 title "cuda.s02_k1_naive", \
  "sgemm-ladder.dat" using 1:4 with linespoints lw 2 lc rgb "#d62728" pt 2 dt 1 title "cuda.s00_plain", \
  "sgemm-ladder.dat" using 1:5 with linespoints lw 2 lc rgb "#2ca02c" pt 3 dt 1 title "cuda.s00_plain_xy", \
  "sgemm-ladder.dat" using 1:6 with linespoints lw 2 lc rgb "#9467bd" pt 4 dt 1 title "cuda.s02_k2_smem", \
  "sgemm-ladder.dat" using 1:7 with linespoints lw 2 lc rgb "#ff7f0e" pt 5 dt 1 title "cuda.s00_shared", \
  "sgemm-ladder.dat" using 1:8 with linespoints lw 2 lc rgb "#17becf" pt 6 dt 1 title "cuda.s02_k3_tile1d", \
  "sgemm-ladder.dat" using 1:9 with linespoints lw 2 lc rgb "#8c564b" pt 7 dt 1 title "cuda.s02_k4_tile2d", \
  "sgemm-ladder.dat" using 1:10 with linespoints lw 2 lc rgb "#e377c2" pt 8 dt 1 title "cuda.s02_k5_regcache", \
  "sgemm-ladder.dat" using 1:11 with linespoints lw 2 lc rgb "#7f7f7f" pt 9 dt 1 title "cuda.s00_reg4x4", \
  "sgemm-ladder.dat" using 1:12 with linespoints lw 2 lc rgb "#bcbd22" pt 10 dt 1 title "cuda.s02_k6_float4", \
  "sgemm-ladder.dat" using 1:13 with linespoints lw 2 lc rgb "#000000" pt 11 dt 1 title "cuda.s00_prefetch", \
  "sgemm-ladder.dat" using 1:14 with linespoints lw 2 lc rgb "#00008b" pt 12 dt 1 title "cuda.s02_k7_prefetch"

# Redraw with: gnuplot dgemm-ladder.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced font ",11"
} else {
  set terminal png size 1100,650 noenhanced
}
set output "dgemm-ladder.png"
set title "DGEMM ladder, row-major C = A*B, operands in GPU memory: NVIDIA H100 80GB HBM3 (sm_90) (2026-11-23 19:44:37 UTC)"
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
  "dgemm-ladder.dat" using 1:3 with linespoints lw 2 lc rgb "#1f77b4" pt 1 dt 1 title "cuda.s01_global_b8", \
  "dgemm-ladder.dat" using 1:4 with linespoints lw 2 lc rgb "#d62728" pt 2 dt 1 title "cuda.s01_global_b16", \
  "dgemm-ladder.dat" using 1:5 with linespoints lw 2 lc rgb "#2ca02c" pt 3 dt 1 title "cuda.s01_global_b32", \
  "dgemm-ladder.dat" using 1:6 with linespoints lw 2 lc rgb "#9467bd" pt 4 dt 1 title "cuda.s01_shared_b8", \
  "dgemm-ladder.dat" using 1:7 with linespoints lw 2 lc rgb "#ff7f0e" pt 5 dt 1 title "cuda.s01_shared_b16", \
  "dgemm-ladder.dat" using 1:8 with linespoints lw 2 lc rgb "#17becf" pt 6 dt 1 title "cuda.s01_shared_b32", \
  "dgemm-ladder.dat" using 1:9 with linespoints lw 2 lc rgb "#8c564b" pt 7 dt 1 title "cuda.s01_rowcol"

# Redraw with: gnuplot dgemm.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced font ",11"
} else {
  set terminal png size 1100,650 noenhanced
}
set output "dgemm.png"
set title "DGEMM, row-major C = A*B, operands in GPU memory: NVIDIA H100 80GB HBM3 (sm_90) (2026-11-23 19:44:37 UTC)"
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
  "dgemm.dat" using 1:3 with linespoints lw 2 lc rgb "#1f77b4" pt 1 dt 1 title "cuda.dgemm", \
  "dgemm.dat" using 1:4 with linespoints lw 2 lc rgb "#d62728" pt 2 dt 2 title "cuBLAS"

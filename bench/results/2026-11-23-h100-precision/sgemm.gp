# Redraw with: gnuplot sgemm.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced font ",11"
} else {
  set terminal png size 1100,650 noenhanced
}
set output "sgemm.png"
set title "SGEMM, row-major C = A*B, operands in GPU memory: NVIDIA H100 80GB HBM3 (sm_90, 79.2 GiB) (2026-11-23 23:50:49 UTC) (NVIDIA H100 80GB HBM3)"
set xlabel "m x n x k"
set ylabel "GFLOPS"
set datafile separator "\t"
set datafile missing "?"
set grid
set key outside right top
set yrange [0:*]
set xrange [0.5:8.5]
set xtics rotate by -30
plot \
  "sgemm.dat" using 1:3:xtic(2) with linespoints lw 2 lc rgb "#1f77b4" pt 1 dt 1 title "cuda.sgemm", \
  "sgemm.dat" using 1:4:xtic(2) with linespoints lw 2 lc rgb "#d62728" pt 2 dt 1 title "cuda.sgemm_3xtf32", \
  "sgemm.dat" using 1:5:xtic(2) with linespoints lw 2 lc rgb "#2ca02c" pt 3 dt 1 title "cuda.sgemm_tf32", \
  "sgemm.dat" using 1:6:xtic(2) with linespoints lw 2 lc rgb "#9467bd" pt 4 dt 2 title "cuBLAS", \
  "sgemm.dat" using 1:7:xtic(2) with linespoints lw 2 lc rgb "#ff7f0e" pt 5 dt 2 title "cuBLAS TF32"

# Redraw with: gnuplot sgemm-2t.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced font ",11"
} else {
  set terminal png size 1100,650 noenhanced
}
set output "sgemm-2t.png"
set title "SGEMM, 2 threads, row-major C = A*B: AMD EPYC (2026-11-21 21:06:50 UTC)"
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
  "sgemm-2t.dat" using 1:3 with linespoints lw 2 lc rgb "#1f77b4" pt 1 dt 1 title "cpu.plain", \
  "sgemm-2t.dat" using 1:4 with linespoints lw 2 lc rgb "#d62728" pt 2 dt 1 title "cpu.trans", \
  "sgemm-2t.dat" using 1:5 with linespoints lw 2 lc rgb "#2ca02c" pt 3 dt 1 title "cpu.ikj", \
  "sgemm-2t.dat" using 1:6 with linespoints lw 2 lc rgb "#9467bd" pt 4 dt 1 title "cpu.ikj_omp", \
  "sgemm-2t.dat" using 1:7 with linespoints lw 2 lc rgb "#ff7f0e" pt 5 dt 1 title "cpu.block64", \
  "sgemm-2t.dat" using 1:8 with linespoints lw 2 lc rgb "#17becf" pt 6 dt 1 title "cpu.block64_aligned", \
  "sgemm-2t.dat" using 1:9 with linespoints lw 2 lc rgb "#8c564b" pt 7 dt 1 title "cpu.unroll_2x4", \
  "sgemm-2t.dat" using 1:10 with linespoints lw 2 lc rgb "#e377c2" pt 8 dt 1 title "cpu.avx2_3x32", \
  "sgemm-2t.dat" using 1:11 with linespoints lw 2 lc rgb "#7f7f7f" pt 9 dt 1 title "cpu.avx512_6x64", \
  "sgemm-2t.dat" using 1:12 with linespoints lw 2 lc rgb "#bcbd22" pt 10 dt 1 title "cpu.strassen_seed", \
  "sgemm-2t.dat" using 1:13 with linespoints lw 2 lc rgb "#000000" pt 11 dt 1 title "cpu.blocked", \
  "sgemm-2t.dat" using 1:14 with linespoints lw 2 lc rgb "#00008b" pt 12 dt 1 title "cpu.strassen", \
  "sgemm-2t.dat" using 1:15 with linespoints lw 2 lc rgb "#1f77b4" pt 13 dt 1 title "gemmkit auto", \
  "sgemm-2t.dat" using 1:16 with linespoints lw 2 lc rgb "#d62728" pt 1 dt 2 title "OpenBLAS 0.3.21"

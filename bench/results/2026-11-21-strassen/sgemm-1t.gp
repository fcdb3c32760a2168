# Redraw with: gnuplot sgemm-1t.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced font ",11"
} else {
  set terminal png size 1100,650 noenhanced
}
set output "sgemm-1t.png"
set title "SGEMM, 1 thread, row-major C = A*B: AMD EPYC (2026-11-21 20:56:04 UTC)"
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
  "sgemm-1t.dat" using 1:3 with linespoints lw 2 lc rgb "#1f77b4" pt 1 dt 1 title "cpu.strassen_seed", \
  "sgemm-1t.dat" using 1:4 with linespoints lw 2 lc rgb "#d62728" pt 2 dt 1 title "cpu.blocked", \
  "sgemm-1t.dat" using 1:5 with linespoints lw 2 lc rgb "#2ca02c" pt 3 dt 1 title "cpu.strassen", \
  "sgemm-1t.dat" using 1:6 with linespoints lw 2 lc rgb "#9467bd" pt 4 dt 1 title "gemmkit auto"

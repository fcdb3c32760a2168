# Redraw with: gnuplot dgemm.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced font ",11"
} else {
  set terminal png size 1100,650 noenhanced
}
set output "dgemm.png"
set title "DGEMM, 2 threads, row-major C = A*B: Oxide Virtual Turin-like Processor (2026-11-30 02:21:04 UTC)"
set xlabel "m x n x k"
set ylabel "GFLOPS"
set y2label "% of the 108.6 GFLOPS peak"
set y2tics 0, 10 format "%g%%"
set ytics nomirror
set link y2 via y * 100 / 108.58492803009193 inverse y * 108.58492803009193 / 100
set datafile separator "\t"
set datafile missing "?"
set grid
set key outside right top
set yrange [0:*]
set xrange [0.5:15.5]
set xtics rotate by -30
plot \
  "dgemm.dat" using 1:3:xtic(2) with linespoints lw 2 lc rgb "#1f77b4" pt 1 dt 1 title "cpu.blocked", \
  "dgemm.dat" using 1:4:xtic(2) with linespoints lw 4 lc rgb "#d62728" pt 2 dt 1 title "gemmkit auto", \
  "dgemm.dat" using 1:5:xtic(2) with linespoints lw 2 lc rgb "#2ca02c" pt 3 dt 2 title "OpenBLAS 0.3.21", \
  "dgemm.dat" using 1:6:xtic(2) with linespoints lw 2 lc rgb "#9467bd" pt 4 dt 2 title "OpenBLAS 0.3.21 (OPENBLAS_CORETYPE=Haswell)", \
  "dgemm.dat" using 1:7:xtic(2) with linespoints lw 2 lc rgb "#ff7f0e" pt 5 dt 2 title "BLIS 0.9.0", \
  "dgemm.dat" using 1:8:xtic(2) with linespoints lw 2 lc rgb "#17becf" pt 6 dt 2 title "BLIS 0.9.0 (BLIS_ARCH_TYPE=3: haswell)"

# Redraw with: gnuplot sgemm.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced font ",11"
} else {
  set terminal png size 1100,650 noenhanced
}
set output "sgemm.png"
set title "SGEMM, 1 thread, row-major C = A*B: Intel(R) Xeon(R) Processor (2026-11-29 03:02:08 UTC)"
set xlabel "N (m = n = k)"
set ylabel "GFLOPS"
set y2label "% of the 99.09 GFLOPS peak"
set y2tics 0, 20 format "%g%%"
set ytics nomirror
set link y2 via y * 100 / 99.091839320458291 inverse y * 99.091839320458291 / 100
set datafile separator "\t"
set datafile missing "?"
set grid
set key outside right top
set yrange [0:*]
set logscale x 2
set format x "%g"
plot \
  "sgemm.dat" using 1:3 with linespoints lw 4 lc rgb "#1f77b4" pt 1 dt 1 title "gemmkit auto", \
  "sgemm.dat" using 1:4 with linespoints lw 2 lc rgb "#d62728" pt 2 dt 2 title "OpenBLAS 0.3.21 (OPENBLAS_CORETYPE=SkylakeX)", \
  "sgemm.dat" using 1:5 with linespoints lw 2 lc rgb "#2ca02c" pt 3 dt 2 title "BLIS 0.9.0 (BLIS_ARCH_TYPE=0: skx)"

# Redraw with: gnuplot hxv-device.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced font ",11"
} else {
  set terminal png size 1100,650 noenhanced
}
set output "hxv-device.png"
set title "E (m x k) F (k x n) in device memory (NVIDIA H100 80GB HBM3)"
set xlabel "(m, n, k)"
set ylabel "GB/s of E and F"
set datafile separator "\t"
set datafile missing "?"
set grid
set key outside right top
set yrange [0:*]
set xrange [0.5:6.5]
set xtics rotate by -30
plot \
  "hxv-device.dat" using 1:3:xtic(2) with linespoints lw 2 lc rgb "#1f77b4" pt 1 dt 2 title "floor", \
  "hxv-device.dat" using 1:4:xtic(2) with linespoints lw 2 lc rgb "#d62728" pt 2 dt 1 title "cuda.hxv_basic", \
  "hxv-device.dat" using 1:5:xtic(2) with linespoints lw 2 lc rgb "#2ca02c" pt 3 dt 1 title "cuda.hxv_phvm", \
  "hxv-device.dat" using 1:6:xtic(2) with linespoints lw 2 lc rgb "#9467bd" pt 4 dt 1 title "cuda.hxv", \
  "hxv-device.dat" using 1:7:xtic(2) with linespoints lw 2 lc rgb "#ff7f0e" pt 5 dt 1 title "cublas"

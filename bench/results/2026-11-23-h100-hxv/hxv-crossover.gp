# Redraw with: gnuplot hxv-crossover.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced font ",11"
} else {
  set terminal png size 1100,650 noenhanced
}
set output "hxv-crossover.png"
set title "E F from host memory, m = n = 5 (end to end) (NVIDIA H100 80GB HBM3)"
set xlabel "k"
set ylabel "GB/s of E and F"
set datafile separator "\t"
set datafile missing "?"
set grid
set key outside right top
set yrange [0:*]
set xrange [0.5:5.5]
set xtics rotate by -30
plot \
  "hxv-crossover.dat" using 1:3:xtic(2) with linespoints lw 2 lc rgb "#1f77b4" pt 1 dt 1 title "cpu-auto", \
  "hxv-crossover.dat" using 1:4:xtic(2) with linespoints lw 2 lc rgb "#d62728" pt 2 dt 1 title "cuda.hxv-host"

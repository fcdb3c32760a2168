# Redraw with: gnuplot gpu_gf256_encode.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1100,650 noenhanced font ",11"
} else {
  set terminal png size 1100,650 noenhanced
}
set output "gpu_gf256_encode.png"
set title "Encode from host buffers: GB/s of data (NVIDIA H100 80GB HBM3)"
set xlabel "code k+m"
set ylabel "GB/s"
set datafile separator "\t"
set datafile missing "?"
set grid
set key outside right top
set yrange [0:*]
set xrange [0.5:4.5]
set xtics rotate by -30
plot \
  "gpu_gf256_encode.dat" using 1:3:xtic(2) with linespoints lw 2 lc rgb "#1f77b4" pt 1 dt 1 title "h2d-copy", \
  "gpu_gf256_encode.dat" using 1:4:xtic(2) with linespoints lw 2 lc rgb "#d62728" pt 2 dt 1 title "cuda-pinned", \
  "gpu_gf256_encode.dat" using 1:5:xtic(2) with linespoints lw 2 lc rgb "#2ca02c" pt 3 dt 1 title "cuda-pageable", \
  "gpu_gf256_encode.dat" using 1:6:xtic(2) with linespoints lw 2 lc rgb "#9467bd" pt 4 dt 1 title "cpu"

# Redraw with: gnuplot gf256.gp (in this directory)
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1400,900 noenhanced font ",11"
} else {
  set terminal png size 1400,900 noenhanced
}
set output "gf256.png"
set multiplot layout 2,1 title "GF(2^8) Reed-Solomon, GB/s of data: Oxide Virtual Turin-like Processor (2026-11-30 02:40:43 UTC)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel 'GB/s of data'
set grid ytics
set key top left
set yrange [0:*]
set xtics rotate by -30
set title 'encode'
plot 'gf256.dat' index 0 using 2:xtic(1) title columnheader(2), '' index 0 using 3 title columnheader(3)
set title 'decode (2 lost data shards, one erasure pattern)'
plot 'gf256.dat' index 1 using 2:xtic(1) title columnheader(2), '' index 1 using 3 title columnheader(3)
unset multiplot

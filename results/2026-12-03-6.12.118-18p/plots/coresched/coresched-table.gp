# gnuplot script made by tools/bench/coresched/plot-table from /work/main/results/2026-12-03-6.12.118-18p/samples.csv
# run it in this directory: gnuplot coresched-table.gp
set terminal pngcairo size 900,600 noenhanced
set output 'coresched-table.png'
set title "sysbench 95th percentile latency, N sysbench + N vecload threads\n(guest-tcg: emulated, not a speed result)"
set xlabel 'threads N of each (N/N)'
set ylabel 'sysbench p95 latency (ms), mean +/- stddev'
set logscale x 2
set xrange [0.7:12]
set yrange [0:*]
set datafile missing '?'
set key top left
set grid
# old: dashed, lighter, open points (libgd's png has no dashes); new: solid, filled
set style line 1 lc rgb '#7fb3d9' lw 2 pt 6 dt 2
set style line 2 lc rgb '#eb9394' lw 2 pt 4 dt 2
set style line 3 lc rgb '#96d096' lw 2 pt 8 dt 2
set style line 4 lc rgb '#1f77b4' lw 2 pt 7 dt 1
set style line 5 lc rgb '#d62728' lw 2 pt 5 dt 1
set style line 6 lc rgb '#2ca02c' lw 2 pt 9 dt 1
plot \
  'coresched-table.dat' using 1:2:3 with yerrorlines ls 1 title 'old baseline', \
  'coresched-table.dat' using 1:6:7 with yerrorlines ls 3 title 'old nosmt', \
  'coresched-table.dat' using 1:8:9 with yerrorlines ls 4 title 'new baseline', \
  'coresched-table.dat' using 1:10:11 with yerrorlines ls 5 title 'new coresched', \
  'coresched-table.dat' using 1:12:13 with yerrorlines ls 6 title 'new nosmt'

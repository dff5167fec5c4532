# gnuplot avc-dominant-chains.gp: avc-dominant-chains.png from avc-dominant-chains.dat
set terminal pngcairo size 900,500 noenhanced
set output 'avc-dominant-chains.png'
set title 'AVC, set dominant: 500 entries in 512 slots, mean of 100 samples'
set xlabel 'chain length'
set ylabel 'buckets (log scale)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [0.05:*]
set key top right
set grid ytics
plot  'avc-dominant-chains.dat' using 2:xtic(1) title 'old', \
     'avc-dominant-chains.dat' using 3:xtic(1) title 'new', \
     'avc-dominant-chains.dat' using 4:xtic(1) title 'random'

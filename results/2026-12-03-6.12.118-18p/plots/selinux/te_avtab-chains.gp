# gnuplot te_avtab-chains.gp: te_avtab-chains.png from te_avtab-chains.dat
set terminal pngcairo size 900,500 noenhanced
set output 'te_avtab-chains.png'
set title 'te_avtab of the policy: 102340 entries in 32768 slots (random: mean of 200 seeds)'
set xlabel 'chain length'
set ylabel 'buckets (log scale)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [0.05:*]
set key top right
set grid ytics
plot  'te_avtab-chains.dat' using 2:xtic(1) title 'old', \
     'te_avtab-chains.dat' using 3:xtic(1) title 'new', \
     'te_avtab-chains.dat' using 4:xtic(1) title 'random'

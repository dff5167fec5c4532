set terminal png size 900,500
set output 'copy-table.png'
set title 'copy\_user, fixed length, TSC ticks per copy (median; host CPU, user space)'
set xlabel 'length (bytes)'
set ylabel 'ticks'
set key top left
set grid
plot 'copy-table.dat' using 1:2 with linespoints title 'old rep\_movs\_alternative', \
     '' using 1:3 with linespoints title 'new rep\_movs\_alternative', \
     '' using 1:4 with linespoints title 'inline rep movsb'

# ftlens plot cpu: per-CPU busy % over time. ftlens wrote this from
# data/plot-cpu.gp; the data is @DAT@. Run again with: gnuplot @GP@
set terminal @TERM@
set output '@OUT@'
set title '@TITLE@' noenhanced
set grid
set key outside right autotitle columnheader noenhanced
set xlabel 'time since the first event (s)' noenhanced
set ylabel 'busy (% of each bin)' noenhanced
set yrange [0:100]
plot for [i=2:@NCOL@] '@DAT@' using 1:i with lines

# ftlens plot cpu: per-CPU busy % over time, a line per CPU. ftlens wrote
# this from data/plot-cpu.gp; the data is @DAT@. Run again with: gnuplot @GP@
set terminal @TERM@
set output '@OUT@'
set title '@TITLE@' noenhanced
set grid
set key outside right autotitle columnheader noenhanced
set xlabel 'time since the first event (@TUNIT@)' noenhanced
set ylabel 'busy (% of each @BIN@ bin)' noenhanced
# a margin above 100 % and below 0 %, so that a line there is not the frame
set yrange [-4:104]
set ytics 0, 20, 100
set xrange [0:@XMAX@]
plot for [i=2:@NCOL@] '@DAT@' index 0 using 1:i with lines lw 1.5

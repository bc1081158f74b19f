# ftlens plot rate: events per second over time, one line per CPU or per
# event name (the busiest; the others summed), markers as dashed lines.
# ftlens wrote this from data/plot-rate.gp; the data is @DAT@.
# Run again with: gnuplot @GP@
set terminal @TERM@
set output '@OUT@'
set title '@TITLE@' noenhanced
set grid
set key outside right noenhanced
set xlabel 'time since the first event (@TUNIT@)' noenhanced
set ylabel 'events per second (bins of @BIN@)' noenhanced
set xrange [0:@XMAX@]
# room above the highest bin and below zero, so that no line is the frame
set autoscale yfix
set offsets 0, 0, graph 0.05, graph 0.03
@MARKERS@
plot @PLOT@

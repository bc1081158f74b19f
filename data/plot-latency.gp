# ftlens plot latency: wakeup latency, histogram (log x) and CDF, RT and
# normal priorities apart. ftlens wrote this from data/plot-latency.gp;
# the data is @DAT@. Run again with: gnuplot @GP@
set terminal @TERM@
set output '@OUT@'
set multiplot layout 1,2 title '@TITLE@' noenhanced
set grid
set logscale x
set xlabel 'wakeup latency (us)' noenhanced
# each class as its share, side by side in a bin: 21 RT wakeups beside
# 1045 normal ones were a line under their bars
set ylabel '% of the class wakeups per bin (10 bins per decade)' noenhanced
set title 'Histogram' noenhanced
set style fill transparent solid 0.4
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot @HIST@
set ylabel 'fraction of wakeups at or below' noenhanced
set title 'CDF' noenhanced
# a margin, so that the curve's end at 1 is not the frame
set offsets 0, 0, 0, 0
set yrange [-0.04:1.06]
set ytics 0, 0.2, 1
set key bottom right
plot @CDF@
unset multiplot

# ftlens plot durations: call durations of the functions asked for,
# histogram (log x) and CDF, with p50, p95 and p99 in the key. Up to 256
# calls of a function every duration is kept; past that they come from
# log-linear buckets, each counted at its midpoint, within 1.6% of the
# true value, as ftlens's percentiles everywhere. ftlens wrote this from
# data/plot-durations.gp; the data is @DAT@. Run again with: gnuplot @GP@
set terminal @TERM@
set output '@OUT@'
set multiplot layout 2,1 title '@TITLE@' noenhanced
set grid
set logscale x
# the data is in us; the axis in seconds with SI prefixes (10 ns .. 10 s)
set xlabel 'call duration' noenhanced
set format x '%.0s %cs'
set ylabel 'calls per bin' noenhanced
set title 'Histogram (10 bins per decade)' noenhanced
set key noenhanced
set style fill transparent solid 0.4
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot @HIST@
set ylabel 'fraction at or below' noenhanced
set title 'CDF: fraction of calls at or below a duration' noenhanced
set offsets 0, 0, 0, 0
# a margin, so that the curve's end at 1 is not the frame
set yrange [-0.04:1.06]
set ytics 0, 0.2, 1
set key bottom right
plot @CDF@
unset multiplot

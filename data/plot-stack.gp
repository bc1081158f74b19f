# ftlens plot stack: stack_max_size over the snapshots of a series that
# `ftlens record --stack` wrote (or over the tables given, in order).
# ftlens wrote this from data/plot-stack.gp; the data is @DAT@.
# Run again with: gnuplot @GP@
set terminal @TERM@
set output '@OUT@'
set title '@TITLE@' noenhanced
set grid
set key off
set xlabel '@XLABEL@' noenhanced
set ylabel 'stack_max_size (bytes)' noenhanced
set yrange [0:*]
set offsets graph 0.02, graph 0.02, graph 0.1, 0
@XRANGE@
@DEEPEST@
plot '@DAT@' using 1:2 with steps lw 2, '' using 1:2 with points pt 7

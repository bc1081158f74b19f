# ftlens plot cpu: per-CPU busy % over time for more CPUs than lines can
# show apart: a heat strip, a row per CPU, and below it the mean over the
# CPUs with the band from the least to the most busy. ftlens wrote this
# from data/plot-cpu-heat.gp; the data is @DAT@.
# Run again with: gnuplot @GP@
set terminal @TERM@
set output '@OUT@'
set multiplot title '@TITLE@' noenhanced
set lmargin at screen 0.09
set rmargin at screen 0.86
set xrange [0:@XMAX@]
set xlabel 'time since the first event (@TUNIT@)' noenhanced
# the strip: CPU 0 at the top
set size 1, 0.56
set origin 0, 0.40
set tmargin at screen 0.90
set bmargin at screen 0.47
set yrange [@CPUMAX@:-0.5]
set ytics 1
set ylabel 'CPU' noenhanced
set cbrange [0:100]
set cblabel 'busy (% of each @BIN@ bin)' noenhanced
set palette defined (0 '#ffffff', 10 '#fff3b0', 50 '#f08030', 100 '#800000')
unset key
set format x ''
unset xlabel
plot '@DAT@' index 1 using 1:2:3 with image
# the mean and the band, on the same time axis
unset colorbox
set format x
set xlabel 'time since the first event (@TUNIT@)' noenhanced
set tmargin at screen 0.40
set bmargin at screen 0.10
set yrange [-4:104]
set ytics 0, 25, 100
set ylabel 'busy (%)' noenhanced
set grid
set key at screen 0.87, 0.38 left top Left reverse samplen 1.5 noenhanced
plot '@DAT@' index 2 using 1:3:4 with filledcurves fc rgb '#f0c0a0' title 'min..max', \
     '' index 2 using 1:2 with lines lw 2 lc rgb '#800000' title 'mean'
unset multiplot

# gnuplot -e "dir='build/eval/gscale'" tools/eval/gscale/plots.gp
set terminal pngcairo size 900,560 noenhanced font ",11"
set grid
set key top left

set output dir.'/slot-sharing.png'
set title "15 VMs, k busy: GGTT entries copied per vGPU switch"
set xlabel "busy VMs (of 15)"
set ylabel "entries per switch"
set xrange [1:15]
plot dir.'/busy.dat' using 1:2 with linespoints title 'gScale-basic', \
     '' using 1:3 with linespoints title 'gScale (slot sharing)', \
     '' using 1:4 with linespoints title 'gScale + predictive copy'

set output dir.'/copy-overhead.png'
set title "15 VMs, k busy: host CPU time copying per 16 ms slice"
set ylabel "copy time / slice (%)"
plot dir.'/busy.dat' using 1:5 with linespoints title 'gScale-basic', \
     '' using 1:6 with linespoints title 'gScale (slot sharing)', \
     '' using 1:7 with linespoints title 'gScale + predictive copy'

set output dir.'/scaling.png'
set title "Up to 64 vGPUs (mixed workloads): entries copied per switch"
set xlabel "vGPUs"
set ylabel "entries per switch"
set logscale x 2
set xrange [2:64]
plot dir.'/scale.dat' using 1:2 with linespoints title 'gScale-basic', \
     '' using 1:3 with linespoints title 'gScale (slot sharing)', \
     '' using 1:4 with linespoints title 'gScale + predictive copy'

# ---- through the whole mediator ---------------------------------------------
unset logscale x
set xrange [1:15]
set output dir.'/med-slot-sharing.png'
set title "Mediator, 15 VMs with k busy (cf. paper Fig. 13): GGTT entries copied per switch"
set xlabel "busy VMs (of 15)"
set ylabel "entries per switch"
plot dir.'/med_busy.dat' using 1:2 with linespoints title 'gScale-basic', \
     '' using 1:3 with linespoints title 'gScale (slot sharing)', \
     '' using 1:4 with linespoints title 'gScale + predictive copy'

set output dir.'/med-copy-overhead.png'
set title "Mediator, 15 VMs with k busy: copy time per 16 ms slice"
set ylabel "copy time / slice (%)"
plot dir.'/med_busy.dat' using 1:5 with linespoints title 'gScale-basic', \
     '' using 1:6 with linespoints title 'gScale (slot sharing)', \
     '' using 1:7 with linespoints title 'gScale + predictive copy'

set output dir.'/fig15-overhead.png'
set title "Mediator, 15 VMs / 3 busy (cf. paper Fig. 15): copy overhead per schedule"
set xlabel "schedule (vGPU switch)"
set ylabel "copy time / slice (%)"
set autoscale x
set yrange [0:*]
plot dir.'/fig15.dat' index 0 using 1:2 with lines title 'gScale-basic', \
     '' index 1 using 1:2 with lines title 'gScale (slot sharing)'

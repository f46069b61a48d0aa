# gnuplot -e "dir='build/eval/balloon'" tools/eval/balloon/plots.gp
set terminal pngcairo size 1000,560 noenhanced font ",11"
set grid
set key top left

# ---- GGTT entries copied per switch, every policy, every mix -----------------
set output dir.'/copies.png'
set title "High-GM GGTT entries copied per vGPU switch (15 VMs)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel "entries per switch"
set xtics nomirror
set key top right
plot dir.'/copies.dat' using 2:xtic(1) title 'gVirt-384', \
     '' using 3 title 'gVirt-1024', '' using 4 title 'gScale', \
     '' using 5 title 'DymGPU-size', '' using 6 title 'DymGPU-util', \
     '' using 7 title 'gBalloon', '' using 8 title 'ours'

# ---- Valley's growth (gBalloon figure 9) -------------------------------------
set style data lines
set output dir.'/valley-growth.png'
set title "Valley alone, 18 scenes: high-GM slots over time (cf. gBalloon Fig. 9)"
set xlabel "time (s)"
set ylabel "slots (64 MiB)"
set yrange [0:18]
set xrange [0:180]
set key bottom right
plot dir.'/valley-growth_gballoon_slots.dat' using 1:4 with lines dt 2 lw 2 title 'demand', \
     '' using 1:3 with steps lw 2 title 'gBalloon', \
     dir.'/valley-growth_ours_slots.dat' using 1:3 with steps lw 1 title 'ours', \
     dir.'/valley-growth_gvirt-384_slots.dat' using 1:3 with lines title 'gVirt-384', \
     dir.'/valley-growth_gvirt-1024_slots.dat' using 1:3 with lines title 'gVirt-1024'

# ---- gBalloon's f over the Table 2 run ----------------------------------------
set output dir.'/table2-f.png'
set title "Table 2 mix: f(W, R_copy) every 0.5 s (thresholds 0.5 / 1.0)"
set autoscale x
set ylabel "f"
set yrange [0:2]
set key top right
plot dir.'/table2_gballoon_decisions.dat' using 1:2 with lines title 'gBalloon', \
     dir.'/table2_ours_decisions.dat' using 1:2 with lines title 'ours', \
     0.5 with lines dt 3 lc rgb 'black' title 'Threshold_low', \
     1.0 with lines dt 3 lc rgb 'red' title 'Threshold_high'

set output dir.'/table2-shared.png'
set title "Table 2 mix: slots shared by two or more vGPUs"
set ylabel "shared slots (of 54)"
set yrange [0:56]
plot dir.'/table2_gvirt-384_shared.dat' using 1:2 title 'gVirt-384', \
     dir.'/table2_gscale_shared.dat' using 1:2 title 'gScale', \
     dir.'/table2_dymgpu-util_shared.dat' using 1:2 title 'DymGPU-util', \
     dir.'/table2_gballoon_shared.dat' using 1:2 title 'gBalloon', \
     dir.'/table2_ours_shared.dat' using 1:2 title 'ours'

# ---- n x Valley (gBalloon figure 5) ------------------------------------------
set output dir.'/valley-n.png'
set title "n VMs running Valley: rendering time vs gVirt-384 (cf. gBalloon Fig. 5)"
set xlabel "VMs"
set ylabel "sum of useful GPU time / gVirt-384's"
set yrange [0:*]
set xtics 3
set key top right
plot dir.'/valley_n.dat' using 1:3 with linespoints title 'gVirt-1024', \
     '' using 1:4 with linespoints title 'gScale', \
     '' using 1:5 with linespoints title 'DymGPU-size', \
     '' using 1:7 with linespoints title 'gBalloon', \
     '' using 1:8 with linespoints title 'ours'

# ---- one picture for docs/eval/balloon.md ------------------------------------
set terminal pngcairo size 1400,900 noenhanced font ",10"
set output dir.'/balloon-summary.png'
set multiplot layout 2,2 title "GM placement and ballooning (tools/eval/balloon)"
unset xlabel
set xtics auto
set yrange [0:*]
set style data histograms
set title "High-GM entries copied per switch"
set ylabel "entries"
set key top right font ",8"
plot dir.'/copies.dat' using 2:xtic(1) title 'gVirt-384', \
     '' using 3 title 'gVirt-1024', '' using 4 title 'gScale', \
     '' using 5 title 'DymGPU-size', '' using 6 title 'DymGPU-util', \
     '' using 7 title 'gBalloon', '' using 8 title 'ours'
set style data lines
set title "Valley alone: slots over time"
set xlabel "time (s)"
set ylabel "slots"
set yrange [0:18]
set xrange [0:180]
set key bottom right
plot dir.'/valley-growth_gballoon_slots.dat' using 1:4 dt 2 lw 2 title 'demand', \
     '' using 1:3 with steps lw 2 title 'gBalloon', \
     dir.'/valley-growth_ours_slots.dat' using 1:3 with steps title 'ours'
set title "Table 2: f(W, R_copy)"
set autoscale x
set ylabel "f"
set yrange [0:2]
set key top right
plot dir.'/table2_gballoon_decisions.dat' using 1:2 title 'gBalloon', \
     dir.'/table2_ours_decisions.dat' using 1:2 title 'ours', \
     0.5 dt 3 lc rgb 'black' title 'low', 1.0 dt 3 lc rgb 'red' title 'high'
set title "n x Valley: useful GPU time vs gVirt-384"
set autoscale x
set xlabel "VMs"
set ylabel "relative"
set yrange [0:*]
set xtics 3
plot dir.'/valley_n.dat' using 1:3 with linespoints title 'gVirt-1024', \
     '' using 1:4 with linespoints title 'gScale', \
     '' using 1:5 with linespoints title 'DymGPU-size', \
     '' using 1:7 with linespoints title 'gBalloon', \
     '' using 1:8 with linespoints title 'ours'
unset multiplot

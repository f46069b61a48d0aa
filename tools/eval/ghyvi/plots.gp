# gHyvi plots, shaped like the paper's Figures 6 and 12-14: per trace
# ("case"), each policy's modelled speed relative to strict gVirt (the
# paper plots FPS; ours is 1 / modelled time in shadowing + exits, see
# ghyvi.md), plus traps on a log scale and the trace's per-page profile.
# Usage: gnuplot -e "dir='build/eval/ghyvi'" tools/eval/ghyvi/plots.gp
if (!exists("dir")) dir = "."
set datafile separator ","
set terminal pngcairo size 1000,520 noenhanced font "sans,10"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set key outside right top
set xtics rotate by -20
csv = dir."/ghyvi.csv"
# Column 14 of ghyvi.csv is "vs strict" (strict's modelled cost / the
# variant's); rows are 12 variants per profile (heavy, moderate, 3d, 2d):
# "every N::v" picks variant v (the header is row 0).
N = 12

set ylabel "strict's modelled cost / variant's (x)"
set logscale y
set yrange [0.005:50]

set output dir."/ghyvi_fig12_full.png"
set title "Fig. 12 analogue: full reconstruction vs strict (per trace)"
plot csv every N::1 using 14:xtic(1) title "strict (gVirt)", \
     csv every N::2 using 14 title "full"

set output dir."/ghyvi_fig13_static.png"
set title "Fig. 13 analogue: static partial reconstruction (N hot pages from a profile)"
plot csv every N::1 using 14:xtic(1) title "strict (gVirt)", \
     csv every N::3 using 14 title "static-50", \
     csv every N::4 using 14 title "static-100", \
     csv every N::5 using 14 title "static-200", \
     csv every N::6 using 14 title "static-300"

set output dir."/ghyvi_fig14_dynamic.png"
set title "Fig. 14 analogue: dynamic vs dynamic segmented partial reconstruction"
plot csv every N::1 using 14:xtic(1) title "strict (gVirt)", \
     csv every N::7 using 14 title "dynamic (paper)", \
     csv every N::8 using 14 title "dyn-seg (paper)", \
     csv every N::10 using 14 title "dynamic, back-off", \
     csv every N::11 using 14 title "dyn-seg, back-off (old default)", \
     csv every N::12 using 14 title "adaptive (default)"

set output dir."/ghyvi_traps.png"
set title "Traps (VM exits from PTE stores) in 10 s, log scale; a missing bar = 0 traps"
set ylabel "traps"
set yrange [0.8:2e6]
set key outside right top font ",8"
plot for [k=2:13] dir."/traps_pivot.csv" using k:xtic(1) title columnhead(k)
unset logscale y
set autoscale y

set output dir."/ghyvi_trace_profile.png"
set title "Trace shape (Fig. 6 analogue): updates per page-table page in 10 s"
set style data lines
set xlabel "page-table page index"
set ylabel "updates"
set xtics norotate
plot dir."/trace_profile.csv" using 1:2 title "gmedia-heavy" lw 2, \
     "" using 1:3 title "gmedia-moderate", \
     "" using 1:4 title "3d", \
     "" using 1:5 title "2d"

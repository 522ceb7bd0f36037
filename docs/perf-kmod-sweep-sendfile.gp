# gnuplot script written by tlsx-bench --plot;
# draw again with: gnuplot kmod.gp (in this directory)
# tlsx-bench-static kmod --sweep --mode sendfile --mib 4 --rounds 3 --pairs 0 --no-same-class --json /tmp/kmod.json --plot /tmp/kmod.svg; commit 69fdf64; QEMU TCG CPU version 2.5+ (family 15 model 107, 2 CPUs, load 0.22); kernel 6.12.118+deb12-cloud-amd64; 2026-12-06T14:11:37Z
set terminal svg size 990,490 font 'sans,9' linewidth 1
set output 'perf-kmod-sweep-sendfile.svg'
$p0s0 << EOD
64 8.04752
256 21.6216
1024 37.1363
4096 46.0973
16384 48.4168
EOD
$p0s1 << EOD
16384 43.0478
EOD
$p0s2 << EOD
16384 1.13202
EOD
$p1s0 << EOD
64 7.57529
256 19.4066
1024 33.2035
4096 39.8756
16384 43.6669
EOD
$p1s1 << EOD
16384 39.3479
EOD
$p1s2 << EOD
16384 1.10056
EOD
$p2s0 << EOD
64 4.37129
256 15.8807
1024 30.1524
4096 38.8098
16384 42.32
EOD
$p2s1 << EOD
16384 37.4981
EOD
$p2s2 << EOD
16384 1.13132
EOD
$p3s0 << EOD
64 10.0977
256 26.2476
1024 44.2031
4096 52.7585
16384 54.5298
EOD
$p3s1 << EOD
16384 30.5816
EOD
$p3s2 << EOD
16384 1.79
EOD
set key top left font ',7' samplen 2 spacing 0.8
set multiplot layout 2,3 title 'tlsx-bench kmod: tlsx.ko against the kernel''s tls'
set title 'aes128gcm sendfile'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:2]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p0s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p0s1 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc -1 dt 1 lw 2 title 'tls', \
     $p0s2 using 1:2 axes x1y2 with points pt 7 ps 0.5 lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'aes256gcm sendfile'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:2]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p1s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p1s1 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc -1 dt 1 lw 2 title 'tls', \
     $p1s2 using 1:2 axes x1y2 with points pt 7 ps 0.5 lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'chacha20poly1305 sendfile'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:2]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p2s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p2s1 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc -1 dt 1 lw 2 title 'tls', \
     $p2s2 using 1:2 axes x1y2 with points pt 7 ps 0.5 lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'aes128ccm sendfile'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:2]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p3s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p3s1 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc -1 dt 1 lw 2 title 'tls', \
     $p3s2 using 1:2 axes x1y2 with points pt 7 ps 0.5 lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
unset multiplot

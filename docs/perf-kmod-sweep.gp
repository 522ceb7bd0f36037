# gnuplot script written by tlsx-bench --plot;
# draw again with: gnuplot perf-kmod-sweep.gp (in this directory)
# tlsx-bench-static kmod --sweep --mib 8 --rounds 5 --pairs 0 --json /tmp/kmod.json --plot /tmp/kmod.svg; commit 0b3881c; QEMU TCG CPU version 2.5+ (family 15 model 107, 2 CPUs, load 1.72); kernel 6.12.118+deb12-cloud-amd64; 2026-12-06T12:43:39Z
set terminal svg size 990,950 font 'sans,9' linewidth 1
set output 'perf-kmod-sweep.svg'
$p0s0 << EOD
64 1.06753
256 3.79413
1024 7.1008
4096 13.7908
16384 8.14828
EOD
$p0s1 << EOD
64 0.926889
256 3.85937
1024 9.26215
4096 10.8817
16384 7.98398
EOD
$p0s2 << EOD
64 1.31915
256 0.628315
1024 1.31185
4096 1.26734
16384 1.15708
EOD
$p1s0 << EOD
64 3.4564
256 16.2387
1024 11.6352
4096 20.162
16384 23.6363
EOD
$p1s1 << EOD
64 1.28024
256 9.29656
1024 10.0268
4096 13.0648
16384 6.69798
EOD
$p1s2 << EOD
64 2.18619
256 1.72995
1024 1.1105
4096 1.49685
16384 2.35553
EOD
$p2s0 << EOD
16384 8.03251
EOD
$p2s1 << EOD
16384 7.46582
EOD
$p2s2 << EOD
16384 1.32073
EOD
$p3s0 << EOD
64 1.44651
256 5.32045
1024 4.64179
4096 6.93573
16384 11.1127
EOD
$p3s1 << EOD
64 0.969898
256 5.69357
1024 9.35691
4096 12.8598
16384 5.21865
EOD
$p3s2 << EOD
64 1.49729
256 1.46758
1024 0.583602
4096 0.844016
16384 2.52934
EOD
$p4s0 << EOD
64 2.20809
256 8.53717
1024 12.8447
4096 7.88587
16384 4.98455
EOD
$p4s1 << EOD
64 1.37063
256 3.4761
1024 8.89427
4096 3.38398
16384 4.98889
EOD
$p4s2 << EOD
64 1.61101
256 2.21234
1024 1.36203
4096 1.54099
16384 0.92633
EOD
$p5s0 << EOD
16384 6.47039
EOD
$p5s1 << EOD
16384 5.44308
EOD
$p5s2 << EOD
16384 1.24429
EOD
$p6s0 << EOD
64 0.657726
256 2.28609
1024 11.8714
4096 14.2092
16384 5.234
EOD
$p6s1 << EOD
64 0.61804
256 2.62187
1024 2.88418
4096 6.24124
16384 6.08264
EOD
$p6s2 << EOD
64 1.01107
256 0.997069
1024 3.17638
4096 1.04162
16384 0.963487
EOD
$p7s0 << EOD
64 1.02529
256 4.35205
1024 6.28752
4096 6.80443
16384 6.82712
EOD
$p7s1 << EOD
64 0.65924
256 1.94229
1024 3.78189
4096 6.65871
16384 6.61159
EOD
$p7s2 << EOD
64 1.25863
256 1.99275
1024 1.37302
4096 1.02188
16384 0.814411
EOD
$p8s0 << EOD
16384 5.7265
EOD
$p8s1 << EOD
16384 5.07865
EOD
$p8s2 << EOD
16384 1.09705
EOD
$p9s0 << EOD
64 1.27952
256 2.64752
1024 9.71666
4096 31.5626
16384 21.5081
EOD
$p9s1 << EOD
64 0.743007
256 1.71918
1024 3.88274
4096 11.5167
16384 9.96692
EOD
$p9s2 << EOD
64 1.77215
256 1.58157
1024 1.4585
4096 1.8852
16384 1.71518
EOD
$p10s0 << EOD
64 3.89619
256 5.56223
1024 17.2099
4096 20.7669
16384 25.3859
EOD
$p10s1 << EOD
64 0.8212
256 3.04528
1024 6.34348
4096 12.1354
16384 11.0248
EOD
$p10s2 << EOD
64 4.75454
256 1.56667
1024 2.75806
4096 2.21552
16384 2.19164
EOD
$p11s0 << EOD
16384 18.6352
EOD
$p11s1 << EOD
16384 10.2144
EOD
$p11s2 << EOD
16384 2.3184
EOD
set key top left font ',7' samplen 2 spacing 0.8
set multiplot layout 4,3 title 'tlsx-bench kmod: tlsx.ko against the kernel''s tls'
set title 'aes128gcm send'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:2]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p0s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p0s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'tls', \
     $p0s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'aes128gcm recv'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:2.82664]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p1s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p1s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'tls', \
     $p1s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'aes128gcm sendfile'
set logscale x 2
set xrange [11702.9:22937.6]
set yrange [0:*]
set xtics ("16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:2]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p2s0 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc 1 dt 1 lw 1 title 'tlsx', \
     $p2s1 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc -1 dt 1 lw 2 title 'tls', \
     $p2s2 using 1:2 axes x1y2 with points pt 7 ps 0.5 lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'aes256gcm send'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:3.0352]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p3s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p3s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'tls', \
     $p3s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'aes256gcm recv'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:2.65481]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p4s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p4s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'tls', \
     $p4s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'aes256gcm sendfile'
set logscale x 2
set xrange [11702.9:22937.6]
set yrange [0:*]
set xtics ("16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:2]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p5s0 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc 1 dt 1 lw 1 title 'tlsx', \
     $p5s1 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc -1 dt 1 lw 2 title 'tls', \
     $p5s2 using 1:2 axes x1y2 with points pt 7 ps 0.5 lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'chacha20poly1305 send'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:3.81166]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p6s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p6s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'tls', \
     $p6s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'chacha20poly1305 recv'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:2]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p7s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p7s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'tls', \
     $p7s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'chacha20poly1305 sendfile'
set logscale x 2
set xrange [11702.9:22937.6]
set yrange [0:*]
set xtics ("16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:2]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p8s0 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc 1 dt 1 lw 1 title 'tlsx', \
     $p8s1 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc -1 dt 1 lw 2 title 'tls', \
     $p8s2 using 1:2 axes x1y2 with points pt 7 ps 0.5 lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'aes128ccm send'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:2]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p9s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p9s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'tls', \
     $p9s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'aes128ccm recv'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:5.70545]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p10s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'tlsx', \
     $p10s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'tls', \
     $p10s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
set title 'aes128ccm sendfile'
set logscale x 2
set xrange [11702.9:22937.6]
set yrange [0:*]
set xtics ("16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'MB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:2.78208]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p11s0 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc 1 dt 1 lw 1 title 'tlsx', \
     $p11s1 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc -1 dt 1 lw 2 title 'tls', \
     $p11s2 using 1:2 axes x1y2 with points pt 7 ps 0.5 lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
unset multiplot

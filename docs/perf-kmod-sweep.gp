# gnuplot script written by tlsx-bench --plot;
# draw again with: gnuplot perf-kmod-sweep.gp (in this directory)
# tlsx-bench-static kmod --sweep --mib 8 --rounds 5 --pairs 0 --json /tmp/kmod.json --plot /tmp/kmod.svg; commit 6acd1ca; QEMU TCG CPU version 2.5+ (family 15 model 107, 2 CPUs, load 1.45); kernel 6.12.118+deb12-cloud-amd64; 2026-12-06T13:07:36Z
set terminal svg size 990,950 font 'sans,9' linewidth 1
set output 'perf-kmod-sweep.svg'
$p0s0 << EOD
64 0.983391
256 2.9374
1024 10.1013
4096 8.50449
16384 6.60438
EOD
$p0s1 << EOD
64 0.864068
256 2.20064
1024 6.52034
4096 9.3285
16384 13.8455
EOD
$p0s2 << EOD
64 1.05619
256 1.05108
1024 1.90083
4096 0.4979
16384 0.483015
EOD
$p1s0 << EOD
64 3.20684
256 12.7678
1024 14.4548
4096 7.7046
16384 27.1297
EOD
$p1s1 << EOD
64 1.04137
256 9.72165
1024 10.6252
4096 6.80059
16384 23.0899
EOD
$p1s2 << EOD
64 4.85006
256 1.73022
1024 1.19862
4096 2.02839
16384 1.06111
EOD
$p2s0 << EOD
16384 9.06299
EOD
$p2s1 << EOD
16384 7.61974
EOD
$p2s2 << EOD
16384 0.975879
EOD
$p3s0 << EOD
64 1.244
256 7.16144
1024 7.13946
4096 17.5039
16384 7.62233
EOD
$p3s1 << EOD
64 1.02618
256 7.0537
1024 4.77886
4096 16.534
16384 9.55029
EOD
$p3s2 << EOD
64 1.31831
256 1.04443
1024 1.56191
4096 1.02908
16384 1.01011
EOD
$p4s0 << EOD
64 1.98245
256 5.16757
1024 21.7531
4096 17.0185
16384 19.9256
EOD
$p4s1 << EOD
64 0.978725
256 7.27783
1024 8.78897
4096 9.68496
16384 15.7109
EOD
$p4s2 << EOD
64 2.6912
256 0.854325
1024 2.44637
4096 1.14199
16384 1.46058
EOD
$p5s0 << EOD
16384 21.5164
EOD
$p5s1 << EOD
16384 18.4447
EOD
$p5s2 << EOD
16384 1.16654
EOD
$p6s0 << EOD
64 0.86267
256 4.08123
1024 9.24109
4096 9.14865
16384 6.2441
EOD
$p6s1 << EOD
64 0.592942
256 4.39598
1024 7.73473
4096 9.49814
16384 8.25846
EOD
$p6s2 << EOD
64 1.4549
256 0.854071
1024 1.13896
4096 0.670587
16384 0.843972
EOD
$p7s0 << EOD
64 1.58021
256 9.08696
1024 12.2996
4096 11.8476
16384 13.0263
EOD
$p7s1 << EOD
64 1.35387
256 3.13834
1024 7.41142
4096 10.9523
16384 10.0156
EOD
$p7s2 << EOD
64 1.19136
256 2.57046
1024 1.69326
4096 0.850991
16384 1.20097
EOD
$p8s0 << EOD
16384 7.97705
EOD
$p8s1 << EOD
16384 13.4306
EOD
$p8s2 << EOD
16384 0.766763
EOD
$p9s0 << EOD
64 2.06483
256 5.69522
1024 10.6328
4096 25.5313
16384 10.4012
EOD
$p9s1 << EOD
64 0.796706
256 4.17752
1024 6.52885
4096 12.3415
16384 5.70415
EOD
$p9s2 << EOD
64 1.91035
256 1.43821
1024 1.89674
4096 2.03825
16384 1.82151
EOD
$p10s0 << EOD
64 3.73905
256 10.967
1024 15.7343
4096 19.5978
16384 16.1592
EOD
$p10s1 << EOD
64 1.21389
256 4.48113
1024 8.33249
4096 10.9322
16384 10.6542
EOD
$p10s2 << EOD
64 3.15046
256 2.53425
1024 1.87196
4096 1.94937
16384 1.74899
EOD
$p11s0 << EOD
16384 12.5682
EOD
$p11s1 << EOD
16384 5.99085
EOD
$p11s2 << EOD
16384 1.97511
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.402513:2]
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:5.82007]
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:2]
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:3.22944]
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:2]
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:3.08455]
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:2.44591]
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:3.78056]
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:2]
set y2label 'tlsx/tls (>1: tlsx faster)'
plot $p11s0 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc 1 dt 1 lw 1 title 'tlsx', \
     $p11s1 using 1:2 axes x1y1 with points pt 7 ps 0.5 lc -1 dt 1 lw 2 title 'tls', \
     $p11s2 using 1:2 axes x1y2 with points pt 7 ps 0.5 lc 1 dt 2 lw 1 title 'tlsx/tls (per round)'
unset multiplot

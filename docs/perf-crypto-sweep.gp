# gnuplot script written by tlsx-bench --plot;
# draw again with: gnuplot perf-crypto-sweep.gp (in this directory)
# build/bin/tlsx-bench crypto --sweep --rounds 41 --batch-ms 1 --json docs/perf-crypto-sweep.json --plot docs/perf-crypto-sweep.svg; commit 3463351; AMD EPYC (family 26 model 2, 2 CPUs, load 11.11); kernel 6.18.44-fc-v1272; 2026-12-06T12:47:46Z
set terminal svg size 660,950 font 'sans,9' linewidth 1
set output 'perf-crypto-sweep.svg'
$p0s0 << EOD
64 0.0414263
256 0.0743278
1024 0.0975644
4096 0.0990221
16384 0.0956304
EOD
$p0s1 << EOD
64 0.333962
256 1.06296
1024 2.07054
4096 3.47022
16384 4.60438
EOD
$p0s2 << EOD
64 8.12091
256 14.2123
1024 24.9758
4096 39.2921
16384 45.1602
EOD
$p0s3 << EOD
64 0.931713
256 2.96124
1024 5.00747
4096 6.06117
16384 3.1602
EOD
$p0s4 << EOD
64 0.325956
256 0.366927
1024 0.530122
4096 0.664294
16384 0.858035
EOD
$p0s5 << EOD
64 1.02681
256 3.86165
1024 7.84562
4096 11.3976
16384 3.29381
EOD
$p0s6 << EOD
64 0.310265
256 0.293774
1024 0.341128
4096 0.350172
16384 0.39877
EOD
$p0s7 << EOD
64 1.16046
256 0.904509
1024 10.9067
4096 18.3359
16384 20.2707
EOD
$p0s8 << EOD
64 0.270321
256 0.262469
1024 0.228733
4096 0.223638
16384 0.186437
EOD
$p1s0 << EOD
64 0.0190934
256 0.0791007
1024 0.101587
4096 0.106484
16384 0.109462
EOD
$p1s1 << EOD
64 0.305469
256 1.01845
1024 2.74501
4096 4.11124
16384 4.36877
EOD
$p1s2 << EOD
64 14.6118
256 13.4892
1024 27.1954
4096 38.3771
16384 42.0644
EOD
$p1s3 << EOD
64 1.19321
256 2.71413
1024 4.9172
4096 5.54452
16384 5.41155
EOD
$p1s4 << EOD
64 0.256015
256 0.404608
1024 0.576063
4096 0.740443
16384 0.830214
EOD
$p1s5 << EOD
64 0.935589
256 3.7761
1024 8.42957
4096 10.3482
16384 10.6376
EOD
$p1s6 << EOD
64 0.359176
256 0.300407
1024 0.341189
4096 0.383841
16384 0.397974
EOD
$p1s7 << EOD
64 1.5791
256 5.38866
1024 14.3288
4096 20.5239
16384 20.3718
EOD
$p1s8 << EOD
64 0.19791
256 0.197314
1024 0.192246
4096 0.203827
16384 0.213294
EOD
$p2s0 << EOD
64 0.0307378
256 0.0605644
1024 0.0819391
4096 0.0872928
16384 0.0901545
EOD
$p2s1 << EOD
64 0.306832
256 1.03644
1024 2.47887
4096 3.62406
16384 4.56569
EOD
$p2s2 << EOD
64 9.97293
256 17.0709
1024 31.0535
4096 42.6611
16384 51.1149
EOD
$p2s3 << EOD
64 0.927143
256 2.64106
1024 4.62383
4096 5.23642
16384 5.65171
EOD
$p2s4 << EOD
64 0.338199
256 0.389039
1024 0.5532
4096 0.726614
16384 0.789042
EOD
$p2s5 << EOD
64 1.01273
256 3.22061
1024 7.29658
4096 10.3072
16384 10.9005
EOD
$p2s6 << EOD
64 0.32146
256 0.31857
1024 0.342138
4096 0.379691
16384 0.407227
EOD
$p2s7 << EOD
64 0.941231
256 3.61978
1024 8.49182
4096 17.1272
16384 19.1292
EOD
$p2s8 << EOD
64 0.299497
256 0.272101
1024 0.242931
4096 0.228627
16384 0.222569
EOD
$p3s0 << EOD
64 0.0324409
256 0.0595126
1024 0.0746373
4096 0.0908375
16384 0.0926462
EOD
$p3s1 << EOD
64 0.327514
256 1.09931
1024 2.61541
4096 3.9379
16384 4.64609
EOD
$p3s2 << EOD
64 10.1123
256 18.6704
1024 32.8672
4096 43.8786
16384 50.5349
EOD
$p3s3 << EOD
64 1.15041
256 3.15307
1024 4.5563
4096 5.80671
16384 5.90345
EOD
$p3s4 << EOD
64 0.290087
256 0.365157
1024 0.545402
4096 0.647568
16384 0.770718
EOD
$p3s5 << EOD
64 0.961433
256 3.83625
1024 7.2573
4096 10.2743
16384 11.3333
EOD
$p3s6 << EOD
64 0.349221
256 0.308052
1024 0.347266
4096 0.376791
16384 0.406429
EOD
$p3s7 << EOD
64 1.67903
256 5.39421
1024 13.6261
4096 18.8069
16384 20.8247
EOD
$p3s8 << EOD
64 0.195389
256 0.216363
1024 0.196535
4096 0.213858
16384 0.223079
EOD
$p4s0 << EOD
64 0.250637
256 0.428188
1024 0.538953
4096 0.586133
16384 0.589744
EOD
$p4s1 << EOD
64 0.141174
256 0.503778
1024 1.74242
4096 3.08274
16384 3.80638
EOD
$p4s2 << EOD
64 0.567527
256 1.15635
1024 3.20731
4096 5.36435
16384 6.6265
EOD
$p4s3 << EOD
64 0.205927
256 0.374717
1024 0.649552
4096 0.718046
16384 0.859918
EOD
$p4s4 << EOD
64 0.689699
256 1.28971
1024 2.62125
4096 3.86811
16384 4.66502
EOD
$p4s5 << EOD
64 0.215756
256 0.666854
1024 1.42111
4096 2.07167
16384 2.30938
EOD
$p4s6 << EOD
64 0.643193
256 0.753655
1024 1.10682
4096 1.50534
16384 1.73435
EOD
$p4s7 << EOD
64 0.260604
256 0.905562
1024 3.28574
4096 4.81129
16384 6.4423
EOD
$p4s8 << EOD
64 0.524012
256 0.560377
1024 0.541553
4096 0.639548
16384 0.578616
EOD
$p5s0 << EOD
64 0.242616
256 0.440496
1024 0.561687
4096 0.586405
16384 0.548996
EOD
$p5s1 << EOD
64 0.124666
256 0.453867
1024 1.72411
4096 3.03205
16384 3.83577
EOD
$p5s2 << EOD
64 0.518048
256 1.03985
1024 3.10844
4096 5.19859
16384 6.58927
EOD
$p5s3 << EOD
64 0.190289
256 0.40964
1024 0.69161
4096 0.821539
16384 0.883398
EOD
$p5s4 << EOD
64 0.633793
256 1.14209
1024 2.5192
4096 3.7764
16384 4.43294
EOD
$p5s5 << EOD
64 0.217178
256 0.687736
1024 1.6533
4096 2.07916
16384 2.27186
EOD
$p5s6 << EOD
64 0.585957
256 0.671699
1024 1.02621
4096 1.45469
16384 1.73225
EOD
$p5s7 << EOD
64 0.26174
256 0.887186
1024 3.11827
4096 4.97583
16384 6.44142
EOD
$p5s8 << EOD
64 0.484749
256 0.505866
1024 0.526588
4096 0.621756
16384 0.604562
EOD
$p6s0 << EOD
64 0.0161645
256 0.0231084
1024 0.025922
4096 0.0267803
16384 0.0276824
EOD
$p6s1 << EOD
64 0.265791
256 0.652278
1024 0.947429
4096 1.07737
16384 1.17364
EOD
$p6s2 << EOD
64 16.1184
256 27.7132
1024 37.0077
4096 41.8447
16384 42.5141
EOD
$p6s3 << EOD
64 0.607126
256 0.87128
1024 1.06648
4096 0.995806
16384 1.07663
EOD
$p6s4 << EOD
64 0.443376
256 0.700995
1024 0.872458
4096 1.05991
16384 1.09716
EOD
$p7s0 << EOD
64 0.0130258
256 0.0232974
1024 0.0265222
4096 0.0274578
16384 0.0278151
EOD
$p7s1 << EOD
64 0.230859
256 0.633192
1024 0.964736
4096 0.975484
16384 1.19877
EOD
$p7s2 << EOD
64 18.017
256 27.3399
1024 35.9187
4096 40.3917
16384 42.1984
EOD
$p7s3 << EOD
64 0.455784
256 0.80547
1024 0.970179
4096 1.04967
16384 1.04974
EOD
$p7s4 << EOD
64 0.54911
256 0.80287
1024 0.997035
4096 1.08458
16384 1.11515
EOD
set key top left font ',7' samplen 2 spacing 0.8
set multiplot layout 4,2 title 'tlsx-bench crypto: AEAD throughput against record size'
set title 'aes-128-gcm seal'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.155364:54.1922]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p0s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p0s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p0s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p0s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p0s4 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p0s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p0s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p0s7 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p0s8 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'aes-128-gcm open'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.160205:50.4773]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p1s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p1s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p1s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p1s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p1s4 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p1s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p1s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p1s7 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p1s8 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'aes-256-gcm seal'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.185474:61.3379]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p2s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p2s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p2s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p2s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p2s4 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p2s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p2s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p2s7 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p2s8 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'aes-256-gcm open'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.162824:60.6419]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p3s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p3s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p3s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p3s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p3s4 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p3s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p3s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p3s7 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p3s8 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'chacha20-poly1305 seal'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:7.9518]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p4s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p4s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p4s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p4s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p4s4 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p4s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p4s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p4s7 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p4s8 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'chacha20-poly1305 open'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.403958:7.90713]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p5s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p5s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p5s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p5s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p5s4 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p5s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p5s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p5s7 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p5s8 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'aes-128-ccm seal'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.36948:51.017]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p6s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p6s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p6s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p6s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p6s4 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL'
set title 'aes-128-ccm open'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics
set my2tics 1
set logscale y2
set y2range [0.5:50.6381]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p7s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p7s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p7s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p7s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p7s4 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL'
unset multiplot

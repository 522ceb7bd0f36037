# gnuplot script written by tlsx-bench --plot;
# draw again with: gnuplot perf-crypto-sweep.gp (in this directory)
# build/bin/tlsx-bench crypto --sweep --rounds 41 --batch-ms 1 --json docs/perf-crypto-sweep.json --plot docs/perf-crypto-sweep.svg; commit 4b26bcf; AMD EPYC (family 26 model 2, 2 CPUs, load 4.52); kernel 6.18.44-fc-v1272; 2026-12-06T13:42:02Z
set terminal svg size 660,950 font 'sans,9' linewidth 1
set output 'perf-crypto-sweep.svg'
$p0s0 << EOD
64 0.0394878
256 0.0787906
1024 0.101856
4096 0.107399
16384 0.112226
EOD
$p0s1 << EOD
64 0.300059
256 1.11444
1024 2.68227
4096 4.08188
16384 4.84532
EOD
$p0s2 << EOD
64 7.80195
256 14.368
1024 26.8159
4096 38.4649
16384 43.4524
EOD
$p0s3 << EOD
64 32.229
256 65.4124
1024 119.372
4096 164.439
16384 181.833
EOD
$p0s4 << EOD
64 0.970264
256 2.91057
1024 5.10047
4096 6.24355
16384 6.04038
EOD
$p0s5 << EOD
64 0.319031
256 0.363342
1024 0.531565
4096 0.671545
16384 0.765889
EOD
$p0s6 << EOD
64 1.33648
256 1.6713
1024 2.41828
4096 2.94659
16384 3.14489
EOD
$p0s7 << EOD
64 1.07884
256 3.84918
1024 7.62068
4096 11.7877
16384 12.2312
EOD
$p0s8 << EOD
64 0.318783
256 0.287084
1024 0.334715
4096 0.369187
16384 0.255211
EOD
$p0s9 << EOD
64 1.24607
256 1.26606
1024 1.51598
4096 1.54946
16384 1.48362
EOD
$p0s10 << EOD
64 1.83637
256 5.47489
1024 12.9568
4096 18.6879
16384 21.7148
EOD
$p0s11 << EOD
64 0.175106
256 0.18637
1024 0.210053
4096 0.209049
16384 0.217671
EOD
$p1s0 << EOD
64 0.0384793
256 0.0776318
1024 0.097795
4096 0.097398
16384 0.108389
EOD
$p1s1 << EOD
64 0.355027
256 1.13628
1024 2.51042
4096 3.9763
16384 4.60115
EOD
$p1s2 << EOD
64 9.07916
256 14.9851
1024 27.1065
4096 38.6443
16384 42.9415
EOD
$p1s3 << EOD
64 63.5741
256 120.834
1024 150.384
4096 197.206
16384 184.237
EOD
$p1s4 << EOD
64 1.26663
256 2.92737
1024 4.33428
4096 5.6402
16384 5.548
EOD
$p1s5 << EOD
64 0.28074
256 0.403828
1024 0.580508
4096 0.749711
16384 0.829069
EOD
$p1s6 << EOD
64 1.94354
256 3.04921
1024 3.28204
4096 3.44829
16384 3.62529
EOD
$p1s7 << EOD
64 0.938458
256 3.80759
1024 7.83939
4096 9.50281
16384 10.8404
EOD
$p1s8 << EOD
64 0.366366
256 0.303949
1024 0.328223
4096 0.381245
16384 0.403682
EOD
$p1s9 << EOD
64 2.49896
256 2.36425
1024 1.82464
4096 1.83567
16384 1.745
EOD
$p1s10 << EOD
64 3.00584
256 8.15502
1024 15.5984
4096 20.849
16384 23.0797
EOD
$p1s11 << EOD
64 0.108512
256 0.140192
1024 0.175456
4096 0.194645
16384 0.209063
EOD
$p2s0 << EOD
64 0.0329078
256 0.0536932
1024 0.0835092
4096 0.0874576
16384 0.0873159
EOD
$p2s1 << EOD
64 0.320709
256 0.98674
1024 2.36151
4096 3.91299
16384 4.29664
EOD
$p2s2 << EOD
64 9.73341
256 16.6507
1024 30.2201
4096 44.9437
16384 49.77
EOD
$p2s3 << EOD
64 37.1336
256 76.4933
1024 132.397
4096 177.009
16384 194.595
EOD
$p2s4 << EOD
64 0.933124
256 2.77583
1024 4.6556
4096 5.46164
16384 5.3127
EOD
$p2s5 << EOD
64 0.332214
256 0.376516
1024 0.547935
4096 0.716465
16384 0.795897
EOD
$p2s6 << EOD
64 1.25281
256 1.6897
1024 2.41206
4096 2.87465
16384 3.10481
EOD
$p2s7 << EOD
64 1.02608
256 3.21968
1024 7.03649
4096 9.90573
16384 6.28499
EOD
$p2s8 << EOD
64 0.310525
256 0.309311
1024 0.333862
4096 0.377713
16384 0.387397
EOD
$p2s9 << EOD
64 1.16563
256 1.42724
1024 1.48184
4096 1.51337
16384 1.93375
EOD
$p2s10 << EOD
64 1.60889
256 4.92363
1024 11.0934
4096 17.795
16384 11.3662
EOD
$p2s11 << EOD
64 0.202455
256 0.219279
1024 0.229168
4096 0.222122
16384 0.214296
EOD
$p3s0 << EOD
64 0.0340931
256 0.0639942
1024 0.0820626
4096 0.0873887
16384 0.089856
EOD
$p3s1 << EOD
64 0.345886
256 1.14935
1024 2.40871
4096 3.95872
16384 4.23724
EOD
$p3s2 << EOD
64 10.2239
256 17.901
1024 32.7139
4096 43.8288
16384 49.733
EOD
$p3s3 << EOD
64 61.8642
256 117.265
1024 158.906
4096 188.3
16384 207.186
EOD
$p3s4 << EOD
64 1.19214
256 3.16846
1024 4.85547
4096 5.62519
16384 5.81161
EOD
$p3s5 << EOD
64 0.248442
256 0.364691
1024 0.540051
4096 0.706499
16384 0.778667
EOD
$p3s6 << EOD
64 1.75853
256 2.35912
1024 2.70336
4096 3.0336
16384 3.16034
EOD
$p3s7 << EOD
64 0.97199
256 3.93634
1024 7.4323
4096 10.462
16384 11.3918
EOD
$p3s8 << EOD
64 0.355975
256 0.295664
1024 0.34079
4096 0.379219
16384 0.39857
EOD
$p3s9 << EOD
64 2.17346
256 1.91294
1024 1.6897
4096 1.63768
16384 1.64744
EOD
$p3s10 << EOD
64 3.14268
256 7.80278
1024 13.714
4096 18.93
16384 20.4793
EOD
$p3s11 << EOD
64 0.110698
256 0.148611
1024 0.186133
4096 0.211372
16384 0.220506
EOD
$p4s0 << EOD
64 0.245171
256 0.441597
1024 0.560563
4096 0.593891
16384 0.586873
EOD
$p4s1 << EOD
64 0.138382
256 0.518905
1024 1.77887
4096 3.18585
16384 3.94779
EOD
$p4s2 << EOD
64 0.561122
256 1.17392
1024 3.18911
4096 5.41185
16384 6.74858
EOD
$p4s3 << EOD
64 0.76327
256 1.39214
1024 2.95534
4096 3.91316
16384 4.39114
EOD
$p4s4 << EOD
64 0.201621
256 0.412409
1024 0.679611
4096 0.83535
16384 0.807545
EOD
$p4s5 << EOD
64 0.687959
256 1.25375
1024 2.56907
4096 3.86763
16384 4.59466
EOD
$p4s6 << EOD
64 0.938016
256 1.50939
1024 2.32066
4096 2.80019
16384 2.946
EOD
$p4s7 << EOD
64 0.213685
256 0.732032
1024 1.65616
4096 2.12525
16384 2.2702
EOD
$p4s8 << EOD
64 0.638786
256 0.718134
1024 1.07459
4096 1.50811
16384 1.74816
EOD
$p4s9 << EOD
64 0.888161
256 0.861394
1024 0.991131
4096 1.09387
16384 1.1395
EOD
$p4s10 << EOD
64 0.266913
256 0.49968
1024 3.35477
4096 4.93823
16384 6.48787
EOD
$p4s11 << EOD
64 0.509596
256 0.581406
1024 0.538864
4096 0.640636
16384 0.609125
EOD
$p5s0 << EOD
64 0.245021
256 0.447628
1024 0.56157
4096 0.588349
16384 0.606085
EOD
$p5s1 << EOD
64 0.127265
256 0.480966
1024 1.66881
4096 3.10987
16384 3.9638
EOD
$p5s2 << EOD
64 0.512505
256 1.06878
1024 3.01777
4096 5.289
16384 6.59211
EOD
$p5s3 << EOD
64 0.769176
256 1.40276
1024 2.92955
4096 3.96487
16384 4.26955
EOD
$p5s4 << EOD
64 0.202714
256 0.424542
1024 0.709402
4096 0.841574
16384 0.8365
EOD
$p5s5 << EOD
64 0.624379
256 1.13515
1024 2.41236
4096 3.70499
16384 4.54857
EOD
$p5s6 << EOD
64 0.936953
256 1.50697
1024 2.34673
4096 2.79016
16384 2.94096
EOD
$p5s7 << EOD
64 0.216864
256 0.724171
1024 1.66984
4096 2.15861
16384 2.32275
EOD
$p5s8 << EOD
64 0.580561
256 0.667956
1024 1.00763
4096 1.46457
16384 1.7347
EOD
$p5s9 << EOD
64 0.876028
256 0.877726
1024 0.997201
4096 1.11211
16384 1.13007
EOD
$p5s10 << EOD
64 0.277399
256 0.926236
1024 3.35392
4096 5.16955
16384 6.49434
EOD
$p5s11 << EOD
64 0.460827
256 0.520229
1024 0.506331
4096 0.615254
16384 0.609102
EOD
$p6s0 << EOD
64 0.0224119
256 0.0336716
1024 0.0382632
4096 0.039629
16384 0.0401069
EOD
$p6s1 << EOD
64 0.30361
256 0.724347
1024 1.10213
4096 1.28698
16384 1.34804
EOD
$p6s2 << EOD
64 13.5696
256 21.7041
1024 29.9661
4096 32.6756
16384 33.7179
EOD
$p6s3 << EOD
64 0.666811
256 1.11619
1024 1.32526
4096 1.35725
16384 1.44251
EOD
$p6s4 << EOD
64 0.461748
256 0.657356
1024 0.858435
4096 0.975661
16384 0.94613
EOD
$p7s0 << EOD
64 0.0200566
256 0.0321404
1024 0.0377654
4096 0.039726
16384 0.0401694
EOD
$p7s1 << EOD
64 0.273609
256 0.682332
1024 1.08733
4096 1.2929
16384 1.34952
EOD
$p7s2 << EOD
64 13.7899
256 21.381
1024 28.5414
4096 32.7355
16384 33.8485
EOD
$p7s3 << EOD
64 0.570245
256 1.05068
1024 1.29086
4096 1.41963
16384 1.44098
EOD
$p7s4 << EOD
64 0.479922
256 0.648646
1024 0.83115
4096 0.911454
16384 0.926028
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.145921:218.199]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p0s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p0s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p0s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p0s3 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p0s4 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p0s5 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p0s6 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/kernel', \
     $p0s7 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p0s8 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p0s9 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/kernel', \
     $p0s10 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p0s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'aes-128-gcm open'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.0904269:236.647]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p1s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p1s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p1s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p1s3 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p1s4 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p1s5 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p1s6 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/kernel', \
     $p1s7 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p1s8 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p1s9 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/kernel', \
     $p1s10 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p1s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'aes-256-gcm seal'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.168713:233.514]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p2s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p2s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p2s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p2s3 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p2s4 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p2s5 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p2s6 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/kernel', \
     $p2s7 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p2s8 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p2s9 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/kernel', \
     $p2s10 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p2s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'aes-256-gcm open'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.0922487:248.623]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p3s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p3s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p3s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p3s3 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p3s4 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p3s5 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p3s6 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/kernel', \
     $p3s7 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p3s8 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p3s9 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/kernel', \
     $p3s10 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p3s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'chacha20-poly1305 seal'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.5:8.0983]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p4s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p4s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p4s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p4s3 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p4s4 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p4s5 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p4s6 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/kernel', \
     $p4s7 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p4s8 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p4s9 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/kernel', \
     $p4s10 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p4s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'chacha20-poly1305 open'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.384022:7.91053]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p5s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p5s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p5s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p5s3 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p5s4 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p5s5 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL', \
     $p5s6 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/kernel', \
     $p5s7 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'avx2', \
     $p5s8 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p5s9 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'avx2/kernel', \
     $p5s10 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx512', \
     $p5s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL'
set title 'aes-128-ccm seal'
set logscale x 2
set xrange [45.7143:22937.6]
set yrange [0:*]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384)
set xlabel 'record size (bytes)'
set ylabel 'GB/s'
set ytics nomirror
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.38479:40.4615]
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
set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)
set my2tics 1
set logscale y2
set y2range [0.399935:40.6182]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p7s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p7s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p7s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p7s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p7s4 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL'
unset multiplot

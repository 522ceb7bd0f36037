# gnuplot script written by tlsx-bench --plot;
# draw again with: gnuplot perf-crypto-sweep.gp (in this directory)
# build/bin/tlsx-bench crypto --sweep --rounds 41 --batch-ms 1 --json docs/perf-crypto-sweep.json --plot docs/perf-crypto-sweep.svg; commit d31cb4e; AMD EPYC (family 26 model 2, 2 CPUs, load 4.22); kernel 6.18.44-fc-v1272; 2026-12-06T13:37:45Z
set terminal svg size 660,950 font 'sans,9' linewidth 1
set output 'perf-crypto-sweep.svg'
$p0s0 << EOD
64 0.0233072
256 0.0478708
1024 0.0725483
4096 0.0925367
16384 0.0737001
EOD
$p0s1 << EOD
64 0.180911
256 0.529008
1024 1.57414
4096 3.66181
16384 2.82877
EOD
$p0s2 << EOD
64 7.62595
256 11.1385
1024 21.7645
4096 38.6649
16384 38.6257
EOD
$p0s3 << EOD
64 1.11513
64 1.1926
64 1.21859
64 1.09823
256 4.17758
256 4.26488
256 5.13961
256 5.1892
1024 8.92207
1024 9.23956
1024 9.0459
1024 9.26993
4096 15.5477
4096 15.9306
4096 12.4341
4096 12.1597
16384 13.3933
16384 13.339
16384 13.9645
16384 12.8304
EOD
$p0s4 << EOD
64 47.9662
256 92.7381
1024 122.163
4096 165.734
16384 181.505
EOD
$p0s5 << EOD
64 0.986084
256 2.02751
1024 2.9475
4096 5.16982
16384 3.86498
EOD
$p0s6 << EOD
64 0.207849
256 0.333269
1024 0.483283
4096 0.644789
16384 0.721613
EOD
$p0s7 << EOD
64 1.30184
256 2.0039
1024 3.03503
4096 2.93431
16384 3.48206
EOD
$p0s8 << EOD
64 0.791381
256 2.82691
1024 5.04762
4096 6.71892
16384 7.97464
EOD
$p0s9 << EOD
64 0.217774
256 0.222994
1024 0.275472
4096 0.342481
16384 0.38404
EOD
$p0s10 << EOD
64 1.49578
256 1.70965
1024 1.66138
4096 1.77714
16384 1.83343
EOD
$p0s11 << EOD
64 1.53768
256 4.07185
1024 8.49626
4096 12.3169
16384 13.0974
EOD
$p1s0 << EOD
64 0.0272135
256 0.0573854
1024 0.0799478
4096 0.105174
16384 0.111058
EOD
$p1s1 << EOD
64 0.184221
256 0.732304
1024 2.35579
4096 4.00593
16384 4.87176
EOD
$p1s2 << EOD
64 7.19527
256 14.1642
1024 26.4061
4096 38.5496
16384 43.3273
EOD
$p1s3 << EOD
64 1.79172
64 2.53404
64 2.13398
64 1.88733
256 6.3691
256 8.29991
256 8.75589
256 9.15897
1024 11.5739
1024 12.9664
1024 13.3616
1024 13.3977
4096 19.1719
4096 19.3377
4096 19.1204
4096 19.5277
16384 20.4657
16384 20.2735
16384 20.4073
16384 20.1888
EOD
$p1s4 << EOD
64 63.9489
256 117.34
1024 139.332
4096 180.851
16384 181.502
EOD
$p1s5 << EOD
64 1.13807
256 2.59189
1024 3.60748
4096 5.63631
16384 5.82399
EOD
$p1s6 << EOD
64 0.287693
256 0.389671
1024 0.530694
4096 0.748128
16384 0.825247
EOD
$p1s7 << EOD
64 2.10122
256 3.15231
1024 3.21979
4096 3.44889
16384 3.5437
EOD
$p1s8 << EOD
64 0.846442
256 3.69573
1024 7.41457
4096 11.0334
16384 12.2693
EOD
$p1s9 << EOD
64 0.359659
256 0.298138
1024 0.344634
4096 0.372798
16384 0.391784
EOD
$p1s10 << EOD
64 2.58793
256 2.33901
1024 1.83382
4096 1.7183
16384 1.65456
EOD
$p1s11 << EOD
64 2.01271
256 7.67695
1024 13.8786
4096 21.1864
16384 22.4729
EOD
$p2s0 << EOD
64 0.0333273
256 0.0421807
1024 0.0790684
4096 0.0633195
16384 0.0679002
EOD
$p2s1 << EOD
64 0.334286
256 0.691989
1024 2.35206
4096 1.98837
16384 3.12367
EOD
$p2s2 << EOD
64 9.91734
256 15.5275
1024 30.3283
4096 31.2227
16384 46.3155
EOD
$p2s3 << EOD
64 1.20994
64 1.19353
64 1.22002
64 1.18977
256 4.42847
256 4.46006
256 0.964174
256 4.4589
1024 10.5613
1024 9.93074
1024 9.04871
1024 8.94796
4096 12.4822
4096 13.185
4096 13.2254
4096 13.7574
16384 14.7963
16384 16.8581
16384 13.4378
16384 17.0888
EOD
$p2s4 << EOD
64 35.9136
256 99.2246
1024 129.06
4096 200.214
16384 215.327
EOD
$p2s5 << EOD
64 0.976622
256 2.45695
1024 3.10743
4096 3.96972
16384 4.70142
EOD
$p2s6 << EOD
64 0.33833
256 0.276984
1024 0.554239
4096 0.642808
16384 0.781472
EOD
$p2s7 << EOD
64 1.23154
256 1.82349
1024 2.72344
4096 3.32199
16384 3.11794
EOD
$p2s8 << EOD
64 0.865619
256 2.32177
1024 5.21152
4096 3.14469
16384 7.33872
EOD
$p2s9 << EOD
64 0.237362
256 0.262387
1024 0.308418
4096 0.787552
16384 0.404855
EOD
$p2s10 << EOD
64 1.41689
256 1.04611
1024 1.83849
4096 3.91997
16384 1.92701
EOD
$p2s11 << EOD
64 1.61472
256 4.58166
1024 8.74945
4096 13.7475
16384 18.4935
EOD
$p3s0 << EOD
64 0.0318533
256 0.0448427
1024 0.0820589
4096 0.0904838
16384 0.0879558
EOD
$p3s1 << EOD
64 0.317396
256 0.676465
1024 2.60644
4096 3.81573
16384 4.41176
EOD
$p3s2 << EOD
64 9.91019
256 15.1702
1024 31.9213
4096 43.5404
16384 49.0492
EOD
$p3s3 << EOD
64 2.01915
64 1.94899
64 1.70024
64 1.69416
256 5.83055
256 5.87561
256 7.13122
256 7.23836
1024 13.3111
1024 13.4649
1024 13.5191
1024 13.2336
4096 17.0265
4096 14.949
4096 16.1988
4096 16.8104
16384 18.2775
16384 18.2869
16384 18.1486
16384 17.4897
EOD
$p3s4 << EOD
64 60.0885
256 126.963
1024 159.692
4096 188.397
16384 199.985
EOD
$p3s5 << EOD
64 1.00827
256 2.45331
1024 4.90237
4096 4.81097
16384 5.80051
EOD
$p3s6 << EOD
64 0.288154
256 0.279283
1024 0.545731
4096 0.718913
16384 0.75632
EOD
$p3s7 << EOD
64 1.7474
256 2.40671
1024 2.73994
4096 2.99709
16384 3.10612
EOD
$p3s8 << EOD
64 0.927551
256 3.62591
1024 7.8955
4096 10.1884
16384 10.7112
EOD
$p3s9 << EOD
64 0.22692
256 0.303199
1024 0.34412
4096 0.381898
16384 0.388747
EOD
$p3s10 << EOD
64 1.78986
256 1.95205
1024 1.71345
4096 1.63711
16384 1.60759
EOD
$p3s11 << EOD
64 1.7734
256 7.57185
1024 14.4617
4096 18.3634
16384 19.0736
EOD
$p4s0 << EOD
64 0.23434
256 0.353525
1024 0.453025
4096 0.474103
16384 0.484135
EOD
$p4s1 << EOD
64 0.137334
256 0.362258
1024 1.41692
4096 2.78225
16384 3.72105
EOD
$p4s2 << EOD
64 0.554312
256 1.09731
1024 3.10466
4096 5.66446
16384 7.70399
EOD
$p4s3 << EOD
64 0.19026
64 0.189906
64 0.169634
64 0.160019
256 0.552282
256 0.550579
256 0.562201
256 0.563294
1024 1.54061
1024 1.49996
1024 1.49831
1024 1.50537
4096 1.94878
4096 2.0647
4096 1.93808
4096 2.08368
16384 2.43525
16384 2.46602
16384 2.34646
16384 2.55506
EOD
$p4s4 << EOD
64 0.762894
256 1.56961
1024 3.20463
4096 4.10563
16384 5.02975
EOD
$p4s5 << EOD
64 0.177156
256 0.361325
1024 0.562877
4096 0.727682
16384 0.806192
EOD
$p4s6 << EOD
64 0.699912
256 1.06284
1024 2.3883
4096 3.8732
16384 4.6272
EOD
$p4s7 << EOD
64 0.953098
256 1.51046
1024 2.50658
4096 2.85172
16384 3.02551
EOD
$p4s8 << EOD
64 0.180939
256 0.609689
1024 1.18746
4096 1.70455
16384 2.0149
EOD
$p4s9 << EOD
64 0.570233
256 0.630835
1024 1.12786
4096 1.55948
16384 1.81978
EOD
$p4s10 << EOD
64 0.908357
256 0.909116
1024 1.19369
4096 1.21446
16384 1.21724
EOD
$p4s11 << EOD
64 0.240721
256 0.765035
1024 2.76323
4096 4.42085
16384 6.30638
EOD
$p5s0 << EOD
64 0.248628
256 0.44553
1024 0.459861
4096 0.561123
16384 0.587923
EOD
$p5s1 << EOD
64 0.128004
256 0.479434
1024 0.949837
4096 3.04411
16384 3.9716
EOD
$p5s2 << EOD
64 0.513192
256 1.06088
1024 2.77515
4096 5.32373
16384 6.6098
EOD
$p5s3 << EOD
64 0.196191
64 0.180558
64 0.196219
64 0.190748
256 0.63016
256 0.550979
256 0.571402
256 0.560751
1024 1.52725
1024 1.55751
1024 1.6106
1024 1.56945
4096 2.31915
4096 2.06471
4096 2.27209
4096 2.23465
16384 2.55108
16384 2.14252
16384 2.50779
16384 2.43754
EOD
$p5s4 << EOD
64 0.778646
256 1.41993
1024 3.28268
4096 3.99873
16384 4.30507
EOD
$p5s5 << EOD
64 0.194192
256 0.255187
1024 0.682964
4096 0.822851
16384 0.816335
EOD
$p5s6 << EOD
64 0.617916
256 1.45515
1024 2.43651
4096 3.74906
16384 4.28288
EOD
$p5s7 << EOD
64 0.947854
256 2.00793
1024 2.37513
4096 2.69786
16384 2.80139
EOD
$p5s8 << EOD
64 0.220496
256 0.626108
1024 1.60157
4096 2.11558
16384 2.26208
EOD
$p5s9 << EOD
64 0.583255
256 0.612287
1024 1.01572
4096 1.44525
16384 1.71172
EOD
$p5s10 << EOD
64 0.888274
256 0.897335
1024 0.996851
4096 1.09193
16384 1.12889
EOD
$p5s11 << EOD
64 0.272142
256 0.752766
1024 3.02883
4096 4.78233
16384 6.46649
EOD
$p6s0 << EOD
64 0.0214468
256 0.0344348
1024 0.0383128
4096 0.0396506
16384 0.039598
EOD
$p6s1 << EOD
64 0.29816
256 0.694386
1024 1.05141
4096 1.26106
16384 1.33098
EOD
$p6s2 << EOD
64 13.6368
256 20.2846
1024 28.8777
4096 32.1599
16384 32.8519
EOD
$p6s3 << EOD
64 0.648651
256 1.10118
1024 1.30096
4096 1.3712
16384 1.42006
EOD
$p6s4 << EOD
64 0.46258
256 0.665951
1024 0.842723
4096 0.917919
16384 0.944118
EOD
$p7s0 << EOD
64 0.0194104
256 0.0321525
1024 0.036592
4096 0.0370075
16384 0.0391416
EOD
$p7s1 << EOD
64 0.275094
256 0.662494
1024 1.08716
4096 1.28223
16384 1.32241
EOD
$p7s2 << EOD
64 14.0691
256 21.1308
1024 28.7374
4096 32.4169
16384 33.4304
EOD
$p7s3 << EOD
64 0.572902
256 1.01128
1024 1.25352
4096 1.40568
16384 1.27377
EOD
$p7s4 << EOD
64 0.471356
256 0.653083
1024 0.843435
4096 0.915146
16384 0.974023
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
set y2range [0.173208:217.806]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p0s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p0s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p0s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p0s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'kernel', \
     $p0s4 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p0s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'sse', \
     $p0s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/OpenSSL', \
     $p0s7 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/kernel', \
     $p0s8 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx2', \
     $p0s9 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p0s10 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/kernel', \
     $p0s11 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'avx512'
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
set y2range [0.239744:217.802]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p1s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p1s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p1s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p1s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'kernel', \
     $p1s4 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p1s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'sse', \
     $p1s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/OpenSSL', \
     $p1s7 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/kernel', \
     $p1s8 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx2', \
     $p1s9 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p1s10 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/kernel', \
     $p1s11 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'avx512'
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
set y2range [0.197802:258.393]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p2s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p2s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p2s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p2s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'kernel', \
     $p2s4 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p2s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'sse', \
     $p2s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/OpenSSL', \
     $p2s7 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/kernel', \
     $p2s8 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx2', \
     $p2s9 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p2s10 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/kernel', \
     $p2s11 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'avx512'
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
set y2range [0.1891:239.982]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p3s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p3s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p3s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p3s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'kernel', \
     $p3s4 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p3s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'sse', \
     $p3s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/OpenSSL', \
     $p3s7 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/kernel', \
     $p3s8 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx2', \
     $p3s9 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p3s10 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/kernel', \
     $p3s11 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'avx512'
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
set y2range [0.5:9.24479]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p4s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p4s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p4s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p4s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'kernel', \
     $p4s4 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p4s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'sse', \
     $p4s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/OpenSSL', \
     $p4s7 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/kernel', \
     $p4s8 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx2', \
     $p4s9 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p4s10 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/kernel', \
     $p4s11 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'avx512'
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
set y2range [0.5:7.93176]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p5s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p5s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p5s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p5s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'kernel', \
     $p5s4 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/kernel', \
     $p5s5 using 1:2 axes x1y1 with lines lc 3 dt 1 lw 1 title 'sse', \
     $p5s6 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/OpenSSL', \
     $p5s7 using 1:2 axes x1y2 with lines lc 3 dt 2 lw 1 title 'sse/kernel', \
     $p5s8 using 1:2 axes x1y1 with lines lc 4 dt 1 lw 1 title 'avx2', \
     $p5s9 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/OpenSSL', \
     $p5s10 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx2/kernel', \
     $p5s11 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'avx512'
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
set y2range [0.385483:39.4223]
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
set y2range [0.392797:40.1165]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p7s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p7s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p7s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p7s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p7s4 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL'
unset multiplot

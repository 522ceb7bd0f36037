# gnuplot script written by tlsx-bench --plot;
# draw again with: gnuplot perf-crypto-sweep.gp (in this directory)
# build/bin/tlsx-bench crypto --sweep --rounds 41 --batch-ms 1 --json docs/perf-crypto-sweep.json --plot docs/perf-crypto-sweep.svg; commit dc58ab1; AMD EPYC (family 26 model 2, 2 CPUs, load 4.83); kernel 6.18.44-fc-v1272; 2026-12-06T13:44:16Z
set terminal svg size 660,950 font 'sans,9' linewidth 1
set output 'perf-crypto-sweep.svg'
$p0s0 << EOD
64 0.0410981
256 0.0811009
1024 0.100981
4096 0.111106
16384 0.113616
EOD
$p0s1 << EOD
64 0.309032
256 1.07813
1024 2.54913
4096 4.1027
16384 4.76992
EOD
$p0s2 << EOD
64 7.58852
256 13.4116
1024 25.5772
4096 36.4719
16384 42.0249
EOD
$p0s3 << EOD
64 31.6754
256 65.0749
1024 117.895
4096 161.398
16384 182.44
EOD
$p0s4 << EOD
64 1.05591
256 3.16865
1024 4.08726
4096 6.16073
16384 6.41574
EOD
$p0s5 << EOD
64 0.304184
256 0.346853
1024 0.449142
4096 0.681671
16384 0.75723
EOD
$p0s6 << EOD
64 1.27502
256 1.67006
1024 2.39268
4096 2.94971
16384 3.19826
EOD
$p0s7 << EOD
64 1.08413
256 3.9837
1024 5.99558
4096 11.5532
16384 12.2112
EOD
$p0s8 << EOD
64 0.297413
256 0.277066
1024 0.266866
4096 0.361051
16384 0.383331
EOD
$p0s9 << EOD
64 1.25128
256 1.32945
1024 1.7283
4096 1.56581
16384 1.61924
EOD
$p0s10 << EOD
64 1.85267
256 6.13791
1024 8.51661
4096 15.4263
16384 22.3094
EOD
$p0s11 << EOD
64 0.171824
256 0.179661
1024 0.192324
4096 0.205051
16384 0.216445
EOD
$p0s12 << EOD
64 1.32719
256 5.28661
1024 10.6312
4096 18.1448
16384 20.6172
EOD
$p0s13 << EOD
64 0.71736
256 0.860234
1024 1.22524
4096 0.90174
16384 0.923958
EOD
$p1s0 << EOD
64 0.0419631
256 0.0758475
1024 0.105156
4096 0.113323
16384 0.115129
EOD
$p1s1 << EOD
64 0.31454
256 0.462103
1024 2.74267
4096 4.22073
16384 4.84715
EOD
$p1s2 << EOD
64 7.78945
256 13.7283
1024 26.178
4096 37.3974
16384 42.3074
EOD
$p1s3 << EOD
64 57.673
256 114.659
1024 148.483
4096 174.717
16384 181.574
EOD
$p1s4 << EOD
64 1.27289
256 3.01871
1024 4.87058
4096 5.65642
16384 5.90564
EOD
$p1s5 << EOD
64 0.26483
256 0.379117
1024 0.567208
4096 0.736393
16384 0.823029
EOD
$p1s6 << EOD
64 1.9481
256 3.03458
1024 3.1918
4096 3.45759
16384 3.57854
EOD
$p1s7 << EOD
64 1.00612
256 3.90537
1024 8.37755
4096 10.7984
16384 12.5592
EOD
$p1s8 << EOD
64 0.336379
256 0.291977
1024 0.326977
4096 0.383001
16384 0.388136
EOD
$p1s9 << EOD
64 2.46117
256 2.37689
1024 1.83016
4096 1.73697
16384 1.70746
EOD
$p1s10 << EOD
64 3.29493
256 8.75119
1024 15.6006
4096 21.4305
16384 23.3346
EOD
$p1s11 << EOD
64 0.101394
256 0.131453
1024 0.173625
4096 0.198818
16384 0.208862
EOD
$p1s12 << EOD
64 2.47392
256 9.29573
1024 15.2244
4096 19.7467
16384 21.0508
EOD
$p1s13 << EOD
64 0.751239
256 1.05699
1024 0.982441
4096 0.920279
16384 0.893473
EOD
$p2s0 << EOD
64 0.0340281
256 0.0572051
1024 0.0842616
4096 0.0923709
16384 0.0925889
EOD
$p2s1 << EOD
64 0.312481
256 1.02242
1024 2.52199
4096 3.53427
16384 1.90138
EOD
$p2s2 << EOD
64 9.18387
256 16.2658
1024 29.9658
4096 38.4817
16384 23.1732
EOD
$p2s3 << EOD
64 35.9677
256 74.3552
1024 133.712
4096 173.258
16384 191.643
EOD
$p2s4 << EOD
64 0.987116
256 2.82001
1024 4.67407
4096 5.58847
16384 5.86268
EOD
$p2s5 << EOD
64 0.319806
256 0.359363
1024 0.539932
4096 0.707609
16384 0.769007
EOD
$p2s6 << EOD
64 1.25272
256 1.66583
1024 2.38278
4096 2.8502
16384 3.13348
EOD
$p2s7 << EOD
64 1.05341
256 3.45195
1024 7.52424
4096 6.92212
16384 11.1627
EOD
$p2s8 << EOD
64 0.30151
256 0.30263
1024 0.336178
4096 0.381836
16384 0.412369
EOD
$p2s9 << EOD
64 1.15604
256 1.39295
1024 1.50647
4096 1.62008
16384 1.65418
EOD
$p2s10 << EOD
64 1.66145
256 5.00546
1024 11.3766
4096 5.37891
16384 19.1846
EOD
$p2s11 << EOD
64 0.189114
256 0.208244
1024 0.217912
4096 0.476544
16384 0.237754
EOD
$p2s12 << EOD
64 1.21504
256 4.82496
1024 11.2768
4096 15.5178
16384 15.1406
EOD
$p2s13 << EOD
64 0.731875
256 0.960933
1024 0.976895
4096 1.59617
16384 0.894758
EOD
$p3s0 << EOD
64 0.0335576
256 0.0616339
1024 0.0512719
4096 0.0668028
16384 0.0933925
EOD
$p3s1 << EOD
64 0.323244
256 1.00639
1024 1.02336
4096 3.134
16384 4.53653
EOD
$p3s2 << EOD
64 9.60647
256 16.5093
1024 23.9566
4096 43.2753
16384 49.3677
EOD
$p3s3 << EOD
64 62.0045
256 113.974
1024 173.02
4096 195.419
16384 200.658
EOD
$p3s4 << EOD
64 1.12523
256 2.57308
1024 2.82598
4096 5.20982
16384 5.85861
EOD
$p3s5 << EOD
64 0.278975
256 0.323301
1024 0.515974
4096 0.693989
16384 0.685768
EOD
$p3s6 << EOD
64 1.79784
256 2.43662
1024 3.13591
4096 2.99884
16384 3.17834
EOD
$p3s7 << EOD
64 0.941493
256 3.68947
1024 7.5576
4096 8.6514
16384 11.5226
EOD
$p3s8 << EOD
64 0.321837
256 0.284595
1024 0.342751
4096 0.179428
16384 0.398113
EOD
$p3s9 << EOD
64 2.20079
256 2.02762
1024 1.76645
4096 1.64972
16384 1.62946
EOD
$p3s10 << EOD
64 3.08881
256 6.50272
1024 8.71029
4096 13.8343
16384 20.2319
EOD
$p3s11 << EOD
64 0.105082
256 0.130344
1024 0.176334
4096 0.21182
16384 0.21976
EOD
$p3s12 << EOD
64 2.06789
256 6.07132
1024 9.70905
4096 13.4946
16384 18.5585
EOD
$p3s13 << EOD
64 0.671107
256 0.961991
1024 1.05097
4096 0.98759
16384 0.911935
EOD
$p4s0 << EOD
64 0.247043
256 0.440548
1024 0.536177
4096 0.587171
16384 0.572345
EOD
$p4s1 << EOD
64 0.137409
256 0.456672
1024 1.74285
4096 3.19061
16384 3.97899
EOD
$p4s2 << EOD
64 0.559499
256 1.12954
1024 3.12854
4096 5.4153
16384 6.95726
EOD
$p4s3 << EOD
64 0.757414
256 1.39137
1024 2.96039
4096 3.91403
16384 4.23513
EOD
$p4s4 << EOD
64 0.207668
256 0.404169
1024 0.689312
4096 0.773916
16384 0.877091
EOD
$p4s5 << EOD
64 0.668531
256 1.24442
1024 2.56672
4096 3.93816
16384 4.60222
EOD
$p4s6 << EOD
64 0.945008
256 1.53812
1024 2.40114
4096 2.79828
16384 2.94693
EOD
$p4s7 << EOD
64 0.221968
256 0.691315
1024 1.67213
4096 2.12186
16384 2.30077
EOD
$p4s8 << EOD
64 0.623681
256 0.703309
1024 1.05777
4096 1.49965
16384 1.74086
EOD
$p4s9 << EOD
64 0.878224
256 0.859572
1024 0.989045
4096 1.08383
16384 1.1197
EOD
$p4s10 << EOD
64 0.279607
256 0.863856
1024 3.30939
4096 3.77642
16384 6.62067
EOD
$p4s11 << EOD
64 0.500189
256 0.566495
1024 0.533394
4096 0.629904
16384 0.600337
EOD
$p4s12 << EOD
64 0.196486
256 0.585649
1024 1.64841
4096 2.32011
16384 2.6253
EOD
$p4s13 << EOD
64 0.701739
256 0.680716
1024 0.495764
4096 0.455893
16384 0.395073
EOD
$p5s0 << EOD
64 0.24996
256 0.452731
1024 0.563428
4096 0.592618
16384 0.552429
EOD
$p5s1 << EOD
64 0.123351
256 0.469923
1024 1.67542
4096 2.2711
16384 3.92865
EOD
$p5s2 << EOD
64 0.493063
256 1.03816
1024 2.97082
4096 4.1866
16384 7.05759
EOD
$p5s3 << EOD
64 0.76165
256 1.40059
1024 2.94667
4096 3.93469
16384 4.21713
EOD
$p5s4 << EOD
64 0.207334
256 0.424065
1024 0.69856
4096 0.837832
16384 0.875682
EOD
$p5s5 << EOD
64 0.604779
256 1.12067
1024 2.39993
4096 3.72569
16384 4.52454
EOD
$p5s6 << EOD
64 0.928137
256 1.36771
1024 2.37536
4096 2.78674
16384 2.94728
EOD
$p5s7 << EOD
64 0.221641
256 0.724742
1024 1.66463
4096 2.12434
16384 2.28578
EOD
$p5s8 << EOD
64 0.571253
256 0.652924
1024 1.00403
4096 1.4604
16384 1.72911
EOD
$p5s9 << EOD
64 0.875488
256 0.87855
1024 0.996348
4096 1.09551
16384 1.11452
EOD
$p5s10 << EOD
64 0.260534
256 0.921142
1024 3.33322
4096 5.09923
16384 3.84751
EOD
$p5s11 << EOD
64 0.453407
256 0.510158
1024 0.50424
4096 0.608773
16384 0.709632
EOD
$p5s12 << EOD
64 0.192759
256 0.635508
1024 1.55911
4096 2.33183
16384 2.58967
EOD
$p5s13 << EOD
64 0.690598
256 0.685884
1024 0.506373
4096 0.456783
16384 0.437104
EOD
$p6s0 << EOD
64 0.020013
256 0.0316898
1024 0.0383525
4096 0.0399242
16384 0.0402221
EOD
$p6s1 << EOD
64 0.291818
256 0.706552
1024 1.10579
4096 1.24671
16384 1.33851
EOD
$p6s2 << EOD
64 13.2261
256 21.3514
1024 28.754
4096 31.3102
16384 33.5514
EOD
$p6s3 << EOD
64 0.655666
256 1.10458
1024 1.32686
4096 1.35026
16384 1.43113
EOD
$p6s4 << EOD
64 0.415485
256 0.135298
1024 0.817734
4096 0.923767
16384 0.943086
EOD
$p7s0 << EOD
64 0.0189158
256 0.0321168
1024 0.0380608
4096 0.0394601
16384 0.0398798
EOD
$p7s1 << EOD
64 0.258576
256 0.665789
1024 1.10089
4096 1.24024
16384 1.34246
EOD
$p7s2 << EOD
64 13.5093
256 20.536
1024 28.9477
4096 31.8379
16384 33.6032
EOD
$p7s3 << EOD
64 0.581657
256 1.04497
1024 1.31813
4096 1.40813
16384 1.43078
EOD
$p7s4 << EOD
64 0.442386
256 0.639226
1024 0.824265
4096 0.88704
16384 0.941814
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
set y2range [0.143187:218.927]
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
     $p0s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL', \
     $p0s12 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'kernel', \
     $p0s13 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/kernel'
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
set y2range [0.0844952:217.889]
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
     $p1s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL', \
     $p1s12 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'kernel', \
     $p1s13 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/kernel'
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
set y2range [0.157595:229.971]
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
     $p2s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL', \
     $p2s12 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'kernel', \
     $p2s13 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/kernel'
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
set y2range [0.0875687:240.79]
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
     $p3s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL', \
     $p3s12 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'kernel', \
     $p3s13 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/kernel'
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
set y2range [0.329228:8.34871]
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
     $p4s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL', \
     $p4s12 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'kernel', \
     $p4s13 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/kernel'
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
set y2range [0.364253:8.4691]
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
     $p5s11 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/OpenSSL', \
     $p5s12 using 1:2 axes x1y1 with lines lc 5 dt 1 lw 1 title 'kernel', \
     $p5s13 using 1:2 axes x1y2 with lines lc 4 dt 2 lw 1 title 'avx512/kernel'
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
set y2range [0.112749:40.2616]
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
set y2range [0.368655:40.3238]
set y2label 'tlsx/OpenSSL time (<1: tlsx faster)'
plot $p7s0 using 1:2 axes x1y1 with lines lc 1 dt 1 lw 1 title 'generic', \
     $p7s1 using 1:2 axes x1y1 with lines lc -1 dt 1 lw 2 title 'OpenSSL', \
     $p7s2 using 1:2 axes x1y2 with lines lc 1 dt 2 lw 1 title 'generic/OpenSSL', \
     $p7s3 using 1:2 axes x1y1 with lines lc 2 dt 1 lw 1 title 'sse', \
     $p7s4 using 1:2 axes x1y2 with lines lc 2 dt 2 lw 1 title 'sse/OpenSSL'
unset multiplot

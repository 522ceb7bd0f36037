#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# tools/gen/hpack_huffman.py - print the tables of
# userspace/tlsxd/h2/hpack_huffman.c from RFC 7541 Appendix B's code
# lengths.  The code is canonical (codes rise with (length, symbol)),
# so the lengths are the whole code; test_hpack checks the result
# against the Appendix's codes it quotes and against Python's hpack.
#   tools/gen/hpack_huffman.py > /tmp/t.c  (then paste the tables)

# Appendix B, the "len" column, symbols 0-256 (256 = EOS), runs of
# (count, length) in symbol order.
RUNS = [
    (1, 13), (1, 23), (7, 28), (1, 24), (1, 30), (2, 28), (1, 30),
    (8, 28), (1, 30), (9, 28),
    # ' ' to '/'
    (1, 6), (2, 10), (1, 12), (1, 13), (1, 6), (1, 8), (1, 11), (2, 10),
    (1, 8), (1, 11), (1, 8), (3, 6),
    # '0' to '?'
    (3, 5), (7, 6), (1, 7), (1, 8), (1, 15), (1, 6), (1, 12), (1, 10),
    # '@' to '_'
    (1, 13), (1, 6), (22, 7), (1, 8), (1, 7), (1, 8), (1, 13), (1, 19),
    (1, 13), (1, 14), (1, 6),
    # '`' to 127
    (1, 15), (1, 5), (1, 6), (1, 5), (1, 6), (1, 5), (3, 6), (1, 5),
    (2, 7), (3, 6), (1, 5), (1, 6), (1, 7), (1, 6), (2, 5), (1, 6),
    (5, 7), (1, 15), (1, 11), (1, 14), (1, 13), (1, 28),
]
HIGH = [  # 128-255, one length each
    20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
    24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
    22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
    21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
    26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
    19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
    20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
    26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
]
EOS_LEN = 30

lens = [l for n, l in RUNS for _ in range(n)] + HIGH + [EOS_LEN]
assert len(lens) == 257, len(lens)
assert sum(2.0 ** -l for l in lens) == 1.0  # a complete prefix code

order = sorted(range(257), key=lambda s: (lens[s], s))
codes = [0] * 257
code, prev = 0, lens[order[0]]
for i, s in enumerate(order):
    if i:
        code = (code + 1) << (lens[s] - prev)
    codes[s], prev = code, lens[s]

print("static const struct huff_code huff_codes[257] = {")
for s in range(257):
    end = "" if s % 4 == 3 or s == 256 else " "
    print(("\t" if s % 4 == 0 else "") + "{ 0x%x, %d }," % (codes[s], lens[s]),
          end="\n" if end == "" else end)
print("};\n")
print("/* Symbols in code order, and how many codes each length has. */")
print("static const uint16_t huff_syms[257] = {")
for i in range(0, 257, 12):
    print("\t" + " ".join("%d," % s for s in order[i:i + 12]))
print("};\n")
cnt = [0] * 31
for l in lens:
    cnt[l] += 1
# Per length: the first code, the index in huff_syms of its symbol, and
# (left-aligned in 32 bits) the end of the codes of that length or less.
first, off, lim = [0] * 31, [0] * 31, [0] * 31
for l in range(1, 31):
    if l > 1:
        first[l] = (first[l - 1] + cnt[l - 1]) << 1
        off[l] = off[l - 1] + cnt[l - 1]
    lim[l] = (first[l] + cnt[l]) << (32 - l)
assert lim[30] == 1 << 32
for name, t, fmt in (("huff_first", first, "0x%x,"), ("huff_off", off, "%d,")):
    print("\nstatic const uint32_t %s[31] = {" % name)
    for i in range(0, 31, 8):
        print("\t" + " ".join(fmt % v for v in t[i:i + 8]))
    print("};")
print("\nstatic const uint64_t huff_lim[31] = {")
for i in range(0, 31, 4):
    print("\t" + " ".join("0x%x," % v for v in lim[i:i + 4]))
print("};")

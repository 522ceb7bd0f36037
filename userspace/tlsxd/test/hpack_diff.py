#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# hpack_diff.py - Python's hpack (Debian python3-hpack) as the other
# side of test_hpack's differential test.  Reads lines from stdin:
#   D <hex>             a block our encoder made: decoded by one
#                       hpack.Decoder kept across lines, printed as
#                       fields (below), or "ERR <what>"
#   E <field> ...       fields for one hpack.Encoder kept across lines
#                       (Huffman on): the block printed in hex
# A field is <hex name>:<hex value>:<0|1>, 1 = never indexed.
# "T <n>" sets the encoder's table size (a size update follows).
import sys

try:
    import hpack
    from hpack import HeaderTuple, NeverIndexedHeaderTuple
except ImportError:
    print("NOHPACK")
    sys.exit(0)

dec = hpack.Decoder()
dec.max_header_list_size = 1 << 30
enc = hpack.Encoder()


def field(f):
    n, v, s = f.split(":")
    cls = NeverIndexedHeaderTuple if s == "1" else HeaderTuple
    return cls(bytes.fromhex(n), bytes.fromhex(v))


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "D":
        try:
            hs = dec.decode(bytes.fromhex(words[1] if len(words) > 1 else ""),
                            raw=True)
        except Exception as e:  # the test prints what failed
            print("ERR", type(e).__name__)
            continue
        print(" ".join("%s:%s:%d" % (n.hex(), v.hex(),
                                     0 if h.indexable else 1)
                       for h in hs for n, v in [h]) or "-")
    elif words[0] == "E":
        print(enc.encode([field(f) for f in words[1:]], huffman=True).hex())
    elif words[0] == "T":
        enc.header_table_size = int(words[1])
        print("-")
    sys.stdout.flush()

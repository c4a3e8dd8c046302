#!/usr/bin/env python3
"""pcapfiles.py - a classic pcap file (little-endian, microseconds) cut or
moved as a capture in several files is (tests/sh/test_hostile26.sh):

  pcapfiles.py count IN              the packets IN holds
  pcapfiles.py split IN K... OUT...  IN cut after packets K... into the OUTs
                                     (a rotated capture: tcpdump -C / -G)
  pcapfiles.py shift IN US OUT       every stamp moved by US microseconds
                                     (the same packets on another host)"""
import struct
import sys

def records(path):
    d = open(path, "rb").read()
    head, rest, recs = d[:24], d[24:], []
    while rest:
        n = struct.unpack("<IIII", rest[:16])[2]
        recs.append(rest[:16 + n])
        rest = rest[16 + n:]
    return head, recs

def main(a):
    head, recs = records(a[1])
    if a[0] == "count":
        print(len(recs))
    elif a[0] == "split":
        rest = a[2:]
        ks = [int(x) for x in rest[:len(rest) // 2]]
        outs = rest[len(rest) // 2:]
        bounds = [0] + ks + [len(recs)]
        for i, out in enumerate(outs):
            open(out, "wb").write(head + b"".join(recs[bounds[i]:bounds[i + 1]]))
    elif a[0] == "shift":
        us = int(a[2])
        out = [head]
        for r in recs:
            s, u, n, l = struct.unpack("<IIII", r[:16])
            t = s * 1000000 + u + us
            out.append(struct.pack("<IIII", t // 1000000, t % 1000000, n, l) + r[16:])
        open(a[3], "wb").write(b"".join(out))

if __name__ == "__main__":
    main(sys.argv[1:])

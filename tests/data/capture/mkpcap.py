#!/usr/bin/env python3
"""mkpcap.py DIR - write the packet captures of tests/sh/test_capture.sh:
exchange.pcap (keep-alive, pipelining, a chunked answer split over two
packets, a retransmission, a connection cut inside a response, a stream
that is not HTTP), truncated.pcap (its last packet cut short),
linktype.pcap (an unknown link type) and garbage.pcap.  Known bytes in a
known order: the expected messages are worked out in the test."""
import struct
import sys

def ip4(a):
    return bytes(int(x) for x in a.split("."))

def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff

def packet(src, sport, dst, dport, seq, ack, flags, payload=b""):
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, 5 << 4, flags, 65535, 0, 0) + payload
    iph = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0x4000, 64, 6, 0, ip4(src), ip4(dst))
    iph = iph[:10] + struct.pack("!H", csum(iph)) + iph[12:]
    eth = b"\0" * 12 + b"\x08\x00"
    return eth + iph + tcp

class Writer:
    def __init__(self, path, linktype=1):
        self.f = open(path, "wb")
        # pcap, microseconds
        self.f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, linktype))
        self.t = 1000.0
    def put(self, data, dt=0.001):
        self.t += dt
        sec = int(self.t)
        usec = int(round((self.t - sec) * 1e6))
        self.f.write(struct.pack("<IIII", sec, usec, len(data), len(data)) + data)
    def close(self):
        self.f.close()

SYN, ACK, PSH, FIN, RST = 0x02, 0x10, 0x08, 0x01, 0x04

def tp(path):
    return path.strip("/").encode().hex().ljust(32, "0")[:32]

def req(path):
    return ("GET %s HTTP/1.1\r\nHost: t\r\ntraceparent: 00-%s-00000000000000aa-01\r\n\r\n"
            % (path, tp(path))).encode()

def conn(w, c, cp, s, sp, talk, close=True):
    """talk: list of (from_client, bytes[, retransmit])"""
    cs, ss = 1000, 5000
    w.put(packet(c, cp, s, sp, cs, 0, SYN)); cs += 1
    w.put(packet(s, sp, c, cp, ss, cs, SYN | ACK)); ss += 1
    w.put(packet(c, cp, s, sp, cs, ss, ACK))
    for item in talk:
        fc, data = item[0], item[1]
        if fc:
            w.put(packet(c, cp, s, sp, cs, ss, PSH | ACK, data))
            if len(item) > 2:
                w.put(packet(c, cp, s, sp, cs, ss, PSH | ACK, data))  # retransmitted
            cs += len(data)
        else:
            w.put(packet(s, sp, c, cp, ss, cs, PSH | ACK, data))
            ss += len(data)
    if close == "rst":
        w.put(packet(s, sp, c, cp, ss, cs, RST | ACK))
    elif close:
        w.put(packet(c, cp, s, sp, cs, ss, FIN | ACK))
        w.put(packet(s, sp, c, cp, ss, cs + 1, FIN | ACK))

def ok(body):
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body

def main(d):
    w = Writer(d + "/exchange.pcap")
    A, B = "10.0.0.1", "10.0.0.2"
    conn(w, A, 40001, B, 80, [
        (1, req("/one"), "retransmit"),
        (0, ok(b"first")),
        (1, req("/two") + req("/three")),               # pipelined: one segment
        (0, ok(b"second") + b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nthir"),
        (0, b"\r\n1\r\nd\r\n0\r\n\r\n"),                # the chunked answer ends
    ])
    # a response cut by a reset: one request unanswered, one stream cut
    conn(w, A, 40002, B, 80, [
        (1, req("/four")),
        (0, b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789"),
    ], close="rst")
    # not HTTP
    conn(w, A, 40003, B, 5432, [(1, b"\x00\x00\x00\x08\x04\xd2\x16\x2f"), (0, b"N")])
    w.close()
    # truncated: the exchange file, its last packet cut short
    data = open(d + "/exchange.pcap", "rb").read()
    open(d + "/truncated.pcap", "wb").write(data[:-30])
    w = Writer(d + "/linktype.pcap", linktype=147)
    w.put(b"\0" * 60)
    w.close()
    open(d + "/garbage.pcap", "wb").write(b"\xd4\xc3\xb2\xa1" + b"\xff" * 10)

if __name__ == "__main__":
    main(sys.argv[1])

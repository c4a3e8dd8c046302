#!/usr/bin/env python3
"""mkh2pcap.py DIR - write the HTTP/2 packet captures of
tests/sh/test_capture_h2.sh (mkh2pcap.py DIR --many N: DIR/many.pcap, N
unary gRPC calls on one connection, for timing the import):

h2.pcap: two HTTP/2 (gRPC-like, prior knowledge) connections.
  10.0.0.1:40001 > 10.0.0.2:50051: preface, SETTINGS both ways, requests on
  streams 1 and 3 interleaved (stream 3's header block is padded, carries
  the PRIORITY fields and is split over HEADERS + CONTINUATION in two
  packets; it names a header by the dynamic-table index stream 1's block
  added), both with DATA bodies (stream 3's padded); a health check on
  stream 5 without traceparent; stream 7 reset by the client inside its
  body.  The server answers stream 3 first (gRPC trailers grpc-status 0),
  pushes a response on stream 2 (PUSH_PROMISE), then answers 1
  (grpc-status 5) and 5.  PING, WINDOW_UPDATE and GOAWAY between.
  10.0.0.1:40002 > 10.0.0.2:50051: a request and its answer, then a
  header block whose CONTINUATION packet the capture lost (a gap), a
  later request, and the server's answer to the request behind the gap.
h2bad.pcap: one bad HTTP/2 connection per irregularity: a frame longer
  than SETTINGS_MAX_FRAME_SIZE, an HPACK error, header padding longer than
  its frame, CONTINUATION without HEADERS, random bytes after the preface,
  and a request answered before the capture ends inside a frame.
Header fields are HPACK literals without Huffman coding (RFC 7541 6.2),
plus a few static-table indices; every byte is known, and the expected
messages are worked out in the test."""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mkpcap import Writer, packet, SYN, ACK, PSH, FIN  # noqa: E402

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, PRIORITY, RST, SETTINGS, PUSH, PING, GOAWAY, WINDOW, CONT = range(10)
END_STREAM, ACKF, END_HEADERS, PADDED, PRIO = 0x1, 0x1, 0x4, 0x8, 0x20


def frame(ftype, flags, sid, payload=b"", length=None):
    n = len(payload) if length is None else length
    return struct.pack("!I", n)[1:] + struct.pack("!BBI", ftype, flags, sid) + payload


def hint(v, prefix, first=0):
    """an HPACK integer with an N-bit prefix (RFC 7541 5.1)"""
    mx = (1 << prefix) - 1
    if v < mx:
        return bytes([first | v])
    out = [first | mx]
    v -= mx
    while v >= 128:
        out.append(v % 128 + 128)
        v //= 128
    out.append(v)
    return bytes(out)


def lit(name, value, index=False):
    """a literal field with a new name, without (0x00) or with (0x40)
    incremental indexing; no Huffman coding"""
    n, v = name.encode(), value.encode()
    return (b"\x40" if index else b"\x00") + hint(len(n), 7) + n + hint(len(v), 7) + v


def idx(i):
    """an indexed field: 2 = :method GET, 3 = :method POST, 6 = :scheme
    http, 8 = :status 200, 62 = the newest dynamic-table entry"""
    return hint(i, 7, 0x80)


def tp(name):
    return "00-%s-00000000000000aa-01" % name.encode().hex().ljust(32, "0")[:32]


def grpc_req(path, trace=None, extra=b""):
    b = idx(3) + idx(6) + lit(":path", path) + lit(":authority", "cart") + \
        lit("content-type", "application/grpc") + lit("te", "trailers")
    if trace:
        b += lit("traceparent", tp(trace))
    return b + extra


class Conn:
    """one TCP connection; put() writes a segment, lose() advances the
    sequence number as if a packet were lost by the capture"""
    def __init__(self, w, c, cp, s, sp):
        self.w, self.c, self.cp, self.s, self.sp = w, c, cp, s, sp
        self.cs, self.ss = 1000, 5000
        w.put(packet(c, cp, s, sp, self.cs, 0, SYN)); self.cs += 1
        w.put(packet(s, sp, c, cp, self.ss, self.cs, SYN | ACK)); self.ss += 1
        w.put(packet(c, cp, s, sp, self.cs, self.ss, ACK))

    def put(self, from_client, data):
        if from_client:
            self.w.put(packet(self.c, self.cp, self.s, self.sp, self.cs, self.ss, PSH | ACK, data))
            self.cs += len(data)
        else:
            self.w.put(packet(self.s, self.sp, self.c, self.cp, self.ss, self.cs, PSH | ACK, data))
            self.ss += len(data)

    def lose(self, data):
        self.cs += len(data)

    def close(self):
        self.w.put(packet(self.c, self.cp, self.s, self.sp, self.cs, self.ss, FIN | ACK))
        self.w.put(packet(self.s, self.sp, self.c, self.cp, self.ss, self.cs + 1, FIN | ACK))


def good(w):
    A, B = "10.0.0.1", "10.0.0.2"
    c = Conn(w, A, 40001, B, 50051)                                  # packets 1-3
    c.put(1, PREFACE + frame(SETTINGS, 0, 0, struct.pack("!HI", 4, 65535)))      # 4
    c.put(0, frame(SETTINGS, 0, 0) + frame(SETTINGS, ACKF, 0))                   # 5
    # 6: stream 1's request head; x-tenant enters the dynamic table (62)
    c.put(1, frame(SETTINGS, ACKF, 0) +
          frame(HEADERS, END_HEADERS, 1,
                grpc_req("/shop.Cart/Get?debug=1", "one", lit("x-tenant", "blue", index=True))))
    # 7: stream 3's head: padded, with PRIORITY, the block split over HEADERS ...
    blk3 = grpc_req("/shop.Cart/Add", "three", idx(62))
    cut = 20
    c.put(1, frame(HEADERS, PADDED | PRIO, 3,
                   bytes([3]) + struct.pack("!IB", 1, 15) + blk3[:cut] + b"\0" * 3))
    # 8: ... and CONTINUATION, then a PING
    c.put(1, frame(CONT, END_HEADERS, 3, blk3[cut:]) + frame(PING, 0, 0, b"\0" * 8))
    # 9: stream 1's body (12 bytes) ends it; stream 3's body: 8 bytes, 4 of padding
    c.put(1, frame(DATA, END_STREAM, 1, b"\0\0\0\0\x07abcdefg") +
          frame(DATA, END_STREAM | PADDED, 3, bytes([4]) + b"12345678" + b"\0" * 4))
    # 10: a health check on stream 5 (no traceparent), in one frame
    c.put(1, frame(HEADERS, END_HEADERS | END_STREAM, 5,
                   idx(3) + idx(6) + lit(":path", "/grpc.health.v1.Health/Check")))
    # 11: stream 7 starts, sends part of its body, and is reset by the client
    c.put(1, frame(HEADERS, END_HEADERS, 7, grpc_req("/shop.Cart/Empty", "seven")) +
          frame(DATA, 0, 7, b"\0\0\0\0\x09abc") + frame(RST, 0, 7, struct.pack("!I", 8)))
    # 12: the answer to stream 3 first: head, 10 bytes, trailers grpc-status 0
    c.put(0, frame(WINDOW, 0, 0, struct.pack("!I", 1000)) +
          frame(HEADERS, END_HEADERS, 3, idx(8) + lit("content-type", "application/grpc")) +
          frame(DATA, 0, 3, b"\0\0\0\0\x05hello") +
          frame(HEADERS, END_HEADERS | END_STREAM, 3, lit("grpc-status", "0")))
    # 13: a pushed response (stream 2, promised on stream 1): no request
    c.put(0, frame(PUSH, END_HEADERS, 1, struct.pack("!I", 2) + idx(2) + idx(6) +
                   lit(":path", "/pushed")) +
          frame(HEADERS, END_HEADERS, 2, idx(8)) + frame(DATA, END_STREAM, 2, b"pushed"))
    # 14: the answer to stream 1: 6 bytes, grpc-status 5 in its trailers
    c.put(0, frame(HEADERS, END_HEADERS, 1, idx(8) + lit("content-type", "application/grpc")) +
          frame(DATA, 0, 1, b"\0\0\0\0\x01z") +
          frame(HEADERS, END_HEADERS | END_STREAM, 1,
                lit("grpc-status", "5") + lit("grpc-message", "not found")))
    # 15: the health check's answer, trailers only
    c.put(0, frame(HEADERS, END_HEADERS | END_STREAM, 5, idx(8) + lit("grpc-status", "0")))
    # 16: GOAWAY
    c.put(1, frame(GOAWAY, 0, 0, struct.pack("!II", 7, 0)))
    c.close()                                                         # 17, 18

    d = Conn(w, A, 40002, B, 50051)                                  # 19-21
    d.put(1, PREFACE + frame(SETTINGS, 0, 0))                        # 22
    d.put(0, frame(SETTINGS, 0, 0))                                  # 23
    d.put(1, frame(HEADERS, END_HEADERS | END_STREAM, 1,
                   idx(2) + idx(6) + lit(":path", "/a") + lit("traceparent", tp("a"))))   # 24
    d.put(0, frame(HEADERS, END_HEADERS, 1, idx(8)) + frame(DATA, END_STREAM, 1, b"ok"))  # 25
    blk = idx(2) + idx(6) + lit(":path", "/b") + lit("traceparent", tp("b"))
    d.put(1, frame(HEADERS, END_STREAM, 3, blk[:5]))                 # 26
    d.lose(frame(CONT, END_HEADERS, 3, blk[5:]))                     # lost by the capture
    d.put(1, frame(HEADERS, END_HEADERS | END_STREAM, 5,
                   idx(2) + idx(6) + lit(":path", "/c") + lit("traceparent", tp("c"))))   # 27
    d.put(0, frame(HEADERS, END_HEADERS | END_STREAM, 3, idx(8)))    # 28
    d.close()                                                         # 29, 30


def bad(w):
    A, B = "10.0.0.1", "10.0.0.2"
    ok_req = frame(HEADERS, END_HEADERS | END_STREAM, 1,
                   idx(2) + idx(6) + lit(":path", "/x") + lit("traceparent", tp("x")))
    cases = [
        # a DATA frame of 20000 bytes (the peer allows 16384)
        [PREFACE + frame(SETTINGS, 0, 0), frame(DATA, 0, 1, b"", length=20000)],
        # an HPACK error: index 0 is not a field
        [PREFACE + frame(SETTINGS, 0, 0), frame(HEADERS, END_HEADERS, 1, b"\x80")],
        # padding (200) longer than the frame
        [PREFACE + frame(SETTINGS, 0, 0), frame(HEADERS, END_HEADERS | PADDED, 1, b"\xc8abc")],
        # CONTINUATION without HEADERS
        [PREFACE + frame(SETTINGS, 0, 0), frame(CONT, END_HEADERS, 1, idx(2))],
        # random bytes after the preface
        [PREFACE + bytes(random.Random(25).randrange(256) for _ in range(300))],
        # a request and its answer, then the capture ends inside a frame
        [PREFACE + frame(SETTINGS, 0, 0) + ok_req,
         (0, frame(HEADERS, END_HEADERS | END_STREAM, 1, idx(8))),
         frame(HEADERS, END_HEADERS, 3, idx(2) + idx(6) + lit(":path", "/y"))[:12]],
    ]
    for i, segs in enumerate(cases):
        c = Conn(w, A, 41000 + i, B, 50051)
        for s in segs:
            c.put(*(s if isinstance(s, tuple) else (1, s)))
        if i == len(cases) - 1:
            continue  # the capture ends here: no FIN
        c.close()


def many(w, n):
    """n unary calls, one after the other, on one connection"""
    c = Conn(w, "10.0.0.1", 40001, "10.0.0.2", 50051)
    c.put(1, PREFACE + frame(SETTINGS, 0, 0))
    c.put(0, frame(SETTINGS, 0, 0))
    for i in range(n):
        sid = 2 * i + 1
        c.put(1, frame(HEADERS, END_HEADERS, sid, grpc_req("/svc/M%d" % (i % 7), "r%d" % i)) +
              frame(DATA, END_STREAM, sid, b"\0\0\0\0\x03abc"))
        c.put(0, frame(HEADERS, END_HEADERS, sid, idx(8)) + frame(DATA, 0, sid, b"\0\0\0\0\x02ok") +
              frame(HEADERS, END_HEADERS | END_STREAM, sid, lit("grpc-status", "0")))
    c.close()


def main(d):
    if len(sys.argv) > 3 and sys.argv[2] == "--many":
        w = Writer(d + "/many.pcap")
        many(w, int(sys.argv[3]))
        w.close()
        return
    w = Writer(d + "/h2.pcap")
    good(w)
    w.close()
    w = Writer(d + "/h2bad.pcap")
    bad(w)
    w.close()


if __name__ == "__main__":
    main(sys.argv[1])

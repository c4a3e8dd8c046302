#!/usr/bin/env python3
"""h2peer.py - two tiny programs speaking raw HTTP/2 frames (prior
knowledge) over TCP on 127.0.0.1, for tests/sh/test_capture_h2.sh under
bin/pbcapture:

  h2peer.py server PORTFILE   accept one connection, read frames until
                              the requests on streams 1 and 3 have ended,
                              answer 3 first (gRPC trailers), then 1
  h2peer.py client PORT       preface, SETTINGS, stream 1's head, stream
                              3's head (HEADERS + CONTINUATION), both
                              bodies, then read (64 KiB at a time) until
                              both answers ended; prints their streams

Frames and header blocks are built as in mkh2pcap.py (HPACK literals, no
Huffman); each frame is one write; the server reads a frame header, then
its payload."""
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mkh2pcap import (PREFACE, DATA, HEADERS, SETTINGS, CONT, END_STREAM, ACKF,  # noqa: E402
                      END_HEADERS, frame, grpc_req, idx, lit)


def recv_exact(s, n):
    b = b""
    while len(b) < n:
        r = s.recv(n - len(b))
        if not r:
            raise EOFError
        b += r
    return b


def read_frame(s):
    h = recv_exact(s, 9)
    n = struct.unpack("!I", b"\0" + h[:3])[0]
    ftype, flags, sid = h[3], h[4], struct.unpack("!I", h[5:])[0] & 0x7fffffff
    return ftype, flags, sid, recv_exact(s, n) if n else b""


def server(portfile):
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(1)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % ls.getsockname()[1])
    os.rename(portfile + ".tmp", portfile)
    ls.settimeout(20)
    s, _ = ls.accept()
    recv_exact(s, len(PREFACE))
    s.sendall(frame(SETTINGS, 0, 0))
    ended = set()
    while ended != {1, 3}:
        ftype, flags, sid, _ = read_frame(s)
        if ftype in (DATA, HEADERS, CONT) and flags & END_STREAM:
            ended.add(sid)
        if ftype == SETTINGS and not flags & ACKF:
            s.sendall(frame(SETTINGS, ACKF, 0))
    for sid, body, st in ((3, b"\0\0\0\0\x03abc", "0"), (1, b"\0\0\0\0\x01z", "5")):
        s.sendall(frame(HEADERS, END_HEADERS, sid, idx(8) + lit("content-type", "application/grpc")))
        s.sendall(frame(DATA, 0, sid, body))
        s.sendall(frame(HEADERS, END_HEADERS | END_STREAM, sid, lit("grpc-status", st)))
    try:
        while True:
            read_frame(s)
    except (EOFError, OSError):
        pass
    s.close()


def client(port):
    s = socket.create_connection(("127.0.0.1", int(port)))
    s.sendall(PREFACE)
    s.sendall(frame(SETTINGS, 0, 0))
    s.sendall(frame(HEADERS, END_HEADERS, 1, grpc_req("/shop.Cart/Get", "p-one")))
    blk = grpc_req("/shop.Cart/Add", "p-three")
    s.sendall(frame(HEADERS, 0, 3, blk[:10]))
    s.sendall(frame(CONT, END_HEADERS, 3, blk[10:]))
    s.sendall(frame(DATA, END_STREAM, 1, b"\0\0\0\0\x02hi"))
    s.sendall(frame(DATA, END_STREAM, 3, b"\0\0\0\0\x04abcd"))
    # the client reads as real ones do: whatever is there, up to 64 KiB, so
    # one read may hold several frames or end inside one
    got, buf = [], b""
    while len(got) < 2:
        r = s.recv(65536)
        if not r:
            raise EOFError
        buf += r
        while len(buf) >= 9 and len(buf) >= 9 + struct.unpack("!I", b"\0" + buf[:3])[0]:
            n = struct.unpack("!I", b"\0" + buf[:3])[0]
            ftype, flags, sid = buf[3], buf[4], struct.unpack("!I", buf[5:9])[0] & 0x7fffffff
            buf = buf[9 + n:]
            if ftype == HEADERS and flags & END_STREAM:
                got.append(sid)
    print("answers on streams", *got)
    s.close()


if __name__ == "__main__":
    {"server": server, "client": client}[sys.argv[1]](sys.argv[2])

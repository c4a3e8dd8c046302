#!/usr/bin/env python3
"""mkhttp25.py MKPCAP_DIR MODE OUT.pcap OUT.expect - the HTTP/1 captures of
tests/sh/test_hostile25.sh: one keep-alive connection (and, for some modes,
a second plain one) whose messages are written in MODE's way.  OUT.expect
lists each request/response pair the capture must give as "PATH SIZE": the
request's trace id (the path column) and its response's size in bytes."""
import sys
sys.path.insert(0, sys.argv[1])
from mkpcap import Writer, conn, tp

mode, out, exp = sys.argv[2], sys.argv[3], sys.argv[4]
pairs = []


def hreq(path, extra=b"", body=b"", method="GET", tpv=None):
    t = tp(path) if tpv is None else tpv
    return (("%s %s HTTP/1.1\r\nHost: t\r\ntraceparent: 00-%s-00000000000000aa-01\r\n"
             % (method, path, t)).encode() + extra + b"\r\n" + body)


def resp(body, extra=b"", status=b"200 OK"):
    return b"HTTP/1.1 " + status + b"\r\nContent-Length: %d\r\n" % len(body) + extra + b"\r\n" + body


def lf(b):
    return b.replace(b"\r\n", b"\n")


def pair(path, r):
    pairs.append((tp(path), len(r)))
    return r


w = Writer(out)
A, B = "10.0.0.1", "10.0.0.2"
T = None
x1, x2, x3 = b"a" * 10, b"b" * 20, b"c" * 30
C100 = b"HTTP/1.1 100 Continue\r\n\r\n"
if mode == "plain":
    T = [(1, hreq("/a")), (0, pair("/a", resp(x1))), (1, hreq("/b")), (0, pair("/b", resp(x2)))]
# --- interim responses
elif mode == "cont100":     # Expect: 100-continue: the body after the 100
    T = [(1, hreq("/a", b"Expect: 100-continue\r\nContent-Length: 3\r\n", method="POST")), (0, C100),
         (1, b"xyz"), (0, pair("/a", resp(x1))), (1, hreq("/b")), (0, pair("/b", resp(x2))),
         (1, hreq("/c")), (0, pair("/c", resp(x3)))]
elif mode == "early103":    # 103 Early Hints in its own segment, then the answer
    T = [(1, hreq("/a")), (0, b"HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n"),
         (0, pair("/a", resp(x1))), (1, hreq("/b")), (0, pair("/b", resp(x2)))]
elif mode == "two1xx":      # 102 then 103 in one segment with the answer
    r = resp(x1)
    T = [(1, hreq("/a")), (0, b"HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\n\r\n" + r),
         (1, hreq("/b")), (0, pair("/b", resp(x2)))]
    pairs.insert(0, (tp("/a"), len(r)))
elif mode == "1xxhead":     # an interim answer, then HEAD: its answer has no body
    T = [(1, hreq("/a", b"Expect: 100-continue\r\nContent-Length: 3\r\n", method="POST")), (0, C100),
         (1, b"xyz"), (0, pair("/a", resp(x1))), (1, hreq("/b", method="HEAD")),
         (0, pair("/b", b"HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n")),
         (1, hreq("/c")), (0, pair("/c", resp(x3)))]
elif mode == "1xxpipe":     # pipelined requests, a 100 before the first answer
    T = [(1, hreq("/a") + hreq("/b")), (0, C100), (0, pair("/a", resp(x1))),
         (0, pair("/b", resp(x2)))]
# --- protocol switches
elif mode == "ws":          # a WebSocket upgrade after a plain pair
    T = [(1, hreq("/a")), (0, pair("/a", resp(x1))),
         (1, hreq("/b", b"Upgrade: websocket\r\nConnection: Upgrade\r\n")),
         (0, pair("/b", b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                        b"Connection: Upgrade\r\n\r\n")),
         (1, b"\x81\x85abcd\x09\x07\x0f\x08\x0e"), (0, b"\x81\x02hi"), (1, b"\x88\x80abcd")]
elif mode == "connect":     # a CONNECT tunnel (TLS bytes after the 200)
    T = [(1, hreq("b:443", method="CONNECT")),
         (0, pair("b:443", b"HTTP/1.1 200 Connection Established\r\n\r\n")),
         (1, b"\x16\x03\x01\x00\x05hello"), (0, b"\x16\x03\x03\x00\x05world"),
         (1, b"\x17\x03\x03\x00\x10 GET /x HTTP/1.1")]
elif mode == "h2c":         # an h2c upgrade answered 101, then HTTP/2 frames
    T = [(1, hreq("/a", b"Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\nConnection: Upgrade, HTTP2-Settings\r\n")),
         (0, pair("/a", b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n")),
         (1, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00"),
         (0, b"\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x05\x01\x04\x00\x00\x00\x01\x88")]
elif mode == "refused":     # an upgrade the server refused: HTTP/1 goes on
    T = [(1, hreq("/a", b"Upgrade: websocket\r\nConnection: Upgrade\r\n")), (0, pair("/a", resp(x1))),
         (1, hreq("/b")), (0, pair("/b", resp(x2)))]
# --- bare LF line ends
elif mode == "lf":
    T = [(1, lf(hreq("/a"))), (0, pair("/a", lf(resp(x1)))), (1, lf(hreq("/b"))), (0, pair("/b", lf(resp(x2))))]
elif mode == "lfresp":      # the server writes bare LFs, the client CRLFs
    T = [(1, hreq("/a")), (0, pair("/a", lf(resp(x1)))), (1, hreq("/b")), (0, pair("/b", lf(resp(x2))))]
elif mode == "lfreq":
    T = [(1, lf(hreq("/a"))), (0, pair("/a", resp(x1))), (1, lf(hreq("/b"))), (0, pair("/b", resp(x2)))]
elif mode == "lfchunk":     # a chunked answer, every line with a bare LF
    T = [(1, hreq("/a")), (0, pair("/a", b"HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n4\nabcd\n3;e=1\nxyz\n0\nX-T: 1\n\n")),
         (1, hreq("/b")), (0, pair("/b", resp(x2)))]
elif mode == "lfmixed":     # CRLF lines, the empty line a bare LF
    T = [(1, hreq("/a")), (0, pair("/a", b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\n" + x1)),
         (1, hreq("/b")), (0, pair("/b", resp(x2)))]
# --- a field given on several lines
elif mode == "te2":         # Transfer-Encoding over two lines: chunked
    T = [(1, hreq("/a")), (0, pair("/a", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n")),
         (1, hreq("/b")), (0, pair("/b", resp(x2)))]
elif mode == "te2case":     # the same, the second line's name in capitals
    T = [(1, hreq("/a")), (0, pair("/a", b"HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\nTRANSFER-ENCODING: Chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n")),
         (1, hreq("/b")), (0, pair("/b", resp(x2)))]
elif mode == "cl2same":     # Content-Length twice, one value: read
    T = [(1, hreq("/a")), (0, pair("/a", resp(x1, b"Content-Length: 10\r\n"))), (1, hreq("/b")), (0, pair("/b", resp(x2)))]
elif mode == "cl2":         # Content-Length twice, two values: no length
    T = [(1, hreq("/a")), (0, resp(x1, b"Content-Length: 40\r\n")), (1, hreq("/b")), (0, resp(x2))]
elif mode == "tp2":         # two traceparent headers of two traces: left out
    T = [(1, hreq("/a", b"traceparent: 00-%s-00000000000000bb-01\r\n" % tp("/z").encode())), (0, resp(x1)),
         (1, hreq("/b")), (0, pair("/b", resp(x2)))]
elif mode == "tp2same":     # the same traceparent twice: one request
    T = [(1, hreq("/a", b"traceparent: 00-%s-00000000000000aa-01\r\n" % tp("/a").encode())), (0, pair("/a", resp(x1))),
         (1, hreq("/b")), (0, pair("/b", resp(x2)))]
# --- chunk sizes that are no size (a second, plain connection beside)
elif mode.startswith("chunk:"):
    sz = mode[6:].encode()
    T = [(1, hreq("/a")), (0, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + sz + b"\r\nabcd\r\n0\r\n\r\n"),
         (1, hreq("/b")), (0, resp(x2)), (1, hreq("/c")), (0, resp(x3))]
else:
    sys.exit("mkhttp25.py: unknown mode " + mode)
conn(w, A, 40001, B, 80, T)
if mode.startswith("chunk:") or mode == "cl2":
    conn(w, A, 40002, B, 80, [(1, hreq("/d")), (0, pair("/d", resp(x1)))])
w.close()
with open(exp, "w") as f:
    for p, n in pairs:
        f.write("%s %d\n" % (p, n))

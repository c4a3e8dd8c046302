#!/bin/sh
# Hostile input, round 23 (issue 28, the 35th wave): one block per class,
# each able to fail on the tree before it.  All five are packet captures
# (importtrace's pcap reader and its HTTP/1 framer), where the earlier
# rounds left the most room: bytes a capture holds that were dropped, or a
# truth that joined unrelated requests, without a word.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace
command -v python3 > /dev/null 2>&1 || exit 77
M="$R/tests/data/capture"

# rows NAME: the data rows of NAME.tr into NAME.rows
rows() { grep -v '^#' "$1.tr" > "$1.rows"; }

# --- 1. Linux cooked captures (tcpdump -i any: SLL, SLL2) of a VLAN
# interface.  libpcap puts the VLAN tag the card took off back in front of
# the cooked header's protocol field, so the protocol reads 0x8100 and the
# IP packet starts 4 bytes later; only Ethernet frames had their tags read
# through, so every such packet was skipped without a word (here every
# other one: the streams had holes, no request was found).  Now read
# through for both cooked types: rows identical to the untagged capture.
cat > sll.py <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
from mkpcap import Writer, conn, req, ok
LT = int(sys.argv[3]); VLAN = sys.argv[4]
class S(Writer):
    n = 0
    def put(self, data, dt=0.001):
        S.n += 1
        ip = data[14:]
        tag = VLAN == "1" and S.n % 2 == 0
        proto = struct.pack("!HHH", 0x8100, 7, 0x0800) if tag else struct.pack("!H", 0x0800)
        if LT == 113:
            hdr = struct.pack("!HHH8s", 0, 1, 6, b"\1\2\3\4\5\6\0\0") + proto
        else:
            hdr = proto[:2] + struct.pack("!HIHBB8s", 0, 2, 1, 0, 6, b"\1\2\3\4\5\6\0\0") + proto[2:]
        Writer.put(self, hdr + ip, dt)
w = S(sys.argv[2], linktype=LT)
conn(w, "10.0.0.1", 40001, "10.0.0.2", 80, [(1, req("/a")), (0, ok(b"x")), (1, req("/b")), (0, ok(b"y"))])
w.close()
PY
for lt in 113 276; do
    for v in 0 1; do
        python3 sll.py "$M" s$lt$v.pcap $lt $v || fail "s$lt$v.pcap not written"
        "$B/importtrace" -q -o s$lt$v.tr s$lt$v.pcap 2> s.err || { cat s.err; fail "cooked $lt (vlan $v): refused"; }
        [ -s s.err ] && { cat s.err; fail "cooked $lt (vlan $v): a warning"; }
        rows s$lt$v
    done
    [ "$(grep -c ',call,' s${lt}0.rows)" = 2 ] || fail "cooked $lt: not two calls"
    cmp -s s${lt}0.rows s${lt}1.rows || { diff s${lt}0.rows s${lt}1.rows; fail "cooked $lt with VLAN tags: rows not those of the untagged capture"; }
done

# --- 2. HTTP/1 framing fields as RFC 9110 / 9112 write them.  (a) A
# transfer coding in capitals ("Chunked", "CHUNKED", "gzip, Chunked"; the
# names are case-insensitive) was not seen: the chunked body was read to
# the connection's close, every later response swallowed into it and said
# as "requests unanswered".  (b) A Content-Length given as a list of one
# value ("4, 4", which RFC 9110 8.6 lets a recipient read as 4) left the
# connection out as not HTTP; (c) one that is no length ("-1", "+4",
# "4, 5", past 64 bits) was read by strtoull: "-1" as 2^64-1, the rest of
# the stream one body, and the error blamed the traceparent header.  Now
# (a), (b) read as the plain forms; (c) leaves the connection out with a
# note naming it and the value.
cat > te.py <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from mkpcap import Writer, conn, req, ok
mode, v = sys.argv[3], sys.argv[4].encode()
w = Writer(sys.argv[2])
if mode == "te":
    r1 = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: " + v + b"\r\n\r\n4\r\nabcd\r\n0\r\n\r\n"
else:
    r1 = b"HTTP/1.1 200 OK\r\nContent-Length: " + v + b"\r\n\r\nabcd"
conn(w, "10.0.0.1", 40001, "10.0.0.2", 80, [(1, req("/a")), (0, r1), (1, req("/b")), (0, ok(b"y")), (1, req("/c")), (0, ok(b"z"))])
conn(w, "10.0.0.1", 40002, "10.0.0.2", 80, [(1, req("/d")), (0, ok(b"w"))])
w.close()
PY
python3 te.py "$M" te0.pcap te chunked || fail "te0.pcap not written"
"$B/importtrace" -q -o te0.tr te0.pcap 2> te.err || { cat te.err; fail "chunked: refused"; }
rows te0
[ "$(grep -c ',return,' te0.rows)" = 4 ] || { cat te0.rows; fail "chunked: not four responses"; }
i=0
for v in Chunked CHUNKED "gzip, Chunked"; do
    i=$((i + 1))
    python3 te.py "$M" te$i.pcap te "$v"
    "$B/importtrace" -q -o te$i.tr te$i.pcap 2> te.err || { cat te.err; fail "Transfer-Encoding: $v: refused"; }
    [ -s te.err ] && { cat te.err; fail "Transfer-Encoding: $v: a warning"; }
    rows te$i
    # (the size column counts the header's bytes: "gzip, " is 6 more)
    cut -d, -f1-11 te0.rows > a.cut; cut -d, -f1-11 te$i.rows > b.cut
    cmp -s a.cut b.cut || { diff te0.rows te$i.rows; fail "Transfer-Encoding: $v: rows not those of 'chunked'"; }
done
python3 te.py "$M" cl0.pcap cl 4
"$B/importtrace" -q -o cl0.tr cl0.pcap 2> cl.err || { cat cl.err; fail "Content-Length 4: refused"; }
rows cl0
python3 te.py "$M" cl1.pcap cl "4, 4"
"$B/importtrace" -q -o cl1.tr cl1.pcap 2> cl.err || { cat cl.err; fail "Content-Length: 4, 4: refused"; }
rows cl1
cut -d, -f1-11 cl0.rows > a.cut; cut -d, -f1-11 cl1.rows > b.cut
cmp -s a.cut b.cut || { diff cl0.rows cl1.rows; fail "Content-Length: 4, 4: rows not those of 4"; }
i=1
for v in -1 +4 "4, 5" 18446744073709551620; do
    i=$((i + 1))
    python3 te.py "$M" cl$i.pcap cl "$v"
    "$B/importtrace" -o cl$i.tr cl$i.pcap 2> cl.err || { cat cl.err; fail "Content-Length: $v: the other connection not read"; }
    grep -q "connection 10.0.0.1:40001>10.0.0.2:80: an HTTP/1 response whose Content-Length is no length (\"$v\"): this connection is left out" cl.err ||
        { cat cl.err; fail "Content-Length: $v: not said"; }
    rows cl$i
    [ "$(grep -c ',call,' cl$i.rows)" = 1 ] && grep -q 'GET /d' cl$i.rows || { cat cl$i.rows; fail "Content-Length: $v: not the other connection's one call"; }
done

# --- 3. A traceparent whose trace id names no trace.  W3C Trace Context:
# a trace id of other than 32 hex digits, or all zeros, is invalid and the
# header is ignored.  It was taken as it was: every request sent with the
# all-zero id (a tracer that is off, a proxy's placeholder) became one
# request of the truth, the later ones "caused" by the earlier ones'
# returns, without a word.  Now such a pair is left out as one without the
# header, counted and said (with -q too; and in the error when nothing is
# left); capital hex digits, not W3C's but the same id, read as small ones.
cat > tz.py <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from mkpcap import Writer, conn, ok
def req(path, tid):
    return ("GET %s HTTP/1.1\r\nHost: t\r\ntraceparent: 00-%s-00000000000000aa-01\r\n\r\n" % (path, tid)).encode()
a, b, c = sys.argv[3:6]
w = Writer(sys.argv[2])
conn(w, "10.0.0.1", 40001, "10.0.0.2", 80, [(1, req("/a", a)), (0, ok(b"x"))])
conn(w, "10.0.0.1", 40002, "10.0.0.2", 80, [(1, req("/b", b)), (0, ok(b"y"))])
conn(w, "10.0.0.1", 40003, "10.0.0.2", 80, [(1, req("/c", c)), (0, ok(b"z"))])
w.close()
PY
Z=00000000000000000000000000000000
G=4bf92f3577b34da6a3ce929d0e0e4736
python3 tz.py "$M" tz0.pcap "$G" "$Z" "$Z"
"$B/importtrace" -q -o tz0.tr tz0.pcap 2> tz.err || { cat tz.err; fail "all-zero trace ids: refused"; }
grep -q '^importtrace: warning: 2 request/response pairs whose traceparent header names no trace .*first: "GET /b"' tz.err ||
    { cat tz.err; fail "all-zero trace ids: not said"; }
rows tz0
[ "$(wc -l < tz0.rows)" = 3 ] && ! grep -q "$Z" tz0.rows || { cat tz0.rows; fail "all-zero trace ids: written as a request"; }
grep -q '^# capture: traceparent: 2 ' tz0.tr || fail "all-zero trace ids: not in the metadata"
for bad in 4bf92f3577b34da6a3ce929d0e0e473 4bf92f3577b34da6a3ce929d0e0e47zz; do
    python3 tz.py "$M" tz1.pcap "$G" "$bad" "$G"
    "$B/importtrace" -q -o tz1.tr tz1.pcap 2> tz.err || { cat tz.err; fail "trace id $bad: refused"; }
    grep -q 'warning: 1 request/response pairs whose traceparent header names no trace' tz.err ||
        { cat tz.err; fail "trace id $bad: not said"; }
done
python3 tz.py "$M" tz2.pcap "$Z" "$Z" "$Z"
"$B/importtrace" -q -o tz2.tr tz2.pcap 2> tz.err && fail "only all-zero trace ids: accepted"
grep -q '3 pairs whose traceparent names no trace' tz.err || { cat tz.err; fail "only all-zero trace ids: the error does not say why"; }
U=$(echo "$G" | tr a-f A-F)
python3 tz.py "$M" tz3.pcap "$G" "$G" "$G"
python3 tz.py "$M" tz4.pcap "$G" "$U" "$G"
"$B/importtrace" -q -o tz3.tr tz3.pcap 2> tz.err || fail "one trace id: refused"
"$B/importtrace" -q -o tz4.tr tz4.pcap 2> tz.err || fail "one trace id in capitals: refused"
rows tz3; rows tz4
cmp -s tz3.rows tz4.rows || { diff tz3.rows tz4.rows; fail "a trace id in capitals: not the same request"; }

# --- 4. IPv6 extension headers beyond the three that were read (hop-by-hop,
# routing, destination options): mobility (135), the experimental 253 (RFC
# 7045's list; RFC 8200's layout) and IPsec's authentication header (51, in
# 4-byte units, in IPv6 and IPv4 alike; its data is not encrypted).  A
# packet behind one of them was skipped without a word: every packet of a
# host using AH, so nothing was found.  Now read through by their lengths:
# rows identical to the plain capture's.
cat > ext.py <<'PY'
import socket, struct, sys
sys.path.insert(0, sys.argv[1])
import mkpcap
from mkpcap import Writer, conn, req, ok, ip4
MODE = sys.argv[3]
def ah(nh):
    return struct.pack("!BBHII", nh, 4, 0, 0x1234, 1) + b"\xaa" * 12
def ext8(nh):
    return struct.pack("!BB6s", nh, 0, b"\0" * 6)
def packet(src, sport, dst, dport, seq, ack, flags, payload=b""):
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, 5 << 4, flags, 65535, 0, 0) + payload
    if MODE.startswith("v4"):
        pre, proto = (ah(6), 51) if MODE == "v4ah" else (b"", 6)
        iph = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(pre) + len(tcp), 0, 0x4000, 64, proto, 0,
                          ip4(src.replace("fd00::", "10.0.0.")), ip4(dst.replace("fd00::", "10.0.0.")))
        return b"\0" * 12 + b"\x08\x00" + iph + pre + tcp
    pre, nh = {"v6": (b"", 6), "v6ah": (ah(6), 51), "v6mob": (ext8(6), 135),
               "v6exp": (ext8(6), 253), "v6hopah": (ext8(51) + ah(6), 0)}[MODE]
    h = struct.pack("!IHBB16s16s", 6 << 28, len(pre) + len(tcp), nh, 64,
                    socket.inet_pton(socket.AF_INET6, src), socket.inet_pton(socket.AF_INET6, dst))
    return b"\0" * 12 + b"\x86\xdd" + h + pre + tcp
mkpcap.packet = packet
w = Writer(sys.argv[2])
conn(w, "fd00::1", 40001, "fd00::2", 80, [(1, req("/a")), (0, ok(b"x")), (1, req("/b")), (0, ok(b"y"))])
w.close()
PY
for m in v6 v6ah v6mob v6exp v6hopah v4 v4ah; do
    python3 ext.py "$M" x$m.pcap $m || fail "x$m.pcap not written"
    "$B/importtrace" -q -o x$m.tr x$m.pcap 2> x.err || { cat x.err; fail "$m: refused"; }
    [ -s x.err ] && { cat x.err; fail "$m: a warning"; }
    rows x$m
done
[ "$(grep -c ',call,' xv6.rows)" = 2 ] || fail "plain IPv6: not two calls"
for m in v6ah v6mob v6exp v6hopah; do
    cmp -s xv6.rows x$m.rows || { diff xv6.rows x$m.rows; fail "IPv6 $m: rows not those of the plain capture"; }
done
cmp -s xv4.rows xv4ah.rows || { diff xv4.rows xv4ah.rows; fail "IPv4 AH: rows not those of the plain capture"; }

# --- 5. TCP segments out of order in the capture (a capture on several
# queues or interfaces, tcpdump -i any, stamps a later segment first).  The
# earlier segment, come second, was taken for a retransmission and its
# bytes for a gap: the response it began lost, and (a header gap ends the
# stream) every later one on its connection; here nothing was found.  Now
# a segment past the next expected byte is held back until the bytes
# before it come and read after them, at their time, and said; across the
# sequence numbers' wrap too; bytes that never come stay a gap, as before.
cat > ro.py <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from mkpcap import Writer, packet, req, ok, SYN, ACK, PSH, FIN
MODE = sys.argv[3]
w = Writer(sys.argv[2])
c, cp, s, sp = "10.0.0.1", 40001, "10.0.0.2", 80
cs, ss = 1000, 0xfffffff0 if MODE.startswith("wrap") else 5000
w.put(packet(c, cp, s, sp, cs, 0, SYN)); cs += 1
w.put(packet(s, sp, c, cp, ss, cs, SYN | ACK)); ss = (ss + 1) & 0xffffffff
w.put(packet(c, cp, s, sp, cs, ss, ACK))
for path, body in (("/a", b"x" * 50), ("/b", b"y" * 30), ("/c", b"z")):
    q = req(path)
    w.put(packet(c, cp, s, sp, cs, ss, PSH | ACK, q)); cs += len(q)
    r = ok(body)
    segs = []
    for p in (r[:20], r[20:45], r[45:]):
        segs.append(packet(s, sp, c, cp, ss, cs, PSH | ACK, p)); ss = (ss + len(p)) & 0xffffffff
    if path == "/a" and MODE in ("swap", "wrapswap"):
        segs = [segs[1], segs[0], segs[2]]
    if path == "/a" and MODE == "late":
        segs = [segs[0], segs[2], segs[1]]
    if path == "/a" and MODE == "lost":
        segs = [segs[0], segs[2]]
    for x in segs:
        w.put(x, 0.0001)
w.put(packet(c, cp, s, sp, cs, ss, FIN | ACK))
w.put(packet(s, sp, c, cp, ss, cs + 1, FIN | ACK))
w.close()
PY
for m in plain swap late wrap wrapswap lost; do
    python3 ro.py "$M" r$m.pcap $m || fail "r$m.pcap not written"
done
"$B/importtrace" -q -o rplain.tr rplain.pcap 2> r.err || { cat r.err; fail "in order: refused"; }
[ -s r.err ] && { cat r.err; fail "in order: a warning"; }
rows rplain
[ "$(grep -c ',return,' rplain.rows)" = 3 ] || { cat rplain.rows; fail "in order: not three responses"; }
"$B/importtrace" -q -o rwrap.tr rwrap.pcap 2> r.err || { cat r.err; fail "wrap in order: refused"; }
[ -s r.err ] && { cat r.err; fail "wrap in order: a warning"; }
for m in swap late wrapswap; do
    "$B/importtrace" -q -o r$m.tr r$m.pcap 2> r.err || { cat r.err; fail "$m: refused"; }
    grep -q "^importtrace: warning: r$m.pcap: 1 TCP segments were stamped before bytes that come before them" r.err ||
        { cat r.err; fail "$m: not said"; }
    rows r$m
    # the same messages; the first response's first stamp is its first
    # byte's (the segment that came second, 0.1 ms later, in swap)
    cut -d, -f1,3-6,8- rplain.rows > a.cut; cut -d, -f1,3-6,8- r$m.rows > b.cut
    cmp -s a.cut b.cut || { diff rplain.rows r$m.rows; fail "$m: not the messages in order"; }
done
cut -d, -f2 rplain.rows | sed -n 3p | grep -q '^1000.004100000$' || fail "plain: the first response's time moved"
cut -d, -f2 rswap.rows | sed -n 3p | grep -q '^1000.004200000$' || { cat rswap.rows; fail "swap: the first response not at its first byte's time"; }
cmp -s rswap.rows rwrapswap.rows || { diff rswap.rows rwrapswap.rows; fail "swap across the wrap: not as without it"; }
# a segment lost from the capture: the gap as before (the stream ends there)
"$B/importtrace" -q -o rlost.tr rlost.pcap 2> r.err && fail "lost header bytes: accepted"
grep -q 'no request with a traceparent header was found' r.err || { cat r.err; fail "lost header bytes: another error"; }
exit 0

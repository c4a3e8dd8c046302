#!/bin/sh
# Hostile input, round 24 (issue 28, the 36th wave): one block per class,
# each able to fail on the tree before it (BLOCKS="2 4" runs those alone).
# Four are packet captures as real hosts write them -- an overlay's
# tunnels, TCP Fast Open, a capture started on open keep-alive connections
# (inside a message; between a request and its answer) -- and one the span
# importers: a callee without spans named by the attributes OpenTelemetry
# writes.  Captures and spans without them read as before.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace
command -v python3 > /dev/null 2>&1 || exit 77
M="$R/tests/data/capture"
BLOCKS=${BLOCKS:-"1 2 3 4 5"}
on() { case " $BLOCKS " in *" $1 "*) return 0 ;; esac; return 1; }

# rows NAME: the data rows of NAME.tr into NAME.rows
rows() { grep -v '^#' "$1.tr" > "$1.rows"; }

# --- 1. Tunnels.  A capture on a Kubernetes node's own interface holds the
# pods' traffic inside the overlay's tunnel: Calico's IP in IP, flannel's
# and Cilium's VXLAN (UDP 8472; RFC 7348's 4789), Geneve (6081), GRE (and
# ERSPAN, a switch's mirrored port), IPv6 in IPv4.  Every such packet was
# skipped as not TCP without a word ("no request ... was found").  Now the
# packet inside is read as if captured bare: the rows of the bare capture,
# nodes named by the inner (pod) addresses, and a "capture: tunnels" line.
if on 1; then
cat > tun.py <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
from mkpcap import Writer, conn, req, ok, ip4
mode = sys.argv[3]
def ip4h(proto, payload):
    return struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0, 0x4000, 64, proto, 0,
                       ip4("192.168.0.1"), ip4("192.168.0.2")) + payload
def udp(dport, payload):
    return struct.pack("!HHHH", 33333, dport, 8 + len(payload), 0) + payload
ETH = b"\2" * 6 + b"\4" * 6
class T(Writer):
    def put(self, data, dt=0.001):
        ip = data[14:]
        inner_eth = ETH + b"\x08\x00" + ip
        if mode == "ipip":
            o = ip4h(4, ip)
        elif mode == "gre":
            o = ip4h(47, struct.pack("!HH", 0, 0x0800) + ip)
        elif mode == "grekey":   # key and sequence number present
            o = ip4h(47, struct.pack("!HHII", 0x3000, 0x0800, 7, 1) + ip)
        elif mode == "erspan2":  # GRE with a sequence number, ERSPAN II, Ethernet
            o = ip4h(47, struct.pack("!HHI", 0x1000, 0x88be, 1) + b"\x10\x01\0\0\0\0\0\0" + inner_eth)
        elif mode == "vxlan":
            o = ip4h(17, udp(4789, struct.pack("!BBHI", 8, 0, 0, 42 << 8) + inner_eth))
        elif mode == "flannel":
            o = ip4h(17, udp(8472, struct.pack("!BBHI", 8, 0, 0, 1 << 8) + inner_eth))
        elif mode == "geneve":   # one 4-byte option
            o = ip4h(17, udp(6081, struct.pack("!BBHI", 1, 0, 0x6558, 5 << 8) + b"\0\1\2\0" + inner_eth))
        else:
            o = ip
        Writer.put(self, data[:14] + o, dt)
w = T(sys.argv[2])
conn(w, "10.0.0.1", 40001, "10.0.0.2", 80, [(1, req("/a")), (0, ok(b"x")), (1, req("/b")), (0, ok(b"y"))])
w.close()
PY
python3 tun.py "$M" bare.pcap bare || fail "bare.pcap not written"
"$B/importtrace" -q -o bare.tr bare.pcap 2> t.err || { cat t.err; fail "bare capture refused"; }
rows bare
[ "$(grep -c ',call,' bare.rows)" = 2 ] || fail "bare capture: not two calls"
for m in ipip gre grekey erspan2 vxlan flannel geneve; do
    python3 tun.py "$M" $m.pcap $m || fail "$m.pcap not written"
    "$B/importtrace" -q -o $m.tr $m.pcap 2> t.err || { cat t.err; fail "tunnel $m: refused (packets skipped)"; }
    [ -s t.err ] && { cat t.err; fail "tunnel $m: a warning"; }
    rows $m
    cmp -s bare.rows $m.rows || { diff bare.rows $m.rows; fail "tunnel $m: rows not those of the bare capture"; }
    grep -q "^# capture: tunnels $m.pcap: 9 packets were read inside a tunnel" $m.tr ||
        { grep '^#' $m.tr; fail "tunnel $m: not said in the metadata"; }
done
# a UDP datagram to 4789 that is no VXLAN (the I flag clear) is not read
python3 - "$M" notvx.pcap <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
from mkpcap import Writer, packet
w = Writer(sys.argv[2])
ip = packet("10.0.0.1", 40001, "10.0.0.2", 80, 1000, 0, 0x18, b"GET / HTTP/1.1\r\n\r\n")[14:]
u = struct.pack("!HHHH", 1, 4789, 8 + 8 + 14 + len(ip), 0) + b"\0" * 8 + b"\0" * 12 + b"\x08\x00" + ip
w.put(b"\0" * 12 + b"\x08\x00" + struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(u), 0, 0, 64, 17, 0, b"\1\1\1\1", b"\2\2\2\2") + u)
w.close()
PY
"$B/importtrace" -q -o notvx.tr notvx.pcap 2> t.err && fail "a UDP datagram that is no VXLAN read as one"
fi

# --- 2. TCP Fast Open (RFC 7413): a client's first request rides on its
# SYN.  The SYN's data were dropped with the SYN without a word: the request
# lost, its response "unrequested".  Now read from the sequence number after
# the SYN's, at the SYN's time; a SYN sent again with its data is the same
# connection (its data a retransmission), not a second one.
if on 2; then
cat > tfo.py <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from mkpcap import Writer, packet, conn, req, ok, SYN, ACK, PSH, FIN
again = sys.argv[3] == "again"
w = Writer(sys.argv[2])
c, cp, s, sp = "10.0.0.1", 40001, "10.0.0.2", 80
cs, ss, q, r = 1000, 5000, req("/a"), ok(b"x")
w.put(packet(c, cp, s, sp, cs, 0, SYN, q))
if again:
    w.put(packet(c, cp, s, sp, cs, 0, SYN, q))
cs += 1 + len(q)
w.put(packet(s, sp, c, cp, ss, cs, SYN | ACK)); ss += 1
w.put(packet(c, cp, s, sp, cs, ss, ACK))
w.put(packet(s, sp, c, cp, ss, cs, PSH | ACK, r)); ss += len(r)
w.put(packet(c, cp, s, sp, cs, ss, FIN | ACK))
w.put(packet(s, sp, c, cp, ss, cs + 1, FIN | ACK))
conn(w, c, 40002, s, sp, [(1, req("/b")), (0, ok(b"y"))])
w.close()
PY
for v in once again; do
    python3 tfo.py "$M" tfo$v.pcap $v || fail "tfo$v.pcap not written"
    "$B/importtrace" -q -o tfo$v.tr tfo$v.pcap 2> t.err || { cat t.err; fail "fast open ($v): refused"; }
    rows tfo$v
    [ "$(grep -c ',call,' tfo$v.rows)" = 2 ] && [ "$(grep -c ',return,' tfo$v.rows)" = 2 ] ||
        { cat tfo$v.rows; fail "fast open ($v): the request in the SYN not read"; }
    grep -q '^1,1000.001000000,,10.0.0.1,10.0.0.2,call,.*,GET /a,' tfo$v.rows ||
        { cat tfo$v.rows; fail "fast open ($v): the request not at the SYN's time"; }
    grep -q ' connections=2 requests=2 responses=2 pairs=2 unanswered=0 unrequested=0 ' tfo$v.tr ||
        { grep '^# capture: truth' tfo$v.tr; fail "fast open ($v): not two connections, each a pair"; }
done
fi

# --- 3. A client span whose callee left no span (a database, a cache) is
# named by peer.service, which instrumentation sets only when configured
# to; without it every such callee was one node "unknown" (a redis and a
# mongodb one service, their calls one link).  Now named by the attributes
# OpenTelemetry writes -- server.address, net.peer.name (before semantic
# conventions 1.21), OpenTracing's peer.hostname, then an address -- in
# OTLP and Jaeger, and by remoteEndpoint's address in Zipkin; such a key
# given twice with two values is refused as peer.service is.
if on 3; then
python3 - <<'PY'
import json
def ospan(sid, par, kind, st, en, attrs):
    d = {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": sid, "name": "op", "kind": kind,
         "startTimeUnixNano": str(st), "endTimeUnixNano": str(en),
         "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attrs]}
    if par:
        d["parentSpanId"] = par
    return d
def otlp(a2, a3):
    spans = [ospan("00000000000000a1", None, 2, 1000, 9000, []),
             ospan("00000000000000a2", "00000000000000a1", 3, 2000, 3000, a2),
             ospan("00000000000000a3", "00000000000000a1", 3, 4000, 5000, a3)]
    return {"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "cart"}}]},
                               "scopeSpans": [{"spans": spans}]}]}
json.dump(otlp([("db.system", "redis"), ("server.address", "redis-cart")],
               [("db.system", "mongodb"), ("net.peer.name", "mongo-geo")]), open("o.json", "w"))
json.dump(otlp([("server.address", "redis-cart"), ("server.address", "redis-two")], []), open("o2.json", "w"))
def jspan(sid, par, kind, st, tags):
    return {"traceID": "aa", "spanID": sid, "operationName": "op", "startTime": st, "duration": 1 if par else 9,
            "references": [{"refType": "CHILD_OF", "traceID": "aa", "spanID": par}] if par else [],
            "tags": [{"key": "span.kind", "type": "string", "value": kind}] +
                    [{"key": k, "type": "string", "value": v} for k, v in tags], "processID": "p1"}
js = [jspan("a1", None, "server", 1, []), jspan("a2", "a1", "client", 2, [("server.address", "redis-cart")]),
      jspan("a3", "a1", "client", 4, [("peer.hostname", "mongo-geo")])]
json.dump({"data": [{"traceID": "aa", "spans": js, "processes": {"p1": {"serviceName": "cart"}}}]}, open("j.json", "w"))
js[1]["tags"].append({"key": "server.address", "type": "string", "value": "redis-two"})
json.dump({"data": [{"traceID": "aa", "spans": js, "processes": {"p1": {"serviceName": "cart"}}}]}, open("j2.json", "w"))
def zspan(sid, par, kind, st, remote):
    d = {"traceId": "aa", "id": sid, "kind": kind, "timestamp": st, "duration": 1 if par else 9,
         "localEndpoint": {"serviceName": "cart"}}
    if par:
        d["parentId"] = par
    if remote:
        d["remoteEndpoint"] = remote
    return d
json.dump([zspan("a1", None, "SERVER", 1, None), zspan("a2", "a1", "CLIENT", 2, {"ipv4": "10.0.0.7", "port": 6379}),
           zspan("a3", "a1", "CLIENT", 4, {"ipv6": "fd00::8", "port": 27017})], open("z.json", "w"))
PY
for f in o j z; do
    "$B/importtrace" -q -o $f.tr $f.json 2> t.err || { cat t.err; fail "callees ($f): refused"; }
    rows $f
    grep -q ',unknown,' $f.rows && { cat $f.rows; fail "callees ($f): a callee named unknown"; }
    [ "$(cut -d, -f5 $f.rows | sed 1d | sort -u | tr '\n' ' ')" = "$(case $f in z) echo "10.0.0.7 cart client fd00::8 " ;; *) echo "cart client mongo-geo redis-cart " ;; esac)" ] ||
        { cat $f.rows; fail "callees ($f): not the two callees by name"; }
done
for f in o2 j2; do
    "$B/importtrace" -q -o $f.tr $f.json 2> t.err && { cat $f.tr; fail "server.address given twice ($f): read"; }
    grep -q '"server.address" given a second time with another value (\(tags\[1\] \)\{0,1\}"redis-cart", then "redis-two")' t.err ||
        { cat t.err; fail "server.address given twice ($f): not said"; }
done
fi

# a capture that began on an open keep-alive connection (rows to compare)
cat > mid.py <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from mkpcap import Writer, packet, req, ok, PSH, ACK, FIN
mode = sys.argv[3]
w = Writer(sys.argv[2])
c, cp, s, sp = "10.0.0.1", 40001, "10.0.0.2", 80
cs, ss = 1000, 5000
body = b'{"items": [1, 2, 3], "more": "' + b"x" * 40 + b'"}'
rest = [(1, req("/b")), (0, ok(b"for-b")), (1, req("/c")), (0, ok(b"for-c"))]
talk = {"answer": [(0, ok(b"for-a"))],             # /a sent before the capture
        "inresp": [(0, body[20:])],                # inside /a's answer
        "inreq": [(1, body[20:]), (0, ok(b"for-a"))],   # inside /a's body
        "none": []}[mode] + rest
for fc, data in talk:
    if fc:
        w.put(packet(c, cp, s, sp, cs, ss, PSH | ACK, data)); cs += len(data)
    else:
        w.put(packet(s, sp, c, cp, ss, cs, PSH | ACK, data)); ss += len(data)
w.put(packet(c, cp, s, sp, cs, ss, FIN | ACK))
w.put(packet(s, sp, c, cp, ss, cs + 1, FIN | ACK))
w.close()
PY
# the rows of "none" (the capture began between two exchanges), stamps
# left out: each case's must be those
mid() { # CASE: mid_CASE.rows, stamps cut
    python3 mid.py "$M" mid_$1.pcap $1 || fail "mid_$1.pcap not written"
    "$B/importtrace" -q -o mid_$1.tr mid_$1.pcap 2> mid_$1.err || { cat mid_$1.err; fail "joined open ($1): refused"; }
    rows mid_$1
    cut -d, -f3- mid_$1.rows > mid_$1.cut
}

# --- 4. A capture begun between a request and its answer on an open
# keep-alive connection: the first response the capture holds answers a
# request sent before it began.  HTTP/1 answers in order, so it took the
# first captured request's place and every pair after it shifted by one (a
# response paired with the request after its own and stamped before it;
# said only as "responses before their requests", blaming the clock).  Now,
# on a connection the capture joined open (no SYN seen), responses that
# begin before the first request it holds are left out (counted
# unrequested) and said even with -q; the pairs after them are right.
if on 4; then
mid none
mid answer
[ "$(grep -c ',call,' mid_none.rows)" = 2 ] || { cat mid_none.rows; fail "joined open: not two calls"; }
cmp -s mid_none.cut mid_answer.cut || { diff mid_none.rows mid_answer.rows; fail "joined before an answer: pairs shifted"; }
grep -q '^importtrace: warning: 1 HTTP/1 responses on connections the capture joined open began before the first request it holds on them (first: at 1000.001000000 s)' mid_answer.err ||
    { cat mid_answer.err; fail "joined before an answer: not said"; }
grep -q ' unrequested=1 ' mid_answer.tr || fail "joined before an answer: not counted unrequested"
grep -q 'responses before their requests' mid_answer.err && { cat mid_answer.err; fail "joined before an answer: blamed on the clock"; }
fi

# --- 5. A capture begun inside a message on an open keep-alive connection
# (a long body, a slow answer): the message's tail was read as a header and
# the whole connection left out as not HTTP -- every later request on it
# lost ("no request ... was found").  Now such a stream is read from the
# first segment that starts an HTTP/1 message (a request line, a status
# line), the bytes before it skipped and said even with -q; a stream where
# no segment starts one is framed as before (not HTTP).
if on 5; then
mid none
for m in inresp inreq; do
    mid $m
    cmp -s mid_none.cut mid_$m.cut || { diff mid_none.rows mid_$m.rows; fail "joined inside a message ($m): not the later exchanges"; }
    grep -q '^importtrace: warning: 1 streams of connections the capture joined open began inside a message (first: at 1000.001000000 s): their first 52 bytes in all' mid_$m.err ||
        { cat mid_$m.err; fail "joined inside a message ($m): not said"; }
done
fi
exit 0

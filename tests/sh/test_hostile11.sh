#!/bin/sh
# Hostile input, eleventh round (issue 28, h193): the leftovers of round 10
# and inputs nobody had tried.  One block per class, each able to fail on
# the tree before it.
set -u
for p in importtrace score compare infer maketrace skewer sniffer; do
    [ -x "$PB_BIN/$p" ] || exit 77
done
B="$PB_BIN"; R="$PB_ROOT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1
printf 'id,ts,recv_ts,src,dst,type,path,cause\n1,0.1,0.1,client,a,call,r1,\n2,0.2,0.2,a,client,return,r1,1\n' > h.tr

# --- 1. A zip inside a compression (.zip.gz, .zip.xz, ...) cut inside its
# central directory read every member without a word: round 10's check of
# the end-of-central-directory record looked at the file's compressed tail.
# Now the decompressed tail is checked (a .gz through its gzip check, from
# a pipe too; other compressions by a second decompression, and from a
# pipe refused as uncheckable); complete ones read as before.
if command -v python3 > /dev/null 2>&1 && command -v gzip > /dev/null 2>&1; then
    S1='{"traceID":"t1","spanID":"1","operationName":"x","references":[],"startTime":1000,"duration":100,"processID":"p1"}'
    printf '{"data":[{"traceID":"t1","spans":[%s],"processes":{"p1":{"serviceName":"a"}}}]}\n' "$S1" > m1.json
    sed 's/t1/t2/g' m1.json > m2.json
    python3 - <<'PY' || fail "python zip"
import zipfile
with zipfile.ZipFile('w.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.write('m1.json'); z.write('m2.json')
with zipfile.ZipFile('c.zip', 'w', zipfile.ZIP_STORED) as z:
    z.write('m1.json'); z.writestr('pad.json', open('m2.json').read() + ' ' * 70000)
    z.comment = b'x' * 1000
d = open('w.zip', 'rb').read()
cd, eocd = d.find(b'PK\x01\x02'), d.rfind(b'PK\x05\x06')
open('cutcd.zip', 'wb').write(d[:cd + 30])
open('cuteocd.zip', 'wb').write(d[:eocd + 10])
PY
    zs="gz"; command -v xz > /dev/null 2>&1 && zs="$zs xz"
    for z in w c cutcd cuteocd; do
        gzip -c $z.zip > $z.zip.gz
        command -v xz > /dev/null 2>&1 && xz -c $z.zip > $z.zip.xz
    done
    for x in $zs; do
        for z in w c; do
            "$B/importtrace" -q -o z.tr $z.zip.$x 2> z.err || { cat z.err; fail "complete $z.zip.$x refused"; }
        done
        for z in cutcd cuteocd; do
            "$B/importtrace" -q -o z.tr $z.zip.$x 2> z.err && fail "$z.zip.$x accepted"
            grep -q "^importtrace: $z.zip.$x: the zip archive ends without its end-of-central-directory record (read up to the member \"m2.json\")" z.err ||
                { cat z.err; fail "$z.zip.$x: not said"; }
        done
    done
    cat w.zip.gz | "$B/importtrace" -q -o z.tr - 2> z.err || { cat z.err; fail "w.zip.gz on a pipe refused"; }
    cat cutcd.zip.gz | "$B/importtrace" -q -o z.tr - 2> z.err && fail "cutcd.zip.gz on a pipe accepted"
    grep -q 'end-of-central-directory' z.err || { cat z.err; fail "cutcd.zip.gz on a pipe: not said"; }
    gzip -c w.zip.gz > w.zip.gz.gz; gzip -c cutcd.zip.gz > cutcd.zip.gz.gz
    "$B/importtrace" -q -o z.tr w.zip.gz.gz 2> z.err || { cat z.err; fail "w.zip.gz.gz refused"; }
    "$B/importtrace" -q -o z.tr cutcd.zip.gz.gz 2> z.err && fail "cutcd.zip.gz.gz accepted"
    if command -v xz > /dev/null 2>&1; then
        cat w.zip.xz | "$B/importtrace" -q -o z.tr - 2> z.err && fail "w.zip.xz on a pipe: accepted unchecked"
        grep -q '^importtrace: (stdin): a zip archive inside xz compression read from a pipe: its end-of-central-directory record .* cannot be checked' z.err ||
            { cat z.err; fail "w.zip.xz on a pipe: not said"; }
    fi
fi

# --- 2. A Zipkin v1 span whose server side has "sr" on one endpoint and
# "ss" on another was read as one server span of the first service, ended
# by the other's clock.  Now refused, naming both annotations and services;
# a shared span (client and server on their own endpoints) reads as before.
cat > v1.json <<'EOF2'
[{"traceId":"a1","id":"1","name":"get","annotations":[{"value":"sr","timestamp":1000,"endpoint":{"serviceName":"fe"}},{"value":"ss","timestamp":1900,"endpoint":{"serviceName":"fe"}}]},
 {"traceId":"a1","id":"2","parentId":"1","name":"q","annotations":[{"value":"cs","timestamp":1100,"endpoint":{"serviceName":"fe"}},{"value":"sr","timestamp":1200,"endpoint":{"serviceName":"db"}},{"value":"ss","timestamp":1300,"endpoint":{"serviceName":"db"}},{"value":"cr","timestamp":1400,"endpoint":{"serviceName":"fe"}}]}]
EOF2
"$B/importtrace" -q -o v.tr v1.json 2> v.err || { cat v.err; fail "Zipkin v1 shared span refused"; }
grep -q ' rpcs=2 ' v.tr || fail "Zipkin v1: not two RPCs"
sed '1s/"ss","timestamp":1900,"endpoint":{"serviceName":"fe"}/"ss","timestamp":1900,"endpoint":{"serviceName":"db"}/' v1.json > v1b.json
cmp -s v1.json v1b.json && fail "v1b.json not made"
"$B/importtrace" -q -o v.tr v1b.json 2> v.err && fail "ss on another endpoint than sr: accepted"
grep -q '^importtrace: v1b.json:1:[0-9]*: \[0\]: annotations\[1\] "ss" on endpoint "db", but annotations\[0\] "sr" of the same side on "fe"; expected the server side.s annotations on one endpoint (Zipkin v1)' v.err ||
    { cat v.err; fail "ss on another endpoint: not said"; }
sed '2s/"cr","timestamp":1400,"endpoint":{"serviceName":"fe"}/"cr","timestamp":1400,"endpoint":{"serviceName":"xx"}/' v1.json > v1c.json
"$B/importtrace" -q -o v.tr v1c.json 2> v.err && fail "cr on another endpoint than cs: accepted"
grep -q 'annotations\[3\] "cr" on endpoint "xx", but annotations\[0\] "cs" of the same side on "fe"' v.err ||
    { cat v.err; fail "cr on another endpoint: not said"; }

# --- 3. IPv4 fragments in a packet capture were skipped without a count:
# a response a router split became a gap (here every request lost, and the
# error said nothing of fragments).  Now fragments are put back together
# (in order or not: rows identical to the unfragmented capture); what
# cannot be is counted and said, also with -q and in the error.
if command -v python3 > /dev/null 2>&1; then
    cat > frag.py <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
from mkpcap import *
MODE = sys.argv[3]
class Frag(Writer):
    """IPv4 packets longer than 300 bytes put as two fragments"""
    def put(self, data, dt=0.001):
        eth, ip = data[:14], data[14:]
        if len(ip) <= 300 or MODE == "0":
            return Writer.put(self, data, dt)
        body = ip[20:]; k = 216
        fr = [(0, body[:k], 0x2000), (k // 8, body[k:], 0)]
        if MODE == "2": fr.reverse()
        if MODE == "3": fr = fr[:1]
        for j, (off, part, mf) in enumerate(fr):
            h = bytearray(ip[:20]); h[2:4] = struct.pack("!H", 20 + len(part))
            h[6:8] = struct.pack("!H", mf | off); h[10:12] = b"\0\0"
            h[10:12] = struct.pack("!H", csum(bytes(h)))
            Writer.put(self, eth + bytes(h) + part, dt if j == 0 else 0)
w = Frag(sys.argv[2])
A, B = "10.0.0.1", "10.0.0.2"
conn(w, A, 40001, B, 80, [(1, req("/a")), (0, ok(b"x" * 400)), (1, req("/b")), (0, ok(b"y"))])
conn(w, A, 40002, B, 80, [(1, req("/c")), (0, ok(b"z"))])
w.close()
PY
    for m in 0 1 2 3; do
        python3 frag.py "$R/tests/data/capture" f$m.pcap $m || fail "f$m.pcap not written"
    done
    "$B/importtrace" -q -o f0.tr f0.pcap 2> f.err || { cat f.err; fail "f0.pcap refused"; }
    [ -s f.err ] && { cat f.err; fail "unfragmented capture: a warning"; }
    grep -v '^#' f0.tr > f0.rows
    for m in 1 2; do
        "$B/importtrace" -q -o f$m.tr f$m.pcap 2> f.err || { cat f.err; fail "f$m.pcap refused"; }
        [ -s f.err ] && { cat f.err; fail "f$m.pcap: a warning"; }
        grep -v '^#' f$m.tr > f$m.rows
        cmp -s f0.rows f$m.rows || { diff f0.rows f$m.rows; fail "fragments (mode $m): rows not those of the whole capture"; }
    done
    "$B/importtrace" -q -o f3.tr f3.pcap 2> f.err || { cat f.err; fail "f3.pcap refused"; }
    grep -q '^importtrace: warning: f3.pcap: 1 IPv4 and 0 IPv6 fragments of TCP packets could not be put back together (first: packet 5;' f.err ||
        { cat f.err; fail "a lost fragment: not said"; }
    grep -q '^# capture: fragments f3.pcap: ' f3.tr || fail "a lost fragment: not in the metadata"
fi

echo "hostile round 11: ok"

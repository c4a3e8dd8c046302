#!/bin/sh
# Hostile input, round 16 (issue 28, the 27th wave): the gaps round 15
# left.  One block per class, each able to fail on the tree before it.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace

# --- 1. A packet capture whose time stamp's sub-second field is one second
# or more (a microsecond field above 999999, a nanosecond one above
# 999999999): libpcap hands it on, and the packet's time moved by whole
# seconds without a word -- a request garbled, or refused for a reason that
# was not the cause.  Now refused, naming the packet; every packet of the
# capture is tried in turn, in both stamp resolutions.
if command -v python3 > /dev/null 2>&1; then
    cat > us.py <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
from mkpcap import *
class Odd(Writer):
    def __init__(self, path, nano, bad, at):
        self.f = open(path, "wb")
        self.f.write(struct.pack("<IHHiIII", 0xa1b23c4d if nano else 0xa1b2c3d4,
                                 2, 4, 0, 0, 65535, 1))
        self.t = 1000.0; self.n = 0; self.nano = nano; self.bad = bad; self.at = at
    def put(self, data, dt=0.001):
        self.t += dt; self.n += 1
        sec = int(self.t)
        sub = int(round((self.t - sec) * (1e9 if self.nano else 1e6)))
        if self.n == self.at:
            sub = self.bad
        self.f.write(struct.pack("<IIII", sec, sub, len(data), len(data)) + data)
w = Odd(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
A, B = "10.0.0.1", "10.0.0.2"
conn(w, A, 40001, B, 80, [(1, req("/a")), (0, ok(b"x" * 300))])
w.close()
PY
    D="$R/tests/data/capture"
    for nano in 0 1; do
        [ $nano = 1 ] && top=999999999 || top=999999
        python3 us.py "$D" ok.pcap $nano 0 0 || fail "ok.pcap not written"
        "$B/importtrace" -q -o ok.tr ok.pcap 2> ok.err || { cat ok.err; fail "nano=$nano: a sound capture refused"; }
        grep -q '^2,1000.005000000,' ok.tr || { cat ok.tr; fail "nano=$nano: the answer's time"; }
        k=1
        while [ $k -le 6 ]; do
            python3 us.py "$D" bad.pcap $nano $((top + 1)) $k || fail "bad.pcap not written"
            "$B/importtrace" -q -o bad.tr bad.pcap 2> bad.err &&
                fail "nano=$nano: packet $k's sub-second field $((top + 1)): accepted"
            grep -q "^importtrace: bad.pcap: packet $k: the sub-second part of its time stamp is [0-9]* ns; expected under one second" bad.err ||
                { cat bad.err; fail "nano=$nano packet $k: not said"; }
            k=$((k + 1))
        done
    done
fi
# --- 2. Bytes that are not gzip after a .gz file's last member were said
# without where: in a file of many reads, past zero padding, inside an
# archive.  Now the byte offset in the file is said (the one place a
# binary file can be pointed at), exact across reads.
if command -v gzip > /dev/null 2>&1 && command -v python3 > /dev/null 2>&1; then
    # a CSV trace of 5,000 requests with random node names: ~300 KB of gzip, many reads
    python3 -c '
import random
random.seed(7)
print("id,ts,recv_ts,src,dst,type,path,cause")
for r in range(5000):
    a = "n%08x" % random.getrandbits(32)
    print("%d,%d.1,%d.1,client,%s,call,r%d," % (2*r+1, r, r, a, r))
    print("%d,%d.2,%d.2,%s,client,return,r%d,%d" % (2*r+2, r, r, a, r, 2*r+1))
' > big.tr
    gzip -9 -c big.tr > big.tr.gz
    sz=$(wc -c < big.tr.gz)
    { cat big.tr.gz; head -c 700 /dev/zero; printf 'x'; } > bg.tr.gz
    "$B/importtrace" -q -o bg.out bg.tr.gz 2> g.err && fail "trailing garbage after padding: accepted"
    grep -q "^importtrace: bg.tr.gz: .*the gzip data are followed, at byte $((sz + 700)) of the file, by bytes that are not gzip" g.err ||
        { cat g.err; fail "trailing garbage after padding: its offset ($((sz + 700))) not said"; }
    [ -e bg.out ] && fail "trailing garbage: output written"
fi
# --- 3. Bytes that are not gzip far after a .gz file's data (past a read-
# ahead's worth of zero padding), or after a .tar.gz's end marker: the
# reader stopped at the data's end (a tar's end marker) and never looked at
# them -- a second file joined on was dropped without a word.  Now the rest
# of the file is read through the gzip check; a tar.gz's message names its
# last member.  Zero padding alone still passes, from a file or a pipe.
if command -v gzip > /dev/null 2>&1 && command -v python3 > /dev/null 2>&1; then
    python3 -c '
print("TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano,Duration")
for r in range(2000):
    t = 1000000000000 + r * 1000000
    print("t%d,s%d,,frontend-1,GET /a,%d,%d,%d" % (r, r, t, t + 500000, 500))
    print("t%d,c%d,s%d,cart-1,Get,%d,%d,%d" % (r, r, r, t + 100000, t + 300000, 200))
' > m1.csv
    sed 's/^t/u/; 1s/^u/T/' m1.csv > m2.csv
    tar cf m.tar m1.csv m2.csv && gzip -9 -c m.tar > m.tar.gz
    gzip -9 -c m1.csv > m1.csv.gz
    for z in 100000 1000000; do
        for f in m.tar.gz m1.csv.gz; do
            sz=$(wc -c < $f)
            { cat $f; head -c $z /dev/zero; } > pad.$f
            "$B/importtrace" -q -o pad.out pad.$f 2> pad.err || { cat pad.err; fail "$f + $z zero bytes: refused"; }
            "$B/importtrace" -q -o pipe.out - < pad.$f 2> pad.err || { cat pad.err; fail "$f + $z zero bytes from a pipe: refused"; }
            cmp -s pad.out pipe.out || fail "$f + $z zero bytes: a pipe reads otherwise"
            { cat $f; head -c $z /dev/zero; printf 'PK'; } > tg.$f
            "$B/importtrace" -q -o tg.out tg.$f 2> tg.err && fail "$f: bytes after $z zero bytes: accepted"
            [ -e tg.out ] && fail "$f: bytes after $z zero bytes: output written"
            grep -q "^importtrace: tg.$f: .*the gzip data are followed, at byte $((sz + z)) of the file, by bytes that are not gzip" tg.err ||
                { cat tg.err; fail "$f: bytes after $z zero bytes: not said at byte $((sz + z))"; }
            case $f in *.tar.gz)
                grep -q "after the tar archive's end (its last member \"m2.csv\")" tg.err ||
                    { cat tg.err; fail "$f: the last member not named"; } ;;
            esac
            cat tg.$f | "$B/importtrace" -q -o tg.out - 2> tg.err && fail "$f from a pipe: bytes after $z zero bytes: accepted"
            grep -q "at byte $((sz + z)) of the file" tg.err || { cat tg.err; fail "$f from a pipe: not said"; }
        done
    done
fi
# --- 4. A span kind that is no kind: a typo ("SERVR"), another word, a
# number or object where Zipkin writes a name, a Jaeger span.kind tag whose
# value is not a string.  Each was taken as a local span without a word:
# its RPC lost or taken from the wrong side.  Refused at every reader of a
# kind name (Zipkin, Jaeger, span CSV; OTLP already refused), naming the
# span and the names expected; the names of any case, SPAN_KIND_ forms,
# internal and unspecified still read.
D="$R/tests/data/importtrace"
for bad in '"SERVR"' '"rpc"' '3' '{"a": 1}' '["SERVER"]' '""'; do
    sed "0,/\"kind\": \"SERVER\"/s//\"kind\": $bad/" "$D/zipkin.json" > k.json
    cmp -s k.json "$D/zipkin.json" && fail "zipkin kind $bad: not substituted"
    "$B/importtrace" -q -o k.out k.json 2> k.err && fail "zipkin kind $bad: accepted"
    grep -q '^importtrace: k.json:[0-9]*:[0-9]*: \[0\]: "kind" .*expected CLIENT, SERVER, PRODUCER or CONSUMER' k.err ||
        { cat k.err; fail "zipkin kind $bad: not said"; }
done
for good in '"server"' '"Server"' '"SPAN_KIND_SERVER"' '"CONSUMER"' 'null'; do
    sed "0,/\"kind\": \"SERVER\"/s//\"kind\": $good/" "$D/zipkin.json" > k.json
    "$B/importtrace" -q -o k.out k.json 2> k.err || { cat k.err; fail "zipkin kind $good: refused"; }
done
for bad in '"servr"' '2' 'true'; do
    sed "0,/\"value\": \"server\"/s//\"value\": $bad/" "$D/two.json" > k.json
    cmp -s k.json "$D/two.json" && fail "jaeger kind $bad: not substituted"
    "$B/importtrace" -q -o k.out k.json 2> k.err && fail "jaeger span.kind $bad: accepted"
    grep -q '^importtrace: k.json:[0-9]*:[0-9]*: data\[0\].spans\[0\]: tag "span.kind" .*expected client, server' k.err ||
        { cat k.err; fail "jaeger span.kind $bad: not said"; }
done
M=trace=trace,span=span,parent=parent,service=svc,start=ts,end=end,kind=kind,unit=us
for kd in servr rpc 7 SPAN_KIND_SERVR; do
    printf 'trace,span,parent,svc,ts,end,kind\nt1,a,,web,1000,1050,server\nt1,b,a,web,1010,1030,client\nt1,c,b,api,1012,1025,%s\n' $kd > k.csv
    "$B/importtrace" -q --csv-map "$M" -o k.out k.csv 2> k.err && fail "csv kind $kd: accepted"
    grep -q "^importtrace: k.csv:4:7: field 7 (kind): \"$kd\": expected a span kind" k.err ||
        { cat k.err; fail "csv kind $kd: not said at 4:7"; }
done
for kd in server SERVER SPAN_KIND_SERVER 2 internal unspecified ''; do
    printf 'trace,span,parent,svc,ts,end,kind\nt1,a,,web,1000,1050,server\nt1,b,a,web,1010,1030,client\nt1,c,b,api,1012,1025,%s\n' "$kd" > k.csv
    "$B/importtrace" -q --csv-map "$M" -o k.out k.csv 2> k.err || { cat k.err; fail "csv kind '$kd': refused"; }
done
# --- 5. A result whose parent links loop (0's parent 5, 5's 3, 3's 0):
# only score --query looked (pq_eval); plain score, --text and every other
# report scored it link by link without a word.  Now the result reader
# refuses it for every use, at the line of a message on the loop; links
# that cross instances (linking writes them) still read.
grep -v '^#' "$R/tests/data/maketrace/tiny.golden.csv" > cyc.tr
"$B/infer" --algo fcfs -o cyc0.res cyc.tr 2> /dev/null || fail "fcfs on the tiny trace"
grep -q '^0,0,3,$' cyc0.res && grep -q '^5,0,3,3$' cyc0.res && grep -q '^3,0,3,0$' cyc0.res ||
    { cat cyc0.res; fail "the tiny result's rows are not as expected"; }
"$B/score" -T cyc.tr cyc0.res > /dev/null 2> s.err || { cat s.err; fail "a sound result refused"; }
sed 's/^0,0,3,$/0,0,3,5/' cyc0.res > cyc.res
for how in "" "--text"; do
    "$B/score" -T cyc.tr $how cyc.res > /dev/null 2> s.err && fail "score $how: a parent cycle accepted"
    msg=$(sed -n 's/^score: cyc.res:\([0-9]*\): parent links form a cycle through message \([0-9]*\); expected.*/\1 \2/p' s.err)
    [ -n "$msg" ] || { cat s.err; fail "score $how: the cycle not said with its line"; }
    set -- $msg
    case $2 in 0|3|5) ;; *) fail "score $how: message $2 is not on the cycle" ;; esac
    sed -n "$1p" cyc.res | grep -q "^$2," || fail "score $how: line $1 is not message $2's row"
done
"$B/infer" --algo linking -o lk.res cyc.tr 2> /dev/null || fail "linking on the tiny trace"
"$B/score" -T cyc.tr lk.res > /dev/null 2> s.err || { cat s.err; fail "linking's result (links across instances) refused"; }
exit 0

#!/bin/sh
# Hostile input, round 17 (issue 28, the 28th wave): the gaps round 16
# left.  One block per class, each able to fail on the tree before it.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace infer maketrace compare

# --- 1. Damage in a .tar.gz (a flipped byte in its deflate data, bytes
# joined on after it) was said as the reads happened to fall: "Damaged tar
# archive" when the tar reader met the garbled data before the gzip check
# reached the member's CRC, else prefixed with the tar member being read
# when the check's read-ahead got there ("x.tar.gz:m3.csv: cannot read"),
# though the damage may be in another member or after the archive.  Now
# the rest of the file is read through the gzip check before a failure is
# said: damage is said of the file, with its byte offset, the same from a
# file and from a pipe; bytes after the gzip data are cut off, so the
# archive is read to its end and they are said after it.
if command -v gzip > /dev/null 2>&1 && command -v python3 > /dev/null 2>&1; then
    python3 -c '
import random
random.seed(3)
for f in ("m1.csv", "m2.csv", "m3.csv"):
    with open(f, "w") as o:
        o.write("TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano,Duration\n")
        for r in range(3000):
            t = 1000000000000 + r * 1000000
            o.write("t%s%d,s%x,,frontend-1,GET /a,%d,%d,%d\n" % (f[1], r, random.getrandbits(40), t, t + 500000, 500))
'
    tar cf m.tar m1.csv m2.csv m3.csv && gzip -9 -c m.tar > m.tar.gz
    sz=$(wc -c < m.tar.gz)
    for off in 2000 30000 60000 100000 $((sz - 300)) $((sz - 6)); do
        python3 -c "
b = bytearray(open('m.tar.gz', 'rb').read()); b[$off] ^= 0x55
open('c.tar.gz', 'wb').write(b)"
        "$B/importtrace" -q -o c.out c.tar.gz 2> c.err && fail "byte $off flipped: accepted"
        [ -e c.out ] && fail "byte $off flipped: output written"
        grep -q '^importtrace: c.tar.gz: cannot read: gzip data do not pass their integrity check (.*): the file is damaged (found at byte [0-9]* of the file)$' c.err ||
            { cat c.err; fail "byte $off flipped: not said of the file with its offset"; }
        "$B/importtrace" -q -o c.out - < c.tar.gz 2> p.err && fail "byte $off flipped, from a pipe: accepted"
        sed 's/^importtrace: (stdin):/importtrace: c.tar.gz:/' p.err | cmp -s - c.err ||
            { cat c.err p.err; fail "byte $off flipped: a pipe says otherwise"; }
    done
    for z in 0 10; do
        { cat m.tar.gz; head -c $z /dev/zero; printf 'PK'; } > tg.tar.gz
        "$B/importtrace" -q -o tg.out tg.tar.gz 2> tg.err && fail "$z zero bytes and PK after: accepted"
        grep -q "^importtrace: tg.tar.gz: cannot read: after the tar archive's end (its last member \"m3.csv\"): the gzip data are followed, at byte $((sz + z)) of the file" tg.err ||
            { cat tg.err; fail "$z zero bytes and PK after: not said after the archive"; }
        cat tg.tar.gz | "$B/importtrace" -q -o tg.out - 2> tp.err && fail "$z zero bytes and PK after, piped: accepted"
        sed 's/^importtrace: (stdin):/importtrace: tg.tar.gz:/' tp.err | cmp -s - tg.err ||
            { cat tg.err tp.err; fail "$z zero bytes and PK after: a pipe says otherwise"; }
    done
    "$B/importtrace" -q -o ok.out m.tar.gz 2> ok.err || { cat ok.err; fail "the sound .tar.gz refused"; }
fi

# --- 2. A packet capture met where a document is read -- compressed (the
# capture reader takes only plain files), from standard input, or as an
# archive member -- was refused as "found byte 0xd4; expected a JSON
# document".  Now said as what it is, by its magic number (pcap in either
# byte order and stamp resolution, pcapng), with how it was wrapped and
# what to do; never by the file's name.
if command -v gzip > /dev/null 2>&1 && command -v python3 > /dev/null 2>&1; then
    python3 "$R/tests/data/capture/mkpcap.py" . || fail "mkpcap"
    "$B/importtrace" -q -o x.tr exchange.pcap 2> x.err || { cat x.err; fail "a plain capture refused"; }
    gzip -c exchange.pcap > cap.bin
    "$B/importtrace" -q -o x.tr cap.bin 2> x.err && fail "a gzipped pcap: accepted"
    grep -q '^importtrace: cap.bin:1:1: found a packet capture (pcap, microsecond stamps) compressed with gzip; .*decompressed first' x.err ||
        { cat x.err; fail "a gzipped pcap: not said"; }
    "$B/importtrace" -q -o x.tr - < exchange.pcap 2> x.err && fail "a pcap from stdin: accepted"
    grep -q '^importtrace: (stdin):1:1: found a packet capture (pcap, microsecond stamps); ' x.err ||
        { cat x.err; fail "a pcap from stdin: not said"; }
    cp exchange.pcap e.json && tar cf e.tar e.json
    "$B/importtrace" -q -o x.tr e.tar 2> x.err && fail "a pcap in a tar: accepted"
    grep -q '^importtrace: e.tar:e.json:1:1: found a packet capture (pcap, microsecond stamps) in a tar archive' x.err ||
        { cat x.err; fail "a pcap in a tar: not said"; }
    # pcapng (its magic starts with a line break, once taken for white
    # space) and a nanosecond pcap in big-endian order
    python3 -c '
import struct
open("ng.bin", "wb").write(b"\x0a\x0d\x0d\x0a" + struct.pack("<I", 28) + b"\x4d\x3c\x2b\x1a"
                           + b"\x01\x00\x00\x00" + b"\xff" * 8 + struct.pack("<I", 28))
open("be.bin", "wb").write(struct.pack(">IHHiIII", 0xa1b23c4d, 2, 4, 0, 0, 65535, 1))'
    for f in ng be; do
        gzip -c $f.bin > $f.gz
        "$B/importtrace" -q -o x.tr $f.gz 2> x.err && fail "$f gzipped: accepted"
        grep -q "^importtrace: $f.gz:1:1: found a packet capture (pcap" x.err ||
            { cat x.err; fail "$f gzipped: not said"; }
    done
    grep -q 'pcapng' x.err && fail "be: said as pcapng"
    if command -v xz > /dev/null 2>&1; then
        xz -c exchange.pcap > cap.xz
        "$B/importtrace" -q -o x.tr cap.xz 2> x.err && fail "an xz pcap: accepted"
        grep -q '^importtrace: cap.xz:1:1: found a packet capture (pcap, microsecond stamps) compressed with xz' x.err ||
            { cat x.err; fail "an xz pcap: not said"; }
    fi
fi

# --- 3. Digits past the nanosecond were rounded (a trace's times, a
# duration) or dropped (a span CSV's times in their unit) without a word:
# 0.1000000000000001 s read as 0.1 s, "1012.0005" us as 1012000 ns,
# "1.5ns" as 2 ns.  A trace file keeps "at least nanosecond precision"
# (DESIGN.md), so its times are read rounded to the nanosecond and every
# program that reads one says so on stderr, at the first one's line and
# column, even with -q; a span CSV's times in their declared unit and a
# duration are refused at their line and column; zeros past the
# nanosecond are exact and read without a word.
printf 'id,ts,recv_ts,src,dst,type,callid,path,cause\n1,0.1%s,0.1,client,a,call,1,r,\n2,0.2,0.2%s,a,client,return,1,r,1\n' 000000000000001 '' > t1.tr
printf 'id,ts,recv_ts,src,dst,type,callid,path,cause\n1,0.1,0.1,client,a,call,1,r,\n2,0.2,0.2,a,client,return,1,r,1\n' > t0.tr
"$B/infer" -q --algo nesting -o t.out t1.tr 2> t.err || { cat t.err; fail "ts 0.1000000000000001: refused"; }
grep -q '^infer: t1.tr:2:2: note: 1 time had digits past the nanosecond and was read rounded' t.err ||
    { cat t.err; fail "ts past the ns: not said at 2:2"; }
"$B/infer" -q --algo nesting -o t0.out t0.tr 2> t0.err || fail "t0 refused"
test -s t0.err && { cat t0.err; fail "t0: a note without digits past the ns"; }
grep -v '^#' t.out > a.out; grep -v '^#' t0.out > b.out
cmp -s a.out b.out || fail "ts past the ns: not read as the nanosecond it rounds to"
printf 'id,ts,recv_ts,src,dst,type,callid,path,cause\n1,0.1,0.1,client,a,call,1,r,\n2,0.2,0.20000000009,a,client,return,1,r,1\n3,0.3,0.30000000049,client,a,call,2,s,\n' > t2.tr
"$B/infer" -q --algo nesting -o t2.out t2.tr 2> /dev/null || fail "t2 refused"
for p in "infer --algo nesting -o t.out" "score --truth" "skewer -o t.out" "sniffer -p 0 -o t.out"; do
    set -- $p; prog=$1; shift
    if [ $prog = score ]; then "$B/score" --truth t2.tr t2.out > /dev/null 2> t.err
    else "$B/$prog" "$@" t2.tr > /dev/null 2> t.err; fi
    grep -q "^$prog: t2.tr:3:3: note: 2 times had digits past the nanosecond and were read rounded" t.err ||
        { cat t.err; fail "$prog: recv_ts past the ns: not said at 3:3"; }
done
printf 'id,ts,recv_ts,src,dst,type,callid,path,cause\n1,0.100000000000,0.1,client,a,call,1,r,\n2,0.2,0.2,a,client,return,1,r,1\n' > t3.tr
"$B/infer" --algo nesting -o t3.out t3.tr 2> t.err || { cat t.err; fail "zeros past the ns: refused"; }
sed 's/0.100000000000/0.1/' t3.tr > t4.tr
"$B/infer" --algo nesting -o t4.out t4.tr 2> t.err || { cat t.err; fail "t4 refused"; }
grep -v '^#' t3.out > a.out; grep -v '^#' t4.out > b.out
cmp -s a.out b.out || fail "zeros past the ns: read otherwise"
M=trace=trace,span=span,parent=parent,service=svc,start=ts,end=end,kind=kind
for c in 'us 5 1012.0005 1025' 'ns 5 1012.5 1025' 'ms 6 1012 1025.0000001' 's 5 1012.0000000001 1025'; do
    set -- $c
    printf 'trace,span,parent,svc,ts,end,kind\nt1,a,,web,1000,1050,server\nt1,b,a,web,1010,1030,client\nt1,c,b,api,%s,%s,server\n' $3 $4 > k.csv
    "$B/importtrace" -q --csv-map "$M,unit=$1" -o k.out k.csv 2> k.err && fail "span csv unit=$1 '$3,$4': accepted"
    grep -q "^importtrace: k.csv:4:$2: field $2 (.*): \".*\": digits past the nanosecond, which would be lost; expected a decimal number of $1 with at most" k.err ||
        { cat k.err; fail "span csv unit=$1 '$3,$4': not said at 4:$2"; }
done
printf 'trace,span,parent,svc,ts,end,kind\nt1,a,,web,1000,1050,server\nt1,b,a,web,1010,1030,client\nt1,c,b,api,1012.000000,1025.500,server\n' > k.csv
"$B/importtrace" -q --csv-map "$M,unit=us" -o k.out k.csv 2> k.err || { cat k.err; fail "span csv 1012.000000 us: refused"; }
printf 'seed = 7\nmessages = 20\nnet_delay = %s\nservice B workers=2 model=pool\ntracelet rpc from A weight=1 {\n  call B\n}\n' 1.5ns > w.conf
"$B/maketrace" --parse-only w.conf 2> w.err && fail "net_delay = 1.5ns: accepted"
grep -q '^maketrace: w.conf:3:13: option net_delay: .*"1.5ns" (a duration is whole nanoseconds: it has digits past the nanosecond' w.err ||
    { cat w.err; fail "net_delay = 1.5ns: not said"; }
for d in 0.0000000015s 1.0000001ms 0.0000015ms; do
    "$B/maketrace" --parse-only -s net_delay=$d w.conf 2> w.err && fail "-s net_delay=$d: accepted"
    grep -q "digits past the nanosecond" w.err || { cat w.err; fail "-s net_delay=$d: not said"; }
done
for d in 2ns 0.000000002s 1.000001ms 1.5us 0.5min; do
    "$B/maketrace" --parse-only -s net_delay=$d w.conf 2> w.err || { cat w.err; fail "-s net_delay=$d: refused"; }
done
# --- 4. compare's names (point, metric, seed, series) kept a blank at
# either end as part of the name: seed " 1" on one side and "1" on the
# other were two seeds, each value left unpaired and the verdict drawn
# from the rest, exit 0, without a word.  Refused at the field's line and
# column; the names written without blanks still pair.
printf 'point,metric,seed,value,better,series\np,exact,1,0.5,higher,s\np,exact,2,0.6,higher,s\n' > A.csv
for row in 'p,exact, 1,0.7,higher,s:9' 'p,exact,1 ,0.7,higher,s:9' 'p ,exact,1,0.7,higher,s:1' 'p,	exact,1,0.7,higher,s:3' 'p,exact,1,0.7,higher, s:22'; do
    col=${row##*:}; r=${row%:*}
    printf 'point,metric,seed,value,better,series\n%s\np,exact,2,0.6,higher,s\n' "$r" > Bx.csv
    "$B/compare" A.csv Bx.csv > c.out 2> c.err && fail "compare '$r': accepted"
    grep -q "^compare: Bx.csv:2:$col: [a-z]* '.*' has a blank at its start or end; expected the name without it" c.err ||
        { cat c.err; fail "compare '$r': not said at 2:$col"; }
done
printf 'point,metric,seed,value,better,series\np,exact,1,0.7,higher,s\np,exact,2,0.6,higher,s\n' > Bx.csv
"$B/compare" A.csv Bx.csv > c.out 2> c.err; rc=$?
[ $rc = 2 ] || [ $rc = 4 ] && { cat c.err; fail "compare of sound sides: exit $rc"; }
grep -q 'unpaired' c.out && { cat c.out; fail "sound sides: seeds unpaired"; }

# --- 5. A pcapng interface stamping finer than a nanosecond (if_tsresol
# 12: picoseconds; or in base 2) had the part below 1 ns of every stamp
# cut without a word.  Now said on stderr (even with -q) and in the
# trace's metadata: how many packets, the first, the interface's units;
# stamps that are whole nanoseconds say nothing and read as before.
if command -v python3 > /dev/null 2>&1; then
    cat > sub.py <<'EOF'
import struct, sys
sys.path.insert(0, sys.argv[1])
from mkpcap import conn, req, ok
pk = []
class W:
    def put(self, data, dt=0.001): pk.append(data)
conn(W(), "10.0.0.1", 40001, "10.0.0.2", 80, [(1, req("/a")), (0, ok(b"x"))])
def blk(t, body):
    body += b"\0" * (-len(body) % 4)
    return struct.pack("<II", t, 12 + len(body)) + body + struct.pack("<I", 12 + len(body))
res, extra, at = int(sys.argv[3], 0), int(sys.argv[4]), int(sys.argv[5])
units = 2 ** (res & 0x7f) if res & 0x80 else 10 ** res
out = blk(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
out += blk(1, struct.pack("<HHI", 1, 0, 65535) + struct.pack("<HHB3x", 9, 1, res) + b"\0" * 4)
for i, p in enumerate(pk):
    t = (1000 + i) * units          # whole seconds: exact in any unit
    if i + 1 >= at:
        t += extra
    out += blk(6, struct.pack("<IIIII", 0, t >> 32, t & 0xffffffff, len(p), len(p)) + p)
open(sys.argv[2], "wb").write(out)
EOF
    D="$R/tests/data/capture"
    python3 sub.py "$D" n9.pcapng 9 0 99 || fail "n9.pcapng not written"
    "$B/importtrace" -q -o n9.tr n9.pcapng 2> n.err || { cat n.err; fail "n9.pcapng refused"; }
    [ -s n.err ] && { cat n.err; fail "n9.pcapng: a warning"; }
    python3 sub.py "$D" p0.pcapng 12 0 99 || fail "p0.pcapng not written"
    "$B/importtrace" -q -o p0.tr p0.pcapng 2> n.err || { cat n.err; fail "p0.pcapng refused"; }
    [ -s n.err ] && { cat n.err; fail "picoseconds, whole ns: a warning"; }
    grep -v '^#' n9.tr > a.rows; grep -v '^#' p0.tr > b.rows
    [ -s a.rows ] || fail "n9.pcapng: no rows"
    cmp -s a.rows b.rows || fail "picoseconds, whole ns: rows not those of ns stamps"
    for rx in '12 1500 3 1000000000000' '0x9e 7 2 1073741824'; do
        set -- $rx
        python3 sub.py "$D" ps.pcapng $1 $2 $3 || fail "ps.pcapng not written"
        "$B/importtrace" -q -o ps.tr ps.pcapng 2> n.err || { cat n.err; fail "if_tsresol $1: refused"; }
        grep -q "^importtrace: warning: ps.pcapng (interface 0: $4 units a second): [0-9]* of [0-9]* packets were stamped finer than a nanosecond, and the part below it was cut (first: packet $3)" n.err ||
            { cat n.err; fail "if_tsresol $1: the cut not said"; }
        grep -q '^# capture: subns ps.pcapng' ps.tr || fail "if_tsresol $1: not in the metadata"
    done
fi
exit 0

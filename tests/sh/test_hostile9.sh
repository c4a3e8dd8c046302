#!/bin/sh
# Hostile input, ninth round (issue 28, h173): the leftovers of round 8 and
# inputs nobody had tried.  One block per class, each able to fail on the
# tree before it.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace score compare infer maketrace skewer sniffer pbcapture

# --- 1. An option given twice kept the last value without a word, in every
# program.  Now the one convention of core/pb_cli.c (README): the last one
# is used and a warning names both; a flag and the parameter it stands for
# are one name; the same value twice, repeatable flags and -s of different
# names say nothing.
for p in importtrace infer score compare maketrace skewer sniffer pbcapture; do
    "$B/$p" -o a -o b --version > /dev/null 2> o.err || fail "$p -o twice --version: exit $?"
    grep -q "^$p: warning: output given twice (--output a, then --output b); the last one is used$" o.err ||
        { cat o.err; fail "$p: -o given twice not said"; }
    "$B/$p" -o a -o a --version > /dev/null 2> o.err || fail "$p -o a -o a: exit $?"
    [ -s o.err ] && { cat o.err; fail "$p: the same value twice said"; }
done
"$B/maketrace" --seed 1 -s seed=2 --parse-only "$R/maketrace/configs/tiny.conf" 2> s.err ||
    fail "maketrace --seed -s seed: exit $?"
grep -q '^maketrace: warning: seed given twice (--seed 1, then -s seed=2); the last one is used$' s.err ||
    { cat s.err; fail "maketrace: --seed then -s seed= not said"; }
"$B/maketrace" -D seed=1 -s seed=1 -s duration=1s --parse-only "$R/maketrace/configs/tiny.conf" 2> s.err ||
    fail "maketrace -D/-s: exit $?"
grep -q 'warning' s.err && { cat s.err; fail "maketrace: one value twice, or two names, said"; }
"$B/sniffer" --rate 5 -s rate=6 --version 2> s.err > /dev/null
grep -q '^sniffer: warning: rate given twice (--rate 5, then -s rate=6)' s.err || { cat s.err; fail "sniffer: --rate/-s rate= not said"; }
"$B/score" -s min_instances=2 --min-instances 3 --version 2> s.err > /dev/null
grep -q '^score: warning: min_instances given twice' s.err || { cat s.err; fail "score: min_instances twice not said"; }
"$B/infer" --algo joint -s iters=2 -s iters=3 --version 2> s.err > /dev/null
grep -q '^infer: warning: iters given twice (-s iters=2, then -s iters=3)' s.err || { cat s.err; fail "infer: -s twice not said"; }
"$B/skewer" -n a=1ms -n b=2ms --version 2> s.err > /dev/null
[ -s s.err ] && { cat s.err; fail "skewer: the repeatable -n said"; }

# --- 2. PB_INFER_ARGS: infer options for joint in the four audits, checked
# before the run, given to joint only, recorded in every CSV row and the .md.
mkdir fb
for p in maketrace skewer score importtrace sniffer; do ln -s "$B/$p" fb/$p; done
cat > fb/infer <<SH
#!/bin/sh
echo "\$*" >> "$tmp/calls"
exec "$B/infer" "\$@"
SH
chmod +x fb/infer
PB_INFER_ARGS="-s conf_sims=2" PB_BIN="$tmp/fb" PB_OUT="$tmp/out" PB_APPS_ALGOS="joint fcfs" \
    PB_APPS_DURATION=0.2s sh "$R/experiments/joint_apps.sh" --quick --configs retry > /dev/null 2>&1 ||
    fail "joint_apps with PB_INFER_ARGS: exit $?"
grep -q -- '--algo joint -s conf_sims=2 -o ' calls || { cat calls; fail "joint not given PB_INFER_ARGS"; }
grep -q -- '--algo fcfs .*conf_sims' calls && fail "fcfs given PB_INFER_ARGS"
head -1 out/joint_apps.csv | grep -q ',infer_args$' || fail "no infer_args column"
grep -q '^retry,1,x1:ns,ids,joint,.*,"-s conf_sims=2"$' out/joint_apps.csv || { cat out/joint_apps.csv; fail "joint row without its args"; }
grep -q '^retry,1,x1:ns,ids,fcfs,.*,""$' out/joint_apps.csv || fail "fcfs row: args recorded"
grep -q 'PB_INFER_ARGS="-s conf_sims=2"' out/joint_apps.md || fail ".md does not say the args"
# (a generator that fails and no data: the tree before this stops at once too)
mkdir fb2 empty
for p in score importtrace sniffer infer; do ln -s "$B/$p" fb2/$p; done
printf '#!/bin/sh\nexit 1\n' > fb2/maketrace; printf '#!/bin/sh\nexit 1\n' > fb2/skewer
chmod +x fb2/maketrace fb2/skewer
for a in joint_apps joint_models joint_systems joint_stress; do
    d=; case $a in joint_systems|joint_stress) d="--data $tmp/empty" ;; esac
    PB_INFER_ARGS="-s no_such_option=1" PB_BIN="$tmp/fb2" PB_OUT="$tmp/out2" \
        sh "$R/experiments/$a.sh" $d > /dev/null 2> a.err &&
        fail "$a: a misspelt PB_INFER_ARGS accepted"
    grep -q "^$a: PB_INFER_ARGS=\"-s no_such_option=1\": infer refuses it: " a.err || { cat a.err; fail "$a: not said"; }
    [ -e out2/$a.csv ] && fail "$a: ran with a misspelt PB_INFER_ARGS"
done

# --- 3. Zipkin and Jaeger hex ids read as numbers, as OTLP's were: "ABC",
# "abc" and "0000000000000abc" are one trace, "0A" and "a" one span (before:
# three traces, a missing parent, no shared span).  Two different spans
# whose ids become one that way are refused, naming both, not merged.
cat > z.json <<'J'
[{"traceId":"ABC","id":"0A","kind":"CLIENT","name":"get","timestamp":1000,"duration":50,"localEndpoint":{"serviceName":"front"},"remoteEndpoint":{"serviceName":"back"}},
 {"traceId":"abc","id":"a","kind":"SERVER","name":"get","timestamp":1010,"duration":30,"localEndpoint":{"serviceName":"back"}},
 {"traceId":"0000000000000abc","id":"000b","parentId":"A","kind":"CLIENT","name":"q","timestamp":1015,"duration":10,"localEndpoint":{"serviceName":"back"},"remoteEndpoint":{"serviceName":"db"}},
 {"traceId":"abc","id":"B","parentId":"a","kind":"SERVER","name":"q","timestamp":1016,"duration":8,"localEndpoint":{"serviceName":"db"}}]
J
"$B/importtrace" -q -o z.tr z.json || fail "zipkin ids: refused"
grep -q ' traces=1 .* requests=1 .* missing_parent=0 .* shared_span=2 ' z.tr || { head -2 z.tr; fail "zipkin ids: not one trace of shared spans"; }
[ "$(grep -c ',call,' z.tr)" = 2 ] || fail "zipkin ids: not two calls"
cat > j.json <<'J'
{"data":[{"traceID":"ABC","spans":[
 {"traceID":"ABC","spanID":"0A","operationName":"x","references":[],"startTime":1000,"duration":100,"processID":"p1","tags":[{"key":"span.kind","value":"server"}]},
 {"traceID":"0abc","spanID":"b","operationName":"y","references":[{"refType":"CHILD_OF","traceID":"abc","spanID":"a"}],"startTime":1010,"duration":10,"processID":"p2","tags":[{"key":"span.kind","value":"server"}]}],
 "processes":{"p1":{"serviceName":"a"},"p2":{"serviceName":"b"}}}]}
J
"$B/importtrace" -q -o j.tr j.json || fail "jaeger ids: refused"
grep -q ' traces=1 .* requests=1 .* missing_parent=0 ' j.tr || { head -2 j.tr; fail "jaeger ids: the child not under its parent"; }
# a copy of one span from a second exporter, spelt another way: one span
sed 's/"id":"a"/"id":"00A"/' z.json > z2.json
"$B/importtrace" -q -o zz.tr z.json z2.json || fail "two exporters: refused"
grep -q ' duplicate_span=0 .* repeated_span=4 ' zz.tr || { head -2 zz.tr; fail "two exporters: the copies not one span"; }
# two different spans made one: refused, naming both
cat > col.json <<'J'
[{"traceId":"abc","id":"0a","kind":"SERVER","name":"get","timestamp":1000,"duration":50,"localEndpoint":{"serviceName":"front"}},
 {"traceId":"abc","id":"A","kind":"SERVER","name":"put","timestamp":2000,"duration":50,"localEndpoint":{"serviceName":"front"}}]
J
"$B/importtrace" -q -o col.tr col.json 2> col.err && fail "id collision after normalising: accepted"
grep -q '^importtrace: col.json: \[1\]: span id "A" is the hex number of span id "0a" (\[0\]) in trace abc, but the two spans differ' col.err ||
    { cat col.err; fail "id collision: not said"; }
[ -e col.tr ] && fail "id collision: output written"

# --- 4. A packet capture whose snapshot length cut packets was read without
# a word.  Now a warning (also with -q) says how many packets, from which
# file, the snapshot length and the bytes lost; the rows are as before.
if command -v python3 > /dev/null 2>&1; then
    cat > snap.py <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
import mkpcap
from mkpcap import *
class Cut(Writer):
    def __init__(self, path, snap):
        self.f = open(path, "wb")
        self.f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, snap, 1))
        self.t = 1000.0
        self.snap = snap
    def put(self, data, dt=0.001):
        self.t += dt
        sec = int(self.t); usec = int(round((self.t - sec) * 1e6))
        cut = data[:self.snap]
        self.f.write(struct.pack("<IIII", sec, usec, len(cut), len(data)) + cut)
w = Cut(sys.argv[2], int(sys.argv[3]))
A, B = "10.0.0.1", "10.0.0.2"
conn(w, A, 40001, B, 80, [(1, req("/a")), (0, ok(b"x" * 300))])
w.close()
PY
    python3 snap.py "$R/tests/data/capture" big.pcap 65535 || fail "big.pcap not written"
    python3 snap.py "$R/tests/data/capture" snap.pcap 200 || fail "snap.pcap not written"
    "$B/importtrace" -q -o big.tr big.pcap 2> big.err || { cat big.err; fail "big.pcap refused"; }
    [ -s big.err ] && { cat big.err; fail "uncut capture: a warning"; }
    "$B/importtrace" -q -o snap.tr snap.pcap 2> snap.err || { cat snap.err; fail "snap.pcap refused"; }
    grep -q '^importtrace: warning: snap.pcap (snapshot length 200 bytes): 1 of [0-9]* packets were longer than the snapshot length and were cut (first: packet [0-9]*); [0-9]* bytes of payload were not captured' snap.err ||
        { cat snap.err; fail "snaplen cut not said"; }
    grep -v '^#' big.tr > big.rows; grep -v '^#' snap.tr > snap.rows
    cmp -s big.rows snap.rows || { diff big.rows snap.rows; fail "snaplen cut: rows changed"; }
    grep -q '^# capture: snaplen ' snap.tr || fail "snaplen cut: not in the metadata"
fi

# --- 5. Archives cut short.  (a) A tar cut exactly at a member boundary
# (no end marker: two zero blocks) read the members before the cut and
# said nothing: the rest lost.  Now refused, naming the last member read.
# A complete tar (GNU, ustar, pax) reads as before.  (b) A cut .xz or zip
# member said only libarchive's words ("Lzma library error:  No progress
# is possible", "ZIP decompression failed (-5)"); now also what happened.
S1='{"traceID":"t1","spanID":"1","operationName":"x","references":[],"startTime":1000,"duration":100,"processID":"p1"}'
printf '{"data":[{"traceID":"t1","spans":[%s],"processes":{"p1":{"serviceName":"a"}}}]}\n' "$S1" > m1.json
sed 's/t1/t2/g' m1.json > m2.json
for fmt in gnu ustar pax; do
    tar --format=$fmt -cf whole.tar m1.json m2.json 2> /dev/null || continue
    "$B/importtrace" -q -o whole.tr whole.tar 2> whole.err || { cat whole.err; fail "complete $fmt tar refused"; }
    grep -q ' traces=2 ' whole.tr || fail "complete $fmt tar: not two traces"
    # the first member's header(s) and data: cut where the second begins
    n=$(tar --format=$fmt -b 1 -cf - m1.json 2> /dev/null | wc -c) # no record padding
    head -c $((n - 1024)) whole.tar > cut.tar
    "$B/importtrace" -q -o cut.tr cut.tar 2> cut.err && fail "$fmt tar cut at a member boundary: accepted"
    grep -q '^importtrace: cut.tar: the tar archive ends after the member "m1.json" without its end marker' cut.err ||
        { cat cut.err; fail "$fmt tar cut at a member boundary: not said"; }
done
if command -v xz > /dev/null 2>&1; then
    xz -c m1.json > m1.json.xz
    head -c $(($(wc -c < m1.json.xz) - 8)) m1.json.xz > cut.json.xz
    "$B/importtrace" -q -o x.tr cut.json.xz 2> x.err && fail "cut .xz accepted"
    grep -q 'the xz data ends before its end marker or is damaged' x.err || { cat x.err; fail "cut .xz: not said plainly"; }
fi

# --- 6. A number in hex: every trace field refuses "0x10" ("expected a
# finite decimal number"), but a numeric option read it as 16 (strtod):
# `sniffer --rate 0x10`, `infer -s bw_min=0x1`, maketrace settings,
# `score --tolerance 0x10`.  Now refused alike (pb_opt_decimal); decimal
# forms (.5, +2, 1e-3) read as before.
printf 'id,ts,recv_ts,src,dst,type,path,cause\n1,0.1,0.1,client,a,call,r1,\n2,0.2,0.2,a,client,return,r1,1\n' > h.tr
"$B/sniffer" --rate 0x10 -o /dev/null h.tr 2> h.err && fail "sniffer --rate 0x10 accepted"
grep -q 'option rate: expected a finite number written in decimal' h.err || { cat h.err; fail "sniffer 0x10: not said"; }
"$B/infer" --algo joint -s bw_min=0x1 --parse-only -o /dev/null h.tr 2> h.err && fail "infer bw_min=0x1 accepted"
grep -q 'option bw_min: expected a finite number written in decimal' h.err || { cat h.err; fail "infer 0x1: not said"; }
"$B/maketrace" -s instances_scale=0x2 --parse-only "$R/maketrace/configs/tiny.conf" 2> h.err && fail "maketrace 0x2 accepted"
"$B/infer" --algo nesting -q -o r.res h.tr || fail "nesting on h.tr"
"$B/score" --truth h.tr -t 0x10 r.res > /dev/null 2> h.err && fail "score --tolerance 0x10 accepted"
"$B/score" --truth h.tr -t 2,5.5,1e1 r.res > /dev/null || fail "score --tolerance 2,5.5,1e1 refused"
"$B/infer" --algo joint -s bw_min=1e-3 -s parallel=.5 -s alpha=+2 --parse-only -o /dev/null h.tr 2> /dev/null ||
    fail "decimal option values refused"

# --- 7. A parameter given twice inside one sniffer box kept the last
# (`--sniffer 'a;rate=5;rate=6'`), where a maketrace config and a skewer
# spec refuse a key given twice: now refused alike, naming both.  infer's
# write error now names its output, as every other program's does.
"$B/sniffer" --sniffer 'a;rate=5;rate=6' -o /dev/null h.tr 2> sn.err && fail "sniffer box: rate twice accepted"
grep -q "^sniffer: --sniffer a: rate given twice (rate=5, then rate=6); expected each parameter once" sn.err ||
    { cat sn.err; fail "sniffer box: rate twice not said"; }
"$B/sniffer" -q --sniffer 'client,a;rate=5;queue=6' -o /dev/null h.tr || fail "sniffer box: two names refused"
if [ -w /dev/full ]; then
    "$B/infer" --algo nesting -q -o /dev/full h.tr 2> wf.err && fail "infer -o /dev/full: exit 0"
    grep -q '^infer: /dev/full: write error: ' wf.err || { cat wf.err; fail "infer: write error does not name its output"; }
    "$B/infer" --algo nesting -q h.tr > /dev/full 2> wf.err && fail "infer > /dev/full: exit 0"
    grep -q '^infer: (stdout): write error: ' wf.err || { cat wf.err; fail "infer: write error does not name stdout"; }
fi

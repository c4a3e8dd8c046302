#!/bin/sh
# Hostile input, round 15 (issue 28, h224): the classes round 14 left
# (numbers with an exponent outside the option table, protobuf JSON's
# int64 strings, compare rows cut short, a span table's duration beside
# its end never looked at) and damage a compressed file's check finds.
# One block per class, each able to fail on the tree before it.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace score infer maketrace skewer compare

printf 'id,ts,recv_ts,src,dst,type,path,cause\n1,0.1,0.1,client,a,call,r1,\n2,0.15,0.15,a,b,call,r1,1\n3,0.18,0.18,b,a,return,r1,2\n4,0.2,0.2,a,client,return,r1,3\n' > h.tr
"$B/infer" --algo nesting -q -o h.res h.tr 2> /dev/null || fail "infer on h.tr"

# --- 1. A number with an exponent where a duration or an integer is read.
# Round 14 named the exponent in the option table's durations only; the
# durations maketrace's configs, skewer's specs, infer's --exec-timeout
# and convolution's options read themselves (12 pb_duration_parse sites,
# each with a message of its own) refused 1e3ms as "malformed" or "expected
# a duration" without saying why, and every integer (-s messages=1e3, a
# config's instances=2.0, score --topn 1e1, importtrace --seed 1e3) was
# "expected an integer".  Now one note each (pb_duration_hint,
# pb_integer_hint) at every site; a bare number says it needs a unit, an
# overflow says it is past 64-bit nanoseconds (it said "below 1ns").
EXPO='(it has an exponent, which durations are written without'
mconf() {
    printf 'seed = 7\nmessages = 20\n%s\ntracelet rpc from A {\n  call B {\n    wait %s\n  }\n}\n' "$1" "$2" > m.conf
}
mconf 'call_delay = 20ms,4e0ms' 1ms
"$B/maketrace" --parse-only m.conf 2> d.err && fail "maketrace call_delay SD 4e0ms: accepted"
grep -q "^maketrace: m.conf:3:14: setting call_delay: .* got \"4e0ms\" $EXPO" d.err ||
    { cat d.err; fail "maketrace call_delay SD 4e0ms: the exponent not said"; }
mconf 'think = 1ms..2e0s' 1ms
"$B/maketrace" --parse-only m.conf 2> d.err && fail "maketrace think ..2e0s: accepted"
grep -q "^maketrace: m.conf:3:9: setting think: .* got \"2e0s\" $EXPO" d.err ||
    { cat d.err; fail "maketrace think ..2e0s: the exponent not said"; }
mconf 'net_delay = 1ms' 1e2ms
"$B/maketrace" --parse-only m.conf 2> d.err && fail "maketrace wait 1e2ms: accepted"
grep -q "^maketrace: m.conf:6:10: .*after wait, got \"1e2ms\" $EXPO" d.err ||
    { cat d.err; fail "maketrace wait 1e2ms: the exponent not said"; }
mconf 'service B read_cost=5e1us' 1ms
"$B/maketrace" --parse-only m.conf 2> d.err && fail "maketrace read_cost=5e1us: accepted"
grep -q "read_cost=DURATION (e.g. 50us), got \"5e1us\" $EXPO" d.err ||
    { cat d.err; fail "maketrace read_cost=5e1us: the exponent not said"; }
mconf 'think = 30..2s' 1ms
"$B/maketrace" --parse-only m.conf 2> d.err && fail "maketrace think 30..: accepted"
grep -q 'got "30" (a number needs a unit' d.err || { cat d.err; fail "maketrace think 30..: the unit not asked for"; }
mconf 'think = 0.1ns..2s' 1ms
"$B/maketrace" --parse-only m.conf 2> d.err && fail "maketrace think 0.1ns: accepted"
grep -q 'got "0.1ns" (a duration is whole nanoseconds: below 1ns' d.err || { cat d.err; fail "maketrace think 0.1ns: not said"; }
mconf 'think = 1ms..2s' 1ms
"$B/maketrace" -q --parse-only m.conf 2> d.err || { cat d.err; fail "maketrace: a good config refused"; }
grep -q 'exponent\|needs a unit' d.err && { cat d.err; fail "maketrace: a good config given a note"; }
"$B/skewer" -n a=3e1ms h.tr > /dev/null 2> d.err && fail "skewer -n a=3e1ms: accepted"
grep -q "^skewer: --node: \"a=3e1ms\": offset \"3e1ms\" is malformed; .* $EXPO" d.err ||
    { cat d.err; fail "skewer -n a=3e1ms: the exponent not said"; }
printf 'a=+3e1ms\n' > s.spec
"$B/skewer" -f s.spec h.tr > /dev/null 2> d.err && fail "skewer spec a=+3e1ms: accepted"
grep -q "^skewer: s.spec:1: .*offset \"+3e1ms\" is malformed; .* $EXPO" d.err ||
    { cat d.err; fail "skewer spec a=+3e1ms: the exponent not said"; }
"$B/skewer" --random-offset normal:1e1ms h.tr > /dev/null 2> d.err && fail "skewer --random-offset normal:1e1ms: accepted"
grep -q "parameter \"1e1ms\" is malformed; .* $EXPO" d.err ||
    { cat d.err; fail "skewer --random-offset normal:1e1ms: the exponent not said"; }
"$B/infer" --algo nesting --exec-timeout 1e3s -o /dev/null h.tr 2> d.err && fail "infer --exec-timeout 1e3s: accepted"
grep -q "^infer: --exec-timeout 1e3s: .*$EXPO" d.err || { cat d.err; fail "infer --exec-timeout 1e3s: the exponent not said"; }
"$B/infer" --algo convolution -s v=1e1ms -o /dev/null h.tr 2> d.err && fail "convolution v=1e1ms: accepted"
grep -q "option v: .*got \"1e1ms\" $EXPO" d.err || { cat d.err; fail "convolution v=1e1ms: the exponent not said"; }
"$B/infer" --algo nesting -s hist_lowest=1000000000h -o /dev/null h.tr 2> d.err && fail "hist_lowest=1000000000h: accepted"
grep -q 'is out of range; expected .* (past the largest duration' d.err ||
    { cat d.err; fail "hist_lowest=1000000000h: said as below 1ns"; }
INTX='(it has an exponent, which integers are written without'
"$B/maketrace" --parse-only -s messages=1e3 "$R/maketrace/configs/tiny.conf" 2> d.err && fail "maketrace -s messages=1e3: accepted"
grep -q "option messages: expected an integer, got \"1e3\" $INTX" d.err ||
    { cat d.err; fail "maketrace -s messages=1e3: the exponent not said"; }
printf 'seed = 7\nmessages = 20\ntracelet rpc from A instances=2.0 {\n  call B\n}\n' > i.conf
"$B/maketrace" --parse-only i.conf 2> d.err && fail "maketrace instances=2.0: accepted"
grep -q 'got "2.0" (it has a fraction' d.err || { cat d.err; fail "maketrace instances=2.0: the fraction not said"; }
"$B/score" -T h.tr --topn 1e1 h.res > /dev/null 2> d.err && fail "score --topn 1e1: accepted"
grep -q "^score: --topn: \"1e1\"; expected an integer >= 1 $INTX" d.err ||
    { cat d.err; fail "score --topn 1e1: the exponent not said"; }
"$B/importtrace" -q --seed 1e3 x.json > /dev/null 2> d.err && fail "importtrace --seed 1e3: accepted"
grep -q "^importtrace: --seed: \"1e3\"; .*$INTX" d.err || { cat d.err; fail "importtrace --seed 1e3: the exponent not said"; }

# --- 2. protobuf's JSON mapping writes 64-bit integers as strings: a
# Zipkin span exported through it has "timestamp": "1000", "duration":
# "500", which OTLP's times already took and Zipkin's and Jaeger's refused
# ("expected "timestamp" as a whole number of microseconds").  Now one
# reader (imp_json_whole) for every JSON time: digits with an optional
# '-' only; blanks, '+', an exponent, hex stay refused.
zip() {
    printf '[{"traceId":"a1","id":"1","name":"get","kind":"SERVER","timestamp":%s,"duration":%s,"localEndpoint":{"serviceName":"web"}},\n' "$1" "$2"
    printf ' {"traceId":"a1","id":"2","parentId":"1","name":"q","kind":"CLIENT","timestamp":1100,"duration":200,"localEndpoint":{"serviceName":"web"}},\n'
    printf ' {"traceId":"a1","id":"3","parentId":"2","name":"q","kind":"SERVER","timestamp":1150,"duration":100,"localEndpoint":{"serviceName":"db"}}]\n'
}
zip 1000 500 > zn.json
zip '"1000"' '"500"' > zs.json
"$B/importtrace" -q -o zn.tr zn.json || fail "Zipkin with number times"
"$B/importtrace" -q -o zs.tr zs.json 2> z.err || { cat z.err; fail "Zipkin with \"timestamp\": \"1000\" refused"; }
cmp -s zn.tr zs.tr || fail "Zipkin: string times read other than the numbers"
for v in '" 1000"' '"+1000"' '"1e3"' '"0x3e8"' '""' '"1000.5"' '"99999999999999999999"'; do
    zip "$v" 500 > zb.json
    "$B/importtrace" -q zb.json > /dev/null 2> z.err && fail "Zipkin \"timestamp\": $v accepted"
    grep -q 'zb.json:1:2: \[0\]: expected "timestamp" as a whole number of microseconds' z.err ||
        { cat z.err; fail "Zipkin \"timestamp\": $v: not said"; }
done

# --- 3. Rows cut short or with a field never looked at.  compare took
# a row with fewer fields than its header when every column it reads was
# still there (a file cut mid-line, a lost comma: its fields under the
# wrong names): now refused, naming line and column.  A span table with
# both an end and a duration (Nezha's layout, or --csv-map naming end=
# and duration=) read the end and never looked at the duration: "ten"
# passed.  Now it must be a number (or empty).  (Whether the two agree is
# not checked: a table whose times are in another unit than the map says,
# which the unit check finds after the rows, has its durations right and
# its ends wrong.)
printf 'point,metric,seed,value,note\np,m,1,1,x\np,m,2,2\n' > c.csv
"$B/compare" -q c.csv c.csv > /dev/null 2> c.err && fail "compare: a row with fewer fields than the header accepted"
grep -q '^compare: c.csv:3:8: 4 fields; expected 5 as in the header' c.err ||
    { cat c.err; fail "compare: a row cut short: not said"; }
printf 'point,metric,seed,value,note\np,m,1,1,x\np,m,2,2,\n' > c2.csv
"$B/compare" -q c2.csv c2.csv > /dev/null 2> c.err || { cat c.err; fail "compare: an empty last field refused"; }
cat > e.csv <<'EOF'
trace,span,parent,svc,ts,end,dur,kind
t1,a,,web,1000,1050,50,server
t1,b,a,web,1010,1030,20,client
t1,c,b,api,1012,1022,10,server
EOF
M=trace=trace,span=span,parent=parent,service=svc,start=ts,end=end,duration=dur,kind=kind,unit=us
"$B/importtrace" -q --csv-map "$M" -o e0.tr e.csv || fail "a table with an end and a duration"
for v in ten 1e1 0x10; do
    sed "s/^t1,c,b,api,1012,1022,10,server\$/t1,c,b,api,1012,1022,$v,server/" e.csv > e2.csv
    "$B/importtrace" -q --csv-map "$M" e2.csv > /dev/null 2> e.err && fail "a duration '$v' beside an end: accepted"
    grep -q "^importtrace: e2.csv:4:7: field 7 (dur): \"$v\": expected a decimal number of us" e.err ||
        { cat e.err; fail "a duration '$v' beside an end: not said"; }
done
sed 's/^t1,c,b,api,1012,1022,10,server$/t1,c,b,api,1012,1022,,server/' e.csv > e5.csv
"$B/importtrace" -q --csv-map "$M" -o e5.tr e5.csv 2> e.err || { cat e.err; fail "an empty duration beside an end refused"; }
cmp -s e0.tr e5.tr || fail "an empty duration beside an end changed the trace"

# --- 4. Damage a gzip member's check finds (a flipped byte, a CRC or
# length that does not match) was reported in libarchive's words for a
# cut file, "truncated gzip input"; the check's own words name it.
# Trailing garbage and a file libarchive guesses is lzma, likewise.
# random trace ids, so that the gzip data pass libarchive's first read
# (64 KiB): a small file's damage was said at open, in the check's words
awk 'BEGIN { srand(5); print "trace,span,parent,svc,ts,dur,kind"
             for (i = 0; i < 8000; i++)
                 printf "t%08x%08x,a,,web,%d,50,server\n", int(rand() * 4294967296),
                        int(rand() * 4294967296), 1000 + i }' > g.csv
gzip -n -c g.csv > g.csv.gz
[ "$(wc -c < g.csv.gz)" -gt 70000 ] || fail "g.csv.gz is too small for the test"
GM=trace=trace,span=span,parent=parent,service=svc,start=ts,duration=dur,kind=kind,unit=us
"$B/importtrace" -q --csv-map "$GM" -o g0.tr g.csv.gz || fail "a whole .csv.gz"
sz=$(wc -c < g.csv.gz)
# the CRC (the trailer's first 4 bytes) changed
{ head -c $((sz - 8)) g.csv.gz; printf '\000\000\000\000'; tail -c 4 g.csv.gz; } > gc.csv.gz
"$B/importtrace" -q --csv-map "$GM" gc.csv.gz > /dev/null 2> g.err && fail "a gzip CRC that does not match: accepted"
grep -q '^importtrace: gc.csv.gz: cannot read: gzip data do not pass their integrity check (incorrect data check): the file is damaged' g.err ||
    { cat g.err; fail "a gzip CRC that does not match: not said as damage"; }
# the length (the trailer's last 4 bytes) changed
{ head -c $((sz - 4)) g.csv.gz; printf '\001\000\000\000'; } > gl.csv.gz
"$B/importtrace" -q --csv-map "$GM" gl.csv.gz > /dev/null 2> g.err && fail "a gzip length that does not match: accepted"
grep -q 'gl.csv.gz: cannot read: gzip data do not pass their integrity check (incorrect length check)' g.err ||
    { cat g.err; fail "a gzip length that does not match: not said as damage"; }
# cut short: said as such
head -c $((sz - 4)) g.csv.gz > gt.csv.gz
"$B/importtrace" -q --csv-map "$GM" gt.csv.gz > /dev/null 2> g.err && fail "a cut .csv.gz: accepted"
grep -q 'gt.csv.gz: cannot read: .*truncated' g.err || { cat g.err; fail "a cut .csv.gz: not said as cut"; }
# bytes after the gzip data that are not gzip (a second file appended, a
# damaged member header) were ignored without a word (gzip(1) warns
# "trailing garbage ignored"): now refused; zero bytes (padding) pass
{ cat g.csv.gz; printf 'x,y\n'; } > gg.csv.gz
"$B/importtrace" -q --csv-map "$GM" gg.csv.gz > /dev/null 2> g.err && fail "trailing garbage after the gzip data: accepted"
grep -q "^importtrace: gg.csv.gz: cannot read: the gzip data are followed, at byte $sz of the file, by bytes that are not gzip" g.err ||
    { cat g.err; fail "trailing garbage after the gzip data: not said"; }
{ cat g.csv.gz; head -c 700 /dev/zero; } > gp.csv.gz
"$B/importtrace" -q --csv-map "$GM" -o gp.tr gp.csv.gz 2> g.err || { cat g.err; fail "zero padding after the gzip data refused"; }
cmp -s g0.tr gp.tr || fail "zero padding after the gzip data changed the trace"
{ cat g.csv.gz; cat g.csv.gz; } > g2.csv.gz
"$B/importtrace" -q --csv-map "$GM" g2.csv.gz > /dev/null 2> g.err
grep -q 'not gzip' g.err && { cat g.err; fail "two gzip members said as garbage"; }
# the old lzma format has no magic number: libarchive takes a file whose
# first bytes could be its header for one (a JSON or capture file whose
# first bytes were zeroed) and said "the xz/lzma data is damaged ...
# expected a complete .xz file"; now the guess is named
printf '\000\000\000\000\002\000\004\000\000\000\000\000\000\000\000\000{"data": []}' > z.json
"$B/importtrace" -q z.json > /dev/null 2> g.err && fail "zeroed first bytes: accepted"
grep -q '^importtrace: z.json: cannot open: its first bytes were taken for the header of lzma data (the old .lzma format, which has no magic number)' g.err ||
    { cat g.err; fail "zeroed first bytes: the lzma guess not named"; }
if command -v xz > /dev/null 2>&1; then
    xz --format=lzma -c g.csv > g.csv.lzma
    "$B/importtrace" -q --csv-map "$GM" -o gz.tr g.csv.lzma || fail "a whole .lzma file"
    cmp -s g0.tr gz.tr || fail "a .lzma file read other than the .gz"
    xz -c g.csv > gx.csv.xz
    sz=$(wc -c < gx.csv.xz)
    head -c $((sz / 2)) gx.csv.xz > gxh.csv.xz
    "$B/importtrace" -q --csv-map "$GM" gxh.csv.xz > /dev/null 2> g.err && fail "a cut .xz: accepted"
    grep -q 'lzma data (the old' g.err && { cat g.err; fail "a cut .xz said as an lzma guess"; }
fi

# --- 5. An error message made from its own error: score --query on a
# result whose parent links form a cycle (1's parent 2, 2's parent 1)
# said only "score: cy.res: invalid argument" -- the message re-set with
# the file, "%s", err->msg, was formatted while it was written
# (pb_error_vset now formats aside, for every such caller).
sed 's/^1,1,1,,1$/1,1,1,2,1/' h.res > cy.res
grep -q '^1,1,1,2,1$' cy.res || fail "cy.res not made"
"$B/score" -T h.tr --query 'From db In Recv[type=call] Join c In Send[type=call] On c -> db Select Count' cy.res > /dev/null 2> q.err &&
    fail "a result with a parent cycle: accepted"
# the row of message 1, the one the cycle is said through, by its line
# (before the 27th wave the message had no line)
ln=$(grep -n '^1,1,1,2,1$' cy.res | cut -d: -f1)
grep -q "^score: cy.res:$ln: parent links form a cycle through message 1; expected" q.err ||
    { cat q.err; fail "a result with a parent cycle: not said at line $ln"; }
exit 0

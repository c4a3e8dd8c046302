#!/bin/sh
# Hostile input, tenth round (issue 28, h184): the leftovers of round 9 and
# inputs nobody had tried.  One block per class, each able to fail on the
# tree before it.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace score compare infer maketrace skewer sniffer
printf 'id,ts,recv_ts,src,dst,type,path,cause\n1,0.1,0.1,client,a,call,r1,\n2,0.2,0.2,a,client,return,r1,1\n' > h.tr

# --- 1. A parameter under its old name and its new one, with two values,
# kept the last without a word (the twice-given warning compared spellings):
# joint's `order` / `service_order`, score's `--seed` / `--ci-seed`.  Now one
# name; the same value under both names says nothing.
"$B/infer" --algo joint -s order=auto -s service_order=fifo --parse-only -o /dev/null h.tr 2> a.err
grep -q '^infer: warning: service_order given twice (-s order=auto, then -s service_order=fifo); the last one is used$' a.err ||
    { cat a.err; fail "infer: order then service_order not said"; }
"$B/infer" --algo joint -s service-order=fifo -s order=fifo --parse-only -o /dev/null h.tr 2> a.err
grep -q 'given twice' a.err && { cat a.err; fail "infer: one value under two names said"; }
"$B/infer" --algo nesting -q -o r.res h.tr 2> /dev/null || fail "nesting on h.tr"
"$B/score" --truth h.tr --ci-seed 3 --seed 4 r.res > /dev/null 2> a.err || fail "score --ci-seed --seed: exit $?"
grep -q '^score: warning: ci_seed given twice (--ci-seed 3, then --seed 4); the last one is used$' a.err ||
    { cat a.err; fail "score: --ci-seed then --seed not said"; }
"$B/score" --truth h.tr -s seed=3 --ci-seed 3 r.res > /dev/null 2> a.err || fail "score -s seed --ci-seed: exit $?"
grep -q 'given twice' a.err && { cat a.err; fail "score: one value under two names said"; }

# --- 2. A zip cut inside its central directory (the list of members after
# the last one) read every member without a word: libarchive's streaming
# reader stops where that list starts.  Now refused, naming the last member
# read; complete zips (a comment, zip64, a member past 64 KiB) read as before.
if command -v python3 > /dev/null 2>&1; then
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
with zipfile.ZipFile('z64.zip', 'w') as z:
    with z.open('m1.json', 'w', force_zip64=True) as f:
        f.write(open('m1.json', 'rb').read())
d = open('w.zip', 'rb').read()
cd, eocd = d.find(b'PK\x01\x02'), d.rfind(b'PK\x05\x06')
open('cutcd.zip', 'wb').write(d[:cd + 30])
open('cuteocd.zip', 'wb').write(d[:eocd + 10])
PY
    for z in w c z64; do
        "$B/importtrace" -q -o z.tr $z.zip 2> z.err || { cat z.err; fail "complete zip $z refused"; }
    done
    grep -q ' traces=1 ' z.tr || fail "zip64: not one trace"
    for z in cutcd cuteocd; do
        "$B/importtrace" -q -o z.tr $z.zip 2> z.err && fail "$z.zip accepted"
        grep -q "^importtrace: $z.zip: the zip archive ends without its end-of-central-directory record (read up to the member \"m2.json\")" z.err ||
            { cat z.err; fail "$z.zip: not said"; }
        "$B/importtrace" -q -o z.tr - < $z.zip 2> z.err && fail "$z.zip on stdin accepted"
        grep -q 'end-of-central-directory' z.err || { cat z.err; fail "$z.zip on stdin: not said"; }
    done
fi

# --- 3. Endless or binary input (/dev/zero, a stream without line breaks)
# was read into memory before a word: infer, sniffer and skewer ran out of
# memory on /dev/zero, maketrace too; skewer took a spec of /dev/zero as an
# empty spec (getline's ENOMEM looked like the end of the file) and compare
# said "no header line".  Now the first NUL byte is said at once, with its
# line and column, and a line past 64 MiB (1 MiB in a spec or a table, a
# config past 64 MiB) is refused before it costs more.
lim() { if [ -z "${PB_SANITIZED:-}" ]; then ulimit -v 400000; fi; }
for p in infer sniffer skewer; do
    a=; [ $p = infer ] && a="--algo fcfs"
    ( lim; exec timeout 120 "$B/$p" $a -q -o /dev/null /dev/zero ) 2> z.err && fail "$p /dev/zero: exit 0"
    grep -q "^$p: /dev/zero:1:1: a NUL byte at character 1 of the line" z.err || { cat z.err; fail "$p /dev/zero: not said at once"; }
done
( lim; head -c 80000000 /dev/zero | tr '\0' x | timeout 120 "$B/infer" --algo fcfs -q -o /dev/null - ) 2> z.err && fail "endless line: exit 0"
grep -q '^infer: (stdin):1: a line longer than 64 MiB without a line break' z.err || { cat z.err; fail "endless line: not said"; }
( lim; exec timeout 120 "$B/skewer" -q -f /dev/zero -o /dev/null h.tr ) 2> z.err && fail "skewer -f /dev/zero: exit 0"
grep -q '^skewer: /dev/zero:1:1: a NUL byte' z.err || { cat z.err; fail "skewer -f /dev/zero: not said"; }
( lim; head -c 3000000 /dev/zero | tr '\0' x | timeout 120 "$B/skewer" -q -f - -o /dev/null h.tr ) 2> z.err && fail "skewer -f long line: exit 0"
grep -q 'a line longer than 1 MiB' z.err || { cat z.err; fail "skewer spec: long line not said"; }
( lim; exec timeout 120 "$B/compare" /dev/zero h.tr ) > /dev/null 2> z.err && fail "compare /dev/zero: exit 0"
grep -q '^compare: /dev/zero:1:1: a NUL byte' z.err || { cat z.err; fail "compare /dev/zero: not said"; }
( lim; exec timeout 120 "$B/maketrace" -o /dev/null /dev/zero ) 2> z.err && fail "maketrace /dev/zero: exit 0"
grep -q '^maketrace: /dev/zero:1:1: a NUL byte' z.err || { cat z.err; fail "maketrace /dev/zero: not said"; }
# joint's call graph (-s callgraph=FILE) was read by getline whole: the
# same reader's bound now (the lead, from this round's finding)
( lim; exec timeout 120 "$B/infer" --algo joint -q -s callgraph=/dev/zero -o /dev/null h.tr ) 2> z.err && fail "joint callgraph=/dev/zero: exit 0"
grep -q '^infer: /dev/zero:1:1: a NUL byte' z.err || { cat z.err; fail "joint callgraph=/dev/zero: not said"; }
( lim; head -c 3000000 /dev/zero | tr '\0' x > cgl.txt; exec timeout 120 "$B/infer" --algo joint -q -s callgraph=cgl.txt -o /dev/null h.tr ) 2> z.err && fail "joint callgraph long line: exit 0"
grep -q '^infer: cgl.txt:1: a line longer than 1 MiB' z.err || { cat z.err; fail "joint callgraph long line: not said"; }

# --- 4. Span tables.  (a) A column the map reads named twice in the header
# took the first without a word; now refused, naming both fields.  (b) A NUL
# byte was named by its byte offset only; now by line and column.  (c) A
# quote left open swallowed the lines after it and was said as "4 fields;
# expected 6"; now the field and the lines it ran over are named.
M="--csv-map trace=trace,span=span,parent=parent,service=service,start=start,duration=duration,unit=us"
printf 'trace,span,parent,service,start,duration,start\nt1,1,,fe,1000,100,5\n' > d.csv
"$B/importtrace" -q $M -o /dev/null d.csv 2> d.err && fail "span CSV: a mapped column twice accepted"
grep -q '^importtrace: d.csv:1:7: header field 7: column "start" (for start) appears twice (fields 5 and 7)' d.err ||
    { cat d.err; fail "span CSV: column twice not said"; }
printf 'trace,span,parent,service,start,duration,x,x\nt1,1,,fe,1000,100,5,6\n' > d.csv
"$B/importtrace" -q $M -o /dev/null d.csv || fail "span CSV: an unread column twice refused"
printf 'trace,span,parent,service,start,duration\nt1,1,,fe,1000,100\nt1,2,1,be\0,1010,50\n' > n.csv
"$B/importtrace" -q $M -o /dev/null n.csv 2> n.err && fail "span CSV: NUL accepted"
grep -q '^importtrace: n.csv:3:10: a NUL byte' n.err || { cat n.err; fail "span CSV: NUL not located"; }
printf 'trace,span,parent,service,start,duration\nt1,1,,"fe,1000,100\nt1,2,1,be,1010,50\n' > q.csv
"$B/importtrace" -q $M -o /dev/null q.csv 2> q.err && fail "span CSV: open quote accepted"
grep -q 'field 4, quoted, runs from line 2 over line breaks to line 3: a quote left open' q.err ||
    { cat q.err; fail "span CSV: open quote not named"; }

# --- 5. nesting -s window= reads its trace twice: a named input that cannot
# be read twice (a FIFO, <(...)) was refused at the second pass ("cannot
# rewind"), though stdin was spooled.  Now spooled alike: the same result.
"$B/maketrace" -q -s duration=1s -o t.tr "$R/maketrace/configs/tiny.conf" || fail "maketrace tiny"
"$B/infer" --algo nesting -s window=100ms -q -o f1.res t.tr 2> /dev/null || fail "window on a file"
if mkfifo ff 2> /dev/null; then
    cat t.tr > ff &
    "$B/infer" --algo nesting -s window=100ms -q -o f2.res ff 2> f.err || { cat f.err; fail "window on a FIFO refused"; }
    wait
    grep -v '^#' f1.res > a.rows; grep -v '^#' f2.res > b.rows
    cmp -s a.rows b.rows || fail "window on a FIFO: another result"
fi

# --- 6. A message trace in another CSV dialect was said as the error it
# led to: a header separated by ';' or tabs read as the Project 5 format
# ("expected 5 fields ... got 1"), line breaks written as CR alone read as
# one line ("unknown column \"cause1\"").  Now the dialect is named.
tr ',' ';' < h.tr > s.tr
"$B/infer" --algo fcfs -q -o /dev/null s.tr 2> s.err && fail "';' header accepted"
grep -q "^infer: s.tr:1:3: a header whose names are separated by ';'" s.err || { cat s.err; fail "';' header not named"; }
tr ',' '\t' < h.tr > s.tr
"$B/sniffer" -q -o /dev/null s.tr 2> s.err && fail "tab header accepted"
grep -q "^sniffer: s.tr:1:3: a header whose names are separated by tabs" s.err || { cat s.err; fail "tab header not named"; }
tr '\n' '\r' < h.tr > s.tr
"$B/infer" --algo fcfs -q -o /dev/null s.tr 2> s.err && fail "CR line ends accepted"
grep -q "a carriage return inside the line (at character 38): line breaks written as CR alone" s.err ||
    { cat s.err; fail "CR line ends not named"; }
tr -d '\r' < h.tr | sed 's/$/\r/' > s.tr
"$B/infer" --algo fcfs -q -o /dev/null s.tr || fail "CRLF refused"

# --- 7. compare's tables read a value in hex ("0x10" = 16), which no trace
# field nor option takes since round 9, and refused an underflowing one
# (1e-320, a number strtod rounds toward 0) as "not a finite number".  Now
# decimal only, an underflow read as the number it is; score's result
# fields (confidence, score) decimal only alike.
printf 'point,metric,seed,value\np,acc,1,%s\np,acc,2,1\n' 0x10 > ca.csv
printf 'point,metric,seed,value\np,acc,1,1\np,acc,2,2\n' > cb.csv
"$B/compare" ca.csv cb.csv > /dev/null 2> c.err; [ $? = 4 ] || { cat c.err; fail "compare: a value in hex accepted"; }
grep -q "^compare: ca.csv:2:9: value '0x10'; expected a finite number written in decimal" c.err || { cat c.err; fail "compare hex: not said"; }
printf 'point,metric,seed,value\np,acc,1,%s\np,acc,2,1\n' 1e-320 > ca.csv
"$B/compare" ca.csv cb.csv > /dev/null 2> c.err
[ $? = 4 ] && { cat c.err; fail "compare: an underflowing value refused"; }

# --- 8. pbcapture -o naming an existing file (not a folder) ran the command
# and exited 0: mkdir's EEXIST was taken as "the folder is there", and the
# event files went nowhere.  Now refused before the command runs.
if [ -x "$B/pbcapture" ]; then
    cp h.tr keep.tr
    "$B/pbcapture" -o h.tr -- true 2> p.err && fail "pbcapture -o FILE accepted"
    grep -q '^pbcapture: -o h.tr: not a folder' p.err || { cat p.err; fail "pbcapture -o FILE: not said"; }
    cmp -s h.tr keep.tr || fail "pbcapture -o FILE: the file changed"
fi

# --- 9. A Zipkin duration past 64 bits (18446744073709551615, valid JSON)
# was said as "too big integer ...; expected valid JSON".  Now the range
# that is expected is named.
printf '[{"traceId":"a1","id":"1","name":"op","timestamp":1000,"duration":18446744073709551615,"kind":"SERVER","localEndpoint":{"serviceName":"fe"}}]\n' > big.json
"$B/importtrace" -q -o /dev/null big.json 2> b.err && fail "a 64-bit overflow accepted"
grep -q '^importtrace: big.json:1:[0-9]*: too big integer .*; expected integers from -9223372036854775808 to 9223372036854775807' b.err ||
    { cat b.err; fail "a 64-bit overflow: not said"; }
echo "hostile round 10: ok"

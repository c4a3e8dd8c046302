#!/bin/sh
# Hostile input, fourth round (issue 28's generalisation audit, h76):
# importer variants as other exporters, minutes and runtimes write them,
# and every program's files and options.  One block per class; each
# tries several cases of it, against hand-made expectations.
D="$(cd "$(dirname "$0")/../data" && pwd)"
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace maketrace infer score skewer sniffer compare
rows() { grep -v '^#' "$1"; }

# expect_err NAME SUBSTRING CMD...: CMD exits 1 or 2 and says SUBSTRING
expect_err() {
    n=$1 want=$2
    shift 2
    "$@" > out.txt 2> err.txt
    rc=$?
    [ "$rc" = 1 ] || [ "$rc" = 2 ] || fail "$n: exit $rc, expected 1 or 2 ($(cat err.txt))"
    grep -qF -- "$want" err.txt || fail "$n: no \"$want\" in: $(cat err.txt)"
}

hdr=TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano,Duration
# one request: web (pod) -> api, web's client span b, api's server span c
{
    echo "$hdr"
    echo "t1,a,root,web-579b9bff58-t2dbm,GET,1000,9000,8"
    echo "t1,b,a,web-579b9bff58-t2dbm,api.Get,2000,8000,6"
    echo "t1,c,b,api-579b9bff58-x7k2p,api.Get,3000,7000,4"
} > one.csv
"$B/importtrace" -q -o one.tr one.csv || fail "one.csv"
rows one.tr > one.rows
# the hand-made expectation: client -> web, web -> api (4 stamps), back
cat > want.rows <<'EOF'
id,ts,recv_ts,src,dst,type,path,cause
1,0.000001000,0.000001000,client,web,call,t1,
2,0.000002000,0.000003000,web,api,call,t1,1
3,0.000007000,0.000008000,api,web,return,t1,2
4,0.000009000,0.000009000,web,client,return,t1,3
EOF
cmp -s one.rows want.rows || { diff one.rows want.rows; fail "one.csv: not the hand-made rows"; }

# --- 1. the same span read twice (one trace in two files, overlapping
# exports of two minutes, a row repeated by an exporter's retry): the
# copy is dropped and said (repeated_span), never a second request or a
# second callee.  Before, a trace read twice became two requests of
# client-only calls and multi-callee RPCs.
{ cat one.csv; tail -n 1 one.csv; } > rep.csv
"$B/importtrace" -o rep.tr rep.csv 2> err.txt || fail "repeated row"
rows rep.tr | cmp -s - want.rows || fail "repeated row: rows differ from one.csv's"
grep -q "1 repeated_span: .*the copy dropped (first: rep.csv: line 5)" err.txt ||
    fail "repeated row: not said ($(cat err.txt))"
grep -q "repeated_span=1" rep.tr || fail "repeated row: not in the metadata"
# the whole file twice, in a folder and as two paths; Jaeger JSON too
mkdir twice && cp one.csv twice/a.csv && cp one.csv twice/b.csv
"$B/importtrace" -o tw.tr twice 2> err.txt || fail "folder twice"
rows tw.tr | cmp -s - want.rows || fail "folder twice: rows differ"
grep -q "3 repeated_span" err.txt || fail "folder twice: not said"
for f in fanout.json clientroot.zipkin.json ties.otlp.json; do
    "$B/importtrace" -q -o j1.tr "$D/importtrace/$f" || fail "$f"
    "$B/importtrace" -o j2.tr "$D/importtrace/$f" "$D/importtrace/$f" 2> err.txt ||
        fail "$f twice"
    rows j1.tr > j1.rows
    rows j2.tr | cmp -s - j1.rows || fail "$f twice: rows differ from once"
    grep -q "repeated_span" err.txt || fail "$f twice: not said"
done
# a span id used twice with other content is not a copy: kept and said
{ cat one.csv; echo "t1,c,b,api-579b9bff58-x7k2p,api.Get,3000,7500,4"; } > dup.csv
"$B/importtrace" -o dup.tr dup.csv 2> err.txt || fail "duplicate id"
grep -q "1 duplicate_span" err.txt || fail "duplicate id: not said"
grep -q "repeated_span=0" dup.tr || fail "duplicate id: taken as a copy"

# --- 2. a span table under another name or separator: CSV on stdin or in
# a file not named *.csv is read (its first line has a comma), as it is
# from a *.csv file; a table separated by tabs or ';' is refused naming
# the separator, never read as JSON ("invalid token ... expected valid
# JSON"); blank lines before the header keep line numbers right.
"$B/importtrace" -q - < one.csv > s.tr || fail "CSV on stdin"
rows s.tr | cmp -s - want.rows || fail "CSV on stdin: rows differ"
cp one.csv one.txt
gzip -c one.csv > one.dat.gz
for f in one.txt one.dat.gz; do
    "$B/importtrace" -q -o t.tr "$f" || fail "CSV as $f"
    rows t.tr | cmp -s - want.rows || fail "CSV as $f: rows differ"
done
tr ',' ';' < one.csv > semi.csv
expect_err "';' in a .csv" "separated by ';'? expected commas" "$B/importtrace" semi.csv
tr ',' '\t' < one.csv > tab.tsv
expect_err "tabs" "tab.tsv:1:1: found 'T': text" "$B/importtrace" tab.tsv
grep -q "separated by tabs" err.txt || fail "tabs: separator not named"
tr ',' ';' < one.csv | expect_err "';' on stdin" "(stdin):1:1: found 'T'" "$B/importtrace" -
printf 'hello\n' > hello.txt
expect_err "text" "found 'h': text \"hello\"; expected a JSON document" "$B/importtrace" hello.txt
{ printf '\n\n'; cat one.csv; echo "t1,d,b,api-579b9bff58-x7k2p,op,x,1,1"; } > blank.csv
expect_err "blank lines first" "blank.csv:7:6: field 6" "$B/importtrace" blank.csv
{ printf '\n\n'; cat one.csv; echo "t1,d,b,api-579b9bff58-x7k2p,op,x,1,1"; } |
    expect_err "blank lines first, stdin" "(stdin):7:6: field 6" "$B/importtrace" -

# --- 3. a folder where a file is read: said by name in every program
# (was "read error", a bare "read error: Is a directory", or compare's
# exit 4 "read error"), also as standard input
"$B/maketrace" -q -s duration=1s -o t.csv "$D/../../experiments/joint_fifo.conf" ||
    fail "maketrace"
"$B/infer" -q --algo nesting -o r.csv t.csv || fail "infer"
mkdir fold
W="is a folder; expected a file to read"
expect_err "infer" "fold: $W" "$B/infer" --algo nesting fold
expect_err "infer stdin" "(stdin): $W" sh -c "\"\$0\" --algo nesting - < fold" "$B/infer"
expect_err "score -T" "fold: $W" "$B/score" -T fold r.csv
expect_err "score result" "fold: $W" "$B/score" -T t.csv fold
expect_err "skewer -f" "fold: $W" "$B/skewer" -f fold t.csv
expect_err "skewer" "fold: $W" "$B/skewer" fold
expect_err "sniffer" "fold: $W" "$B/sniffer" fold
expect_err "maketrace" "fold: $W" "$B/maketrace" fold
expect_err "callgraph" "fold: $W" "$B/infer" --algo joint -s callgraph=fold t.csv
expect_err "importtrace stdin" "(stdin): $W" sh -c "\"\$0\" - < fold" "$B/importtrace"
"$B/compare" fold fold > out.txt 2> err.txt
[ $? -ne 0 ] && grep -qF "fold: $W" err.txt || fail "compare: $(cat err.txt)"

# --- 4. a run killed while writing (a time limit, a file size limit)
# leaves the old output as it was and no temporary file beside it (was a
# TARGET.tmpXXXXXX of the size written so far)
echo old > big.csv
timeout 1 "$B/maketrace" -q -s duration=100000000s -o big.csv \
    "$D/../../experiments/joint_fifo.conf"
[ $? = 124 ] || fail "killed: not killed by the time limit"
(ulimit -f 200; exec "$B/maketrace" -q -s duration=100000000s -o big.csv \
    "$D/../../experiments/joint_fifo.conf") 2> /dev/null
(ulimit -f 20; exec "$B/skewer" -q -n '*=1ms' -o big.csv t.csv) 2> /dev/null
[ $? -gt 128 ] || fail "killed: skewer not stopped by the file size limit"
[ "$(cat big.csv)" = old ] || fail "killed: the old output was replaced"
[ -z "$(ls | grep tmp)" ] || fail "killed: left $(ls | grep tmp)"

# --- 5. a syscall capture with entries recorded twice (two agents, an
# export retried): the bytes of a stream position read again are left
# out, the first reading kept, and said (repeated=N) -- before, they were
# framed again and the later copy took the first one's place unsaid
if command -v jq > /dev/null 2>&1; then
    "$B/importtrace" -q --format ebpf -o e1.tr "$D/ebpf/small.json" || fail "ebpf"
    jq '.spans += .spans' "$D/ebpf/small.json" > e2.json
    "$B/importtrace" --format ebpf -o e2.tr e2.json 2> err.txt || fail "ebpf twice"
    rows e1.tr > e1.rows
    rows e2.tr | cmp -s - e1.rows || fail "ebpf twice: rows differ"
    grep -q "^importtrace: repeated=[1-9][0-9]*: " err.txt || fail "ebpf twice: not said"
    grep -q " repeated=[1-9]" e2.tr || fail "ebpf twice: not in the metadata"
    grep -q " repeated=" e1.tr && fail "ebpf once: repeated in the metadata"
fi

# --- 6. a parameter's range may not make memory grow with the parameter
# rather than the input: sniffer --queue 1e9 allocated a ring of 1e9
# departure times (8 GB) before reading a message; the ring now grows as
# the queue fills, and a queue that never fills gives the same capture
"$B/sniffer" -q --queue 100000 -r 1000 -o q1.csv t.csv || fail "sniffer queue"
# (ASan reserves more address space than any limit would allow)
if [ -z "${PB_SANITIZED:-}" ]; then
    (ulimit -v 400000; exec "$B/sniffer" -q --queue 1000000000 -r 1000 -o q2.csv t.csv) ||
        fail "sniffer --queue 1e9: $(cat q2.csv 2>&1 | head -1)"
else
    "$B/sniffer" -q --queue 1000000000 -r 1000 -o q2.csv t.csv || fail "sniffer --queue 1e9"
fi
rows q1.csv > q1.rows
rows q2.csv | cmp -s - q1.rows || fail "sniffer --queue 1e9: another capture"
# and a ring that grows past its first size drops what the old one did
"$B/sniffer" -q --queue 1200 -r 50 -o q3.csv t.csv || fail "sniffer slow"
grep -q "queue_drops=[1-9]" q3.csv || fail "sniffer slow: the queue never filled"

# --- 7. small things a message or an option got wrong: a clock spec's
# bad line was quoted with its line break (the message broke in two); an
# importtrace --seed too large for its type was read as the largest
# value, a seed nobody asked for
expect_err "spec line" "t.csv:3: \"id,ts,recv_ts,src,dst,type,callid,path,cause\": expected" \
    "$B/skewer" -f t.csv t.csv
[ "$(wc -l < err.txt)" = 1 ] || fail "spec line: the message is not one line"
printf 'frontend=1ms\r\nsearch=x\r\n' > crlf.spec
expect_err "spec CRLF" "crlf.spec:2: \"search=x\": offset \"x\"" "$B/skewer" -f crlf.spec t.csv
expect_err "seed" "expected a non-negative integer up to 2147483647" \
    "$B/importtrace" --thread=random:3 --seed 99999999999999999999999 one.csv
expect_err "seed 2^31" "up to 2147483647" \
    "$B/importtrace" --thread=random:3 --seed 2147483648 one.csv

# --- 8. archives as other tools make them: a zip (a browser's or a CI
# job's download) is read as a tar is; binary data of a format not read
# is said to be binary, never taken for text with tabs
if command -v zip > /dev/null 2>&1; then
    mkdir zz && cp one.csv zz/a.csv && cp "$D/importtrace/two.json" zz/b.json
    (cd zz && zip -q ../z.zip a.csv b.json)
    "$B/importtrace" -q -o z.tr z.zip || fail "zip: $(cat z.tr)"
    "$B/importtrace" -q -o zd.tr zz || fail "zip folder"
    rows z.tr > z.rows
    rows zd.tr | cmp -s - z.rows || fail "zip: not the folder's rows"
    cp z.zip z.bin
    "$B/importtrace" -q -o zb.tr z.bin || fail "zip by content"
fi
printf 'AR\003\004\tx,y\n' > bin.dat
expect_err "binary" "found byte 0x03 after 'A' (binary data" "$B/importtrace" bin.dat
printf 'PK\003\004\024\000' > cut.zip
expect_err "cut zip" "cut.zip: cannot read: Truncated ZIP file header" "$B/importtrace" cut.zip

# --- 9. UTF-16 text (PowerShell's '>', some Windows exporters) is named
# as such with the way out, in every reader: it was "a NUL byte ... (a
# binary or corrupt file?)" or "found byte 0xff"
if command -v iconv > /dev/null 2>&1; then
    U="UTF-16 text, as PowerShell's '>' writes it: iconv -f UTF-16 -t UTF-8"
    iconv -f UTF-8 -t UTF-16 t.csv > t16.csv
    expect_err "trace UTF-16" "$U" "$B/infer" --algo nesting t16.csv
    iconv -f UTF-8 -t UTF-16LE t.csv > t16le.csv
    expect_err "trace UTF-16LE, no mark" "$U" "$B/infer" --algo nesting t16le.csv
    iconv -f UTF-8 -t UTF-16 one.csv > one16.csv
    expect_err "span CSV UTF-16" "$U" "$B/importtrace" one16.csv
    iconv -f UTF-8 -t UTF-16 "$D/importtrace/two.json" > two16.json
    expect_err "Jaeger UTF-16" "found byte 0xff ($U" "$B/importtrace" two16.json
    iconv -f UTF-8 -t UTF-16 "$D/../../experiments/joint_fifo.conf" > c16.conf
    expect_err "config UTF-16" "$U" "$B/maketrace" c16.conf
    head -c 100 /dev/zero > zeros.csv
    expect_err "zeros" "(a binary or corrupt file?)" "$B/infer" --algo nesting zeros.csv
fi

echo "test_hostile4: all passed"

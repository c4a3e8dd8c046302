#!/bin/sh
# Hostile input, second round (issue 29), end to end.  One block per class
# of the issue; each block tries several cases of its class, not one
# example.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold maketrace skewer sniffer infer score importtrace
# expect_err NAME SUBSTRING CMD...: CMD exits 1 or 2 and says SUBSTRING
expect_err() {
    name=$1 want=$2
    shift 2
    "$@" > out 2> err
    rc=$?
    [ $rc -eq 1 ] || [ $rc -eq 2 ] || { cat err; fail "$name: exit $rc, expected 1 or 2"; }
    grep -qF -- "$want" err || { cat err; fail "$name: no \"$want\" in the message"; }
}
"$B/maketrace" -s messages=400 -o t.csv "$PB_ROOT/maketrace/configs/multitier.conf" ||
    fail maketrace
cp t.csv t.orig
"$B/infer" -a nesting -o r.csv t.csv || fail infer
cp r.csv r.orig
J="$PB_ROOT/tests/data/importtrace/irregular.json"
intact() { cmp -s t.csv t.orig || fail "$1 destroyed t.csv"; cmp -s r.csv r.orig || fail "$1 destroyed r.csv"; }

# --- 1. data loss: an output is never an input, whatever its name -------
# through a symbolic link, /dev/stdin, a link to a link; input on stdin
ln -s t.csv l1.csv
ln -s l1.csv l2.csv
for o in l1.csv l2.csv /dev/stdin; do
    for cmd in "skewer -n WS2=+5ms" "sniffer -q" "infer -a nesting" \
               "infer -a nesting -s window=1s" "infer -a nesting --dot" \
               "infer -a nesting --report" "skewer -n WS2=+1ms --print-spec"; do
        case "$cmd" in *--dot|*--report|*--print-spec) oo="$cmd $o" ;; *) oo="$cmd -o $o" ;; esac
        # shellcheck disable=SC2086
        "$B"/$oo < t.csv > /dev/null 2> err
        [ $? -eq 1 ] || { cat err; fail "$oo < t.csv: not refused"; }
        grep -q 'is also an input' err || { cat err; fail "$oo: message"; }
        intact "$oo < t.csv"
    done
    "$B/score" -T r.csv --topn-curve "$o" - < t.csv > /dev/null 2> err
    [ $? -eq 1 ] && grep -q 'is also an input' err || { cat err; fail "score --topn-curve $o < t.csv"; }
    intact "score --topn-curve $o"
done
# the link's target is replaced through a temporary file: the link stays
"$B/skewer" -n WS2=+5ms t.csv > s.ref
ln -s s.out ls.csv   # a link to a file that does not exist yet
"$B/skewer" -n WS2=+5ms -o ls.csv t.csv || fail "skewer -o dangling link"
[ -L ls.csv ] && cmp -s s.out s.ref || fail "-o through a dangling link"
"$B/skewer" -n WS2=+7ms -o ls.csv t.csv || fail "skewer -o link"
[ -L ls.csv ] || fail "-o replaced the link itself"
"$B/skewer" -n WS2=+7ms -o ls.csv nosuch.csv 2> /dev/null && fail "skewer on a missing input"
[ -L ls.csv ] && [ "$(cat s.out)" != "" ] || fail "a failed run emptied the link's target"
ls | grep -q '\.tmp' && fail "temporary files left: $(ls)"
# -o /dev/stdout is the run's own standard output
"$B/skewer" -n WS2=+5ms -o /dev/stdout t.csv > so.csv || fail "-o /dev/stdout"
cmp -s so.csv s.ref || fail "-o /dev/stdout wrote something else"

# files read after the outputs are opened: score --kept, -s callgraph=,
# importtrace's folder members
cp t.csv k.csv; cp k.csv k.orig
expect_err "--kept = --topn-curve" "is also an output" "$B/score" -T t.csv --kept k.csv --topn-curve k.csv r.csv
cmp -s k.csv k.orig || fail "score --kept replaced by --topn-curve"
printf 'C1 WS1 AP1\n' > cg.txt; cp cg.txt cg.orig
for fl in -o --dot --report --export-jaeger; do
    expect_err "callgraph = $fl" "is also an output" "$B/infer" -a joint -s callgraph=cg.txt $fl cg.txt t.csv
    cmp -s cg.txt cg.orig || fail "callgraph file replaced by $fl"
done
mkdir d d/sub
cp "$PB_ROOT/tests/data/importtrace/irregular.json" d/sub/a.json
cp d/sub/a.json a.orig
expect_err "importtrace -o member" "is also an output" "$B/importtrace" -q -o d/sub/a.json d
cmp -s d/sub/a.json a.orig || fail "importtrace replaced a member of its folder"
ln -s sub/a.json d/alias.json
expect_err "importtrace -o member via link" "is also an output" "$B/importtrace" -q -o d/alias.json d
cmp -s d/sub/a.json a.orig || fail "importtrace replaced a member through a link"
# two outputs of one run that are one file
for cmd in "infer -a nesting -o x --dot x" "infer -a nesting -o x --report x" \
           "infer -a nesting --dot x --report ./x" "infer -a nesting -o x --export-jaeger x" \
           "infer -a nesting -o l1x --dot x" "skewer -n WS2=+1ms -o x --print-spec x"; do
    ln -sf x l1x
    echo keep > x
    # shellcheck disable=SC2086
    set -- $cmd
    p=$1; shift
    expect_err "$cmd" "is also another output" "$B/$p" "$@" t.csv
    [ "$(cat x)" = keep ] || fail "$cmd: changed x"
done
# exec: the command inherits no descriptor of infer's beyond 0, 1, 2 (the
# shell's own copies of them aside): not the temporary file of infer's -o
expect_err "exec fds" "exited with status 3" "$B/infer" -a "exec:ls -l /proc/\$\$/fd >&2; exit 3" -o e.res t.csv
grep -- '->' err | grep -v 'pathbench-exec-' && fail "exec: the command inherited descriptors of infer"
[ "$(grep -c -- '->' err)" -ge 3 ] || { cat err; fail "exec: no descriptor listing"; }

# --- 2. loops and unbounded resources: importtrace ---------------------
# symbolic links back into the folder being walked: refused, naming the link
for links in ". " ".. " "../.. " ". ." ; do
    rm -rf lp; mkdir -p lp/a/b; cp "$J" lp/a/b/x.json
    k=0
    for l in $links; do k=$((k + 1)); ln -s "$l" "lp/a/b/up$k"; done
    expect_err "importtrace loop ($links)" "symbolic link loop" timeout 60 "$B/importtrace" -q lp
    grep -q 'lp/a/b/up1' err || { cat err; fail "loop ($links): the link is not named"; }
done
# a small compressed file may not claim memory: white space, zeros, text
# that is not JSON; a tar member of zeros; memory stays small (ulimit)
head -c 90000000 /dev/zero | tr '\0' ' ' | gzip -1 > ws.json.gz
head -c 90000000 /dev/zero | tr '\0' 'x' | gzip -1 > xs.json.gz
head -c 90000000 /dev/zero | gzip -1 > zs.json.gz
mkdir tz; cp zs.json.gz tz/a.json.gz; tar -cf tz.tar -C tz a.json.gz
if [ -z "${PB_SANITIZED:-}" ]; then
    for f in ws.json.gz xs.json.gz zs.json.gz tz.tar; do
        ( ulimit -v 75000 && "$B/importtrace" -q "$f" > /dev/null 2> err )
        [ $? -eq 1 ] || { cat err; fail "importtrace $f: not a clean failure in 75 MB"; }
        grep -q 'out of memory\|cannot allocate' err && { cat err; fail "importtrace $f: ran out of memory"; }
    done
fi
expect_err "ws cap" "more than 50 MiB" "$B/importtrace" -q --max-document 50M ws.json.gz
expect_err "xs first byte" "found 'x'" "$B/importtrace" -q xs.json.gz
expect_err "member of zeros named" "tz.tar:a.json.gz" "$B/importtrace" -q tz.tar
grep -q 'byte 0x00' err || { cat err; fail "tar member of zeros: message"; }
expect_err "max-document usage" "expected a size" "$B/importtrace" -q --max-document 0 "$J"
# a tar header that claims 2^60 bytes: refused before any allocation, named
if command -v python3 > /dev/null 2>&1; then
    python3 - "$J" <<'PY'
import io, sys, tarfile
src = open(sys.argv[1], 'rb').read()
with tarfile.open('big.tar', 'w') as t:
    ti = tarfile.TarInfo('m/a.json'); ti.size = len(src); t.addfile(ti, io.BytesIO(src))
b = bytearray(open('big.tar', 'rb').read())
f = bytearray(12); f[0] = 0x80
for i in range(11): f[11 - i] = ((1 << 60) >> (8 * i)) & 0xff
b[124:136] = f; b[148:156] = b' ' * 8
b[148:156] = ('%06o\0 ' % sum(b[0:512])).encode()
open('big.tar', 'wb').write(b)
PY
    expect_err "lying tar header" "big.tar:m/a.json" "$B/importtrace" -q big.tar
    grep -q 'announces more than' err || { cat err; fail "lying tar header: message"; }
fi

# --- 2b. loops and unbounded resources: algorithms, exec -----------------
# joint: thousands of requests in flight at one instant; nesting: a deep
# chain through two nodes.  Capped, with a warning naming the cap.
awk -v N=1200 'BEGIN { print "id,ts,recv_ts,src,dst,type,callid"; id = 0
    for (k = 0; k < 4; k++) for (i = 0; i < N / 4; i++)
        printf "%d,1.000000,1.000000,%s,%s,%s,\n", id++, substr("ABCB", k + 1, 1),
               substr("BCBA", k + 1, 1), k < 2 ? "call" : "return" }' > same.csv
"$B/infer" -a joint same.csv > /dev/null 2> err || { cat err; fail "joint on one instant"; }
grep -q 'max_candidates=32' err || { cat err; fail "joint: no warning of the candidate cap"; }
"$B/infer" -a joint -s max_candidates=400 same.csv > /dev/null 2> err || fail "joint max_candidates=400"
grep -q 'max_candidates' err && fail "joint: raising the cap did not remove the warning"
awk -v D=3000 'BEGIN { print "id,ts,recv_ts,src,dst,type,callid"; id = 0
    for (i = 0; i < D; i++) { s = i % 2 ? "B" : "A"; d = i % 2 ? "A" : "B"
        printf "%d,%.6f,%.6f,%s,%s,call,%d\n", id++, i * 1e-6, i * 1e-6 + 5e-7, s, d, i + 1 }
    for (i = D - 1; i >= 0; i--) { t = (2 * D - i) * 1e-6; s = i % 2 ? "B" : "A"; d = i % 2 ? "A" : "B"
        printf "%d,%.6f,%.6f,%s,%s,return,%d\n", id++, t, t + 5e-7, d, s, i + 1 } }' > alt.csv
for w in "" "-s window=1s"; do
    # shellcheck disable=SC2086
    "$B/infer" -a nesting -s max_candidates=100 $w alt.csv > alt.res 2> err || { cat err; fail "nesting alt $w"; }
    grep -q 'max_candidates=100' err || { cat err; fail "nesting $w: no warning of the candidate cap"; }
    grep -q '^# warning: nesting: .*max_candidates' alt.res || fail "nesting $w: cap not in the metadata"
done
# exec: a time limit, a bound on what it writes, a reader that looks first
start=$(date +%s)
expect_err "exec timeout" "time limit" "$B/infer" -a "exec:sleep 20" --exec-timeout 1s t.csv
[ $(( $(date +%s) - start )) -lt 15 ] || fail "exec: the time limit did not stop the command"
expect_err "exec output" "--exec-max-output" "$B/infer" -a "exec:head -c 3000000 /dev/zero" --exec-max-output 1M t.csv
expect_err "exec usage" "--exec-timeout" "$B/infer" -a "exec:true" --exec-timeout 30 t.csv
if [ -z "${PB_SANITIZED:-}" ]; then
    ( ulimit -v 200000 && "$B/infer" -a "exec:head -c 400000000 /dev/zero | tr '\0' x" t.csv > /dev/null 2> err )
    [ $? -eq 1 ] && grep -q 'not a result file' err || { cat err; fail "exec: a huge line was buffered"; }
fi

# --- 3. corrupt data: integrity checks, hard links -----------------------
gzip -c < "$J" > g.json.gz
n=$(wc -c < g.json.gz)
for off in $((n - 8)) $((n - 3)) $((n / 2)); do
    cp g.json.gz bad.json.gz
    printf '\377' | dd of=bad.json.gz bs=1 seek=$off conv=notrunc 2> /dev/null
    cmp -s g.json.gz bad.json.gz && continue
    expect_err "gzip flipped at $off" "bad.json.gz" "$B/importtrace" -q bad.json.gz
    # ... inside a tar of it, and inside a tar.gz
    mkdir -p tb; cp bad.json.gz tb/a.json.gz; tar -cf tb.tar -C tb a.json.gz
    expect_err "gzip member flipped at $off" "tb.tar:a.json.gz" "$B/importtrace" -q tb.tar
done
# stored blocks (random bytes do not compress): a flipped byte still inflates
head -c 20000 /dev/urandom | gzip -1 > st.json.gz
n=$(wc -c < st.json.gz)
# the byte written must differ from the random one there (1 time in 256
# the same 'Q' changed nothing and the file was whole): write it inverted
b=$(od -An -tu1 -j $((n / 2)) -N1 st.json.gz | tr -d ' ')
printf "\\$(printf %o $((255 - b)))" | dd of=st.json.gz bs=1 seek=$((n / 2)) conv=notrunc 2> /dev/null
expect_err "gzip stored block" "integrity" "$B/importtrace" -q st.json.gz
head -c 100 g.json.gz > cut.json.gz
expect_err "gzip truncated" "cut.json.gz" "$B/importtrace" -q cut.json.gz
# OTLP: a parentSpanId (Zipkin: parentId) that is not a string is refused,
# never read as "no parent"
for v in 12 true '{"a":1}' '[]'; do
    printf '{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"A"}}]},"scopeSpans":[{"spans":[{"traceId":"t","spanId":"s1","startTimeUnixNano":"1000","endTimeUnixNano":"2000","kind":2},{"traceId":"t","spanId":"s2","parentSpanId":%s,"startTimeUnixNano":"1100","endTimeUnixNano":"1900","kind":3}]}]}]}' "$v" > ot.json
    expect_err "OTLP parentSpanId $v" "parentSpanId" "$B/importtrace" -q ot.json
    printf '[{"traceId":"t","id":"a","name":"x","timestamp":10,"duration":5,"localEndpoint":{"serviceName":"A"},"kind":"SERVER"},{"traceId":"t","id":"b","parentId":%s,"timestamp":11,"duration":2,"localEndpoint":{"serviceName":"B"},"kind":"SERVER"}]' "$v" > zk.json
    expect_err "Zipkin parentId $v" "parentId" "$B/importtrace" -q zk.json
done
# timestamps: what importtrace writes, every reader takes; past that: refused
for st in 9223372035999000 9223372036000000 9223372036854775; do
    printf '{"data":[{"traceID":"t","processes":{"p":{"serviceName":"A"},"q":{"serviceName":"B"}},"spans":[{"traceID":"t","spanID":"a","processID":"p","startTime":%s,"duration":500,"tags":[{"key":"span.kind","value":"server"}]},{"traceID":"t","spanID":"b","processID":"q","startTime":%s,"duration":100,"references":[{"refType":"CHILD_OF","traceID":"t","spanID":"a"}],"tags":[{"key":"span.kind","value":"server"}]}]}]}' $st $st > big.json
    if "$B/importtrace" -q big.json > big.csv 2> err; then
        "$B/infer" -a nesting big.csv > /dev/null 2> err || { cat err; fail "importtrace wrote ts $st that infer refuses"; }
    else
        grep -q 'out of range\|largest timestamp' err || { cat err; fail "importtrace ts $st: message"; }
    fi
done
# joint's call graph file: a typo, names absent, a long line, many names
printf 'C1 WS1 AP1\nC1 WSX2 AP2\n' > cg1.txt
"$B/infer" -a joint -s callgraph=cg1.txt t.csv > /dev/null 2> err || { cat err; fail "callgraph with a typo"; }
grep -q 'WSX2' err || { cat err; fail "callgraph: a name absent from the trace is not warned"; }
printf 'X Y Z\n' > cg2.txt
expect_err "callgraph naming nothing" "allows no call" "$B/infer" -a joint -s callgraph=cg2.txt t.csv
{ printf 'C1 WS1'; i=0; while [ $i -lt 400 ]; do printf ' AP1'; i=$((i + 1)); done; printf ' DB\nC1 WS2 AP2\n'; } > cg3.txt
"$B/infer" -a joint -s callgraph=cg3.txt t.csv > cg3.res 2> err || { cat err; fail "callgraph with a long line"; }
printf 'C1 WS1 AP1 DB\nC1 WS2 AP2\n' > cg4.txt
"$B/infer" -a joint -s callgraph=cg4.txt t.csv > cg4.res 2> /dev/null || fail "callgraph short"
grep -v '^# \(params\|cpu\)' cg3.res > a.x; grep -v '^# \(params\|cpu\)' cg4.res > b.x
cmp -s a.x b.x || fail "callgraph: a line of 400 names is read differently from the same line short"
# numbers that are not numbers, durations below a nanosecond, maxima
for t in nan NaN inf -nan 2,nan; do
    expect_err "score -t $t" "tolerance" "$B/score" -T t.csv -t "$t" r.csv
done
for d in 0.4ns 0.0000000004s 0.0004us; do
    expect_err "duration $d" "out of range" "$B/infer" -a nesting -s hist_lowest=$d --parse-only t.csv
    expect_err "skew_window $d" "out of range" "$B/infer" -a nesting -s skew_window=$d --parse-only t.csv
done
"$B/infer" -a nesting -s skew_window=1000000s --parse-only t.csv 2> err || { cat err; fail "skew_window at its documented maximum refused"; }
"$B/infer" -a nesting -s hist_lowest=1ns --parse-only t.csv 2> err || { cat err; fail "hist_lowest at its documented minimum refused"; }
# a maketrace config that says one thing twice
printf 'messages = 5\nmessages = 7\ntracelet t from A { call B }\n' > r1.conf
printf 'messages = 5\ntracelet t from A weight=2 weight=3 { call B }\n' > r2.conf
printf 'messages = 5\ntracelet t from A { call B delay=1ms,0s delay=2ms,0s }\n' > r3.conf
printf 'messages = 5\ntracelet t from A { call B ret=1ms,0s ret=2ms,0s }\n' > r4.conf
printf 'messages = 5\ntracelet t from A think=1ms..2ms think=3ms..4ms { call B }\n' > r5.conf
for f in r1 r2 r3 r4 r5; do
    expect_err "maketrace $f" "twice" "$B/maketrace" $f.conf
done
expect_err "maketrace -s error" "-s: nosuch" "$B/maketrace" -s nosuch=1 "$PB_ROOT/maketrace/configs/tiny.conf"
# a hard-linked member gives what the unpacked folder gives
rm -rf hl; mkdir hl; cp "$J" hl/a.json; ln hl/a.json hl/b.json
tar -cf hl.tar -C hl a.json b.json
"$B/importtrace" -q hl > hl.dir.csv || fail "importtrace folder with a hard link"
"$B/importtrace" -q hl.tar > hl.tar.csv || fail "importtrace tar with a hard link"
cmp -s hl.dir.csv hl.tar.csv || fail "a hard-linked tar member changed the trace"
expect_err "importtrace ''" "empty" "$B/importtrace" -q "$J" ''
[ ! -s out ] || fail "importtrace '' wrote a trace"

# --- 4. messages -----------------------------------------------------------
head -c 5000 /dev/zero > nul.json
expect_err "NUL stream" "NUL" "$B/importtrace" -q nul.json
grep -q 'empty;' err && fail "a NUL stream is called empty"
# JSON lines: an error names the line of its document
{ printf '{"resourceSpans":[]}\n{"resourceSpans":[]}\n'
  printf '{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"spans":[{"traceId":"t","spanId":"s"}]}]}]}\n'; } > l.jsonl
expect_err "JSON lines" "l.jsonl:3:" "$B/importtrace" -q l.jsonl

# score names the one field where the truth differs
"$B/maketrace" -s messages=400 -s call_delay=51ms,5ms -o t2.csv "$PB_ROOT/maketrace/configs/multitier.conf" || fail maketrace
expect_err "another trace" '"call_delay=51ms,5ms"' "$B/score" -T t2.csv r.csv
# a kept-trace message missing from the truth: its line
"$B/sniffer" -q -p 0.2 t.csv > k1.csv || fail sniffer
awk -F, 'BEGIN { OFS = "," } /^#/ || /^id/ { print; next } { n++ } n == 9 { $1 = 99999 } { print }' k1.csv > k2.csv
"$B/infer" -a nesting k2.csv > rk2.csv 2> /dev/null || fail "infer k2"
ln=$(grep -n '^99999,' k2.csv | cut -d: -f1)
expect_err "kept line" "k2.csv:$ln:" "$B/score" -T t.csv --kept k2.csv rk2.csv
# empty file names: refused at once, naming the flag
for cmd in "infer -a nesting -o" "infer -a nesting --dot" "infer -a nesting --report" \
           "infer -a nesting --export-jaeger" "skewer -n WS2=+1ms -o" "skewer -n WS2=+1ms -f" \
           "sniffer -q -o" "maketrace -o" "importtrace -q -o"; do
    # shellcheck disable=SC2086
    set -- $cmd
    p=$1; shift
    expect_err "$cmd ''" "-" "$B/$p" "$@" '' t.csv
    grep -q 'empty' err || { cat err; fail "$cmd '': message"; }
done
expect_err "score --kept ''" "--kept" "$B/score" -T t.csv --kept '' r.csv
expect_err "score --truth ''" "--truth" "$B/score" -T '' r.csv

exit 0

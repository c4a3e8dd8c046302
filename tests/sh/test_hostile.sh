#!/bin/sh
# Hostile input (issue 16), end to end: deep paths run on a 1 MB stack,
# corrupt or mismatched files are refused with a located message, the
# perturbers check what the loading reader checks.  Each block names the
# class of the issue it covers.
set -u
for p in maketrace skewer sniffer infer score importtrace; do
    [ -x "$PB_BIN/$p" ] || exit 77
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }
# expect_err NAME SUBSTRING CMD...: CMD exits 1 and says SUBSTRING on stderr
expect_err() {
    name=$1 want=$2
    shift 2
    "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ $rc -eq 1 ] || { cat "$tmp/err"; fail "$name: exit $rc, expected 1"; }
    grep -qF -- "$want" "$tmp/err" || { cat "$tmp/err"; fail "$name: no \"$want\""; }
}
conf="$PB_ROOT/maketrace/configs/multitier.conf"

# --- 16.1 deep paths: a call chain 50,000 levels deep, on a 1 MB stack ----
depth=50000
awk -v D=$depth 'BEGIN {
    print "id,ts,recv_ts,src,dst,type,callid,path,cause"; id = 0
    for (i = 0; i < D; i++) {
        printf "%d,%.6f,%.6f,N%d,N%d,call,%d,1,%s\n", id, i*1e-6, i*1e-6+5e-7, i, i+1, i+1, (i ? id-1 : ""); id++ }
    for (i = D-1; i >= 0; i--) { t = (2*D-i)*1e-6
        printf "%d,%.6f,%.6f,N%d,N%d,return,%d,1,%d\n", id, t, t+5e-7, i+1, i, i+1, id-1; id++ }
}' > "$tmp/deep.csv"
(
    ulimit -s 1024 || exit 77
    for view in call message path; do
        "$PB_BIN/infer" --algo truth -s view=$view "$tmp/deep.csv" > "$tmp/deep.$view.r" ||
            fail "deep: infer truth $view"
        "$PB_BIN/score" --truth "$tmp/deep.csv" "$tmp/deep.$view.r" > "$tmp/deep.s" ||
            fail "deep: score $view"
        [ "$(col true_patterns "$tmp/deep.s")" = 1 ] && [ "$(col pattern_fp "$tmp/deep.s")" = 0 ] ||
            { cat "$tmp/deep.s"; fail "deep: $view scored wrong"; }
    done
    for algo in nesting linking convolution; do
        "$PB_BIN/infer" --algo $algo "$tmp/deep.csv" > "$tmp/deep.$algo.r" 2> "$tmp/err" ||
            { cat "$tmp/err"; fail "deep: infer $algo"; }
        "$PB_BIN/score" --truth "$tmp/deep.csv" "$tmp/deep.$algo.r" > /dev/null 2> "$tmp/err" ||
            { cat "$tmp/err"; fail "deep: score $algo"; }
    done
    # nesting finds the one deep path, with its report, in bounded memory
    # (its report was O(depth^2) bytes: 2.5 GB here); ASan reserves more
    # address space than any limit would allow
    if [ -z "${PB_SANITIZED:-}" ]; then
        ( ulimit -v 1500000 && "$PB_BIN/infer" --algo nesting --report "$tmp/rep.txt" \
              "$tmp/deep.csv" > "$tmp/deep.n.r" ) || fail "deep: nesting in 1.5 GB"
        grep -q "(depth $((depth - 1)))" "$tmp/rep.txt" || fail "deep: nesting report lacks the deepest row"
    fi
    # a Jaeger chain of 10,000 nested RPCs through importtrace
    awk -v D=10000 'BEGIN {
        printf "{\"data\": [{\"traceID\": \"t1\", \"processes\": {\"pA\": {\"serviceName\": \"A\"}, \"pB\": {\"serviceName\": \"B\"}}, \"spans\": [\n"
        for (i = 0; i < D; i++) {
            p = (i % 2) ? "pB" : "pA"
            ref = (i == 0) ? "" : sprintf("{\"refType\": \"CHILD_OF\", \"traceID\": \"t1\", \"spanID\": \"c%d\"}", i - 1)
            printf "%s{\"traceID\": \"t1\", \"spanID\": \"s%d\", \"operationName\": \"op\", \"references\": [%s], \"startTime\": %d, \"duration\": %d, \"tags\": [{\"key\": \"span.kind\", \"type\": \"string\", \"value\": \"server\"}], \"processID\": \"%s\"}", (i ? ",\n" : ""), i, ref, 1000 + 4*i, 8*(D-i)+1, p
            if (i + 1 < D)
                printf ",\n{\"traceID\": \"t1\", \"spanID\": \"c%d\", \"operationName\": \"op\", \"references\": [{\"refType\": \"CHILD_OF\", \"traceID\": \"t1\", \"spanID\": \"s%d\"}], \"startTime\": %d, \"duration\": %d, \"tags\": [{\"key\": \"span.kind\", \"type\": \"string\", \"value\": \"client\"}], \"processID\": \"%s\"}", i, i, 1000 + 4*i + 1, 8*(D-i)-2, p
        }
        printf "\n]}]}\n"
    }' > "$tmp/deep.json"
    "$PB_BIN/importtrace" "$tmp/deep.json" > "$tmp/deepj.csv" 2> "$tmp/err" ||
        { cat "$tmp/err"; fail "deep: importtrace"; }
    "$PB_BIN/infer" --algo truth "$tmp/deepj.csv" > "$tmp/deepj.r" || fail "deep json: infer"
    "$PB_BIN/score" --truth "$tmp/deepj.csv" "$tmp/deepj.r" > "$tmp/deepj.s" || fail "deep json: score"
    [ "$(col true_patterns "$tmp/deepj.s")" = 1 ] || fail "deep json: not one pattern"
    # a maketrace tracelet nested 150 calls deep
    {
        echo "messages = 400"
        printf 'tracelet t from A {'
        i=0; while [ $i -lt 150 ]; do printf ' call N%d {' $i; i=$((i + 1)); done
        i=0; while [ $i -lt 150 ]; do printf ' }'; i=$((i + 1)); done
        echo ' }'
    } > "$tmp/deep.conf"
    "$PB_BIN/maketrace" "$tmp/deep.conf" > "$tmp/deepm.csv" 2> "$tmp/err" ||
        { cat "$tmp/err"; fail "deep: maketrace"; }
    exit 0
) || exit 1

# --- 16.3 maketrace let expansion --------------------------------------
{
    echo "let v0 = abcdefghijklmnopqrst"
    i=1; while [ $i -le 41 ]; do echo "let v$i = \$v$((i - 1))\$v$((i - 1))"; i=$((i + 1)); done
    echo "messages = 5"
    echo "tracelet t from A { call B }"
} > "$tmp/bomb.conf"
expect_err "let bomb" "bomb.conf:13:" "$PB_BIN/maketrace" "$tmp/bomb.conf"
grep -q "longer than 65536 bytes" "$tmp/err" || fail "let bomb: no size in the message"

# --- 16.4 option ranges: the costly ends are out of range --------------
"$PB_BIN/maketrace" "$conf" -D messages=600 -o "$tmp/t.csv" || fail maketrace
"$PB_BIN/infer" --algo nesting -s hist_bins=1000000 "$tmp/t.csv" > /dev/null 2>&1 &&
    fail "nesting hist_bins=1e6 accepted"
"$PB_BIN/infer" --algo nesting -s smooth_width=1000 "$tmp/t.csv" > /dev/null 2>&1 &&
    fail "nesting smooth_width=1000 accepted"
"$PB_BIN/infer" --algo nesting -s hist_bins=100000 -s smooth=1 -s smooth_width=100 \
    "$tmp/t.csv" > /dev/null || fail "nesting at the top of its ranges"

# --- 16.6 NUL bytes, 16.15 byte-order mark, 16.16 comments ---------------
printf 'ts,src,dst\n0.1,A\000X,B\n' > "$tmp/nul.csv"
expect_err "NUL in infer" "nul.csv:2:2: a NUL byte" "$PB_BIN/infer" --algo truth "$tmp/nul.csv"
expect_err "NUL in skewer" "nul.csv:2:2: a NUL byte" "$PB_BIN/skewer" -n A=+1ms "$tmp/nul.csv"
expect_err "NUL in sniffer" "nul.csv:2:2: a NUL byte" "$PB_BIN/sniffer" "$tmp/nul.csv"
printf 'A=+1ms\nB=+2\000ms\n' > "$tmp/nul.spec"
"$PB_BIN/skewer" -f "$tmp/nul.spec" "$tmp/nul.csv" > /dev/null 2> "$tmp/err" && fail "NUL in a clock spec accepted"
grep -q "nul.spec:2:5: a NUL byte" "$tmp/err" || { cat "$tmp/err"; fail "NUL in a clock spec: no located message"; }
printf '# generator=x\n0.1 CALL_SENT A\000X B 1\n' > "$tmp/nul.txt"
expect_err "NUL in P5" "nul.txt:2:1: a NUL byte" "$PB_BIN/infer" --algo nesting "$tmp/nul.txt"
printf 'let a = x\000y\nmessages = 5\ntracelet t from A { call B }\n' > "$tmp/nul.conf"
expect_err "NUL in a config" "nul.conf:1:" "$PB_BIN/maketrace" "$tmp/nul.conf"
"$PB_BIN/infer" --algo truth "$tmp/t.csv" > "$tmp/r.csv" || fail infer
tr 'A' '\000' < "$tmp/r.csv" > "$tmp/nul.result"
cmp -s "$tmp/r.csv" "$tmp/nul.result" && fail "no A in the result"
expect_err "NUL in a result" "a NUL byte" "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/nul.result"
json="$PB_ROOT/tests/data/importtrace/two.json"
if [ -f "$json" ]; then
    awk 'NR == 4 { sub(/GET/, "G\001ET") } { print }' "$json" | tr '\001' '\000' > "$tmp/nul.json"
    expect_err "NUL in JSON" "nul.json:4:" "$PB_BIN/importtrace" "$tmp/nul.json"
    printf '\357\273\277' > "$tmp/bom.json"
    cat "$json" >> "$tmp/bom.json"
    "$PB_BIN/importtrace" "$tmp/bom.json" > /dev/null 2>&1 || fail "BOM: importtrace"
fi
printf '\357\273\277' > "$tmp/bom.csv"
cat "$tmp/t.csv" >> "$tmp/bom.csv"
"$PB_BIN/infer" --algo truth "$tmp/bom.csv" > "$tmp/bom.r" || fail "BOM: infer"
"$PB_BIN/score" --truth "$tmp/bom.csv" "$tmp/r.csv" > /dev/null || fail "BOM: score"
awk 'NR == 5 { print "# late comment" } { print }' "$tmp/t.csv" > "$tmp/late.csv"
grep -q "^# late" "$tmp/late.csv" || fail "no late comment"
expect_err "comment after the header" "allowed only before the header" \
    "$PB_BIN/infer" --algo truth "$tmp/late.csv"
printf '\357\273\277' > "$tmp/bom.conf"
cat "$PB_ROOT/maketrace/configs/tiny.conf" >> "$tmp/bom.conf"
"$PB_BIN/maketrace" "$tmp/bom.conf" > /dev/null || fail "BOM: maketrace"
printf '\357\273\277' > "$tmp/bom.result"
cat "$tmp/r.csv" >> "$tmp/bom.result"
"$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/bom.result" > /dev/null || fail "BOM: score"

# --- 16.9 a cut result file is refused; 16.11 one message, two instances -
n=$(wc -l < "$tmp/r.csv")
k=1
while [ $k -lt "$n" ]; do
    head -n $k "$tmp/r.csv" > "$tmp/cut.r"
    "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/cut.r" > /dev/null 2> "$tmp/err" &&
        fail "a result cut after line $k of $n was scored"
    k=$((k + 7))
done
grep -q "no end line" "$tmp/err" || { cat "$tmp/err"; fail "cut: no word of the end line"; }
# the first message of the table once more, in the last row's instance
# (the last row's other fields, parent and confidence, kept)
awk -F, '/^# table=assignment/ { a = 1 } a && /^[0-9]/ { if (!first) first = $1; last = $0 }
         /^# end / { sub(/^[0-9]*/, first, last); print last
                     split($0, f, "assignments="); print f[1] "assignments=" f[2] + 1; next } { print }' \
    "$tmp/r.csv" > "$tmp/twice.r"
expect_err "message in two instances" "expected one instance per message" \
    "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/twice.r"

# --- 16.10 a result from another trace is refused ------------------------
"$PB_BIN/maketrace" "$conf" -D messages=600 -s 99 -o "$tmp/t99.csv" || fail maketrace99
expect_err "other seed" "inferred from another trace" "$PB_BIN/score" --truth "$tmp/t99.csv" "$tmp/r.csv"
grep -q "seed=99" "$tmp/err" || fail "other seed: the message does not name the seeds"
"$PB_BIN/maketrace" "$conf" -D messages=700 -o "$tmp/t700.csv" || fail maketrace700
expect_err "other length" "inferred from another trace" "$PB_BIN/score" --truth "$tmp/t700.csv" "$tmp/r.csv"
# the same metadata, ids and count, one node renamed: only the
# fingerprint of the messages tells the two traces apart
sed 's/,AUTH,/,AUTH2,/g' "$tmp/t.csv" > "$tmp/t_other.csv"
cmp -s "$tmp/t.csv" "$tmp/t_other.csv" && fail "no AUTH in the trace"
"$PB_BIN/infer" --algo truth "$tmp/t_other.csv" > "$tmp/r_other.csv" || fail "infer t_other"
n=$(grep -c '^[0-9]' "$tmp/t.csv")
expect_err "other trace, same metadata" "inferred from a trace of $n messages" \
    "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/r_other.csv"
# skewed and sniffed copies are still scored against their original
"$PB_BIN/skewer" -n WS2=+5ms "$tmp/t.csv" | "$PB_BIN/sniffer" --loss 0.2 --quiet > "$tmp/k.csv" ||
    fail "skewer | sniffer"
"$PB_BIN/infer" --algo nesting "$tmp/k.csv" > "$tmp/rk.csv" || fail "infer sniffed"
"$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/rk.csv" > /dev/null 2> "$tmp/err" ||
    { cat "$tmp/err"; fail "a sniffed copy was refused"; }
# a thinned copy without the sniffer's word is refused
grep -v "^# sniffer" "$tmp/k.csv" > "$tmp/k2.csv"
"$PB_BIN/infer" --algo nesting "$tmp/k2.csv" > "$tmp/rk2.csv" || fail "infer k2"
expect_err "thinned without a word" "inferred from a trace of" \
    "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/rk2.csv"

# --- 16.12 duplicate ids in the streaming readers; 16.13 skewer names its file
printf 'id,ts,src,dst\n1,0.1,A,B\n2,0.2,B,C\n1,0.3,C,D\n' > "$tmp/dup.csv"
expect_err "skewer dup" "dup.csv:4:1: field 1 (id): duplicate message id 1" \
    "$PB_BIN/skewer" -n A=+1ms "$tmp/dup.csv"
expect_err "sniffer dup" "dup.csv:4:1: field 1 (id): duplicate message id 1" \
    "$PB_BIN/sniffer" --loss 0.5 "$tmp/dup.csv"
printf 'id,ts,src,dst\n1,0.1,A,B\n2,0.2,B,C\n' > "$tmp/neg.csv"
expect_err "skewer names its input" "neg.csv:3:" "$PB_BIN/skewer" -n B=-1s "$tmp/neg.csv"

# --- 16.17 ignored columns do not count toward the 64-field limit --------
grep -v '^#' "$tmp/t.csv" |
    awk '{ s = ""; for (i = 0; i < 80; i++) s = s (NR == 1 ? ",x" i : ","); print $0 s }' > "$tmp/wide.csv"
expect_err "wide without ignore" "unknown column" "$PB_BIN/infer" --algo truth "$tmp/wide.csv"
"$PB_BIN/infer" --algo truth --ignore-unknown-columns "$tmp/wide.csv" > "$tmp/wide.r" 2> "$tmp/err" ||
    { cat "$tmp/err"; fail "80 ignored columns"; }
exit 0

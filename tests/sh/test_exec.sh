#!/bin/sh
# infer --algo exec:COMMAND: the example external algorithm (Python FCFS,
# standard library only) gives the same instances as the C fcfs, with and
# without call ids (-s reaches it); the command sees no truth columns and
# gets its parameters in the environment; a failing command, a malformed
# result and an id that is not in the trace are clear errors.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in maketrace infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
command -v python3 > /dev/null 2>&1 || { echo "no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
# the partition of message ids into instances, one sorted line per instance
parts() {
    awk -F, '/^# table=assignment/ { p = 1; h = 1; next } /^#/ { p = 0; next }
             p && h { h = 0; next } p { print $2, $1 }' "$1" |
        sort -k1,1 -k2,2n | awk '$1 != k { if (NR > 1) print s; k = $1; s = "" } { s = s " " $2 } END { print s }' |
        sort
}
# the score row without the algo column and the link columns (the C
# baselines write parents, the Python example does not)
row() { "$PB_BIN/score" --truth "$tmp/t.csv" "$1" |
        awk -F, 'NR==1 { for (i = 1; i <= NF; i++) if ($i ~ /^links?_/) skip[i] = 1 }
                 NR==2 { $1 = ""; for (i in skip) $i = ""; print }' OFS=,; }

"$PB_BIN/maketrace" "$PB_ROOT/maketrace/configs/multitier.conf" -s 4 -D duration=10s > "$tmp/t.csv" ||
    fail maketrace
PY="python3 $PB_ROOT/examples/fcfs.py"
for cid in 1 0; do
    "$PB_BIN/infer" --algo fcfs -s callids=$cid -o "$tmp/c.res" "$tmp/t.csv" 2>/dev/null || fail "fcfs"
    "$PB_BIN/infer" --algo "exec:$PY" -s callids=$cid -o "$tmp/p.res" "$tmp/t.csv" 2> "$tmp/p.err" ||
        { cat "$tmp/p.err"; fail "exec fcfs.py"; }
    parts "$tmp/c.res" > "$tmp/c.parts"; parts "$tmp/p.res" > "$tmp/p.parts"
    [ "$(wc -l < "$tmp/c.parts")" -gt 10 ] || fail "too few instances"
    cmp -s "$tmp/c.parts" "$tmp/p.parts" || fail "callids=$cid: Python FCFS and C fcfs differ"
    [ "$(row "$tmp/c.res")" = "$(row "$tmp/p.res")" ] || fail "callids=$cid: scores differ"
done
# pathbench's own metadata: the command, its status, the input fingerprint
grep -q '^# algo=exec:fcfs.py view=call ' "$tmp/p.res" || fail "no algo=exec: line"
grep -q "^# exec: command=$PY\$" "$tmp/p.res" || fail "no command line"
grep -q '^# exec_status=0 .*input_fnv1a64=[0-9a-f]\{16\}' "$tmp/p.res" || fail "no status/fingerprint"
grep -q '^# fingerprint: messages=' "$tmp/p.res" || fail "no trace fingerprint"

# what the command sees: no truth, parameters in the environment
HEAD='printf "# pathbench-result 1\n# algo=x view=call\n# table=patterns\nrank,pattern,count,score,max_prob,total_latency,mean_latency,node_latency,edge_delay\n"'
EMPTY="$HEAD; echo '# end patterns=0 assignments=0'"
"$PB_BIN/infer" --algo "exec:cat > $tmp/seen.csv; env | grep ^PB_PARAM > $tmp/env; $EMPTY" \
    -s alpha=1 -s beta=two "$tmp/t.csv" > "$tmp/e.res" || fail "exec with an empty result"
head -n 5 "$tmp/seen.csv" | grep -v '^#' | head -n 1 | grep -q -e path -e cause && fail "truth reached the command"
[ "$(grep -vc '^#' "$tmp/seen.csv")" -eq "$(grep -vc '^#' "$tmp/t.csv")" ] || fail "rows lost"
grep -qx 'PB_PARAM_alpha=1' "$tmp/env" || fail "PB_PARAM_alpha missing"
grep -qx 'PB_PARAMS=alpha=1 beta=two' "$tmp/env" || fail "PB_PARAMS missing"

# a sniffed (thinned) trace: the result carries the trace's metadata, so
# score accepts it against the whole truth, as for a built-in algorithm
if [ -x "$PB_BIN/sniffer" ]; then
    "$PB_BIN/sniffer" --quiet --loss 0.1 --seed 3 "$tmp/t.csv" > "$tmp/s.csv" || fail "sniffer"
    "$PB_BIN/infer" --algo "exec:python3 $PB_ROOT/examples/fcfs.py" "$tmp/s.csv" > "$tmp/s.res" || fail "exec on a sniffed trace"
    grep -q '^# trace: sniffer: ' "$tmp/s.res" || fail "exec result without the trace's sniffer line"
    "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/s.res" > /dev/null || fail "score refused exec's result on a sniffed trace"
fi

# failures
"$PB_BIN/infer" --algo 'exec:echo boom >&2; exit 3' "$tmp/t.csv" > /dev/null 2> "$tmp/f.err" && fail "exit 3 accepted"
grep -q 'exited with status 3' "$tmp/f.err" && grep -q boom "$tmp/f.err" || { cat "$tmp/f.err"; fail "status or stderr not reported"; }
"$PB_BIN/infer" --algo 'exec:echo garbage' "$tmp/t.csv" > /dev/null 2> "$tmp/g.err" && fail "garbage accepted"
grep -q 'output of exec:echo garbage' "$tmp/g.err" || { cat "$tmp/g.err"; fail "bad result not reported"; }
"$PB_BIN/infer" --algo "exec:$HEAD; printf '1,A>B,1,1,1,,,,\n# table=assignment\nid,instance,rank\n999999999,0,1\n# end patterns=1 assignments=1\n'" \
    "$tmp/t.csv" > /dev/null 2> "$tmp/i.err" && fail "unknown id accepted"
grep -q 'message id 999999999 is not in the trace' "$tmp/i.err" || { cat "$tmp/i.err"; fail "unknown id not reported"; }
"$PB_BIN/infer" --algo 'exec:' "$tmp/t.csv" > /dev/null 2>&1; [ $? -eq 2 ] || fail "empty command: expected usage error 2"
# a result cut short (no end line) is refused, as score refuses it
"$PB_BIN/infer" --algo "exec:$HEAD" "$tmp/t.csv" > /dev/null 2> "$tmp/x.err" && fail "a cut result was accepted"
grep -q 'no end line' "$tmp/x.err" || { cat "$tmp/x.err"; fail "cut result not reported"; }
exit 0

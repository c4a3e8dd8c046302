#!/bin/sh
# sniffer end to end: an unbounded rate drops nothing; the hand-worked
# burst drops exactly the messages worked out by hand; the reported drop
# count equals the rows missing; kept rows are unchanged; same seed, same
# output; several boxes; the rate search; bad arguments named in errors.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
N="$PB_BIN/sniffer"
[ -x "$N" ] || { echo "no $N"; exit 77; }
D="$PB_ROOT/tests/data/perturb"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
rows() { grep -v '^#' "$1"; }
meta() { sed -n "s/^# sniffer: messages=.* $1=\([0-9.]*\).*/\1/p" "$2"; }

# a bursty synthetic trace: 4000 messages, bursts of 20 within 1 ms every
# 50 ms, among nodes N0..N4, with truth columns
awk 'BEGIN { print "# generator=awk bursts"; print "id,ts,recv_ts,src,dst,type,callid,path,cause";
     id = 1; for (b = 0; b < 200; b++) for (k = 0; k < 20; k++) {
        t = 1 + b * 0.05 + k * 0.00005;
        printf "%d,%.9f,%.9f,N%d,N%d,msg,,%d,\n", id, t, t + 0.001, k % 5, (k + 1) % 5, b; id++ } }' \
    >"$tmp/t.csv"
rows "$tmp/t.csv" >"$tmp/t.rows"

# 1. unbounded rate (the default) drops nothing and changes nothing
"$N" "$tmp/t.csv" >"$tmp/o" 2>"$tmp/e" || fail "sniffer failed"
rows "$tmp/o" | cmp -s - "$tmp/t.rows" || fail "unbounded rate changed the trace"
grep -q '^# generator=awk bursts' "$tmp/o" || fail "input metadata not kept"
[ "$(meta dropped "$tmp/o")" = 0 ] || fail "unbounded rate reports drops"
grep -q 'dropped 0 of 4000 messages' "$tmp/e" || fail "stderr summary: $(cat "$tmp/e")"

# 2. the hand-worked burst (rate 1000/s, queue 2): see burst-r1000-q2.csv
"$N" -s rate=1000 -s queue=2 "$D/burst.csv" >"$tmp/b" 2>"$tmp/e" || fail "burst failed"
diff "$tmp/b" "$D/burst-r1000-q2.csv" || fail "burst: not the hand-worked drops"
grep -q 'dropped 4 of 9 messages (drop rate 0.444444)' "$tmp/e" || fail "burst stderr: $(cat "$tmp/e")"

# 3. drop count = rows missing; kept rows unchanged and in order; for the
#    queue, random and bursty losses and several boxes
for args in "-r 5000 --queue 8" "-p 0.3 -s seed=3" "-s ge_p=0.05 --ge-r 0.2 -s seed=9" \
            "--sniffer N0,N1;rate=4000;queue=4 --sniffer N3;loss=0.5"; do
    # shellcheck disable=SC2086
    "$N" $args "$tmp/t.csv" >"$tmp/o" 2>"$tmp/e" || fail "sniffer $args failed"
    kept=$(rows "$tmp/o" | tail -n +2 | wc -l)
    dropped=$(meta dropped "$tmp/o")
    [ -n "$dropped" ] || fail "no drop count in metadata for $args"
    [ "$dropped" -gt 0 ] || fail "$args dropped nothing"
    [ $((kept + dropped)) -eq 4000 ] || fail "$args: kept $kept + dropped $dropped != 4000"
    grep -q "dropped $dropped of 4000" "$tmp/e" || fail "$args: stderr count differs"
    # every kept row is an input row, in input order
    rows "$tmp/o" | awk 'NR == FNR { want[$0] = NR; next }
        !($0 in want) { print "changed row: " $0; bad = 1 }
        ($0 in want) { if (want[$0] < last) { print "out of order: " $0; bad = 1 }; last = want[$0] }
        END { exit bad }' "$tmp/t.rows" - || fail "$args changed or reordered rows"
    # same seed, same output
    # shellcheck disable=SC2086
    "$N" $args "$tmp/t.csv" 2>/dev/null | cmp -s - "$tmp/o" || fail "$args: not deterministic"
done
"$N" -p 0.3 -s 3 "$tmp/t.csv" >"$tmp/o3" 2>/dev/null
"$N" -p 0.3 -s 4 "$tmp/t.csv" 2>/dev/null | cmp -s - "$tmp/o3" && fail "seed ignored"
# the last run had boxes on N0,N1 and on N3: every message (N0>N1, N1>N2,
# N2>N3, N3>N4, N4>N0) touches one of them, so none is uncovered
[ "$(meta uncovered "$tmp/o")" = 0 ] || fail "uncovered messages where every one is seen"
"$N" --sniffer N0 "$tmp/t.csv" >"$tmp/o" 2>/dev/null
# N0 sends k%5==0 and receives k%5==4: 2 of every 5 messages are seen
[ "$(meta uncovered "$tmp/o")" = 2400 ] || fail "one box on N0 should leave 2400 uncovered"

# 4. --target-drop: the smallest rate giving drop rate <= R
"$N" --queue 4 --target-drop 0 "$D/burst.csv" >"$tmp/o" 2>"$tmp/e" || fail "target-drop failed"
rate=$(sed -n 's/^# sniffer: target_drop=0 found rate=\([0-9.e+]*\)$/\1/p' "$tmp/o")
awk -v r="$rate" 'BEGIN { exit !(r >= 2000 && r <= 2000.01) }' ||
    fail "target-drop 0 with queue 4 should find 2000/s, got '$rate'"
[ "$(meta dropped "$tmp/o")" = 0 ] || fail "target-drop 0 left drops"
"$N" --target-drop 0.05 "$tmp/t.csv" >"$tmp/o" 2>/dev/null || fail "target-drop 0.05 failed"
awk -v r="$(meta drop_rate "$tmp/o")" 'BEGIN { exit !(r <= 0.05 && r > 0.03) }' ||
    fail "target-drop 0.05 gave drop rate $(meta drop_rate "$tmp/o")"
"$N" --target-drop 0.05 "$tmp/t.csv" 2>/dev/null | cmp -s - "$tmp/o" || fail "target-drop not deterministic"

# 5. bad arguments: clear errors naming the argument, exit 2
"$N" --queue 0 "$D/burst.csv" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "queue 0 accepted"
grep -q -- '--queue 0' "$tmp/e" || fail "queue 0 message: $(cat "$tmp/e")"
"$N" -r -5 "$D/burst.csv" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "negative rate accepted"
grep -q -- '--rate -5' "$tmp/e" || fail "negative rate message: $(cat "$tmp/e")"
"$N" -r fast "$D/burst.csv" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "malformed rate accepted"
grep -q -- '--rate fast' "$tmp/e" || fail "malformed rate message"
"$N" -p 1.5 "$D/burst.csv" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "loss 1.5 accepted"
"$N" --target-drop 2 "$D/burst.csv" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "target 2 accepted"
grep -q -- '--target-drop 2' "$tmp/e" || fail "target message"
"$N" --sniffer 'A;queue=0' "$D/burst.csv" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "box queue 0 accepted"
grep -q -- '--sniffer A' "$tmp/e" || fail "box option message: $(cat "$tmp/e")"
"$N" --sniffer 'A;speed=3' "$D/burst.csv" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "unknown box option accepted"
"$N" --sniffer 'A,,B' "$D/burst.csv" >/dev/null 2>"$tmp/e"; [ $? -eq 2 ] || fail "empty node accepted"
"$N" --sniffer 'A,NOSUCH' "$D/burst.csv" >/dev/null 2>"$tmp/e" || fail "unknown node should not be an error"
grep -q 'warning: node "NOSUCH"' "$tmp/e" || fail "unknown node warning missing"
printf 'id,ts,src,dst\n1,1.0,A,B\n2,x,A,B\n' >"$tmp/bad.csv"
"$N" "$tmp/bad.csv" >/dev/null 2>"$tmp/e" && fail "bad trace accepted"
grep -q 'bad.csv:3:' "$tmp/e" || fail "bad trace message should name line 3: $(cat "$tmp/e")"

# 6. composes: skewer | sniffer
if [ -x "$PB_BIN/skewer" ]; then
    "$PB_BIN/skewer" -n N1=+2ms "$tmp/t.csv" | "$N" -r 20000 >"$tmp/o" 2>/dev/null ||
        fail "skewer | sniffer failed"
    [ "$(grep -c '^# skewer:' "$tmp/o")" -eq 1 ] || fail "pipeline lost the skewer line"
fi
# ... and the lossy trace, whose kept rows may name dropped causes, is
# accepted by infer (the DESIGN pipeline maketrace | skewer | sniffer | infer)
if [ -x "$PB_BIN/infer" ] && [ -x "$PB_BIN/maketrace" ] && [ -x "$PB_BIN/skewer" ] &&
   [ -f "$PB_ROOT/maketrace/configs/multitier.conf" ]; then
    "$PB_BIN/maketrace" -D duration=20s "$PB_ROOT/maketrace/configs/multitier.conf" |
        "$PB_BIN/skewer" -n WS2=+5ms | "$N" -p 0.1 -s 2 2>/dev/null |
        "$PB_BIN/infer" --algo nesting >"$tmp/r" || fail "maketrace | skewer | sniffer | infer failed"
    grep -q 'algo=nesting' "$tmp/r" || fail "no result from the pipeline"
fi
exit 0

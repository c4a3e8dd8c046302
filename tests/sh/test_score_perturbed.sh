#!/bin/sh
# The truth comes from the unperturbed trace: a result inferred from a
# skewed copy is matched by id, finds every pattern and instance, and shows
# the skew only as latency error.
set -u
for p in maketrace skewer infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
conf="$PB_ROOT/maketrace/configs/multitier.conf"
[ -f "$conf" ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }

"$PB_BIN/maketrace" "$conf" -D messages=1500 -o "$tmp/t.csv" || fail maketrace
"$PB_BIN/skewer" -n WS2=+20ms "$tmp/t.csv" > "$tmp/k.csv" || fail skewer
cmp -s "$tmp/t.csv" "$tmp/k.csv" && fail "skewer changed nothing"
"$PB_BIN/infer" --algo truth "$tmp/k.csv" > "$tmp/r.csv" || fail infer
"$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/r.csv" > "$tmp/s.csv" || fail score
for k in pattern_fp pattern_fn instance_fp instance_fn messages_wrong; do
    [ "$(col $k "$tmp/s.csv")" = 0 ] || { cat "$tmp/s.csv"; fail "$k not 0"; }
done
awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{exit !($(c["latency_error_max"]) > 0.05)}' "$tmp/s.csv" ||
    { cat "$tmp/s.csv"; fail "20 ms of skew left no latency error"; }
# scored against the skewed copy itself, the latencies agree again
"$PB_BIN/score" --truth "$tmp/k.csv" "$tmp/r.csv" > "$tmp/s2.csv" || fail score2
awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{exit !($(c["latency_error_max"]) < 1e-6)}' "$tmp/s2.csv" ||
    { cat "$tmp/s2.csv"; fail "latency error against its own trace"; }
exit 0

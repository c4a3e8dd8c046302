#!/bin/sh
# Properties of the precise tracers on maketrace's thread models (issue
# 23): on every model trace whose immediacy (maketrace --stats) is 1,
# borderpatrol is exact; on pool-thread traces without hand-off, vpath's
# paper rule is exact at every load; renaming threads and connections
# changes no score.
set -u
MT="$PB_BIN/maketrace"
CONF="$PB_ROOT/maketrace/configs"
[ -x "$MT" ] && [ -x "$PB_BIN/infer" ] || { echo "no programs"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
exact() { # TRACE ALGO ARGS...: the exact accuracy
    t=$1; shift
    "$PB_BIN/infer" "$@" -o "$tmp/r.csv" "$t" 2>/dev/null || { echo "infer-failed"; return; }
    "$PB_BIN/score" --truth "$t" "$tmp/r.csv" | awk -F, 'NR==1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["exact_accuracy"] }'
}
n=0
# each line: KIND (pool: every server a thread pool without hand-off) CONFIG SETTINGS
while read -r kind conf defs; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$MT" "$CONF/$conf.conf" -s duration=3s $defs --stats -o "$tmp/t$n.csv" 2>"$tmp/s$n" || fail "$conf $defs"
    imm=$(awk '/^immediacy/ { print $2 }' "$tmp/s$n")
    if [ "$imm" = 1.0000 ]; then
        a=$(exact "$tmp/t$n.csv" --algo borderpatrol)
        [ "$a" = 1 ] || fail "$conf $defs: immediacy 1 but borderpatrol $a"
    fi
    if [ "$kind" = pool ]; then
        a=$(exact "$tmp/t$n.csv" --algo vpath -s variant=paper)
        [ "$a" = 1 ] || fail "$conf $defs: pool threads without hand-off but vpath paper $a"
    fi
done <<'L'
pool hotel -s observed=1 -s instances=1
pool hotel -s observed=1 -s instances=22
pool hotel -s observed=1 -s instances=100
other hotel -s exec=event
other hotel -s exec=event -s threads=3
other hotel -s exec=seda
pool hotel -s conn=pipelined
pool hotel -s conn=pool -s conns=2
other hotel -s handoff=0.2
pool shape-queue -s observed=1 -s instances=8
pool rubis
other dearinter -s instances=32
L
# renaming: every thread and connection label gets a prefix; no score moves
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }
    { for (k in c) if (k == "thread" || k == "sthread" || k == "conn") if ($c[k] != "") $c[k] = "q-" $c[k]; print }' \
    "$tmp/t3.csv" > "$tmp/ren.csv"
for a in "--algo borderpatrol" "--algo vpath -s variant=paper" "--algo borderpatrol -s context=node"; do
    # shellcheck disable=SC2086
    x=$(exact "$tmp/t3.csv" $a); y=$(exact "$tmp/ren.csv" $a)
    [ "$x" = "$y" ] || fail "renaming changed $a: $x vs $y"
done
exit 0

#!/bin/sh
# bench_linking.sh - speed and memory of WAP5 message linking (issue 6).
#   1. the multi-tier config, both timestamps (net_delay 2 ms +- 0.5 ms),
#      5 million messages at the default k, reading included
#      (WAP5 Table 5: 730 CPU s and 1,354 MB for 4.7 million messages);
#   2. run time against the try-both limit k on a fifth of that.
# PB_BENCH_QUICK=1: 100,000 messages.  Never fails; prints tables.
set -u
# speed_row KEY WHAT GOAL MEASURED PAPERS: a row of the README's speed
# table (tests/bench/run.sh sorts the rows by KEY and splices them in)
. "$(dirname "$0")/lib.sh"  # speed_row, verdict
: "${PB_BIN:?}" "${PB_ROOT:?}" "${PB_BENCH_DIR:?}"
n=5000000
[ "${PB_BENCH_QUICK:-0}" = 1 ] && n=100000
small=$((n / 5))
dir="$PB_BENCH_DIR"
conf="$PB_ROOT/maketrace/configs/multitier.conf"
big="$dir/linking_mt_$n.csv"
sm="$dir/linking_mt_$small.csv"

gen() { # messages file
    [ -s "$2" ] && return 0
    "$PB_BIN/maketrace" "$conf" -D duration=0 -D messages="$1" \
        -D net_delay=2ms -D net_sd=500us -o "$2.tmp" && mv "$2.tmp" "$2"
}
gen "$n" "$big" || { echo "maketrace failed"; exit 0; }
head -n $((small + 3)) "$big" > "$sm"

timer=""
[ -x /usr/bin/time ] && timer="/usr/bin/time"

# run K FILE: one table row
run() {
    res="$dir/linking_k$1.res"
    if [ -n "$timer" ]; then
        $timer -f "%U %S %M" -o "$dir/linking.time" "$PB_BIN/infer" --algo linking \
            -s k="$1" -o "$res" "$2" || { echo "infer failed (k=$1)"; return; }
        set -- "$1" "$2" $(cat "$dir/linking.time")
        cpu=$(awk -v u="$3" -v s="$4" 'BEGIN{printf "%.2f", u + s}')
        mem=$(awk -v m="$5" 'BEGIN{printf "%.0f", m / 1024}')
    else
        "$PB_BIN/infer" --algo linking -s k="$1" -o "$res" "$2" ||
            { echo "infer failed (k=$1)"; return; }
        cpu=-; mem=-
    fi
    awk -v k="$1" -v cpu="$cpu" -v mem="$mem" '
        /^# algo=/ { for (i = 1; i <= NF; i++) if ($i ~ /^messages=/) { sub(/messages=/, "", $i); msgs = $i } }
        /^# cpu_read_s=/ { split($2, a, "="); rd = a[2]; split($3, b, "="); inf = b[2] }
        /^# link_roots=/ { for (i = 2; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] } }
        /^# table=patterns/ { p = 1; next }
        /^# table=assignment/ { p = 0 }
        p && !/^rank,/ { np++ }
        END { printf "%10s %3s %8s %9s %9s %8s %9s %9s %9s\n", msgs, k, rd, inf, cpu, mem,
                     v["link_instances"], np, v["link_links"] }' "$res"
}

header() {
    printf "%10s %3s %8s %9s %9s %8s %9s %9s %9s\n" messages k read_s infer_s \
        cpu_s maxrss_MB instances patterns links
}

echo "linking, multi-tier, default k (goal: < 20 s, < 1400 MB; cpu_s and"
echo "maxrss_MB are the whole infer process, reading and writing included)"
header
run 4 "$big" | tee "$dir/linking.row"
set -- $(cat "$dir/linking.row")
[ $# -ge 6 ] && [ "$5" != - ] && speed_row 8 "linking, $n msgs, k = 4, reading included" "< 20 s, < 1.4 GB (5 M msgs)" \
    "$5 s, $6 MB" "730 s, 1,354 MB (4.7 M msgs)" "$(verdict "$5" '<' 20 "$6" '<' 1400)"
rm -f "$dir/linking.row"
echo
echo "linking run time against k ($small messages)"
header
for k in 0 1 2 4 6 8 10; do
    run "$k" "$sm"
done
rm -f "$dir"/linking_k*.res "$dir/linking.time"
exit 0

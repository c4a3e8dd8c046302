#!/bin/sh
# Speed and memory of the joint algorithm beside nesting (issue 15 goals:
# at most 0.2 CPU s per 1000 hotel requests reading included; a 2 M-message
# multi-tier trace in under 10 s and 500 MB; issue 28: at most 0.4 s per
# 1000 OnlineBoutique requests, with call ids and as a black box).  CPU seconds and max RSS from
# GNU time (user + sys of the whole infer run, reading and writing
# included).  The hotel rows need data/deathstarbench-hotel
# (skipped without it).  PB_BENCH_QUICK=1 shrinks the multi-tier trace 20x.
set -u
# a row of the README's speed table (tests/bench/run.sh collects them)
. "$(dirname "$0")/lib.sh"  # speed_row, verdict
: "${PB_BIN:?}"
R=$(cd "${PB_ROOT:-.}" && pwd)
dir="${PB_BENCH_DIR:-/tmp}/joint"
mkdir -p "$dir" || exit 0
for p in maketrace infer importtrace; do
    [ -x "$PB_BIN/$p" ] || { echo "bench_joint: $PB_BIN/$p missing, skipped"; exit 0; }
done
[ -x /usr/bin/time ] || { echo "bench_joint: /usr/bin/time missing, skipped"; exit 0; }
n=2000000
[ "${PB_BENCH_QUICK:-0}" = 1 ] && n=100000

# cost ALGO TRACE: "cpu_s rss_mb"
cost() {
    /usr/bin/time -f "%U %S %M" -o "$dir/time" "$PB_BIN/infer" --algo "$1" -o "$dir/r.res" "$2" 2> /dev/null ||
        { echo "- -"; return; }
    awk '{ printf "%.2f %.0f\n", $1 + $2, $3 / 1024 }' "$dir/time"
}

printf '| trace | messages | algo | CPU s (whole run) | max RSS MB | goal |\n|---|---:|---|---:|---:|---|\n'
data="$R/data/deathstarbench-hotel"
for L in 25 100; do
    tb="$data/hotel_load$L.tar.xz"
    [ -f "$tb" ] || continue
    # call ids (as TraceWeaver's spans pair calls with returns) and plain
    # (a pure black box: joint pairs calls and returns itself)
    for imp in callid plain; do
        opt=""; [ $imp = callid ] && opt=--callid
        if [ ! -s "$dir/hotel$L.$imp.csv" ]; then
            (cd "$dir" && xz -dc "$tb" | tar -xf - && "$PB_BIN/importtrace" -q $opt -o "hotel$L.$imp.csv" "hotel_load$L" && rm -rf "hotel_load$L") ||
                { echo "bench_joint: import of load $L failed"; continue; }
        fi
        m=$(grep -vc '^#' "$dir/hotel$L.$imp.csv"); m=$((m - 1))
        what="call ids"; [ $imp = plain ] && what="black box, no call ids"
        for a in joint nesting; do
            set -- $(cost "$a" "$dir/hotel$L.$imp.csv")
            goal=""; [ "$a" = joint ] && goal="<= 0.2 s per 1000 requests"
            printf '| hotel load %s (1000 requests, %s) | %s | %s | %s | %s | %s |\n' "$L" "$what" "$m" "$a" "$1" "$2" "$goal"
            [ "$a" = joint ] && speed_row "8joint$L$imp" "joint, hotel load $L, 1000 requests ($what), reading included" \
                "<= 0.2 s" "$1 s, $2 MB" "TraceWeaver 12-18 s" "$(verdict "$1" '<=' 0.2)"
        done
    done
done
# OnlineBoutique (nezha; issue 28: at most 0.4 CPU s per 1000 requests,
# reading included, with call ids and as a black box): the fault-free
# minute and the 07:11 fault minute (the slowest).  Requests: score's
# true instances of the imported truth (the truth never reaches infer).
ob="$R/data/nezha/onlineboutique"
for mn in construct_2022-08-23_17_00 rca_2022-08-22_07_11; do
    [ -f "$ob/$mn.csv.gz" ] && [ -x "$PB_BIN/score" ] || continue
    for imp in callid plain; do
        opt=""; [ $imp = callid ] && opt=--callid
        t="$dir/ob-$mn.$imp.csv"
        [ -s "$t" ] || "$PB_BIN/importtrace" -q $opt -o "$t" "$ob/$mn.csv.gz" 2> /dev/null ||
            { echo "bench_joint: import of $mn failed"; continue; }
        m=$(grep -vc '^#' "$t"); m=$((m - 1))
        what="call ids"; [ $imp = plain ] && what="black box, no call ids"
        set -- $(cost joint "$t")
        nq=$("$PB_BIN/score" --truth "$t" "$dir/r.res" 2> /dev/null |
             awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                      NR == 2 { print $c["true_instances"] }')
        per=$(awk -v c="$1" -v n="${nq:-0}" 'BEGIN { if (c == "-" || n <= 0) print "-"; else printf "%.2f", 1000 * c / n }')
        printf '| OnlineBoutique %s (%s requests, %s) | %s | joint | %s (%s per 1000 requests) | %s | <= 0.4 s per 1000 requests |\n' \
            "$mn" "${nq:--}" "$what" "$m" "$1" "$per" "$2"
        speed_row "8jointob$mn$imp" "joint, OnlineBoutique $mn ($what), per 1000 requests, whole run" \
            "<= 0.4 s" "$per s, $2 MB" "" "$(verdict "$per" '<=' 0.4)"
    done
done
# One request making many calls of one service (a fan-out), as a black
# box: wide(w) of tests/sh/test_joint_widefan.sh (Jaeger JSON, importtrace
# without call ids).  Issue 28 asks n log n in messages; main before
# joint_xwalk.c walked the whole request for every exchange tried
# (w = 20,000: 22.3 s).  PB_BENCH_QUICK=1: w = 5,000.
w=20000
[ "${PB_BENCH_QUICK:-0}" = 1 ] && w=5000
wt="$dir/wide-$w.bb.csv"
if [ ! -s "$wt" ]; then
    awk -v n=$w -f "$R/experiments/wide_fanout.awk" > "$dir/wide.json" && "$PB_BIN/importtrace" -q -o "$wt" "$dir/wide.json" ||
        echo "bench_joint: wide fan-out trace failed"
    rm -f "$dir/wide.json"
fi
if [ -s "$wt" ]; then
    m=$(grep -vc '^#' "$wt"); m=$((m - 1))
    set -- $(cost joint "$wt")
    printf '| wide fan-out, one request of %s calls (black box) | %s | joint | %s | %s | n log n in messages |\n' "$w" "$m" "$1" "$2"
    speed_row 8jointwide "joint, one request of $w calls (wide fan-out, black box), whole run" \
        "n log n in messages" "$1 s, $2 MB" "" "-"
fi
f="$dir/mt-$n.csv"
[ -s "$f" ] || "$PB_BIN/maketrace" "$R/maketrace/configs/multitier.conf" -D messages=$n -D duration=0 -o "$f" ||
    { echo "bench_joint: maketrace failed"; exit 0; }
for a in joint nesting; do
    set -- $(cost "$a" "$f")
    goal=""; [ "$a" = joint ] && goal="< 10 s, < 500 MB"
    printf '| multitier | %s | %s | %s | %s | %s |\n' "$n" "$a" "$1" "$2" "$goal"
    [ "$a" = joint ] && speed_row 8jointmt "joint, multi-tier, $n msgs, whole run" "(2 M msgs) < 10 s, < 500 MB" \
        "$1 s, $2 MB" "" "$(verdict "$1" '<' 10 "$2" '<' 500)"
done
exit 0

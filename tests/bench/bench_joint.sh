#!/bin/sh
# Speed and memory of the joint algorithm beside nesting (issue 15 goals:
# at most 0.2 CPU s per 1000 hotel requests reading included; a 2 M-message
# multi-tier trace in under 10 s and 500 MB).  CPU seconds and max RSS from
# GNU time (user + sys of the whole infer run, reading and writing
# included).  The hotel rows need data/deathstarbench-hotel
# (skipped without it).  PB_BENCH_QUICK=1 shrinks the multi-tier trace 20x.
set -u
# a row of the README's speed table (tests/bench/run.sh collects them)
speed_row() { [ -n "${PB_BENCH_MD:-}" ] && printf '%s\t| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5" >>"$PB_BENCH_MD"; return 0; }
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
                "<= 0.2 s" "$1 s, $2 MB" "TraceWeaver 12-18 s"
        done
    done
done
f="$dir/mt-$n.csv"
[ -s "$f" ] || "$PB_BIN/maketrace" "$R/maketrace/configs/multitier.conf" -D messages=$n -D duration=0 -o "$f" ||
    { echo "bench_joint: maketrace failed"; exit 0; }
for a in joint nesting; do
    set -- $(cost "$a" "$f")
    goal=""; [ "$a" = joint ] && goal="< 10 s, < 500 MB"
    printf '| multitier | %s | %s | %s | %s | %s |\n' "$n" "$a" "$1" "$2" "$goal"
    [ "$a" = joint ] && speed_row 8jointmt "joint, multi-tier, $n msgs, whole run" "(2 M msgs) < 10 s, < 500 MB" \
        "$1 s, $2 MB" ""
done
exit 0

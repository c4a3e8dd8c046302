#!/bin/sh
# Speed and memory of the nesting algorithm (seed 000, 7.6 and Table 1).
#
# Table 1 rows: the multi-tier trace at about 2 million messages (paper: 24
# CPU s, 137 MB at mean per-node parallelism 1.6) and about 775,000 messages
# at low, medium and high parallelism (paper: 234 CPU s at parallelism 45).
# Then the scaling table: CPU time of the inference per message x mean
# parallelism over trace length and over parallelism (the cost should stay
# O(m p)).  CPU seconds come from infer's cpu_read_s / cpu_infer_s
# metadata (one core); max RSS and whole-run user+sys from bench_maketrace
# when it was built.  PB_BENCH_QUICK=1 shrinks every trace 20x.
set -u
# speed_row KEY WHAT GOAL MEASURED PAPERS: a row of the README's speed
# table (tests/bench/run.sh sorts the rows by KEY and splices them in)
. "$(dirname "$0")/lib.sh"  # speed_row, verdict
: "${PB_BIN:?}"
dir="${PB_BENCH_DIR:-/tmp}/nesting"
mkdir -p "$dir" || exit 0
conf="${PB_ROOT:-.}/maketrace/configs/multitier.conf"
meter="${PB_BENCHBIN:-}/bench_maketrace"
[ -x "$meter" ] || meter=""
div=1
[ "${PB_BENCH_QUICK:-0}" = 1 ] && div=20
for p in maketrace infer; do
    [ -x "$PB_BIN/$p" ] || { echo "bench_nesting: $PB_BIN/$p missing, skipped"; exit 0; }
done

# gen NAME INSTANCES DURATION_S: a multi-tier trace (duration / div)
gen() {
    d=$(awk -v d="$3" -v q="$div" 'BEGIN { printf "%g", d / q }')
    f="$dir/mt-i$2-d$d.csv"
    if [ ! -s "$f" ]; then
        "$PB_BIN/maketrace" "$conf" -D instances="$2" -D duration="${d}s" -o "$f" ||
            { echo "bench_nesting: maketrace failed for $1"; return 1; }
    fi
    echo "$f"
}

meta() { awk -F= -v k="$2" '$1 == "# " k { print $2; exit }' "$1"; }

# run TRACE [infer options]: prints "messages duration p read_s infer_s run_cpu_s rss_mb"
# (--no-assign unless options are given)
run() {
    res="$dir/r.res"
    t=$1; shift
    [ $# -eq 0 ] && set -- --no-assign
    if [ -n "$meter" ]; then
        m=$("$meter" "$PB_BIN/infer" --algo nesting "$@" -o "$res" "$t" 2>/dev/null) || return 1
    else
        "$PB_BIN/infer" --algo nesting "$@" -o "$res" "$t" || return 1
        m="- - - -"
    fi
    msgs=$(awk '/^# algo=/ { for (i = 1; i <= NF; i++) if ($i ~ /^messages=/) { sub(/messages=/, "", $i); print $i } }' "$res")
    dur=$(awk -F, '!/^#/ && NR > 1 && $2 != "ts" { if (first == "") first = $2; last = $2 } END { printf "%.0f", last - first }' "$t")
    par=$(meta "$res" mean_parallelism)
    cpu=$(awk '/^# cpu_read_s=/ { split($2, a, "="); split($3, b, "="); print a[2], b[2] }' "$res")
    echo "$msgs $dur $par $cpu $m"
}

echo "nesting algorithm, multi-tier traces (maketrace multitier.conf); CPU seconds on one core"
echo "paper (Table 1, 1.7 GHz P4): 2,026,658 msgs p=1.612 23.97 s 136.8 MB; 775,254 msgs p=45.057 233.61 s"
echo
printf '%-22s %9s %7s %8s %8s %8s %9s %8s %14s\n' trace messages dur_s mean_p read_s infer_s run_cpu_s rss_MB 'ns/(msg*p)'
row() {
    f=$(gen "$1" "$2" "$3") || return
    set -- "$1" $(run "$f")
    [ $# -ge 9 ] || { echo "bench_nesting: run failed for $1"; return; }
    awk -v n="$1" -v m="$2" -v d="$3" -v p="$4" -v r="$5" -v i="$6" -v u="$8" -v s="$9" -v k="${10:--}" 'BEGIN {
        rc = (u == "-") ? "-" : sprintf("%.2f", u + s)
        mb = (k == "-") ? "-" : sprintf("%.0f", k / 1024)
        printf "%-22s %9d %7d %8.3f %8.3f %8.3f %9s %8s %14.1f\n", n, m, d, p, r, i, rc, mb, i * 1e9 / (m * p)
        printf "%s %.2f %s %s %d %.1f\n", n, i, rc, mb, m, p >> (ENVIRON["PB_BENCH_DIR"] "/nesting.sum") }'
}
rm -f "$PB_BENCH_DIR/nesting.sum"
row "long(2M)" 22 5000
# the same with the message table (infer's default output)
set -- $(run "$(gen "long(2M)" 22 5000)" --rank-by count)
if [ $# -ge 9 ] && [ "$9" != - ]; then
    awk -v k="$9" 'BEGIN { printf "long(2M) with the message table: max RSS %.0f MB\n", k / 1024 }'
    mbt=$(awk -v k="$9" 'BEGIN { printf "%.0f", k / 1024 }')
else
    mbt=-
fi
row "parallelism-low" 2 20000
row "parallelism-medium" 30 1400
row "parallelism-high" 330 130
if [ -s "$PB_BENCH_DIR/nesting.sum" ]; then
    set -- $(awk '$1 == "long(2M)" { print $2, $3, $4, $5 }' "$PB_BENCH_DIR/nesting.sum")
    [ $# -eq 4 ] && speed_row 4 "nesting, multi-tier, $4 msgs" "(2 M msgs) infer < 0.5 s; whole run < 2 s and < 150 MB" \
        "$1 s; $2 s, $3 MB with \`--no-assign\`, $mbt MB with the message table" "24 s, 137 MB (2 M msgs)" \
        "$(verdict "$1" '<' 0.5 "$2" '<' 2 "$3" '<' 150 "$mbt" '<' 150)"
    set -- $(awk '$1 == "parallelism-high" { print $2, $5, $6 }' "$PB_BENCH_DIR/nesting.sum")
    [ $# -eq 3 ] && speed_row 5 "nesting, per-node parallelism $3, $2 msgs" "(p 45, 780 k msgs) infer < 3 s" "$1 s" "234 s" \
        "$(verdict "$1" '<' 3)"
fi
rm -f "$PB_BENCH_DIR/nesting.sum"
echo
echo "scaling: trace length at 22 instances, then parallelism at ~400k messages"
printf '%-22s %9s %7s %8s %8s %8s %9s %8s %14s\n' trace messages dur_s mean_p read_s infer_s run_cpu_s rss_MB 'ns/(msg*p)'
row "len-250s" 22 250
row "len-1000s" 22 1000
row "len-4000s" 22 4000
row "par-inst-10" 10 2200
row "par-inst-40" 40 550
row "par-inst-160" 160 140
row "par-inst-640" 640 35
exit 0

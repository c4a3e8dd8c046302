#!/bin/sh
# Sliding-window nesting (-s window=10s) on long multi-tier traces: memory
# must follow the window, not the trace, and time must grow linearly with
# the messages.  Rows: 10 M and 30 M messages; the 100 M row only with
# PB_BENCH_BIG=1 (its trace file is about 7.5 GB; generated, measured and
# deleted).  Each trace is written to a file first and infer reads the file
# (with stdin it would copy it to a temporary file for the second pass).
# Columns: messages, wall s, user+sys CPU s, CPU s per million messages,
# max RSS MB of infer.  PB_BENCH_QUICK=1 divides the sizes by 100.
set -u
speed_row() { [ -n "${PB_BENCH_MD:-}" ] && printf '%s\t| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5" >>"$PB_BENCH_MD"; return 0; }
: "${PB_BIN:?}"
dir="${PB_BENCH_DIR:-/tmp}/nesting_window"
mkdir -p "$dir" || exit 0
conf="${PB_ROOT:-.}/maketrace/configs/multitier.conf"
meter="${PB_BENCHBIN:-}/bench_maketrace"
[ -x "$meter" ] || { echo "bench_nesting_window: $meter missing, skipped"; exit 0; }
for p in maketrace infer; do
    [ -x "$PB_BIN/$p" ] || { echo "bench_nesting_window: $PB_BIN/$p missing, skipped"; exit 0; }
done
sizes="10000000 30000000"
[ "${PB_BENCH_BIG:-0}" = 1 ] && sizes="$sizes 100000000"
[ "${PB_BENCH_QUICK:-0}" = 1 ] && sizes="100000 300000"
# PB_BENCH_WINDOW_SIZES="N ..." runs only those sizes
[ -n "${PB_BENCH_WINDOW_SIZES:-}" ] && sizes="$PB_BENCH_WINDOW_SIZES"
echo "nesting -s window=10s --no-assign, multi-tier traces (maketrace multitier.conf -D duration=0)"
[ "${PB_BENCH_BIG:-0}" = 1 ] || echo "(the 100 M row runs only with PB_BENCH_BIG=1)"
printf '%12s %8s %8s %10s %8s\n' messages wall_s cpu_s cpu_s/M rss_MB
last=""
for n in $sizes; do
    t="$dir/mt-$n.csv"
    "$PB_BIN/maketrace" "$conf" -D duration=0 -D messages="$n" -o "$t" ||
        { echo "bench_nesting_window: maketrace failed"; rm -f "$t"; exit 0; }
    m=$("$meter" "$PB_BIN/infer" --algo nesting -s window=10s --no-assign -o "$dir/r.res" "$t" 2>/dev/null) ||
        { echo "bench_nesting_window: infer failed at $n"; rm -f "$t"; exit 0; }
    rm -f "$t"
    set -- $m
    last=$(awk -v n="$n" -v w="$1" -v u="$2" -v s="$3" -v r="$4" 'BEGIN {
        printf "%12d %8.1f %8.1f %10.2f %8.1f", n, w, u + s, (u + s) / (n / 1e6), r / 1024 }')
    echo "$last"
done
set -- $last
[ -n "$last" ] && speed_row "nesting-window" "nesting -s window=10s, $1 messages (bench_nesting_window)" \
    "< 1 GB, linear time" "$5 MB, $4 CPU s per M messages" "paper 8: future work"
exit 0

#!/bin/sh
# Sliding-window nesting (-s window=10s) on long multi-tier traces, the
# issue's command: maketrace piped into infer, which reads standard input
# once (pass 2 reads the parsed rows back from a spool in TMPDIR, 48 bytes
# a message, deleted on exit).  Memory must follow the window, not the
# trace, and time must grow linearly with the messages.  Rows: 10 M and
# 30 M messages; the 100 M row only with PB_BENCH_BIG=1 (its spool is
# about 4.8 GB in TMPDIR, set here to the bench folder).  Each size runs
# twice: --no-assign, and with the message-to-instance table (spooled to
# TMPDIR too, written to /dev/null at the end).
# Columns: messages, table (no/yes), wall s of the pipeline, user+sys CPU s
# of infer, CPU s per million messages, max RSS MB of infer.
# PB_BENCH_QUICK=1 divides the sizes by 100; PB_BENCH_WINDOW_SIZES="N ..."
# runs only those sizes.
set -u
. "$(dirname "$0")/lib.sh"  # speed_row, verdict
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
[ -n "${PB_BENCH_WINDOW_SIZES:-}" ] && sizes="$PB_BENCH_WINDOW_SIZES"
echo "bin/maketrace multitier.conf -D duration=0 -D messages=N | bin/infer --algo nesting -s window=10s [--no-assign]"
[ "${PB_BENCH_BIG:-0}" = 1 ] || echo "(the 100 M row runs only with PB_BENCH_BIG=1)"
printf '%12s %5s %8s %8s %10s %8s\n' messages table wall_s cpu_s cpu_s/M rss_MB
for n in $sizes; do
    row=""
    for a in --no-assign --assign; do
        [ "$a" = --assign ] && set -- || set -- --no-assign
        m=$("$PB_BIN/maketrace" "$conf" -D duration=0 -D messages="$n" |
            TMPDIR="$dir" "$meter" "$PB_BIN/infer" --algo nesting -s window=10s "$@" 2>"$dir/err") ||
            { echo "bench_nesting_window: infer failed at $n: $(head -3 "$dir/err")"; exit 0; }
        set -- $m
        line=$(awk -v n="$n" -v a="$a" -v w="$1" -v u="$2" -v s="$3" -v r="$4" 'BEGIN {
            printf "%12d %5s %8.1f %8.1f %10.2f %8.1f", n, a == "--assign" ? "yes" : "no",
                w, u + s, (u + s) / (n / 1e6), r / 1024 }')
        echo "$line"
        set -- $line
        if [ "$a" = --no-assign ]; then
            row="$4 CPU s ($5 per M msgs), $6 MB"
        else
            row="$row; with the message table $4 CPU s, $6 MB"
        fi
    done
    rm -f "$dir/err"
    # README speed table: one row per size, after the whole-trace nesting rows
    speed_row "5w$(printf '%012d' "$n")" "nesting -s window=10s, $n msgs piped from maketrace" \
        "< 1 GB, linear time" "$row" "paper 8: future work" \
        "$(verdict "$(echo "$row" | awk -F'; ' '{ n = split($1, w, " "); print w[n - 1] }')" '<' 1024 \
                   "$(echo "$row" | awk -F'; ' '{ n = split($2, w, " "); print w[n - 1] }')" '<' 1024)"
done
exit 0

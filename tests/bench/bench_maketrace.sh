#!/bin/sh
# maketrace speed and memory: messages per second writing the multi-tier
# trace to a file (goal >= 2 M msgs/s on one core), peak memory at two
# lengths (must stay flat: the generator streams), and the core's goal for
# reading such a trace into memory (>= 2 M msgs/s, <= 64 bytes/msg truth
# aside) via bench_trace_io and `infer --algo truth --parse-only`.
# PB_BENCH_QUICK=1: 50 s and 500 s of trace instead of 500 s and 5000 s.
set -u
# speed_row KEY WHAT GOAL MEASURED PAPERS: a row of the README's speed
# table (tests/bench/run.sh sorts the rows by KEY and splices them in)
. "$(dirname "$0")/lib.sh"  # speed_row, verdict
MT="$PB_BIN/maketrace"
RUN="$PB_BENCHBIN/bench_maketrace"
CONF="$PB_ROOT/maketrace/configs/multitier.conf"
short=500s; long=5000s
[ "${PB_BENCH_QUICK:-0}" = 1 ] && { short=50s; long=500s; }
[ -x "$MT" ] && [ -x "$RUN" ] || { echo "maketrace or bench_maketrace not built"; exit 0; }
echo "goal: maketrace >= 2 M msgs/s to a file; flat memory; read >= 2 M msgs/s, <= 64 B/msg"
echo "(M msgs/s is per CPU second, user + sys: wall time depends on the machine's load)"
printf '%-36s %10s %8s %8s %8s %10s %10s\n' what messages wall_s user_s sys_s Mmsgs/s maxrss_MB
row() { # what, file with "wall user sys rss", messages
    read -r wall user sys rss < "$2"
    awk -v w="$1" -v n="$3" -v wall="$wall" -v user="$user" -v sys="$sys" -v rss="$rss" 'BEGIN {
        r = (user + sys > 0 ? n / (user + sys) / 1e6 : 0)
        printf "%-36s %10d %8.3f %8.3f %8.3f %10.2f %10.1f\n", w, n, wall, user, sys, r, rss / 1024
        if (w ~ /^maketrace multitier/) printf "%.2f %.1f\n", r, rss / 1024 >> (ENVIRON["PB_BENCH_DIR"] "/mt.rates") }'
}
rm -f "$PB_BENCH_DIR/mt.rates"
for d in $short $long; do
    f="$PB_BENCH_DIR/maketrace_multitier_$d.csv"
    "$RUN" "$MT" "$CONF" -D duration=$d -o "$f" > "$PB_BENCH_DIR/mt.time" || { echo "maketrace failed"; exit 0; }
    n=$(grep -vc '^#' "$f"); n=$((n - 1))
    row "maketrace multitier $d -> file" "$PB_BENCH_DIR/mt.time" "$n"
done
awk '{ if (!n || $1 < lo) lo = $1; if (!n || $1 > hi) hi = $1; if ($2 > m) m = $2; n++ }
    END { if (n) printf "%.1f-%.1f M msgs/s (CPU), %.1f MB at any length\n", lo, hi, m }' "$PB_BENCH_DIR/mt.rates" >"$PB_BENCH_DIR/mt.sum"
[ -s "$PB_BENCH_DIR/mt.sum" ] && speed_row 1 "maketrace, writing to a file" ">= 2 M msgs/s, flat memory" "$(cat "$PB_BENCH_DIR/mt.sum")" "" \
    "$(verdict "$(awk '{ split($1, a, "-"); print a[1] }' "$PB_BENCH_DIR/mt.sum")" '>=' 2)"
rm -f "$PB_BENCH_DIR/mt.rates" "$PB_BENCH_DIR/mt.sum"
# instances 42 (Figure 17) and 400: memory grows with instances, not length
for i in 42 400; do
    "$RUN" "$MT" "$CONF" -D duration=$short -D instances=$i -o "$PB_BENCH_DIR/mt_i$i.csv" > "$PB_BENCH_DIR/mt.time"
    n=$(grep -vc '^#' "$PB_BENCH_DIR/mt_i$i.csv"); n=$((n - 1))
    row "maketrace instances=$i $short -> file" "$PB_BENCH_DIR/mt.time" "$n"
    rm -f "$PB_BENCH_DIR/mt_i$i.csv"
done
big="$PB_BENCH_DIR/maketrace_multitier_$long.csv"
n=$(grep -vc '^#' "$big"); n=$((n - 1))
if [ -x "$PB_BIN/infer" ]; then
    "$RUN" "$PB_BIN/infer" --algo truth --parse-only "$big" > "$PB_BENCH_DIR/mt.time" 2>/dev/null
    row "infer --algo truth --parse-only" "$PB_BENCH_DIR/mt.time" "$n"
fi
if [ -x "$PB_BENCHBIN/bench_trace_io" ]; then
    echo "core trace I/O on the maketrace $long trace (bench_trace_io):"
    "$PB_BENCHBIN/bench_trace_io" "$big"
fi
rm -f "$PB_BENCH_DIR"/maketrace_multitier_*.csv "$PB_BENCH_DIR/mt.time"
exit 0

#!/bin/sh
# skewer and sniffer speed and memory: messages per second (wall clock,
# reading a file, writing to /dev/null) and peak memory at two trace
# lengths (it must stay flat: both tools stream).  Goal: >= 1 M msgs/s each.
# Sizes: 1 M and 4 M messages; PB_BENCH_QUICK=1: 100 k and 400 k.
# Timing through bench_maketrace (wall, user, system, max RSS of the
# child); on a loaded machine the wall rate understates, so the CPU rate
# (user + system: the sniffer's spool costs system time) is the one to
# hold against the goal.
set -u
# speed_row KEY WHAT GOAL MEASURED PAPERS: a row of the README's speed
# table (tests/bench/run.sh sorts the rows by KEY and splices them in)
speed_row() { [ -n "${PB_BENCH_MD:-}" ] && printf '%s\t| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5" >>"$PB_BENCH_MD"; return 0; }
RUN="$PB_BENCHBIN/bench_maketrace"
SK="$PB_BIN/skewer"
SN="$PB_BIN/sniffer"
[ -x "$RUN" ] && [ -x "$SK" ] && [ -x "$SN" ] ||
    { echo "bench_maketrace, skewer or sniffer not built"; exit 0; }
small=1000000; large=4000000
[ "${PB_BENCH_QUICK:-0}" = 1 ] && { small=100000; large=400000; }
# the sniffer keeps its spool (64 bytes a message) in TMPDIR
TMPDIR="$PB_BENCH_DIR"; export TMPDIR
gen() { # N FILE: the multi-tier trace if maketrace is there, else awk rows
    if [ -x "$PB_BIN/maketrace" ] && [ -f "$PB_ROOT/maketrace/configs/multitier.conf" ]; then
        "$PB_BIN/maketrace" -D messages="$1" -D net_delay=200us -D net_sd=50us \
            -D duration=0 "$PB_ROOT/maketrace/configs/multitier.conf" -o "$2" && return
    fi
    awk -v n="$1" 'BEGIN { print "id,ts,recv_ts,src,dst,type,callid,path,cause";
        for (i = 1; i <= n; i++) printf "%d,%.9f,%.9f,N%d,N%d,call,%d,%d,\n",
            i, i * 0.00025, i * 0.00025 + 0.0002, i % 7, (i + 1) % 7, i, int(i / 4) }' >"$2"
}
echo "goal: skewer and sniffer >= 1 M msgs/s streaming, memory flat in trace length"
printf '%-44s %9s %8s %8s %8s %9s %9s %9s\n' what messages wall_s user_s sys_s M/s_wall M/s_cpu maxrss_MB
row() { # what, messages, command...
    what=$1; n=$2; shift 2
    if ! "$RUN" "$@" >"$PB_BENCH_DIR/perturb.time" 2>/dev/null; then
        printf '%-44s failed\n' "$what"; return
    fi
    # bench_maketrace prints "wall_s user_s sys_s maxrss_kb"
    read -r wall user sys rss <"$PB_BENCH_DIR/perturb.time"
    awk -v w="$what" -v n="$n" -v wall="$wall" -v user="$user" -v sys="$sys" -v rss="$rss" 'BEGIN {
        cpu = user + sys
        printf "%-44s %9d %8.3f %8.3f %8.3f %9.2f %9.2f %9.1f\n", w, n, wall, user, sys,
            (wall > 0 ? n / wall / 1e6 : 0), (cpu > 0 ? n / cpu / 1e6 : 0), rss / 1024
        printf "%s\t%.2f\t%.1f\n", (w ~ /target-drop/ ? "target" : "stream"), (cpu > 0 ? n / cpu / 1e6 : 0), rss / 1024 >> (ENVIRON["PB_BENCH_DIR"] "/perturb.rates") }'
}
rm -f "$PB_BENCH_DIR/perturb.rates"
for n in $small $large; do
    f="$PB_BENCH_DIR/perturb_$n.csv"
    gen "$n" "$f" || { echo "cannot generate $f"; exit 0; }
    m=$(grep -vc '^#' "$f"); m=$((m - 1))
    row "skewer 2 nodes offset+drift" "$m" "$SK" -n WS2=+30ms,+50ppm -n AP1=-2ms,+20ppm --allow-negative "$f"
    "$SK" -n WS2=+30ms,+50ppm -n AP1=-2ms,+20ppm --allow-negative "$f" >"$PB_BENCH_DIR/perturb_skewed.csv" 2>/dev/null
    row "skewer --deskew" "$m" "$SK" --deskew -n WS2=+30ms,+50ppm -n AP1=-2ms,+20ppm --allow-negative "$PB_BENCH_DIR/perturb_skewed.csv"
    row "skewer random offsets normal:10ms" "$m" "$SK" --random-offset normal:10ms -s 3 --allow-negative "$f"
    row "skewer --estimate" "$m" "$SK" --estimate "$PB_BENCH_DIR/perturb_skewed.csv"
    row "sniffer unbounded" "$m" "$SN" --quiet "$f"
    row "sniffer rate 20000 queue 64 loss 0.01" "$m" "$SN" --quiet -r 20000 -p 0.01 "$f"
    row "sniffer 2 boxes + Gilbert-Elliott" "$m" "$SN" --quiet --sniffer 'WS1,WS2;rate=20000' \
        --sniffer 'AP1,AP2,DB;ge-p=0.001' "$f"
    row "sniffer --target-drop 0.01 (many replays)" "$m" "$SN" --quiet --target-drop 0.01 "$f"
    # the duplicate-id check on ids out of order (skewed) and with gaps
    # (sniffed): memory must stay flat too
    row "sniffer on skewed input (ids out of order)" "$m" "$SN" --quiet -p 0.01 "$PB_BENCH_DIR/perturb_skewed.csv"
    "$SN" --quiet -p 0.01 "$f" >"$PB_BENCH_DIR/perturb_sniffed.csv" 2>/dev/null
    row "skewer on sniffed input (ids with gaps)" "$m" "$SK" -n WS2=+30ms "$PB_BENCH_DIR/perturb_sniffed.csv"
    rm -f "$PB_BENCH_DIR/perturb_sniffed.csv"
    rm -f "$f" "$PB_BENCH_DIR/perturb_skewed.csv"
done
rm -f "$PB_BENCH_DIR/perturb.time"
if [ -s "$PB_BENCH_DIR/perturb.rates" ]; then
    for k in stream target; do
        awk -F'\t' -v k=$k '$1 == k { if (!n || $2 < lo) lo = $2; if (!n || $2 > hi) hi = $2; if (!n || $3 < ml) ml = $3; if ($3 > mh) mh = $3; n++ }
            END { if (n) printf "%.1f-%.1f M msgs/s (CPU), %.0f-%.0f MB\n", lo, hi, ml, mh }' "$PB_BENCH_DIR/perturb.rates" >"$PB_BENCH_DIR/perturb.$k"
    done
    speed_row 3 "skewer / sniffer, streaming ($small and $large msgs)" ">= 1 M msgs/s, flat memory" "$(cat "$PB_BENCH_DIR/perturb.stream")" ""
    speed_row 3b "sniffer --target-drop (about 20 replays of the trace)" ">= 1 M msgs/s" "$(cat "$PB_BENCH_DIR/perturb.target")" ""
    rm -f "$PB_BENCH_DIR/perturb.rates" "$PB_BENCH_DIR/perturb.stream" "$PB_BENCH_DIR/perturb.target"
fi
echo "skewer re-sort window: rows whose new ts could still be passed by a later row"
echo "(about rate x 2 x largest clock error); the sniffer spools 64 B/msg to TMPDIR"
exit 0

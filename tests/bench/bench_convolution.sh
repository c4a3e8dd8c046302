#!/bin/sh
# bench_convolution: speed and memory of the convolution algorithm (issue 5).
#  1. Table 1 of seed 000, convolution columns: multi-tier traces (200,000
#     messages, 500 s) at mu = 10 ms, blocked and exact; a trace of 10^8
#     quanta (5,000 s at 50 us).
#  2. Figure 23 analogue at the algorithm level: run time over the quantum.
#  3. Figure 23 analogue for the correlation alone: time over S at fixed L
#     (S log L) and over L at fixed S (bench_convolution binary).
# PB_BENCH_QUICK=1: 50 s and 500 s traces instead.  Never fails.
set -u
# speed_row KEY WHAT GOAL MEASURED PAPERS: a row of the README's speed
# table (tests/bench/run.sh sorts the rows by KEY and splices them in)
. "$(dirname "$0")/lib.sh"  # speed_row, verdict
B=${PB_BIN:?} D=${PB_BENCH_DIR:?} R=${PB_ROOT:?}
quick=${PB_BENCH_QUICK:-0}
mkdir -p "$D"
if [ ! -x "$B/maketrace" ] || [ ! -x "$B/infer" ]; then
    echo "bench_convolution: needs bin/maketrace and bin/infer; skipped"
    exit 0
fi
timer=
[ -x /usr/bin/time ] && /usr/bin/time -f %M true > /dev/null 2>&1 && timer=/usr/bin/time

# trace NAME CONF ARGS...: generate once into $D
trace() {
    name=$1 conf=$2
    shift 2
    if [ ! -s "$D/$name.csv" ]; then
        "$B/maketrace" "$R/maketrace/configs/$conf" "$@" -o "$D/$name.csv.tmp" &&
            mv "$D/$name.csv.tmp" "$D/$name.csv"
    fi
}

# row LABEL TRACE ARGS...: one line of the table
row() {
    label=$1 t=$2
    shift 2
    out="$D/conv_result.csv"
    if [ -n "$timer" ]; then
        $timer -f %M -o "$D/conv_rss" "$B/infer" --algo convolution "$@" -o "$out" "$D/$t.csv" 2> "$D/conv_err"
    else
        "$B/infer" --algo convolution "$@" -o "$out" "$D/$t.csv" 2> "$D/conv_err"
    fi
    rc=$?
    if [ $rc -ne 0 ]; then
        printf '%-34s failed: %s\n' "$label" "$(head -1 "$D/conv_err")"
        return
    fi
    rss=-
    [ -n "$timer" ] && rss=$(awk '{ printf "%.0f", $1 / 1024 }' "$D/conv_rss")
    awk -v label="$label" -v rss="$rss" '
        /^# algo=/ { for (i = 2; i <= NF; i++) if ($i ~ /^messages=/) { sub(/messages=/, "", $i); msgs = $i } }
        /^# cpu_read_s=/ { split($2, a, "="); rd = a[2]; split($3, b, "="); inf = b[2] }
        /^# mu=/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
        /^# vertices=/ { split($2, kv, "="); vert = kv[2] }
        END { mu = v["mu"]; sub(/0+$/, "", mu)
              printf "%-34s %9s %11s %11s %7s %8s %8s %8s %7s %6s\n", label, msgs, mu,
                  v["quanta"], v["lag_bound"], v["mode"], rd, inf, rss, vert
              printf "%s\t%s\t%s\t%s\n", label, inf, rss, v["quanta"] >> (ENVIRON["PB_BENCH_DIR"] "/conv.sum") }' "$out"
}

header() {
    printf '%-34s %9s %11s %11s %7s %8s %8s %8s %7s %6s\n' trace messages mu_s quanta_S \
        lag_L mode read_s infer_s max_MB vertices
}

if [ "$quick" = 1 ]; then
    dur=50s big=500s
else
    dur=500s big=5000s
fi
trace "conv_mt_$dur" multitier.conf -D duration=$dur
trace "conv_mtd_$dur" multitier-delay.conf -D duration=$dur
# the same system with precise delays (sd 20 us), so a 50 us quantum means
# something; $big at 50 us is 10^8 quanta (10^7 quick)
trace "conv_sharp_$big" multitier.conf -D duration=$big -D delay_sd=20us
trace "conv_sharp_$dur" multitier.conf -D duration=$dur -D delay_sd=20us

rm -f "$D/conv.sum"
echo "Table 1 analogue (paper: 6,684 s for multi-tier normal at mu = 10 ms on a 667 MHz Alpha)"
header
row "multitier $dur" "conv_mt_$dur" -s mu=10ms
row "multitier $dur, exact mode" "conv_mt_$dur" -s mu=10ms -s mode=exact
row "multitier $dur, exact, all lags" "conv_mt_$dur" -s mu=10ms -s mode=exact -s lag_bound=full
row "multitier-delay $dur" "conv_mtd_$dur" -s mu=10ms
row "multitier sd=20us $big, 50us" "conv_sharp_$big" -s mu=50us
if [ -s "$D/conv.sum" ]; then
    m=$(awk -F'\t' -v l="multitier $dur" '$1 == l { printf "%s s", $2; exit }' "$D/conv.sum")
    [ -n "$m" ] && speed_row 6 "convolution, multi-tier $dur, mu = 10 ms" "< 2 s" "$m" "6,684 s (200 k msgs, 500 s)" \
        "$(verdict "$(echo "$m" | awk '{ print $1 }')" '<' 2)"
    m=$(awk -F'\t' -v l="multitier sd=20us $big, 50us" '$1 == l { printf "%s s, %s MB (%s quanta)", $2, $3, $4; exit }' "$D/conv.sum")
    [ -n "$m" ] && speed_row 7 "convolution, $big at 50 us" "< 60 s, < 2 GB (10^8 quanta)" "$m" "\"prohibitive\" beyond 10^5 quanta" \
        "$(verdict "$(echo "$m" | awk '{ print $1 }')" '<' 60 "$(echo "$m" | awk '{ print $3 }')" '<' 2048)"
fi
rm -f "$D/conv.sum"

echo
echo "Figure 23 analogue: run time over the quantum (multitier, sd 20 us, $dur)"
header
for mu in 100ms 10ms 1ms 100us 50us 10us; do
    row "mu=$mu" "conv_sharp_$dur" -s mu=$mu
done

echo
if [ -x "${PB_BENCHBIN:-}/bench_convolution" ]; then
    if [ "$quick" = 1 ]; then
        "$PB_BENCHBIN/bench_convolution" quick
    else
        "$PB_BENCHBIN/bench_convolution"
    fi
else
    echo "(bench_convolution binary not built: run through make bench)"
fi

# many nodes that share nothing: n/2 call/return pairs, each between its own
# two nodes (n$i -> m$i).  Both costs must grow linearly (n log n) in
# messages: skewer --estimate once looked at every node pair per node
# (quadratic in nodes), convolution put its roots in name order by
# insertion (quadratic in roots).  Times double with n when linear.
echo
echo "Disjoint node pairs: skewer --estimate and convolution, time over n (should double with n)"
printf '%-34s %9s %8s %8s\n' what messages cpu_s max_MB
pairs_row() { # WHAT N COMMAND...
    what=$1 n=$2
    shift 2
    if [ -n "$timer" ]; then
        $timer -f '%U %S %M' -o "$D/pairs_time" "$@" > /dev/null 2>&1 || { printf '%-34s failed\n' "$what"; return; }
        awk -v w="$what" -v n="$n" '{ printf "%-34s %9d %8.2f %8.0f\n", w, n, $1 + $2, $3 / 1024 }' "$D/pairs_time"
    else
        "$@" > /dev/null 2>&1 || printf '%-34s failed\n' "$what"
    fi
}
if [ "$quick" = 1 ]; then sizes="20000 40000 80000"; else sizes="50000 100000 200000 400000"; fi
for n in $sizes; do
    awk -v n="$n" 'BEGIN { print "id,ts,recv_ts,src,dst,type,callid"
        for (i = 0; i < n / 2; i++) {
            t = 1 + i * 2e-6
            printf "%d,%.9f,%.9f,n%d,m%d,call,%d\n", 2 * i, t, t + 3e-7, i, i, i
            printf "%d,%.9f,%.9f,m%d,n%d,return,%d\n", 2 * i + 1, t + 1e-6, t + 1.5e-6, i, i, i } }' > "$D/pairs_$n.csv"
    [ -x "$B/skewer" ] && pairs_row "skewer --estimate, pairs" "$n" "$B/skewer" --estimate "$D/pairs_$n.csv"
    pairs_row "convolution, pairs" "$n" "$B/infer" --algo convolution "$D/pairs_$n.csv"
    rm -f "$D/pairs_$n.csv"
done
rm -f "$D/pairs_time"
rm -f "$D/conv_result.csv" "$D/conv_rss" "$D/conv_err"
exit 0

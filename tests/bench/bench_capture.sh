#!/bin/sh
# What capture costs (BorderPatrol Figure 11, vPath Table 3): the live test
# system (testbed/hotel.py, thread-per-request model) at fixed open-loop
# rates, with and without pbcapture on every process: requests answered
# per second and latency percentiles (wall clock, measured by the load
# generator), runs interleaved (without, with, without, with) so drift
# cancels; the spread is the two runs' range.  5 s per run (PB_BENCH_QUICK=1:
# 2 s).  Needs python3; says so and stops without it.  First, what one
# intercepted call costs (bench_capture_calls.c, with and without
# LD_PRELOAD), which no load on the test system hides.
set -u
. "$(dirname "$0")/lib.sh"  # speed_row, verdict
[ -x "$PB_BIN/pbcapture" ] || { echo "pbcapture not built"; exit 0; }
dur=5; [ "${PB_BENCH_QUICK:-0}" = 1 ] && dur=2
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT INT TERM

# 1. one intercepted call: bench_capture_calls (a loopback TCP connection,
# small sends and their receipts in one thread), plainly and under
# pbcapture, interleaved, 3 runs each; the median of each; ns per call
calls=400000; [ "${PB_BENCH_QUICK:-0}" = 1 ] && calls=40000
if [ -x "$PB_BENCHBIN/bench_capture_calls" ]; then
    for run in 1 2 3; do
        for cap in no yes; do
            if [ $cap = yes ]; then
                rm -rf "$W/calls"
                "$PB_BIN/pbcapture" -o "$W/calls" -- "$PB_BENCHBIN/bench_capture_calls" $((calls / 2)) 100
            else
                "$PB_BENCHBIN/bench_capture_calls" $((calls / 2)) 100
            fi | sed "s/^/$cap /"
        done
    done > "$W/calls.out"
    rm -rf "$W/calls"
    load=$(cut -d' ' -f1 /proc/loadavg)
    m=$(awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "cpu_ns_per_call") v[$1, ++n[$1]] = kv[2] } }
        function med(c,   a, k, j, t) { for (k = 1; k <= n[c]; k++) a[k] = v[c, k]
            for (k = 1; k <= n[c]; k++) for (j = k + 1; j <= n[c]; j++) if (a[j] < a[k]) { t = a[k]; a[k] = a[j]; a[j] = t }
            return a[int((n[c] + 1) / 2)] }
        END { printf "%d %d %d", med("no"), med("yes"), med("yes") - med("no") }' "$W/calls.out")
    set -- $m
    echo "one intercepted call (send or recv of 100 bytes on loopback TCP, CPU ns, median of 3):"
    echo "  without $1 ns, with pbcapture $2 ns: $3 ns per event (load average $load)"
    speed_row capture-0 "pbcapture: cost of one intercepted send or recv (100 B, loopback TCP)" \
        "<= 1000 ns per event" "$3 ns per event ($1 ns without, $2 ns with; CPU, median of 3 interleaved runs of $calls calls, load $load)" \
        "" "$(verdict "$3" '<=' 1000)"
else
    echo "bench_capture_calls not built (make bench builds it)"
fi

command -v python3 >/dev/null 2>&1 || { echo "python3 missing: no test-system benchmark"; exit 0; }
echo "| rate (req/s) | capture | answered/s | p50 ms | p90 ms | p99 ms |"
echo "|---|---|---|---|---|---|"
for rate in 50 150; do
    for run in 1 2; do
        for cap in no yes; do
            if [ $cap = yes ]; then
                rm -rf "$W/cap"
                out=$(timeout 120 python3 "$PB_ROOT/testbed/hotel.py" run --model thread --rate $rate \
                    --duration $dur --pbcapture "$PB_BIN/pbcapture" --capture "$W/cap")
            else
                out=$(timeout 120 python3 "$PB_ROOT/testbed/hotel.py" run --model thread --rate $rate --duration $dur)
            fi
            echo "$out" | awk -v r=$rate -v c=$cap -v d=$dur '/^sent=/ {
                for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                printf "%s\t%s\t%.1f\t%s\t%s\t%s\n", r, c, v["ok"] / d, v["p50_ms"], v["p90_ms"], v["p99_ms"] }' >> "$W/rows"
        done
    done
done
awk -F'\t' '{ k = $1 "\t" $2; n[k]++
        for (i = 3; i <= 6; i++) { s[k, i] += $i
            if (n[k] == 1 || $i < lo[k, i]) lo[k, i] = $i
            if (n[k] == 1 || $i > hi[k, i]) hi[k, i] = $i } }
    END { for (k in n) { split(k, kk, "\t"); printf "| %s | %s |", kk[1], kk[2]
          for (i = 3; i <= 6; i++) printf " %.2f (%.2f-%.2f) |", s[k, i] / n[k], lo[k, i], hi[k, i]; printf "\n" } }' "$W/rows" | sort
awk -F'\t' '$2 == "no" { b[$1] += $4; nb[$1]++ } $2 == "yes" { w[$1] += $4; nw[$1]++ }
    END { for (r in b) if (nw[r]) printf "capture\t%s\t%.2f\t%.2f\n", r, b[r] / nb[r], w[r] / nw[r] }' "$W/rows" > "$W/p50"
while IFS='	' read -r _ r b w; do
    speed_row "capture-$r" "pbcapture on the test system at $r req/s: median latency" \
        "under 2x without" "$b ms without, $w ms with (wall; thread model, ${dur} s, 2 runs interleaved, load $(cut -d' ' -f1 /proc/loadavg))" \
        "BorderPatrol Fig. 11: 10-20 % throughput; vPath Table 3: 6 % response time" \
        "$(verdict "$(awk -v b="$b" -v w="$w" 'BEGIN { print w / b }')" '<' 2)"
done < "$W/p50"
echo
echo "Wall-clock latency of the load generator's requests; load average $(cut -d' ' -f1 /proc/loadavg) when it ended."

#!/bin/sh
# What capture costs (BorderPatrol Figure 11, vPath Table 3): the live test
# system (testbed/hotel.py, thread-per-request model) at fixed open-loop
# rates, with and without pbcapture on every process: requests answered
# per second and latency percentiles (wall clock, measured by the load
# generator), runs interleaved (without, with, without, with) so drift
# cancels; the spread is the two runs' range.  5 s per run (PB_BENCH_QUICK=1:
# 2 s).  Needs python3; says so and stops without it.
set -u
speed_row() { [ -n "${PB_BENCH_MD:-}" ] && printf '%s\t| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5" >>"$PB_BENCH_MD"; return 0; }
command -v python3 >/dev/null 2>&1 || { echo "python3 missing: no capture benchmark"; exit 0; }
[ -x "$PB_BIN/pbcapture" ] || { echo "pbcapture not built"; exit 0; }
dur=5; [ "${PB_BENCH_QUICK:-0}" = 1 ] && dur=2
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT INT TERM
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
        "under 2x without" "$b ms without, $w ms with (wall; thread model, ${dur} s, 2 runs interleaved)" \
        "BorderPatrol Fig. 11: 10-20 % throughput; vPath Table 3: 6 % response time"
done < "$W/p50"
echo
echo "Wall-clock latency of the load generator's requests; load average $(cut -d' ' -f1 /proc/loadavg) when it ended."

#!/bin/sh
# isolation (issue 23): BorderPatrol's event isolation (seed 002, 3.2) on
# its own case study, dearinter.net (6.1; maketrace/configs/dearinter.conf:
# a single-process event-driven Apache in front of FastCGI and
# PostgreSQL), against offered load (-s instances=N browsers):
#   iso     isolation: Apache reads one input at a time, the next only
#           after the current fragment's outputs are sent (the default)
#   batch   batched reads: one read takes up to 4 queued inputs
#           (-s Apache.batch=4), as Apache did without isolation in 6.1
# Every method runs on every trace (borderpatrol by thread and by node,
# vpath's three variants, nesting, joint with and without call ids,
# linking and the baselines); each row also has the mean page latency,
# so the latency isolation costs in the model (one 50 us read per input
# instead of one per batch) is iso's latency over batch's.
FIG=isolation
FIG_TITLE="exact accuracy with event isolation and with batched reads vs load; latency of isolation"
FIG_HOW="maketrace dearinter.conf --seed SEED -s instances=N [-s Apache.batch=4] | infer (method) | score --truth (same trace)"
. "$(dirname "$0")/lib.sh"

fig_points() {
    dur=$(mode_pick 20 10 4)
    loads=$(mode_pick "4 16 64 128 256" "4 32 128" "32")
    # full: 3 seeds (the verdicts are judged from their intervals); quick
    # 2, tiny 1 (docs/experiments.md "How a verdict is judged")
    ns=$(mode_pick 3 2 1)
    # tiny: every method (a plot needs every column), one load
    methods=$PRECISE_METHODS
    for m in $methods; do
        for seed in $(seeds "$ns"); do
            for v in iso batch; do
                for n in $loads; do point "$v-$n-$m-$seed" variant=$v x=$n method=$m seed=$seed dur=$dur; done
            done
        done
    done
}

fig_run() {
    case "$P_variant" in
    iso) set -- ;;
    batch) set -- -s Apache.batch=4 ;;
    *) echo "unknown variant $P_variant" >&2; return 1 ;;
    esac
    gen_to t.csv dearinter -s duration="${P_dur}s" -s instances="$P_x" "$@" || return 1
    set -- $(memo paths path_stats t.csv)
    rate=$(awk -v n="$1" -v d="$P_dur" 'BEGIN { printf "%.2f", n / d }')
    # shellcheck disable=SC2046
    "$PB_BIN/infer" $(method_args "$P_method" browser) -o r.csv t.csv || return 1
    score t.csv r.csv | prefix_rows "variant,x,method,seed,rate,mean_latency" \
        "$P_variant,$P_x,$P_method,$P_seed,$rate,$3"
}

# isolation_{iso,batch}.dat: x rate, per method the mean exact accuracy,
# then the meters and the mean latency (ms); isolation_latency.dat: x,
# rate, latency with isolation and with batched reads (ms), the cost (%)
fig_collect() {
    for v in iso batch; do
        awk -F, -v v="$v" -v methods="$PRECISE_METHODS" '
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        $(c["variant"]) == v {
            x = $(c["x"]); m = $(c["method"])
            if (!(x in seen)) { seen[x] = 1; xs[++nx] = x }
            if ($(c["exact_accuracy"]) != "") { a[x, m] += $(c["exact_accuracy"]); na[x, m]++ }
            r[x] += $(c["rate"]); l[x] += $(c["mean_latency"]); nr[x]++
            if ($(c["immediacy"]) != "") { im[x] += $(c["immediacy"]); ni[x]++ }
            if ($(c["thread_pattern"]) != "") { tp[x] += $(c["thread_pattern"]); nt[x]++ }
        }
        END {
            nm = split(methods, M, " ")
            print "# isolation " v ": exact accuracy (fraction, mean over seeds) per method, the truth meters, mean page latency (ms)"
            line = "# x rate"; for (k = 1; k <= nm; k++) line = line " " M[k]; print line " immediacy thread_pattern latency_ms"
            for (i = 1; i <= nx; i++) {
                x = xs[i]; line = x " " sprintf("%.2f", r[x] / nr[x])
                for (k = 1; k <= nm; k++) line = line " " (na[x, M[k]] ? sprintf("%.4f", a[x, M[k]] / na[x, M[k]]) : "NaN")
                line = line " " (ni[x] ? sprintf("%.4f", im[x] / ni[x]) : "NaN") " " (nt[x] ? sprintf("%.4f", tp[x] / nt[x]) : "NaN")
                print line " " sprintf("%.4f", 1000 * l[x] / nr[x])
            }
        }' "$OUT/$FIG.dat" | awk 'NR <= 2 { print; next } { print | "sort -g -k1,1" }' >"$OUT/${FIG}_$v.dat"
    done
    nm=$(echo "$PRECISE_METHODS" | wc -w)
    lc=$((nm + 5))
    awk -v lc="$lc" 'FNR == 1 { f++ } /^#/ { next }
        f == 1 { li[$1] = $lc; r[$1] = $2; xs[++n] = $1 }
        f == 2 { lb[$1] = $lc }
        END { print "# isolation: mean page latency (ms) with isolation and with batched reads, and what isolation costs (%)"
              print "# x rate latency_iso latency_batch cost_pct"
              for (i = 1; i <= n; i++) { x = xs[i]; if (!(x in lb)) continue
                  printf "%s %s %s %s %.2f\n", x, r[x], li[x], lb[x], (lb[x] > 0 ? 100 * (li[x] / lb[x] - 1) : 0) } }' \
        "$OUT/${FIG}_iso.dat" "$OUT/${FIG}_batch.dat" >"$OUT/${FIG}_latency.dat"
    # the plot's bars: each method's mean and 95 % t interval over the seeds
    for v in iso batch; do precise_ci variant "$v" 1 >"$OUT/${FIG}_${v}_ci.dat"; done
}

pb_main "$@"

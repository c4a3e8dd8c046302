#!/bin/sh
# vpath_assumptions (issue 23): where vPath's rule (seed 003, 2.2-2.4) is
# exact and where it breaks, beside every other method.  maketrace's
# execution and connection models (docs/maketrace.md "Threads and
# connections") on hotel.conf:
#   load     pooled worker ids (-s observed=1), offered load rising with
#            -s instances=N (x: requests per second generated)
#   handoff  share of continuations handed to another worker after a
#            return, 0-50 % (-s handoff=P), at instances=22
#   model    one bar per execution and connection model at instances=22
# and the paper's case studies (case: vapp, tpcw, rubis, their configs'
# defaults but shorter).  Every point runs one method on one trace; the
# score row carries the truth's assumption meters (immediacy,
# thread_pattern: docs/metrics.md), which say why a trace is hard.
FIG=vpath_assumptions
FIG_TITLE="exact accuracy vs load with pooled threads, vs hand-offs, per execution and connection model"
FIG_HOW="maketrace CONF --seed SEED -s observed=1 (model settings) | infer (method) | score --truth (same trace)"
. "$(dirname "$0")/lib.sh"

# the model bars: name -> maketrace settings on hotel.conf
model_defs() {
    case "$1" in
    pool) echo "-s observed=1" ;;
    dispatcher) echo "-s exec=dispatcher" ;;
    handoff10) echo "-s handoff=0.1" ;;
    event1) echo "-s exec=event -s threads=1" ;;
    event1b4) echo "-s exec=event -s threads=1 -s batch=4" ;;
    event4) echo "-s exec=event -s threads=4" ;;
    seda) echo "-s exec=seda -s stages=2" ;;
    connpool) echo "-s conn=pool -s conns=2" ;;
    pipelined) echo "-s conn=pipelined -s conns=1" ;;
    multiplexed) echo "-s conn=multiplexed -s conns=1" ;;
    *) return 1 ;;
    esac
}
MODELS="pool dispatcher handoff10 event1 event1b4 event4 seda connpool pipelined multiplexed"

fig_points() {
    dur=$(mode_pick 10 5 2)
    loads=$(mode_pick "1 5 10 22 44 100" "1 5 22 44 100" "22")
    hos=$(mode_pick "0 0.01 0.02 0.05 0.1 0.2 0.3 0.5" "0 0.01 0.05 0.1 0.2 0.5" "0.1")
    models=$(mode_pick "$MODELS" "$MODELS" "event1")
    cases=$(mode_pick "vapp tpcw rubis" "vapp tpcw rubis" "vapp")
    # full: 3 seeds (the verdicts are judged from their intervals); quick
    # 2, tiny 1 (docs/experiments.md "How a verdict is judged")
    ns=$(mode_pick 3 2 1)
    # tiny: every method (a plot needs every column), one point per sweep
    methods=$PRECISE_METHODS
    for m in $methods; do
        for seed in $(seeds "$ns"); do
            for n in $loads; do point "load-$n-$m-$seed" sweep=load x=$n method=$m seed=$seed dur=$dur; done
            for h in $hos; do point "ho-$h-$m-$seed" sweep=handoff x=$h method=$m seed=$seed dur=$dur; done
            for md in $models; do point "md-$md-$m-$seed" sweep=model x=$md method=$m seed=$seed dur=$dur; done
            for c in $cases; do point "case-$c-$m-$seed" sweep=case x=$c method=$m seed=$seed dur=$dur; done
        done
    done
}

fig_run() {
    conf=hotel
    case "$P_sweep" in
    load) set -- -s observed=1 -s instances="$P_x" ;;
    handoff) set -- -s observed=1 -s instances=22 -s handoff="$P_x" ;;
    model) set -- $(model_defs "$P_x") -s instances=22 || return 1 ;;
    case) conf=$P_x; set -- ;;
    *) echo "unknown sweep $P_sweep" >&2; return 1 ;;
    esac
    gen_to t.csv "$conf" -s duration="${P_dur}s" "$@" || return 1
    set -- $(memo paths path_stats t.csv)
    rate=$(awk -v n="$1" -v d="$P_dur" 'BEGIN { printf "%.1f", n / d }')
    # shellcheck disable=SC2046
    "$PB_BIN/infer" $(method_args "$P_method" client) -o r.csv t.csv || return 1
    score t.csv r.csv | prefix_rows "sweep,x,method,seed,rate,mean_latency" \
        "$P_sweep,$P_x,$P_method,$P_seed,$rate,$3"
}

# per sweep: x (rate for load), then per method the mean exact accuracy
# over seeds, then the mean meters
fig_collect() {
    for s in load handoff model case; do
        awk -F, -v s="$s" -v methods="$PRECISE_METHODS" '
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        $(c["sweep"]) == s {
            x = $(c["x"]); m = $(c["method"])
            if (!(x in seen)) { seen[x] = 1; xs[++nx] = x }
            if ($(c["exact_accuracy"]) != "") { a[x, m] += $(c["exact_accuracy"]); na[x, m]++ }
            r[x] += $(c["rate"]); nr[x]++
            if ($(c["immediacy"]) != "") { im[x] += $(c["immediacy"]); ni[x]++ }
            if ($(c["thread_pattern"]) != "") { tp[x] += $(c["thread_pattern"]); nt[x]++ }
        }
        END {
            nm = split(methods, M, " ")
            print "# vpath_assumptions " s ": exact accuracy (fraction, mean over seeds) per method, then the truth meters"
            line = "# x rate"; for (k = 1; k <= nm; k++) line = line " " M[k]; print line " immediacy thread_pattern"
            for (i = 1; i <= nx; i++) {
                x = xs[i]; line = x " " sprintf("%.1f", r[x] / nr[x])
                for (k = 1; k <= nm; k++) line = line " " (na[x, M[k]] ? sprintf("%.4f", a[x, M[k]] / na[x, M[k]]) : "NaN")
                line = line " " (ni[x] ? sprintf("%.4f", im[x] / ni[x]) : "NaN") " " (nt[x] ? sprintf("%.4f", tp[x] / nt[x]) : "NaN")
                print line
            }
        }' "$OUT/$FIG.dat" | { if [ "$s" = load ] || [ "$s" = handoff ]; then
            awk 'NR <= 2 { print; next } { print | "sort -g -k1,1" }'; else cat; fi; } >"$OUT/${FIG}_$s.dat"
        # the plot's bars: each method's mean and 95 % t interval over the seeds
        srt=0; { [ "$s" = load ] || [ "$s" = handoff ]; } && srt=1
        precise_ci sweep "$s" "$srt" >"$OUT/${FIG}_${s}_ci.dat"
    done
}

pb_main "$@"

#!/bin/sh
# joint_models2.sh - the second execution-model audit of issue 28: models
# and application shapes the first (joint_models.sh, 140 rows, left as it
# is) does not hold: a service that calls itself (recur), hedged and
# speculative duplicate calls with fire-and-forget calls (hedge), an
# async event loop of one thread per service interleaving many requests
# with callbacks and a fan-in of three callers to one cache (eloop), and
# thread-per-connection servers behind keep-alive connection pools with
# bursty arrival and a bimodal service (keepalive).  The same runs and
# scoring as joint_models.sh (experiments/lib.sh "held-out audits"): every
# call-view method, given spans and as a black box, stamps ns, 1 us,
# 1 ms and skewed, x1 and x2 load.
#
#   sh experiments/joint_models2.sh [--quick] [--out DIR] [--seeds "S..."]
#                                   [--keep DIR] [--configs "C..."]
#
# Configs: experiments/joint_models_{recur,hedge,eloop,keepalive}.conf
# (docs/joint/shapes.md "Unseen execution models"), each DURATION (2 s) of
# trace, maketrace seeds 1, 2 and 3 (--seeds).  --quick: seed 1, x1 ns,
# 1us, 1ms and x2 ns.
#
# Environment: as joint_models.sh (PB_BIN, PB_OUT, PB_MODELS_ALGOS,
# PB_MODELS_DURATION).  Writes $PB_OUT/joint_models2.csv and
# $PB_OUT/joint_models2.md ("LOSS" as in joint_models.sh).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/experiments/cost.sh"
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out}"
: "${PB_MODELS_DURATION:=2s}"
FIG=joint_models2
. "$ROOT/experiments/lib.sh"
AUDIT=joint_models2
CONFIGS="recur hedge eloop keepalive"
audit_args "$@"
audit_setup
if [ -n "${PB_MODELS_ALGOS:-}" ]; then
    ALGOS=$PB_MODELS_ALGOS
else
    ALGOS=$(audit_algos)
fi
if [ "$QUICK" = 1 ]; then
    : "${SEEDS:=1}"; VARIANTS="x1:ns x1:1us x1:1ms x2:ns"
else
    : "${SEEDS:=1 2 3}"; VARIANTS="x1:ns x1:1us x1:1ms x1:skew x2:ns x2:1us x2:1ms"
fi
CSV="$PB_OUT/joint_models2.csv"
CSVTMP="$CSV.tmp"
CONFPREFIX=joint_models_
DURATION=$PB_MODELS_DURATION
echo "config,seed,variant,mode,algo,exact_accuracy,set_accuracy,requests,cpu_s,cpu_s_per_1000" > "$CSVTMP"
audit_loop
mv "$CSVTMP" "$CSV"
audit_report "$CSV" "Joint against the best other method on unseen execution models (recursion, hedging, event loops, keep-alive)" \
"$PB_MODELS_DURATION of trace per
config and seed; x1 = the config's load, x2 = twice; stamps ns as generated, 1us / 1ms
rounded down, skew = per-host offsets uniform in +-0.1 ms).  LOSS: joint below the
best other by more than 0.5 points and more than 2 requests.  Written by
experiments/joint_models2.sh." > "$PB_OUT/joint_models2.md"
echo "joint_models2: wrote $PB_OUT/joint_models2.md" >&2
pb_cost_report joint_models2

#!/bin/sh
# joint_models.sh - the held-out generalisation audit of issue 28 over
# execution and connection models joint was never tuned on: every
# call-view method on maketrace services with thread pools (bounded,
# handoff, batch), dispatchers, event loops (one or more threads, with and
# without event isolation), SEDA stages and every connection model
# (new, pool, pipelined, multiplexed), mixed per service, on fan-out,
# fan-in (joins), repeated calls and deep chains; stamps as generated
# (ns), rounded to 1 us and to 1 ms (`skewer --round`), and with a little
# clock skew (`skewer --random-offset uniform:0.1ms`); given spans (call
# ids) and as a black box (call ids emptied).  Scored by score's exact and
# set accuracy, with the CPU per 1000 requests (infer's cpu_read_s +
# cpu_infer_s).
#
#   sh experiments/joint_models.sh [--quick] [--out DIR] [--seeds "S..."]
#                                  [--keep DIR] [--configs "C..."]
#
# Configs: experiments/joint_models_{pool,dispatch,event,seda,mixed}.conf
# (docs/joint/audits.md "Execution models"), each DURATION (2 s) of trace at the
# config's load (x1) and at twice its load (x2, `-s instances_scale=2`),
# with maketrace seeds 1 and 2 (--seeds).  Variants: x1 ns, 1us, 1ms,
# skew; x2 ns, 1us, 1ms.
# The trace keeps the columns a tracer of one thread per receipt would
# see (thread, as the eBPF capture's; sthread and conn are dropped).
# --quick: seed 1 only, variants x1 ns, 1us, 1ms and x2 ns.
# --keep DIR: write every variant trace (with call ids and truth) to DIR.
#
# PB_INFER_ARGS: infer options for joint only, e.g. "-s conf_sims=2"
# (experiments/infer_args.sh: checked before the run; recorded in the CSV's
# last column, infer_args, and in the .md).
# Environment: PB_BIN (default <repo>/bin), PB_OUT (default <repo>/out),
# PB_MODELS_ALGOS (the methods; default joint and every call-view
# baseline infer knows), PB_MODELS_DURATION (default 2s).
# Writes $PB_OUT/joint_models.csv (one row per config, seed, variant, mode,
# method) and $PB_OUT/joint_models.md (joint against the best other method
# of every row, its margin in points and in requests, then every method's
# exact / set accuracy and CPU).  A row where joint is below the best other
# by more than 0.5 points and more than 2 requests is marked "LOSS".
# Deterministic (apart from the CPU column); prints what its own run took
# (experiments/cost.sh).
# PB_MODELS_SET=2 (experiments/joint_models2.sh): the second audit's
# configs (recur hedge eloop keepalive), seeds 1 2 3, written to
# joint_models2.{csv,md}; the default set is the 140 rows above.
# PB_MODELS_SET=3 (experiments/joint_models3.sh): the third audit's
# configs (mesh shard backoff steal), seeds 1 2 3, joint_models3.{csv,md}.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/experiments/cost.sh"
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out}"
: "${PB_MODELS_DURATION:=2s}"
# any other value ran the first set under its name without a word
case "${PB_MODELS_SET:-1}" in
1|2|3) ;;
*) echo "joint_models: PB_MODELS_SET '$PB_MODELS_SET': expected 1, 2 (joint_models2.sh) or 3 (joint_models3.sh)" >&2; exit 2 ;;
esac
FIG=joint_models
SEEDS2="1 2"
TITLE="held-out execution and connection models"
if [ "${PB_MODELS_SET:-1}" = 2 ]; then
    FIG=joint_models2 SEEDS2="1 2 3" TITLE="unseen execution models (recursion, hedging, event loops, keep-alive)"
elif [ "${PB_MODELS_SET:-1}" = 3 ]; then
    FIG=joint_models3 SEEDS2="1 2 3" TITLE="unseen execution models, third round (service mesh, sharded cache, backoff, work stealing)"
fi
. "$ROOT/experiments/lib.sh"
AUDIT=$FIG
CONFIGS="pool dispatch event seda mixed"
[ "$FIG" = joint_models2 ] && CONFIGS="recur hedge eloop keepalive"
[ "$FIG" = joint_models3 ] && CONFIGS="mesh shard backoff steal"
audit_args "$@"
audit_setup
if [ -n "${PB_MODELS_ALGOS:-}" ]; then
    ALGOS=$PB_MODELS_ALGOS
    algos_check "$FIG" PB_MODELS_ALGOS
else
    ALGOS=$(audit_algos)
fi
if [ "$QUICK" = 1 ]; then
    : "${SEEDS:=1}"; VARIANTS="x1:ns x1:1us x1:1ms x2:ns"
else
    : "${SEEDS:=$SEEDS2}"; VARIANTS="x1:ns x1:1us x1:1ms x1:skew x2:ns x2:1us x2:1ms"
fi
CSV="$PB_OUT/$FIG.csv"
CSVTMP="$CSV.tmp"
CONFPREFIX=joint_models_
DURATION=$PB_MODELS_DURATION
echo "config,seed,variant,mode,algo,exact_accuracy,set_accuracy,requests,cpu_s,cpu_s_per_1000,infer_args" > "$CSVTMP"
audit_loop
mv "$CSVTMP" "$CSV"
audit_report "$CSV" "Joint against the best other method on $TITLE" \
"$PB_MODELS_DURATION of trace per
config and seed; x1 = the config's load, x2 = twice; stamps ns as generated, 1us / 1ms
rounded down, skew = per-host offsets uniform in +-0.1 ms).  LOSS: joint below the
best other by more than 0.5 points and more than 2 requests.  Written by
experiments/$FIG.sh." > "$PB_OUT/$FIG.md"
echo "$FIG: wrote $PB_OUT/$FIG.md" >&2
pb_cost_report "$FIG"

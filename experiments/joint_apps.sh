#!/bin/sh
# joint_apps.sh - the held-out generalisation audit of issue 28 over
# application shapes and behaviours joint was never tuned on: every
# call-view method on maketrace applications with retries after a
# timeout, caches (a call only some requests make), asynchronous calls and
# message queues (children that outlive their parent), parallel calls then
# a join, a twelve-level chain, a sixty-way fan-out, many endpoints on one
# service, heavy-tailed service times, bursty arrivals, short and very long
# requests mixed, and a social-network-like and a media-like application;
# stamps as generated (ns) and rounded down to 1 ms (`skewer --round`);
# given spans (call ids) and as a black box (call ids emptied).  Scored by
# score's exact and set accuracy, with the CPU per 1000 requests (infer's
# cpu_read_s + cpu_infer_s).
#
#   sh experiments/joint_apps.sh [--quick] [--out DIR] [--seeds "S..."]
#                                [--keep DIR] [--configs "C..."]
#
# Configs: experiments/joint_apps_{retry,cache,async,parjoin,deep,wide,
# endpoints,heavytail,bursty,shortlong,social,media}.conf (docs/joint/audits.md
# "Held-out audit over application shapes"), each DURATION (2 s) of trace
# at the config's load (x1) and at twice its load (x2, `-s
# instances_scale=2`), with maketrace seeds 1, 2 and 3 (--seeds).
# Variants: x1 ns, 1ms; x2 ns, 1ms.
# --quick: seed 1 only, variants x1 ns and x1 1ms.
# --keep DIR: write every variant trace (with call ids and truth) to DIR.
#
# PB_INFER_ARGS: infer options for joint only, e.g. "-s conf_sims=2"
# (experiments/infer_args.sh: checked before the run; recorded in the CSV's
# last column, infer_args, and in the .md).
# Environment: PB_BIN (default <repo>/bin), PB_OUT (default <repo>/out),
# PB_APPS_ALGOS (the methods; default joint and every call-view baseline
# infer knows), PB_APPS_DURATION (default 2s).
# Writes $PB_OUT/joint_apps.csv (one row per config, seed, variant, mode,
# method) and $PB_OUT/joint_apps.md (joint against the best other method
# of every row, its margin in points and in requests, then every method's
# exact / set accuracy and CPU).  A row where joint is below the best other
# by more than 0.5 points and more than 2 requests is marked "LOSS".
# Deterministic (apart from the CPU column); prints what its own run took
# (experiments/cost.sh).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/experiments/cost.sh"
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out}"
: "${PB_APPS_DURATION:=2s}"
FIG=joint_apps
. "$ROOT/experiments/lib.sh"
AUDIT=joint_apps
CONFIGS="retry cache async parjoin deep wide endpoints heavytail bursty shortlong social media"
audit_args "$@"
audit_setup
ALGOS=${PB_APPS_ALGOS:-$(audit_algos)}
[ -z "${PB_APPS_ALGOS:-}" ] || algos_check joint_apps PB_APPS_ALGOS
if [ "$QUICK" = 1 ]; then
    : "${SEEDS:=1}"; VARIANTS="x1:ns x1:1ms"
else
    : "${SEEDS:=1 2 3}"; VARIANTS="x1:ns x1:1ms x2:ns x2:1ms"
fi
CSV="$PB_OUT/joint_apps.csv"
CSVTMP="$CSV.tmp"
CONFPREFIX=joint_apps_
DURATION=$PB_APPS_DURATION
echo "config,seed,variant,mode,algo,exact_accuracy,set_accuracy,requests,cpu_s,cpu_s_per_1000,infer_args" > "$CSVTMP"
audit_loop
mv "$CSVTMP" "$CSV"
audit_report "$CSV" "Joint against the best other method on held-out application shapes" \
"$PB_APPS_DURATION of trace per
config and seed; x1 = the config's load, x2 = twice; stamps ns as generated, 1ms rounded
down).  LOSS: joint below the best other by more than 0.5 points and more than 2
requests.  Written by experiments/joint_apps.sh." > "$PB_OUT/joint_apps.md"
echo "joint_apps: wrote $PB_OUT/joint_apps.md" >&2
pb_cost_report joint_apps

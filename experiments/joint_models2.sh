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
# (the code is joint_models.sh's, with PB_MODELS_SET=2)
PB_MODELS_SET=2 exec sh "$(dirname "$0")/joint_models.sh" "$@"

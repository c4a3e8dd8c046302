#!/bin/sh
# joint_models3.sh - the third execution-model audit of issue 28: models
# neither joint_models.sh (140 rows) nor joint_models2.sh holds: a service
# mesh (every call through the caller's and the callee's sidecar proxy,
# event loops of two threads, near-zero hops), a cache in front of a
# sharded store (most requests skip the subtree; the shard chosen per
# key), timeouts with retries under exponential backoff and cancelled
# calls answered by a fallback, and work-stealing pools with coroutines
# on few threads.  Same runs and scoring as joint_models.sh.
#
#   sh experiments/joint_models3.sh [--quick] [--out DIR] [--seeds "S..."]
#                                   [--keep DIR] [--configs "C..."]
#
# Configs: experiments/joint_models_{mesh,shard,backoff,steal}.conf
# (docs/joint/shapes.md "Unseen execution models, third round"), seeds
# 1 2 3 (dev).  Writes $PB_OUT/joint_models3.{csv,md}.
# (the code is joint_models.sh's, with PB_MODELS_SET=3)
PB_MODELS_SET=3 exec sh "$(dirname "$0")/joint_models.sh" "$@"

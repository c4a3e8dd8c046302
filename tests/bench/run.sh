#!/bin/sh
# make bench: run every tests/bench/bench_*.sh (each prints its own table).
# Benchmarks measure; they never decide pass or fail.  BENCH=pattern filters.
# PB_BENCH_QUICK=1 makes each benchmark use small sizes (a smoke run).
set -u
cd "$(dirname "$0")/../.."
: "${PB_BIN:=$(pwd)/bin}"
: "${PB_BENCHBIN:=$(pwd)/build/bench}"
export PB_BIN PB_BENCHBIN PB_ROOT="$(pwd)"
export PB_BENCH_DIR="${PB_BENCH_DIR:-$(pwd)/build/benchdata}"
mkdir -p "$PB_BENCH_DIR"
for b in tests/bench/bench_*.sh; do
    [ -f "$b" ] || continue
    case "$(basename "$b")" in *"${BENCH:-}"*) ;; *) continue ;; esac
    echo "== $(basename "$b" .sh)"
    sh "$b" || echo "(benchmark $(basename "$b") exited $?)"
    echo
done

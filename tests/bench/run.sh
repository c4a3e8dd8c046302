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
# each benchmark adds its rows of the README's speed table here
export PB_BENCH_MD="$PB_BENCH_DIR/speed.rows"
: >"$PB_BENCH_MD"
for b in tests/bench/bench_*.sh; do
    [ -f "$b" ] || continue
    case "$(basename "$b")" in *"${BENCH:-}"*) ;; *) continue ;; esac
    echo "== $(basename "$b" .sh)"
    sh "$b" || echo "(benchmark $(basename "$b") exited $?)"
    echo
done

# The README's speed table (between <!-- speed:begin --> and
# <!-- speed:end -->) is rewritten from these measurements after a full
# run; a filtered (BENCH=...) or quick run only writes speed.md.
md="$PB_BENCH_DIR/speed.md"
{
    echo "| what | goal | measured | the papers |"
    echo "|---|---|---|---|"
    sort -t '	' -k1,1 "$PB_BENCH_MD" | cut -f2-
    echo
    c=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
    l=$(awk '{ print $1 }' /proc/loadavg 2>/dev/null || echo "?")
    echo "Measured by \`make bench\` at commit $c on $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores"
    echo "(load average $l when it ended); rates are per CPU second (user + system),"
    echo "memory is peak RSS, so the figures hold on a loaded machine too."
} >"$md"
rm -f "$PB_BENCH_MD"
echo "== speed table: $md"
cat "$md"
if [ -z "${BENCH:-}" ] && [ "${PB_BENCH_QUICK:-0}" != 1 ]; then
    sh scripts/readme_tables.sh speed "$md" README.md && echo "README.md: speed table rewritten"
else
    echo "(BENCH or PB_BENCH_QUICK set: README.md left as it is)"
fi

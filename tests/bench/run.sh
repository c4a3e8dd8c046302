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
# run; a filtered (BENCH=...) or quick run only writes speed.md, unless
# PB_BENCH_README=1 asks a filtered run to merge its rows into the table.
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
elif [ -n "${BENCH:-}" ] && [ "${PB_BENCH_QUICK:-0}" != 1 ] && [ "${PB_BENCH_README:-0}" = 1 ]; then
    # BENCH=... PB_BENCH_README=1: merge this run's rows into the README's
    # table (a row with the same "what" cell is replaced, a new one added at
    # the end) and say under the table which rows were re-measured when
    cur="$PB_BENCH_DIR/speed.cur" merged="$PB_BENCH_DIR/speed.merged"
    awk '$0 == "<!-- speed:begin -->" { p = 1; next } $0 == "<!-- speed:end -->" { p = 0 } p' README.md >"$cur"
    c=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
    l=$(awk '{ print $1 }' /proc/loadavg 2>/dev/null || echo "?")
    note="The rows of \`BENCH=$BENCH make bench\` were re-measured at commit $c (load average $l)."
    awk -v newf="$md" -v note="$note" -v tag="The rows of \`BENCH=$BENCH make bench\`" '
        function what(line,   f) { split(line, f, "|"); return f[2] }
        BEGIN {
            while ((getline l < newf) > 0)
                if (l ~ /^\| / && l !~ /^\| what \|/ && l !~ /^\|---/) { row[what(l)] = l; order[++n] = what(l) }
        }
        /^\|/ { intab = 1; w = what($0); if (w in row) { print row[w]; used[w] = 1 } else print; next }
        intab { for (i = 1; i <= n; i++) if (!(order[i] in used)) print row[order[i]]; intab = 0 }
        index($0, tag) == 1 { next }
        { print }
        END { print note }' "$cur" >"$merged"
    sh scripts/readme_tables.sh speed "$merged" README.md && echo "README.md: rows of BENCH=$BENCH merged into the speed table"
    rm -f "$cur" "$merged"
else
    echo "(BENCH or PB_BENCH_QUICK set: README.md left as it is; BENCH=... PB_BENCH_README=1 merges the rows)"
fi

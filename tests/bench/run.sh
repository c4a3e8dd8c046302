#!/bin/sh
# make bench: run every tests/bench/bench_*.sh (each prints its own table).
# Benchmarks measure; they never decide pass or fail.  BENCH=pattern filters.
# PB_BENCH_QUICK=1 makes each benchmark use small sizes (a smoke run).
# PB_BENCH_BIG=1 adds the 100 M-message sliding-window nesting row (about
# 100 CPU s more, and its spool needs about 5 GB of TMPDIR).
# The speed table goes to out/bench/speed.md (PB_BENCH_OUT), with a goal
# column that says met or missed per row (tests/bench/lib.sh: verdict); the
# README's table is changed only when PB_BENCH_README=1 asks: the rows of
# this run replace the rows of the same name, the others stay.
set -u
cd "$(dirname "$0")/../.."
: "${PB_BIN:=$(pwd)/bin}"
: "${PB_BENCHBIN:=$(pwd)/build/bench}"
export PB_BIN PB_BENCHBIN PB_ROOT="$(pwd)"
export PB_BENCH_DIR="${PB_BENCH_DIR:-$(pwd)/build/benchdata}"
mkdir -p "$PB_BENCH_DIR"
# each benchmark adds its rows of the README's speed table here
export PB_BENCH_MD="$PB_BENCH_DIR/speed.rows"
PB_BENCH_OUT="${PB_BENCH_OUT:-$(pwd)/out/bench}"
mkdir -p "$PB_BENCH_OUT"
load0=$(awk '{ print $1 }' /proc/loadavg 2>/dev/null || echo "?")
t0=$(date +%s)
: >"$PB_BENCH_MD"
for b in tests/bench/bench_*.sh; do
    [ -f "$b" ] || continue
    case "$(basename "$b")" in *"${BENCH:-}"*) ;; *) continue ;; esac
    echo "== $(basename "$b" .sh)"
    sh "$b" || echo "(benchmark $(basename "$b") exited $?)"
    echo
done

md="$PB_BENCH_OUT/speed.md"
c=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
l=$(awk '{ print $1 }' /proc/loadavg 2>/dev/null || echo "?")
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
{
    echo "| what | goal | measured | goal met | the papers |"
    echo "|---|---|---|---|---|"
    sort -t '	' -k1,1 "$PB_BENCH_MD" | cut -f2-
    echo
    echo "Measured by \`${BENCH:+BENCH=$BENCH }make bench\` at commit $c on $ncpu cores, load average"
    echo "$load0 when it started and $l when it ended ($(( $(date +%s) - t0 )) s wall);"
    echo "rates are per CPU second (user + system) and memory is peak RSS.  CPU"
    echo "time is not immune to load: rows measured again on the shared 2-core"
    echo "machine at load 2-4 came out 25-60 % slower than before (issue 27), so a"
    echo "goal met at one load may be missed at another; \"goal met\" checks the numbers the goal"
    echo "names (tests/bench/lib.sh), not its words (\"flat memory\", \"linear time\")."
    [ "${PB_BENCH_QUICK:-0}" = 1 ] && echo "PB_BENCH_QUICK=1: small sizes (a smoke run); a goal is for the size it names, so \"met\" here proves little."
} >"$md"
rm -f "$PB_BENCH_MD"
echo "== speed table: $md"
cat "$md"
if [ "${PB_BENCH_README:-0}" = 1 ] && [ "${PB_BENCH_QUICK:-0}" != 1 ]; then
    # merge this run's rows into the README's table (a row with the same
    # "what" cell is replaced, a new one added at the end; rows this run did
    # not measure, such as the 100 M row without PB_BENCH_BIG=1, stay) and
    # say under the table which rows were re-measured when
    cur="$PB_BENCH_DIR/speed.cur" merged="$PB_BENCH_DIR/speed.merged"
    awk '$0 == "<!-- speed:begin -->" { p = 1; next } $0 == "<!-- speed:end -->" { p = 0 } p' README.md >"$cur"
    tag="The rows of \`${BENCH:+BENCH=$BENCH }make bench\`"
    note="$tag were re-measured at commit $c (load average $load0 to $l)."
    awk -v newf="$md" -v note="$note" -v tag="$tag" '
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
    sh scripts/readme_tables.sh speed "$merged" README.md && echo "README.md: this run's rows merged into the speed table"
    rm -f "$cur" "$merged"
else
    echo "(README.md left as it is: PB_BENCH_README=1 merges this run's rows into its speed table)"
fi

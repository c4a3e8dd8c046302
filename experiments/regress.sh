#!/bin/sh
# regress.sh - `make regress`: the scorer's fixed hand-worked cases
# (experiments/regress_scorer.csv), then every point of
# experiments/regress.points on seeds 1..N, compared seed by seed with the
# committed baseline (experiments/baseline.dat) by bin/compare: per point
# and metric the mean paired difference with its 95 % interval, the sign
# count, the tolerance and the verdict (docs/experiments.md, "make regress").
#
#   sh experiments/regress.sh [options]
#     --update        write the values computed now as the new baseline (do
#                     it on purpose, once a change is explained, and commit
#                     the file with the change that caused it)
#     --baseline FILE  the baseline (default experiments/baseline.dat)
#     --seeds N       seeds per point (default: the baseline's, else 5)
#     --algos LIST    more algorithm items (exec:COMMAND included), each run
#                     on syn:multitier:3000 and hotel:100 too
#     --tol-sd F      a metric's tolerance in standard deviations of its
#                     baseline values over the seeds (default 0.1)
#     --wrap CMD      run every point through exec:'CMD ITEM' (the tests
#                     plant a degradation with experiments/plant_worse.sh)
#     --save FILE     also write the values computed now (per seed) to FILE
#     --current FILE  compare FILE (values saved by --save) instead of
#                     recomputing
#     --scorer-cases FILE  the scorer's fixed cases (default
#                     experiments/regress_scorer.csv)
#     -v              list every row, not only the changed ones
# Exit status: 0 nothing moved beyond its tolerance; 1 a metric is WORSE,
# a value is MISSING or a scorer case failed; 3 a metric is BETTER beyond
# what the seeds explain and nothing is worse: a change to explain (then
# --update); 2 bad usage or a run that failed.
# Environment: PB_BIN (programs, default <repo>/bin), PB_DATA (the hotel
# traces, default <repo>/../shared/data/deathstarbench-hotel; without them
# the hotel points are left out, with a note).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PB_ROOT=$ROOT
PAIRS_PROG=regress
. "$ROOT/experiments/pairs.sh"
CALLER_PWD=$(pwd)
cd "$ROOT" || exit 2
: "${PB_BIN:=$ROOT/bin}"
case "$PB_BIN" in /*) ;; *) PB_BIN="$ROOT/$PB_BIN" ;; esac
: "${PB_DATA:=$ROOT/../shared/data/deathstarbench-hotel}"
export PB_DATA
base="$ROOT/experiments/baseline.dat" update=0 seeds="" extra="" tolsd=0.1 wrap="" save="" given="" all=0
cases="$ROOT/experiments/regress_scorer.csv"
# an option that takes a value refused without one (was the shell's
# "parameter not set", naming no option)
needv() { [ $# -ge 4 ] || pairs_die "$1: expected $2 after it (try --help)"; }
while [ $# -gt 0 ]; do
    case "$1" in
    --baseline|--seeds|--algos|--tol-sd|--wrap|--save|--current|--scorer-cases)
        case "$1" in
        --seeds) what="a whole number of seeds from 1 to 1000" ;;
        --tol-sd) what="a number of standard deviations >= 0" ;;
        --algos) what="a list of algorithm items" ;;
        --wrap) what="a command" ;;
        *) what="a file" ;;
        esac
        needv "$1" "$what" "$@" ;;
    esac
    case "$1" in
    --update) update=1 ;;
    --baseline) base=$2; shift ;;
    --seeds) seeds=$2; shift ;;
    --algos) extra=$2; shift ;;
    --algos=*) extra=${1#--algos=} ;;
    --tol-sd) tolsd=$2; shift ;;
    --wrap) wrap=$2; shift ;;
    --save) save=$2; shift ;;
    --current) given=$2; shift ;;
    --scorer-cases) cases=$2; shift ;;
    -v) all=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) pairs_die "unknown option '$1' (try --help)" ;;
    esac
    shift
done
# file names given relative to where regress was started, not to the
# checkout it moves into (was "no file cur.csv" for --current cur.csv)
for v in base save given cases; do
    eval "f=\$$v"
    case "$f" in ''|/*) ;; *) eval "$v=\$CALLER_PWD/\$f" ;; esac
done
# values checked before any run: a bad one was found by compare only after
# every point had run (--tol-sd nan), or not at all (--seeds abc kept every
# baseline seed, --seeds 0 made every row MISSING)
if [ -n "$seeds" ]; then
    case "$seeds" in
    ''|0*|*[!0-9]*) pairs_die "--seeds $seeds: expected a whole number of seeds from 1 to 1000" ;;
    esac
    [ ${#seeds} -le 4 ] && [ "$seeds" -le 1000 ] ||
        pairs_die "--seeds $seeds: expected a whole number of seeds from 1 to 1000"
fi
printf '%s\n' "$tolsd" | grep -Eq '^([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$' ||
    pairs_die "--tol-sd $tolsd: expected a number of standard deviations >= 0 (such as 0.1)"
for p in maketrace infer score skewer sniffer importtrace compare; do
    [ -x "$PB_BIN/$p" ] || pairs_die "$PB_BIN/$p missing (run make)"
done
PAIRS_WORK=$(mktemp -d "${TMPDIR:-/tmp}/pb-regress.XXXXXX") || exit 2
trap 'rm -rf "$PAIRS_WORK"' EXIT
trap 'exit 130' INT TERM
PAIRS_TIME=0
commit=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# (the baseline itself does not make the programs dirty)
[ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null | grep -v ' experiments/baseline.dat$')" ] &&
    commit="$commit-dirty"

# 1. the scorer's own cases
bad=0 ncase=0
while IFS=, read -r name truth res opts col want; do
    case "$name" in '#'*|'') continue ;; esac
    ncase=$((ncase + 1))
    r=$res
    if [ "$res" = oracle ]; then
        r="$PAIRS_WORK/oracle.result"
        "$PB_BIN/infer" --algo truth "$truth" >"$r" </dev/null || { bad=1; continue; }
    fi
    # shellcheck disable=SC2086
    got=$("$PB_BIN/score" --truth "$truth" $opts "$r" </dev/null | csv_col=$col awk -F, '
        !h { for (i = 1; i <= NF; i++) if ($i == ENVIRON["csv_col"]) c = i; h = 1; next }
        { print (c ? $c : "no-such-column"); exit }')
    if ! awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(g != "" && g ~ /^[-+0-9.eE]+$/ && d <= 1e-5 && d >= -1e-5) }'; then
        echo "regress: scorer case $name: $col = '$got', expected $want (experiments/regress_scorer.csv)"
        bad=1
    fi
done <"$cases"
[ $bad -eq 0 ] && echo "regress: the scorer passes its $ncase fixed hand-worked values (experiments/regress_scorer.csv)"

# 2. the points
grep -v '^#' "$ROOT/experiments/regress.points" | sed '/^$/d' >"$PAIRS_WORK/points"
if [ -n "$extra" ]; then
    pairs_items "$extra" | while IFS= read -r it; do
        echo "||syn:multitier:3000|$it"
        echo "||hotel:100|$it"
    done >>"$PAIRS_WORK/points"
fi
nohotel=0
if [ ! -f "$PB_DATA/hotel_load100.tar.xz" ]; then
    nohotel=1
    grep -v '|hotel:' "$PAIRS_WORK/points" >"$PAIRS_WORK/p2"; mv "$PAIRS_WORK/p2" "$PAIRS_WORK/points"
    echo "regress: note: no hotel traces in $PB_DATA (set PB_DATA): the hotel points are left out"
fi
if [ -z "$seeds" ]; then
    seeds=$( [ -f "$base" ] && sed -n 's/^# .*seeds=\([0-9][0-9]*\).*/\1/p' "$base" | head -1)
    : "${seeds:=5}"
fi
cur="$PAIRS_WORK/current.csv"
if [ -n "$given" ]; then
    [ -f "$given" ] || pairs_die "no file $given"
    cp "$given" "$cur"
else
    pairs_run "$PAIRS_WORK/points" "$seeds" "$PB_BIN" "$wrap" "" "" "$cur" "" ||
        { echo "regress: some points failed (above)" >&2; exit 2; }
fi
[ -n "$save" ] && cp "$cur" "$save"
if [ $update -eq 1 ]; then
    [ $nohotel -eq 0 ] || echo "regress: warning: this baseline has no hotel points (no PB_DATA)" >&2
    {
        echo "# pathbench regression baseline (experiments/regress.sh --update): per point, metric and seed"
        echo "# commit=$commit seeds=$seeds made=$(date -u +%Y-%m-%d) points=experiments/regress.points"
        echo "# programs: maketrace, skewer, sniffer, importtrace (hotel: --callid --thread), infer with the items' settings, score (defaults)"
        cat "$cur"
    } >"$base.tmp" && mv "$base.tmp" "$base"
    echo "regress: wrote $(grep -vc '^#' "$base") lines to $base (seeds 1-$seeds, commit $commit)"
    exit 0
fi
[ -f "$base" ] || pairs_die "no baseline $base; make one with: sh experiments/regress.sh --update"
grep '^# commit=' "$base" | sed 's/^# /regress: baseline /'
[ "$PB_BIN" != "$ROOT/bin" ] && echo "regress: now programs=$PB_BIN (not this checkout's bin)"
echo "regress: now commit=$commit seeds=$seeds; tolerance per metric = max($tolsd x the sd of its baseline values over the seeds), verdicts from the 95 % paired t interval"
b="$PAIRS_WORK/base.csv"
if [ $nohotel -eq 1 ]; then grep -v '^hotel:' "$base" >"$b"; else cp "$base" "$b"; fi
# a baseline made with more seeds than now: compare the seeds run
awk -F, -v n="$seeds" '/^#/ || /^point,/ || $6 <= n' "$b" >"$b.2" && mv "$b.2" "$b"
set -- -q -s tol_sd="$tolsd" --labels "baseline,now"
[ $all -eq 0 ] && set -- "$@" --changes
"$PB_BIN/compare" "$@" "$b" "$cur"
rc=$?
[ $rc -ge 4 ] && exit 2
[ $bad -eq 1 ] && exit 1
case $rc in
1) echo "regress: WORSE, undecided-WORSE-than-0 or MISSING above: a degradation (exit 1)" ;;
3) echo "regress: BETTER beyond what the seeds explain: a change to explain; once explained, keep it with sh experiments/regress.sh --update and commit experiments/baseline.dat (exit 3)" ;;
0) echo "regress: no metric moved beyond its tolerance" ;;
esac
exit $rc

#!/bin/sh
# compare.sh - run the same points on two builds, several seeds each,
# paired on the same traces, and compare them per point and metric with
# bin/compare (docs/experiments.md, "Comparing two builds").
#
#   sh experiments/compare.sh [options] A B
#     A, B        a side: a folder of programs (bin), rev:COMMIT (that
#                 commit, built from `git archive` in a temporary folder),
#                 or exec:COMMAND (the programs of the other side, every
#                 point's algorithm replaced by `infer --algo exec:COMMAND`)
#     --algos LIST  the algorithms: items separated by commas, each
#                 NAME[:SET=VALUE...] or exec:COMMAND (default $PB_ALGOS,
#                 else every algorithm and mode: experiments/pairs.sh)
#     --points P  tiny, quick (default) or full (experiments/pairs.sh), big
#                 (the 2 M-message timing point: nesting, or each --algos
#                 item, on a 2,000,000-message multi-tier trace), SET+big
#                 (both), or a file of point lines SERIES|X|RECIPE|ITEM
#     --seeds N   seeds per point (default 5)
#     --set-a ALGO:NAME=VALUE, --set-b ALGO:NAME=VALUE
#                 add -s NAME=VALUE to that side's runs of ALGO (repeatable)
#     --wrap-b CMD  side B runs each point through exec:'CMD ITEM' (a
#                 wrapper that gets the item as arguments and PB_BIN; the
#                 tests plant degradations with experiments/plant_worse.sh)
#     --out DIR   where a.csv, b.csv (per-seed values), compare.txt,
#                 compare.csv and compare.html go (default out/compare)
#     --labels A,B  names of the sides (default: the specs)
#     --no-time   leave out cpu_s and maxrss_kb (output then byte-identical
#                 for the same seeds)
#     -s NAME=VALUE  passed to bin/compare (level, tol_sd, res_rel, ...)
#
#   sh experiments/compare.sh --figures [--out DIR] [--labels A,B] DIR_A DIR_B
#     compare two `make figures` output folders (two builds' runs; nothing
#     is run): every point of Figures 17, 19-22 found in both, paired by
#     figure, series (algorithm, config), x level and seed, with bin/compare
#     (the same table, CSV and verdicts), and compare.html gets each figure
#     with both folders' curves overlaid (A solid, B dashed, same colours;
#     gnuplot, overlay_FIG.svg).  experiments/compare_figs.sh says how.
# Traces are made and results scored with side A's programs.  Exit status:
# bin/compare's (0 nothing beyond tolerance, 1 worse or missing, 3 better
# or changed), 2 when a run failed.
# Environment: PB_BIN (side A's default programs for exec:), PB_DATA
# (hotel traces), PB_ALGOS.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PB_ROOT=$ROOT
PAIRS_PROG=compare
. "$ROOT/experiments/pairs.sh"
: "${PB_BIN:=$ROOT/bin}"
case "$PB_BIN" in /*) ;; *) PB_BIN="$ROOT/$PB_BIN" ;; esac
algos=${PB_ALGOS:-$PAIRS_ALL_ALGOS} points=quick seeds=5 out="$ROOT/out/compare"
labels="" wrapb="" cargs="" sides="" PAIRS_SET_A="" PAIRS_SET_B="" figures=0
while [ $# -gt 0 ]; do
    case "$1" in
    --algos) algos=$2; shift ;;
    --algos=*) algos=${1#--algos=} ;;
    --points) points=$2; shift ;;
    --seeds) seeds=$2; shift ;;
    --set-a) PAIRS_SET_A="$PAIRS_SET_A $2"; shift ;;
    --set-b) PAIRS_SET_B="$PAIRS_SET_B $2"; shift ;;
    --wrap-b) wrapb=$2; shift ;;
    --out) out=$2; shift ;;
    --labels) labels=$2; shift ;;
    --no-time) PAIRS_TIME=0 ;;
    --figures) figures=1 ;;
    -s) cargs="$cargs -s $2"; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) pairs_die "unknown option '$1' (try --help)" ;;
    *) sides="$sides
$1" ;;
    esac
    shift
done
case "$seeds" in ''|*[!0-9]*|0) pairs_die "--seeds $seeds: expected a whole number >= 1" ;; esac
[ "$(printf '%s\n' "$sides" | sed '/^$/d' | wc -l)" -eq 2 ] || pairs_die "expected two sides A B (try --help)"
specA=$(printf '%s\n' "$sides" | sed '/^$/d' | sed -n 1p)
specB=$(printf '%s\n' "$sides" | sed '/^$/d' | sed -n 2p)
export PAIRS_SET_A PAIRS_SET_B
PAIRS_WORK=$(mktemp -d "${TMPDIR:-/tmp}/pb-compare.XXXXXX") || exit 2
trap 'rm -rf "$PAIRS_WORK"' EXIT
trap 'exit 130' INT TERM
if [ $figures -eq 1 ]; then
    cmp="$PB_BIN/compare"
    [ -x "$cmp" ] || pairs_die "no $cmp (run make)"
    . "$ROOT/experiments/compare_figs.sh"
    figs_compare "$specA" "$specB"
fi

# side SPEC: sets _sb (programs) and _sw (wrap) for a side
side() {
    _sw=""
    case "$1" in
    exec:*) _sb=""; _sw="=$1" ;;
    rev:*)
        _c=${1#rev:}
        _d="$PAIRS_WORK/build-$(printf '%s' "$_c" | tr -c 'A-Za-z0-9' '_')"
        mkdir -p "$_d"
        git -C "$ROOT" archive --format=tar "$_c" | tar -xf - -C "$_d" ||
            pairs_die "cannot extract commit $_c"
        echo "compare: building $_c in a temporary folder" >&2
        make -C "$_d" -s -j2 all >"$_d.log" 2>&1 || { tail -20 "$_d.log" >&2; pairs_die "cannot build $_c"; }
        _sb="$_d/bin" ;;
    *)
        [ -x "$1/infer" ] || pairs_die "side '$1': no $1/infer (a bin folder, rev:COMMIT or exec:COMMAND)"
        _sb=$(cd "$1" && pwd) ;;
    esac
}
side "$specA"; binA=$_sb wrapA=$_sw
side "$specB"; binB=$_sb wrapB=$_sw
[ -n "$binA" ] || binA=${binB:-$PB_BIN}
[ -n "$binB" ] || binB=$binA
[ -n "$wrapb" ] && wrapB=$wrapb
[ -x "$binA/compare" ] || binA_cmp="$PB_BIN/compare"
cmp=${binA_cmp:-$binA/compare}
[ -x "$cmp" ] || cmp="$PB_BIN/compare"
[ -n "$labels" ] || labels="$(echo "$specA" | tr ',' ' '),$(echo "$specB$([ -n "$wrapb" ] && echo " wrapped") " | tr ',' ' ' | sed 's/ $//')"

if [ -f "$points" ]; then cp "$points" "$PAIRS_WORK/points"
else pairs_points "$points" "$algos" >"$PAIRS_WORK/points" || exit 2; fi
hd="${PB_DATA:-$ROOT/../shared/data/deathstarbench-hotel}"
if grep -q '|hotel:' "$PAIRS_WORK/points" && ! ls "$hd"/hotel_load*.tar.xz >/dev/null 2>&1; then
    grep -v '|hotel:' "$PAIRS_WORK/points" >"$PAIRS_WORK/p2"; mv "$PAIRS_WORK/p2" "$PAIRS_WORK/points"
    echo "compare: note: no hotel traces in $hd (set PB_DATA): the hotel points are left out" >&2
fi
mkdir -p "$out" || pairs_die "cannot create $out"
np=$(grep -vc '^#' "$PAIRS_WORK/points")
echo "compare: $np points x $seeds seeds, A = $specA, B = $specB" >&2
pairs_run "$PAIRS_WORK/points" "$seeds" "$binA" "$wrapA" "$binB" "$wrapB" "$out/a.csv" "$out/b.csv" ||
    { echo "compare: some runs failed (above)" >&2; exit 2; }
# shellcheck disable=SC2086
"$cmp" -q $cargs --labels "$labels" --title "pathbench compare: $specA vs $specB" \
    --csv "$out/compare.csv" --html "$out/compare.html" -o "$out/compare.txt" "$out/a.csv" "$out/b.csv"
rc=$?
cat "$out/compare.txt"
echo "compare: wrote $out/compare.txt, compare.csv, compare.html, a.csv, b.csv" >&2
exit $rc

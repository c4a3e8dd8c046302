#!/bin/sh
# regress.sh - recompute a fixed set of accuracy points
# (experiments/regress_points.sh) and compare them with the committed
# baseline (experiments/baseline.dat).  Prints a table of every metric that
# moved by more than its tolerance; exits 1 when any got worse, 0 otherwise.
#
#   sh experiments/regress.sh [-j N] [--baseline FILE] [--tolerance T] [--update]
#     --update      write the current values as the new baseline (do this on
#                   purpose, after checking that the change is an improvement
#                   or an accepted trade-off, and commit the file with the
#                   change that caused it)
#     --tolerance T absolute tolerance for rates (default 0.01); counts
#                   (pattern_fn, topn_missing_tol) move by whole numbers and
#                   use max(T, 0.5)
#     --save FILE   also write the values computed now to FILE
#     --current FILE  compare FILE (values saved by --save) instead of
#                   recomputing (e.g. values made on another machine)
# Environment: PB_BIN (programs, default <repo>/bin).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
base="$ROOT/experiments/baseline.dat" update=0 tol=0.01 jobs="" save="" given=""
while [ $# -gt 0 ]; do
    case "$1" in
    --baseline) base=$2; shift ;;
    --update) update=1 ;;
    --tolerance) tol=$2; shift ;;
    --save) save=$2; shift ;;
    --current) given=$2; shift ;;
    -j) jobs="-j $2"; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "regress: unknown option '$1'" >&2; exit 2 ;;
    esac
    shift
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pb-regress.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cur="$tmp/current.csv"
if [ -n "$given" ]; then
    [ -f "$given" ] || { echo "regress: no file $given" >&2; exit 1; }
    grep -v '^#' "$given" | grep -v '^case,metric' | sort >"$cur"
else
    PB_OUT="$tmp" sh experiments/run_all.sh --only regress_points --no-plots --no-report $jobs >"$tmp/log" 2>&1 ||
        { cat "$tmp/log" >&2; echo "regress: some points failed" >&2; exit 1; }
    grep -v '^#' "$tmp/regress_points.dat" | grep -v '^case,metric' | sort >"$cur"
fi
[ -n "$save" ] && { echo "case,metric,value,better"; cat "$cur"; } >"$save"
if [ $update -eq 1 ]; then
    {
        echo "# pathbench regression baseline: case,metric,value,better (lower|higher)"
        echo "# made by experiments/regress.sh --update at commit $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
        echo "case,metric,value,better"
        cat "$cur"
    } >"$base.tmp" && mv "$base.tmp" "$base"
    echo "regress: wrote $(grep -vc '^#' "$base") lines to $base" >&2
    exit 0
fi
[ -f "$base" ] || { echo "regress: no baseline $base; make one with: sh experiments/regress.sh --update" >&2; exit 1; }
awk -F, -v tol="$tol" -v curf="$cur" '
    BEGIN { while ((getline l < curf) > 0) { split(l, f, ","); k = f[1] "," f[2]; cv[k] = f[3]; cb[k] = f[4]; if (!(k in seen)) { seen[k] = 1; keys[++n] = k } } }
    /^#/ || /^case,metric/ { next }
    { k = $1 "," $2; bv[k] = $3; bb[k] = $4; if (!(k in seen)) { seen[k] = 1; keys[++n] = k } }
    END {
        worse = 0; better = 0; same = 0; gone = 0; new = 0
        printf "%-34s %-20s %10s %10s %9s  %s\n", "case", "metric", "baseline", "now", "change", "verdict"
        for (i = 1; i <= n; i++) {
            k = keys[i]; split(k, f, ",")
            t = (f[2] == "pattern_fn" || f[2] == "topn_missing_tol") ? (tol > 0.5 ? tol : 0.5) : tol
            if (!(k in cv)) { printf "%-34s %-20s %10s %10s %9s  %s\n", f[1], f[2], bv[k], "-", "-", "MISSING now"; gone++; continue }
            if (!(k in bv)) { printf "%-34s %-20s %10s %10s %9s  %s\n", f[1], f[2], "-", cv[k], "-", "new (not in baseline)"; new++; continue }
            d = cv[k] - bv[k]
            if (d <= t && d >= -t) { same++; continue }
            good = (cb[k] == "higher") ? (d > 0) : (d < 0)
            if (good) better++; else worse++
            printf "%-34s %-20s %10.4g %10.4g %+9.4g  %s\n", f[1], f[2], bv[k], cv[k], d, (good ? "better" : "WORSE")
        }
        printf "regress: %d unchanged (within %g), %d better, %d worse, %d missing, %d new\n", same, tol, better, worse, gone, new
        if (better > 0 && worse == 0) print "regress: accuracy improved; to keep it, run sh experiments/regress.sh --update and commit experiments/baseline.dat"
        exit (worse > 0 || gone > 0) ? 1 : 0
    }' "$base"

#!/bin/sh
# plant_worse.sh ITEM - a planted degradation, for testing that compare
# and make regress catch one (docs/experiments.md, "Comparing two builds").
# Used as an exec: wrapper: `infer --algo exec:'sh experiments/plant_worse.sh
# nesting:callids=0'` reads the trace on stdin, runs $PB_BIN/infer with
# the item's algorithm and settings, and spoils its result a little:
#   - a made-up pattern (nodes PLANTED_A>PLANTED_B) with 3 % of the
#     instances is added (the instance and pattern false positives rise:
#     every view, every algorithm);
#   - in the assignment table every 33rd instance is merged into the
#     instance before it (two requests become one: the request and message
#     measures fall where those requests were right).
# Nothing in the programs changes; without this wrapper nothing is spoilt.
set -u
[ $# -eq 1 ] || { echo "plant_worse: expected one ITEM (NAME[:SET=VALUE...])" >&2; exit 2; }
: "${PB_BIN:?plant_worse: PB_BIN not set}"
it=$1
set -- --algo "${it%%:*}"
case "$it" in
*:*) rest=${it#*:}
     o=$IFS; IFS=:
     for kv in $rest; do set -- "$@" -s "$kv"; done
     IFS=$o ;;
esac
tmp=$(mktemp "${TMPDIR:-/tmp}/pb-plant.XXXXXX") || exit 1
trap 'rm -f "$tmp"' EXIT
trap 'exit 130' INT TERM
"$PB_BIN/infer" "$@" - >"$tmp" || exit 1
awk -F, -v OFS=, '
    t == "p" && /^#/ && !planted { plant() }
    /^# table=patterns/ { t = "p"; print; next }
    /^# table=assignment/ { t = "a"; print; next }
    /^# end / { printf "# end patterns=%d assignments=%d\n", np, na; next }
    t == "p" && /^rank,/ { print; next }
    t == "p" && !/^#/ { np++; total += $3; if ($1 + 0 > maxrank) maxrank = $1 + 0; print; next }
    t == "a" && /^id,/ { print; next }
    t == "a" && !/^#/ { na++
               if ($2 % 33 == 0 && ($2 - 1) in rk) { $2 = $2 - 1; $3 = rk[$2] } else rk[$2] = $3
               print; next }
    { print }
    function plant(   k) {
        k = int(total * 0.03 + 0.999); if (k < 1) k = 1
        printf "%d,\"PLANTED_A>PLANTED_B\",%d,%d,1,0,0,;,;\n", maxrank + 1, k, k
        np++; planted = 1
    }' "$tmp"

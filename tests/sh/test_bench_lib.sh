#!/bin/sh
# tests/bench/lib.sh: the goal column of the speed table.  verdict says met
# only when every number the goal names holds, missed when one does not,
# "-" when nothing was measured; speed_row writes the verdict in its own
# column (what | goal | measured | goal met | the papers).
set -u
: "${PB_ROOT:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
. "$PB_ROOT/tests/bench/lib.sh"
[ "$(verdict 0.52 '<' 0.5)" = missed ] || fail "0.52 < 0.5 said met"
[ "$(verdict 0.48 '<' 0.5)" = met ] || fail "0.48 < 0.5 said missed"
[ "$(verdict 0.5 '<=' 0.5)" = met ] || fail "0.5 <= 0.5"
[ "$(verdict 0.5 '<' 0.5)" = missed ] || fail "0.5 < 0.5"
[ "$(verdict 3.2 '>=' 2 84 '<=' 64)" = missed ] || fail "a second limit missed is missed"
[ "$(verdict 3.2 '>=' 2 57 '<=' 64)" = met ] || fail "both limits met"
[ "$(verdict '' '<' 2 - '<' 3)" = - ] || fail "nothing measured is -"
[ "$(verdict 11.2 '<' 10 '' '<' 500)" = missed ] || fail "an unmeasured limit hides a missed one"
PB_BENCH_MD="$tmp/rows"
speed_row 4 "nesting, 2 M" "< 0.5 s" "0.61 s" "24 s" "$(verdict 0.61 '<' 0.5)"
speed_row 1 "maketrace" ">= 2 M msgs/s" "3.1 M msgs/s" ""
printf '4\t| nesting, 2 M | < 0.5 s | 0.61 s | missed | 24 s |\n1\t| maketrace | >= 2 M msgs/s | 3.1 M msgs/s | - |  |\n' >"$tmp/want"
cmp -s "$tmp/rows" "$tmp/want" || { diff "$tmp/want" "$tmp/rows"; fail "speed_row columns"; }
exit 0

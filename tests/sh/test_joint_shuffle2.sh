#!/bin/sh
# joint: shuffled rows read back with --sort give the same paths, line for
# line, and the same metadata, on black boxes where node numbering used to
# decide a tie (whole-ms stamps, 5 % loss, no call ids): joint numbers nodes
# by their first appearance in the messages (joint_canon.c), not in the
# order the reader first met their names.
set -u
B="$PB_BIN"; R="$PB_ROOT"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
. "$R/experiments/trace_cols.sh"
body() { grep -v -e '^# algo=' -e '^# cpu_' -e '^# trace: ' "$1"; }

# config seed shuffle-seed variant (r: 1 ms stamps, l: 5 % loss; always a black box)
for run in "joint_apps_wide 1 11 rl" "joint_apps_deep 8 11 rl" "joint_apps_heavytail 3 11 rl"; do
    set -- $run
    c=$1; s=$2; sh=$3; v=$4
    "$B/maketrace" "$R/experiments/$c.conf" -q -s seed="$s" -s messages=600 > "$tmp/base.csv" || fail "maketrace $c"
    case $v in *r*) "$B/skewer" -q --round 1ms "$tmp/base.csv" > "$tmp/x.csv" && mv "$tmp/x.csv" "$tmp/base.csv" || fail skewer ;; esac
    case $v in *l*) "$B/sniffer" -q -p 0.05 --seed 7 "$tmp/base.csv" > "$tmp/x.csv" && mv "$tmp/x.csv" "$tmp/base.csv" || fail sniffer ;; esac
    strip_ids "$tmp/base.csv" > "$tmp/f.csv"
    awk -v s="$sh" 'BEGIN { srand(s) } /^#/ || !h { print; if (!/^#/) h = 1; next }
         { printf "%.12f\t%s\n", rand(), $0 }' "$tmp/f.csv" > "$tmp/keyed"
    { grep -v "$(printf '\t')" "$tmp/keyed"; grep "$(printf '\t')" "$tmp/keyed" | sort -k1,1 | cut -f2-; } > "$tmp/s.csv"
    cmp -s "$tmp/f.csv" "$tmp/s.csv" && fail "$run: shuffle changed nothing"
    "$B/infer" --algo joint -q -o "$tmp/a.res" "$tmp/f.csv" 2> /dev/null || fail "$run: joint"
    "$B/infer" --algo joint -q --sort -o "$tmp/b.res" "$tmp/s.csv" 2> /dev/null || fail "$run: joint on the shuffled rows"
    grep -v '^#' "$tmp/a.res" > "$tmp/a.p"; grep -v '^#' "$tmp/b.res" > "$tmp/b.p"
    cmp -s "$tmp/a.p" "$tmp/b.p" ||
        fail "$run: shuffled rows change the paths ($(diff "$tmp/a.p" "$tmp/b.p" | grep -c '^<') lines)"
    body "$tmp/a.res" | grep '^#' | grep -v -e '^# params' -e '^# program' > "$tmp/a.m"
    body "$tmp/b.res" | grep '^#' | grep -v -e '^# params' -e '^# program' > "$tmp/b.m"
    cmp -s "$tmp/a.m" "$tmp/b.m" ||
        fail "$run: shuffled rows change the metadata: $(diff "$tmp/a.m" "$tmp/b.m" | sed -n 2p | cut -c1-160)"
done
echo "ok"

#!/bin/sh
# -s min_confidence=X (nesting, linking) abstains on exactly the rows the
# score's --coverage-curve point at X abstains on: the curve, computed from
# one run's confidence column, matches a rerun at X count for count; a run
# at X lists abstentions (empty instance) and its metadata counts them;
# sliding-window nesting writes the same parents, confidences and
# abstentions as whole-trace nesting.
set -u
for p in maketrace infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cols() { awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c["msgs_right"]), $(c["msgs_wrong"]), $(c["msgs_unattached"]), $(c["requests_correct"]), $(c["requests_orphaned"]), $(c["requests_misstitched"])}' "$1"; }
"$PB_BIN/maketrace" "$PB_ROOT/maketrace/configs/multitier.conf" -D messages=20000 -o "$tmp/t.csv" 2>/dev/null ||
    fail "maketrace"
for algo in nesting linking; do
    "$PB_BIN/infer" --algo $algo "$tmp/t.csv" > "$tmp/r.csv" 2>/dev/null || fail "$algo: infer"
    grep -q '^id,instance,rank,parent,confidence$' "$tmp/r.csv" || fail "$algo: no parent and confidence columns"
    "$PB_BIN/score" --truth "$tmp/t.csv" --coverage-curve "$tmp/cov.csv" "$tmp/r.csv" > "$tmp/s.csv" ||
        fail "$algo: score"
    n=$(grep -c . "$tmp/cov.csv")
    [ "$n" -ge 4 ] || fail "$algo: a curve of $n lines"
    # two points inside the curve
    for k in $((n / 3)) $((2 * n / 3)); do
        line=$(sed -n "$((k + 1))p" "$tmp/cov.csv")
        x=${line%%,*}
        want=$(echo "$line" | awk -F, '{print $4, $5, $6, $7, $8, $9}')
        "$PB_BIN/infer" --algo $algo -s min_confidence="$x" "$tmp/t.csv" > "$tmp/rx.csv" 2>/dev/null ||
            fail "$algo: infer min_confidence=$x"
        grep -q "^# min_confidence=$x abstained=" "$tmp/rx.csv" || fail "$algo: no abstained= line"
        ab=$(sed -n 's/^# min_confidence=.* abstained=//p' "$tmp/rx.csv")
        [ "$(grep -c '^[0-9]*,,' "$tmp/rx.csv")" = "$ab" ] || fail "$algo: abstained=$ab but other rows"
        "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/rx.csv" > "$tmp/sx.csv" || fail "$algo: score at $x"
        got=$(cols "$tmp/sx.csv")
        [ "$got" = "$want" ] || fail "$algo: at min_confidence=$x the curve says $want, a run gives $got"
        if [ $algo = nesting ]; then
            "$PB_BIN/infer" --algo nesting -s window=3s -s min_confidence="$x" "$tmp/t.csv" > "$tmp/rw.csv" 2>/dev/null ||
                fail "window infer"
            grep -v '^#' "$tmp/rx.csv" > "$tmp/a"
            grep -v '^#' "$tmp/rw.csv" > "$tmp/b"
            cmp -s "$tmp/a" "$tmp/b" || fail "window mode differs at min_confidence=$x"
        fi
    done
done
exit 0

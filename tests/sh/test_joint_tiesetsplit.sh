#!/bin/sh
# tie_sets_split (algorithms/joint/ticks/joint_tieset.c, docs/joint/ticks.md
# "A pair as a call and as a request"): the components of tie_sets=3 with
# each pair as two nodes, as a call (its parent, its return) and as a
# request (its calls), joined only where its return differs.  The
# dispatch config at twice its load (maketrace seed 1, 0.5 s,
# instances_scale=2), stamps rounded down to 1 ms, call ids emptied
# (the models audit's x2 1 ms black box, shorter): tie_sets=3 refutes the
# start (128 requests off their set against 41) but its components join
# the gateway's requests, moved whole by the search (their set of calls
# unchanged: no count speaks for them, and most are wrong), with the moves
# of db calls among store requests that bring requests onto their set;
# 10.2 % exact, 77.1 % of links right.  Split, the gateway's moves stay as
# tie_cross left them: 20.9 %, 84.9 % (tie_sets=0: 0.9 %, 77.0 %).
# Metadata split=on.  Shuffled rows: the same table; nodes renamed: the
# same counts and accuracy.  The tree before has no tie_sets_split (fails).
. "$PB_ROOT/tests/sh/joint_lib.sh"
O="-s conf_selfcal=0"
run() { # trace out [more options]
    _t=$1 _o=$2
    shift 2
    # shellcheck disable=SC2086
    "$B/infer" --algo joint $O "$@" -o "$_o" "$_t" 2> "$tmp/log" ||
        fail "infer $_t $*: $(tail -1 "$tmp/log")"
}
col() { # trace result column
    "$B/score" --truth "$1" "$2" |
        awk -F, -v k="$3" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[k])}'
}
meta() { sed -n 's/^# tie_sets=on after=tie_cross \(.*\)/\1/p' "$1"; }
"$B/maketrace" "$PB_ROOT/experiments/joint_models_dispatch.conf" -s seed=1 -s duration=0.5s \
    -s instances_scale=2 > "$tmp/ns.csv" 2> "$tmp/log" || fail "maketrace: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/d.csv" || fail "skewer 1ms"
strip_ids "$tmp/d.csv" > "$tmp/bb.csv"
run "$tmp/bb.csv" "$tmp/d.0" -s tie_sets_split=0
run "$tmp/bb.csv" "$tmp/d.1" -s tie_sets_split=1
e0=$(col "$tmp/d.csv" "$tmp/d.0" exact_accuracy)
e1=$(col "$tmp/d.csv" "$tmp/d.1" exact_accuracy)
l0=$(col "$tmp/d.csv" "$tmp/d.0" link_accuracy)
l1=$(col "$tmp/d.csv" "$tmp/d.1" link_accuracy)
echo "dispatch x2 s1 0.5 s 1 ms, black box: split off $e0 / links $l0, on $e1 / $l1"
grep -q '^# tie_sets=on after=tie_cross .* taken=[1-9][0-9]* split=on kept=search' "$tmp/d.1" ||
    fail "split did not run: $(grep '^# tie_sets=' "$tmp/d.1")"
grep -q '^# tie_sets=on .* split=' "$tmp/d.0" && fail "split off says split="
awk -v a="$e1" -v b="$e0" 'BEGIN { exit !(a >= b + 0.05) }' ||
    fail "split exact $e1 not 5 points above $e0"
awk -v a="$l1" -v b="$l0" 'BEGIN { exit !(a >= b + 0.03) }' ||
    fail "split links $l1 not 3 points above $l0"
# shuffled rows (read back sorted): the same table
check_shuffled_same "$tmp/bb.csv" "$tmp/d.1" -s tie_sets_split=1
# nodes renamed (gateway and db: their order among the nodes changes)
sed -e '/^#/!s/\bgateway\b/zz_gate/g; /^#/!s/\bdb\b/aa_db/g' "$tmp/bb.csv" > "$tmp/rn.csv"
sed -e '/^#/!s/\bgateway\b/zz_gate/g; /^#/!s/\bdb\b/aa_db/g' "$tmp/d.csv" > "$tmp/rnt.csv"
cmp -s "$tmp/bb.csv" "$tmp/rn.csv" && fail "renaming changed nothing"
run "$tmp/rn.csv" "$tmp/rn.1" -s tie_sets_split=1
[ "$(meta "$tmp/rn.1")" = "$(meta "$tmp/d.1")" ] ||
    fail "renamed nodes: $(meta "$tmp/rn.1") against $(meta "$tmp/d.1")"
[ "$(col "$tmp/rnt.csv" "$tmp/rn.1" exact_accuracy)" = "$e1" ] ||
    fail "renamed nodes: another accuracy"
echo "PASS"

#!/bin/sh
# joint's conf_copy_start (docs/joint/confidence_late.md, "The copy's
# search made cheaper (h196)"): the self-calibration's copy starts its
# search as the real search kept instead of running the restart test (and
# its second search) again.
# - children-0-2 at high load with call ids: the rank start is refuted and
#   the real search keeps its second start (start=earliest).  With
#   conf_copy_start=0 the copy runs its own test (metadata
#   copy_second_start=kept); with 1 it runs start=earliest alone
#   (copy_start=earliest copy_second_start=none).  Every row's instance,
#   rank and parent are the same; here the copy's own test kept the same
#   start, so every confidence is the same too, and calibrated (score
#   --reliability).
# - hotel-like (the rank start not refuted: no second start anywhere): the
#   option changes nothing but the params line, and says nothing.
# - conf_copy_repair=0 (the copy's re-pairing rounds left out, a black
#   box): only confidences may move, every assignment stays; the metadata
#   says the copy was bounded.
# - shuffled rows: the same file.
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/maketrace/configs/children-0-2.conf" -D duration=10s \
    -D instances_scale=4 > "$tmp/c.csv" || fail "maketrace children-0-2"
run() { # name trace [options...]
    _n=$1; _t=$2; shift 2
    "$B/infer" --algo joint -q "$@" -o "$tmp/r.$_n" "$_t" 2> "$tmp/log" ||
        fail "infer $_n: $(cat "$tmp/log")"
    grep -v '^# cpu_\|^# params:\|^# program=' "$tmp/r.$_n" > "$tmp/x.$_n"
    sed -n '/^id,instance,rank,parent,confidence$/,$p' "$tmp/r.$_n" > "$tmp/c.$_n"
    cut -d, -f1-4 "$tmp/c.$_n" > "$tmp/p.$_n"
    [ -s "$tmp/p.$_n" ] || fail "$_n: no rows"
}
run c0 "$tmp/c.csv" -s conf_copy_start=0
run c1 "$tmp/c.csv" -s conf_copy_start=1
grep -q '^# conf_copy_start=0 copy_start=own_test real_second_start=kept copy_second_start=kept' \
    "$tmp/r.c0" || fail "children-0-2: the copy's own test did not keep its second start"
grep -q '^# conf_copy_start=1 copy_start=earliest real_second_start=kept copy_second_start=none' \
    "$tmp/r.c1" || fail "children-0-2: the copy did not start as the real search kept"
cmp -s "$tmp/p.c0" "$tmp/p.c1" || fail "conf_copy_start moved an assignment"
cmp -s "$tmp/c.c0" "$tmp/c.c1" || fail "children-0-2: a confidence moved (the copy's own test kept the same start)"
"$B/score" --truth "$tmp/c.csv" --reliability "$tmp/rel" "$tmp/r.c1" > /dev/null || fail "score"
awk -F, 'NR > 1 && $9 == "0" { f = 1 } END { exit f }' "$tmp/rel" ||
    fail "children-0-2 with conf_copy_start=1: not calibrated: $(cat "$tmp/rel")"
# no second start anywhere: nothing moves, nothing said
"$B/maketrace" "$PB_ROOT/maketrace/configs/hotel-like.conf" -D duration=5s \
    -D instances_scale=4 > "$tmp/h.csv" || fail "maketrace hotel-like"
run h0 "$tmp/h.csv" -s conf_copy_start=0
run h1 "$tmp/h.csv" -s conf_copy_start=1
cmp -s "$tmp/x.h0" "$tmp/x.h1" || fail "hotel-like: conf_copy_start changed the output"
! grep -q '^# conf_copy_start=' "$tmp/r.h1" || fail "hotel-like: a second start said where none ran"
# the copy's re-pairing rounds bounded (black box; the default 1 since the
# thirty-sixth wave, here against -1, as the real search): assignments stay
strip_callids "$tmp/h.csv" > "$tmp/hb.csv"
run b0 "$tmp/hb.csv" -s conf_copy_repair=-1
run b1 "$tmp/hb.csv" -s conf_copy_repair=0
cmp -s "$tmp/p.b0" "$tmp/p.b1" || fail "conf_copy_repair moved an assignment"
grep -q '^# conf_copy_repair=0 conf_copy_swaps=-1 conf_copy_passes=-1' "$tmp/r.b1" ||
    fail "conf_copy_repair=0 not said"
! grep -q '^# conf_copy_repair=' "$tmp/r.b0" || fail "conf_copy_repair=-1 (as the real search) said a bound"
# shuffled rows read back sorted: the same file
awk 'BEGIN { srand(11) } /^#/ || !h { print; if (!/^#/) h = 1; next }
     { printf "%.12f\t%s\n", rand(), $0 }' "$tmp/c.csv" > "$tmp/keyed"
{ grep -v "$(printf '\t')" "$tmp/keyed"; grep "$(printf '\t')" "$tmp/keyed" | sort -k1,1 | cut -f2-; } \
    > "$tmp/cs.csv"
cmp -s "$tmp/c.csv" "$tmp/cs.csv" && fail "shuffle changed nothing"
"$B/infer" --algo joint -q --sort -s conf_copy_start=1 -o "$tmp/r.cs" "$tmp/cs.csv" \
    2> "$tmp/log" || fail "infer shuffled: $(cat "$tmp/log")"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$tmp/r.cs" > "$tmp/x.cs"
grep -v '^# algo=' "$tmp/x.c1" > "$tmp/x.c1b"
cmp -s "$tmp/x.c1b" "$tmp/x.cs" || fail "shuffled rows changed the output"
echo "PASS"

#!/bin/sh
# joint's held_warm (joint_heldwarm.c; docs/joint/speed_late.md, "The held
# search from the free solution (h219)"): without call ids and
# pair_order=auto, the held search starts from the free search's pairs and
# parents (each parent given where it is a candidate), then runs its own
# rounds.
# - hotel-like (maketrace/configs/hotel-like.conf, 1 s, black box,
#   held_skip=0 so that the held search runs): held_warm=1 gives the 786
#   pairs and 655 parents, sets all 655; the held search ends on the free
#   solution (the same likelihood), the free search is kept and every row
#   is held_warm=0's; held_repair=0 held_swaps=0 says so on its
#   line, the same rows;
# - held_warm=0 writes no held_warm line;
# - with call ids nothing changes (no held search, no held_warm line);
# - shuffled rows give the same output.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$1"; }
rows() { grep -v '^#' "$1"; }
run() { # name trace [options...]
    _n=$1; _t=$2; shift 2
    "$B/infer" --algo joint -q -s held_skip=0 "$@" -o "$tmp/$_n.res" "$_t" 2> "$tmp/log" ||
        fail "infer $_n: $(cat "$tmp/log")"
}
"$B/maketrace" "$R/maketrace/configs/hotel-like.conf" -s duration=1s > "$tmp/ids.csv" ||
    fail "maketrace hotel-like"
strip_callids "$tmp/ids.csv" > "$tmp/h.csv"
run h0 "$tmp/h.csv" -s held_warm=0
run h1 "$tmp/h.csv" -s held_warm=1
run h2 "$tmp/h.csv" -s held_warm=1 -s held_repair=0 -s held_swaps=0
! grep -q '^# held_warm=' "$tmp/h0.res" || fail "held_warm=0 wrote a held_warm line"
grep -q '^# held_warm=warm pairs_given=786 parents_given=655 parents_set=655 repair=2 swap_rounds=2$' "$tmp/h1.res" ||
    fail "hotel-like 1: $(grep '^# held_warm=' "$tmp/h1.res")"
grep -q '^# held_warm=warm pairs_given=786 parents_given=655 parents_set=655 repair=0 swap_rounds=0$' "$tmp/h2.res" ||
    fail "hotel-like 1 r0 s0: $(grep '^# held_warm=' "$tmp/h2.res")"
grep -q '^# pair_order=auto chosen=free log_likelihood_free=-17808.394 log_likelihood_held=-17808.394 ' "$tmp/h1.res" ||
    fail "hotel-like 1: $(grep '^# pair_order=auto chosen' "$tmp/h1.res")"
rows "$tmp/h0.res" > "$tmp/a"
[ -s "$tmp/a" ] || fail "no rows"
for k in h1 h2; do
    rows "$tmp/$k.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "hotel-like $k: the rows changed"
done
shuffle_rows 7 "$tmp/h.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s held_skip=0 -s held_warm=1 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
body "$tmp/h1.res" > "$tmp/a"
body "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the result"
run i0 "$tmp/ids.csv" -s held_warm=0
run i1 "$tmp/ids.csv" -s held_warm=1
! grep -q '^# held_warm=' "$tmp/i1.res" || fail "call ids: a held_warm line"
body "$tmp/i0.res" > "$tmp/a"
body "$tmp/i1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "call ids: output changed"
echo "PASS"

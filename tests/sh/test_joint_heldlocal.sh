#!/bin/sh
# joint's held_local (joint_heldlocal.c; docs/joint/speed_late.md, "The held
# search on a window (h206)"): without call ids and pair_order=auto, the held
# search runs only on the free search's top-level requests holding a call of
# a consecutive pair in question, the free search's pairs and parents kept
# elsewhere, the merged solution competing as the held search did.
# - hotel-like (maketrace/configs/hotel-like.conf, 1 s, black box, held_skip=0
#   so that the held search runs): held_local=1 searches the window (174
#   pairs in question, 120 seed requests, 1440 of 1572 messages; 66 pairs
#   from the free search and 720 from the window: every one of the 786
#   pairs), the free search is kept as with held_local=0 and every row is
#   held_local=0's; held_local=0.01 (the window over the limit) runs the
#   whole held search: its output is held_local=0's but the line;
# - with call ids nothing changes (no held search, no held_local line);
# - shuffled rows give the same output.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$1"; }
rows() { grep -v '^#' "$1"; }
noline() { body "$1" | grep -v '^# held_local='; }
# sv_lazy=0: held_local's own output (with a held option sv_lazy resumes at
# once, and says so in its line; test_joint_sv)
run() { # name trace [options...]
    _n=$1; _t=$2; shift 2
    "$B/infer" --algo joint -q -s held_skip=0 -s sv_lazy=0 "$@" -o "$tmp/$_n.res" "$_t" 2> "$tmp/log" ||
        fail "infer $_n: $(cat "$tmp/log")"
}
"$B/maketrace" "$R/maketrace/configs/hotel-like.conf" -s duration=1s > "$tmp/ids.csv" ||
    fail "maketrace hotel-like"
strip_callids "$tmp/ids.csv" > "$tmp/h.csv"
run h0 "$tmp/h.csv" -s held_local=0
run h1 "$tmp/h.csv" -s held_local=1
run hs "$tmp/h.csv" -s held_local=0.01
! grep -q '^# held_local=' "$tmp/h0.res" || fail "held_local=0 wrote a held_local line"
grep -q '^# held_local=window in_question=174 seeds=120 window_msgs=1440 of_msgs=1572 pairs_free=66 pairs_window=720 limit=1 pad=0$' "$tmp/h1.res" ||
    fail "hotel-like 1: $(grep '^# held_local=' "$tmp/h1.res")"
grep -q '^# call_pairs=786$' "$tmp/h1.res" || fail "hotel-like: not 786 pairs"
grep -q '^# pair_order=auto chosen=free log_likelihood_free=' "$tmp/h1.res" ||
    fail "hotel-like 1: the free search not kept"
rows "$tmp/h0.res" > "$tmp/a"
rows "$tmp/h1.res" > "$tmp/b"
[ -s "$tmp/a" ] || fail "no rows"
cmp -s "$tmp/a" "$tmp/b" || fail "hotel-like 1: the rows changed"
grep -q '^# held_local=whole reason=window_over_max in_question=174 seeds=120 window_msgs=1440 of_msgs=1572 limit=0.01 pad=0$' "$tmp/hs.res" ||
    fail "hotel-like 0.01: $(grep '^# held_local=' "$tmp/hs.res")"
noline "$tmp/h0.res" > "$tmp/a"
noline "$tmp/hs.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "hotel-like 0.01: output changed"; }
shuffle_rows 7 "$tmp/h.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s sv_lazy=0 -s held_skip=0 -s held_local=1 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
body "$tmp/h1.res" > "$tmp/a"
body "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the result"
run i0 "$tmp/ids.csv" -s held_local=0
run i1 "$tmp/ids.csv" -s held_local=1
! grep -q '^# held_local=' "$tmp/i1.res" || fail "call ids: a held_local line"
body "$tmp/i0.res" > "$tmp/a"
body "$tmp/i1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "call ids: output changed"
echo "PASS"

#!/bin/sh
# joint's held_skip (joint_heldskip.c; docs/joint/speed.md, "Speed,
# twenty-fourth wave (h195)"): without call ids and pair_order=auto, the
# held search is not run when the free solution leaves at most held_skip
# consecutive pairs of calls in question (both open at once on a link) and
# the busy test finds no service serialising on the free solution's copies.
# - hotel-like (maketrace/configs/hotel-like.conf, 1 s, black box: 174 pairs
#   in question, no service serialising, the two searches agree):
#   held_skip=500 skips (held_skip=skipped, pair_order ... held_search=skipped,
#   no busy_test line) and every row (pairs, confidences) is held_skip=0's;
#   held_skip=100 runs the held search (in_question above the limit, the
#   serialising test not run) and its output is held_skip=0's but the
#   held_skip line;
# - shape-serial (1 s, black box: a service serialises): held_skip=1e9 runs
#   the held search (serialising=yes) and keeps it, as held_skip=0 does;
# - with call ids nothing changes (no held search: no held_skip line);
# - shuffled rows give the same output.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$1"; }
rows() { grep -v '^#' "$1"; }
noskip() { body "$1" | grep -v '^# held_skip='; }
# sv_lazy=0: held_skip's own output, not the paused search's (its line and
# the held search left paused differ with held_skip's choice; test_joint_sv)
run() { # name trace [options...]
    _n=$1; _t=$2; shift 2
    "$B/infer" --algo joint -q -s sv_lazy=0 "$@" -o "$tmp/$_n.res" "$_t" 2> "$tmp/log" ||
        fail "infer $_n: $(cat "$tmp/log")"
}
"$B/maketrace" "$R/maketrace/configs/hotel-like.conf" -s duration=1s > "$tmp/ids.csv" ||
    fail "maketrace hotel-like"
strip_callids "$tmp/ids.csv" > "$tmp/h.csv"
run h0 "$tmp/h.csv" -s held_skip=0
run h5 "$tmp/h.csv" -s held_skip=500
run h1 "$tmp/h.csv" -s held_skip=100
! grep -q '^# held_skip=' "$tmp/h0.res" || fail "held_skip=0 wrote a held_skip line"
grep -q '^# held_skip=skipped in_question=174 limit=500 learned_parallel=0 serialising=no$' "$tmp/h5.res" ||
    fail "hotel-like 500: not skipped: $(grep '^# held_skip=' "$tmp/h5.res")"
grep -q '^# pair_order=auto chosen=free held_search=skipped log_likelihood_free=' "$tmp/h5.res" ||
    fail "hotel-like 500: no pair_order line"
! grep -q '^# busy_test=\|log_likelihood_held=' "$tmp/h5.res" || fail "hotel-like 500: held lines"
grep -q '^# pair_order=auto chosen=free log_likelihood_free=.* log_likelihood_held=' "$tmp/h0.res" ||
    fail "hotel-like 0: the free search not kept"
rows "$tmp/h0.res" > "$tmp/a"
rows "$tmp/h5.res" > "$tmp/b"
[ -s "$tmp/a" ] || fail "no rows"
cmp -s "$tmp/a" "$tmp/b" || fail "hotel-like: the skip changed the rows"
grep -q '^# held_skip=ran in_question=174 limit=100 learned_parallel=0 serialising=untested$' "$tmp/h1.res" ||
    fail "hotel-like 100: $(grep '^# held_skip=' "$tmp/h1.res")"
noskip "$tmp/h0.res" > "$tmp/a"
noskip "$tmp/h1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "hotel-like 100: output changed"; }
shuffle_rows 7 "$tmp/h.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s sv_lazy=0 -s held_skip=500 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
body "$tmp/h5.res" > "$tmp/a"
body "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the result"
run i0 "$tmp/ids.csv" -s held_skip=0
run i5 "$tmp/ids.csv" -s held_skip=500
! grep -q '^# held_skip=' "$tmp/i5.res" || fail "call ids: a held_skip line"
body "$tmp/i0.res" > "$tmp/a"
body "$tmp/i5.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "call ids: output changed"
"$B/maketrace" "$R/maketrace/configs/shape-serial.conf" -s duration=1s > "$tmp/m.csv" ||
    fail "maketrace shape-serial"
strip_callids "$tmp/m.csv" > "$tmp/s.csv"
run s0 "$tmp/s.csv" -s held_skip=0
run s9 "$tmp/s.csv" -s held_skip=1e9
grep -q '^# held_skip=ran in_question=[0-9]* limit=1e+09 learned_parallel=[0-9]* serialising=yes$' "$tmp/s9.res" ||
    fail "shape-serial: $(grep '^# held_skip=' "$tmp/s9.res")"
grep -q '^# pair_order=auto chosen=held ' "$tmp/s9.res" || fail "shape-serial: held not kept"
noskip "$tmp/s0.res" > "$tmp/a"
noskip "$tmp/s9.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shape-serial: output changed"
echo "PASS"

#!/bin/sh
# joint's busy_skip_same (docs/joint/speed.md, "Speed, nineteenth wave"):
# where the free and the held search assign every pair alike, the busy
# test's verdict is the free search's whatever its copies show (held needs
# a pair assigned differently; busy_space and busy_partial a changed pair
# at the service), so no copy is drawn.
# - hotel-like (maketrace/configs/hotel-like.conf, 1 s, black box): the two
#   searches agree; the default says busy_copies=0 skipped=same_solutions
#   and prints no busy_service= line, -s busy_skip_same=0 draws the copies
#   (busy_service= lines); every other line (rows, confidences, every other
#   metadata line) is the same byte for byte;
# - shape-serial (1 s, black box): the searches differ, the copies are
#   drawn and the default is busy_skip_same=0's output byte for byte but
#   the params line;
# - shuffled rows give the same output.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$1"; }
nobusy() { body "$1" | grep -v '^# busy_test=\|^# busy_service='; }
run() { # name trace [options...]
    _n=$1; _t=$2; shift 2
    "$B/infer" --algo joint -q "$@" -o "$tmp/$_n.res" "$_t" 2> "$tmp/log" ||
        fail "infer $_n: $(cat "$tmp/log")"
}
"$B/maketrace" "$R/maketrace/configs/hotel-like.conf" -s duration=1s > "$tmp/m.csv" ||
    fail "maketrace hotel-like"
strip_callids "$tmp/m.csv" > "$tmp/h.csv"
run h1 "$tmp/h.csv"
run h0 "$tmp/h.csv" -s busy_skip_same=0
grep -q '^# busy_test=on changed_pairs=0 .* busy_copies=0 skipped=same_solutions$' "$tmp/h1.res" ||
    fail "hotel-like: no skip: $(grep '^# busy_test=' "$tmp/h1.res")"
! grep -q '^# busy_service=' "$tmp/h1.res" || fail "hotel-like: busy_service lines with no copy"
grep -q '^# busy_test=on changed_pairs=0 ' "$tmp/h0.res" || fail "hotel-like: the searches differ"
grep -q '^# busy_service=.* copy_calls=[1-9]' "$tmp/h0.res" || fail "busy_skip_same=0: no copies"
! grep -q 'skipped=same_solutions' "$tmp/h0.res" || fail "busy_skip_same=0 skipped"
nobusy "$tmp/h1.res" > "$tmp/a"
nobusy "$tmp/h0.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "hotel-like: the skip changed the output"; }
shuffle_rows 7 "$tmp/h.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null || fail "infer shuffled"
body "$tmp/h1.res" > "$tmp/a"
body "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the result"
"$B/maketrace" "$R/maketrace/configs/shape-serial.conf" -s duration=1s > "$tmp/m.csv" ||
    fail "maketrace shape-serial"
strip_callids "$tmp/m.csv" > "$tmp/s.csv"
run s1 "$tmp/s.csv"
run s0 "$tmp/s.csv" -s busy_skip_same=0
! grep -q 'skipped=same_solutions' "$tmp/s1.res" || fail "shape-serial: skipped where the searches differ"
grep -q '^# busy_service=' "$tmp/s1.res" || fail "shape-serial: no copies"
body "$tmp/s1.res" > "$tmp/a"
body "$tmp/s0.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shape-serial: the default differs from busy_skip_same=0"
echo "PASS"

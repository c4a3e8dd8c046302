#!/bin/sh
# joint's uncross_check (docs/joint/loss.md, "Loss with call ids: uncross's
# search checked held out"; algorithms/joint/loss/joint_uxcheck.c).
# (1) OnlineBoutique 07:11 (when data/ holds it) at 2 % loss, sniffer
# seed 1, with call ids: the search that runs again after each pass of
# uncross swapped the recommendation service's calls to productcatalog
# (in arrival order in the truth) under a model without that order; of the
# 144 requests the loss did not touch, 92 are exact with uncross=0, 86
# with uncross's search kept (-s uncross_check=0, the old tree), 95 with
# the check (its changes undone: the cross-fitted likelihood prefers the
# solution it started from).  Must be at least uncross=0's and above the
# old tree's.  (2) Without loss nothing runs: byte for byte the same as
# -s uncross_check=0 but for the params line, no uncross_check line.
# (3) The synthetic loss class (experiments/joint_loss_repeat.conf at 2 %
# loss), where the search after uncross helps: its intact requests stay
# at least as exact as with -s uncross_check=0, and shuffled rows (read
# back with --sort) give the same output.
. "$PB_ROOT/tests/sh/joint_lib.sh"
for p in sniffer importtrace; do [ -x "$B/$p" ] || exit 77; done
SP="$PB_ROOT/experiments/intact_spill.awk"
meta() { grep -v -e '^# cpu_' -e '^# program=' -e '^# params:' -e '^# algo=' -e '^# trace: ' "$1"; }
run() { # trace out [options]: joint with call ids
    t=$1; o=$2; shift 2
    "$B/infer" --algo joint -q "$@" -o "$o" "$t" 2> "$tmp/log" ||
        fail "infer $*: $(tail -2 "$tmp/log")"
}
# exact intact requests (experiments/intact_spill.awk; evaluation only)
intact() { awk -f "$SP" "$1" "$2" "$3" "$4" | sed 's/.*exact_loss=\([0-9]*\).*/\1/'; }

# (1) the real minute
f="$PB_ROOT/data/nezha/onlineboutique/rca_2022-08-22_07_11.csv.gz"
if [ -f "$f" ]; then
    "$B/importtrace" -q --callid "$f" > "$tmp/t.csv" || fail "importtrace 07:11"
    "$B/sniffer" -q -p 0.02 --seed 1 "$tmp/t.csv" > "$tmp/p.csv" || fail "sniffer"
    run "$tmp/t.csv" "$tmp/r.csv"
    run "$tmp/p.csv" "$tmp/u0.csv" -s uncross=0
    run "$tmp/p.csv" "$tmp/old.csv" -s uncross_check=0
    run "$tmp/p.csv" "$tmp/new.csv"
    e0=$(intact "$tmp/t.csv" "$tmp/p.csv" "$tmp/r.csv" "$tmp/u0.csv")
    eo=$(intact "$tmp/t.csv" "$tmp/p.csv" "$tmp/r.csv" "$tmp/old.csv")
    en=$(intact "$tmp/t.csv" "$tmp/p.csv" "$tmp/r.csv" "$tmp/new.csv")
    echo "07:11 at 2 % loss, intact requests exact: uncross=0 $e0, uncross_check=0 $eo, default $en"
    grep -q '^# uncross_check=on .*uncross_search_undone=[1-9]' "$tmp/new.csv" ||
        fail "07:11: no search after uncross undone: $(grep '^# uncross_check' "$tmp/new.csv")"
    [ "$en" -ge "$e0" ] && [ "$en" -gt "$eo" ] ||
        fail "07:11: $en intact requests exact (uncross=0 $e0, uncross_check=0 $eo)"
else
    echo "07:11 not in data/: part (1) skipped"
fi

# (2) without loss: nothing runs
"$B/maketrace" "$PB_ROOT/experiments/joint_loss_repeat.conf" -D messages=12000 -D duration=0 \
    > "$tmp/s.csv" || fail "maketrace"
run "$tmp/s.csv" "$tmp/s1.csv"
run "$tmp/s.csv" "$tmp/s0.csv" -s uncross_check=0
meta "$tmp/s1.csv" > "$tmp/m1"
meta "$tmp/s0.csv" > "$tmp/m0"
cmp -s "$tmp/m1" "$tmp/m0" || fail "without loss uncross_check changed the output"
! grep -q '^# uncross_check' "$tmp/s1.csv" || fail "without loss an uncross_check line"

# (3) the synthetic class at 2 % loss
"$B/sniffer" -q -p 0.02 --seed 1 "$tmp/s.csv" > "$tmp/sp.csv" || fail "sniffer"
run "$tmp/sp.csv" "$tmp/sp1.csv"
run "$tmp/sp.csv" "$tmp/sp0.csv" -s uncross_check=0
grep -q '^# uncross_check=on' "$tmp/sp1.csv" || fail "synthetic: no uncross_check line"
a1=$(intact "$tmp/s.csv" "$tmp/sp.csv" "$tmp/s1.csv" "$tmp/sp1.csv")
a0=$(intact "$tmp/s.csv" "$tmp/sp.csv" "$tmp/s1.csv" "$tmp/sp0.csv")
echo "synthetic at 2 % loss, intact requests exact: uncross_check=0 $a0, default $a1"
[ "$a1" -ge "$a0" ] || fail "synthetic: $a1 intact requests exact, uncross_check=0 $a0"
awk 'BEGIN { srand(9) } /^#/ || !h { print; if (!/^#/) h = 1; next }
     { printf "%.12f\t%s\n", rand(), $0 }' "$tmp/sp.csv" > "$tmp/keyed"
{ grep '^#' "$tmp/keyed"; grep -v '^#' "$tmp/keyed" | head -1
  grep -v '^#' "$tmp/keyed" | tail -n +2 | sort -t "$(printf '\t')" -k1,1 | cut -f2-; } > "$tmp/sh.csv"
run "$tmp/sh.csv" "$tmp/sh1.csv" --sort
cmp -s "$tmp/sp.csv" "$tmp/sh.csv" && fail "shuffle changed nothing"
meta "$tmp/sh1.csv" > "$tmp/mh"
meta "$tmp/sp1.csv" > "$tmp/mp"
cmp -s "$tmp/mh" "$tmp/mp" || { diff "$tmp/mh" "$tmp/mp" | head -5; fail "shuffled rows changed the result"; }
echo "ok"

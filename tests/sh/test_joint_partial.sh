#!/bin/sh
# busy_partial (joint_partial.c): the busy test's third search, holding the
# order only on the links of the services it finds serialising.  Staged
# services as a black box (experiments/joint_models_seda.conf, x1, 2 s,
# stamps rounded to 1 us, call ids emptied), maketrace seed 6, held out
# (not used to make the rule; only its first numbers were read, when the
# class was sized): the busy test alone keeps the
# free search (the staged front services' changes outvote logic's), 91.8 %
# against first come, first served's 92.9; the third search, holding the
# order at logic only, is kept: 93.6 %.  Required: at least fcfs and a
# point above -s busy_partial=0, logic the one service held; the same with
# the rows shuffled and with the nodes renamed; and where the busy test
# keeps the held search already (the same config at twice the load) the
# output byte for byte that of -s busy_partial=0.  Fails on the old tree
# (no busy_partial option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
CONF="$PB_ROOT/experiments/joint_models_seda.conf"
# the receiving thread's pick pinned at 3: since thread_soft_pick=7 the
# thread term's solution is kept on this seda trace with busy_partial on
# or off (93.6 % either way), so the rule under test is compared where
# it decides (test_joint_thrmove and test_joint_thread_* test the pick)
PIN="-s thread_soft_pick=3"

acc() { # TRACE RESULT
    "$B/score" --truth "$1" "$2" | exact_acc
}
held_line() { grep -o 'busy_partial=on [^#]*' "$1" | sed 's/ *$//'; }

# seda SEED TAG OPT: the black box of seed SEED in $tmp/bbTAG.csv, joint's
# result in $tmp/jTAG.csv, joint -s OPT's in $tmp/j0TAG.csv, fcfs's in
# $tmp/fTAG.csv; their exact accuracies in $j, $j0, $f
seda() {
    "$B/maketrace" "$CONF" -s seed="$1" -s duration=2s > "$tmp/m.csv" 2> /dev/null ||
        fail "maketrace seed $1"
    "$B/skewer" -q --round 1us "$tmp/m.csv" > "$tmp/r.csv" || fail "skewer seed $1"
    strip_callids "$tmp/r.csv" > "$tmp/bb$2.csv"
    "$B/infer" --algo joint $PIN -o "$tmp/j$2.csv" "$tmp/bb$2.csv" 2> /dev/null || fail "infer joint seed $1"
    "$B/infer" --algo joint $PIN -s "$3" -o "$tmp/j0$2.csv" "$tmp/bb$2.csv" 2> /dev/null ||
        fail "infer joint -s $3 seed $1"
    "$B/infer" --algo fcfs -o "$tmp/f$2.csv" "$tmp/bb$2.csv" 2> /dev/null || fail "infer fcfs seed $1"
    j=$(acc "$tmp/bb$2.csv" "$tmp/j$2.csv")
    j0=$(acc "$tmp/bb$2.csv" "$tmp/j0$2.csv")
    f=$(acc "$tmp/bb$2.csv" "$tmp/f$2.csv")
}

seda 6 "" busy_partial=0
echo "seda x1 1us black box seed 6: joint $j, busy_partial=0 $j0, fcfs $f"
awk -v j="$j" -v f="$f" 'BEGIN { exit !(j >= f) }' || fail "joint $j below fcfs $f"
awk -v j="$j" -v o="$j0" 'BEGIN { exit !(j >= o + 0.01) }' ||
    fail "joint $j not a point above busy_partial=0's $j0"
line=$(held_line "$tmp/j.csv")
echo "  $line"
case "$line" in
*"held_services=logic "*"chosen=partial") ;;
*) fail "expected logic held and the third search kept: '$line'" ;;
esac
grep -q 'busy_partial=on' "$tmp/j0.csv" && fail "busy_partial=0 still ran the third search"

# shuffled rows: the same accuracy and the same choice
shuffle_rows 7 "$tmp/bb.csv" "$tmp/sh.csv"
"$B/infer" --algo joint $PIN --sort -o "$tmp/js.csv" "$tmp/sh.csv" 2> /dev/null || fail "infer shuffled"
js=$(acc "$tmp/bb.csv" "$tmp/js.csv")
[ "$js" = "$j" ] || fail "shuffled rows: $js, not $j"
grep -v '^#' "$tmp/j.csv" > "$tmp/a"
grep -v '^#' "$tmp/js.csv" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the paths"
[ "$(held_line "$tmp/js.csv")" = "$line" ] || fail "shuffled rows: '$(held_line "$tmp/js.csv")'"

# renamed nodes: the same accuracy, the new name held
awk 'BEGIN { FS = OFS = "," } /^#/ { print; next }
     !h { for (i = 1; i <= NF; i++) { if ($i == "src") s = i; if ($i == "dst") d = i }; h = 1; print; next }
     { for (k = 1; k <= 2; k++) { i = k == 1 ? s : d
           if ($i == "logic") $i = "ledger-9"; else if ($i == "api") $i = "zz"; else if ($i == "edge") $i = "a.b" }
       print }' "$tmp/bb.csv" > "$tmp/rn.csv"
"$B/infer" --algo joint $PIN -o "$tmp/jr.csv" "$tmp/rn.csv" 2> /dev/null || fail "infer renamed"
jr=$(acc "$tmp/rn.csv" "$tmp/jr.csv")
[ "$jr" = "$j" ] || fail "renamed nodes: $jr, not $j"
case "$(held_line "$tmp/jr.csv")" in
*"held_services=ledger-9 "*"chosen=partial") ;;
*) fail "renamed nodes: '$(held_line "$tmp/jr.csv")'" ;;
esac

# the vote per request (busy_partial_vote=1, joint_partial.c): seed 1 (a
# development seed of the vote, the models audit's row), where the third
# search changes 97 ends, 57 at logic (p = 0.052: the vote per end keeps
# the free search, 90.8 % against fcfs 92.1), but 20 of the 22 requests
# it changes are changed mostly at logic (p = 6e-5, under 2.5 %: the
# default vote takes either count at half the level): the third search
# is kept (92.3).
# Shuffled rows and renamed nodes: the same.  Fails on the old tree (no
# busy_partial_vote option; its vote kept the free search here).
jj=$j
seda 1 1 busy_partial_vote=0
v=$j v0=$j0 vf=$f j=$jj
echo "seed 1: joint $v, busy_partial_vote=0 $v0, fcfs $vf"
awk -v j="$v" -v f="$vf" 'BEGIN { exit !(j >= f) }' || fail "seed 1: joint $v below fcfs $vf"
line=$(held_line "$tmp/j1.csv")
echo "  $line"
case "$line" in
*"held_services=logic "*"changed_requests=22 mostly_at_serialising=20 vote="*" chosen=partial") ;;
*) fail "seed 1: expected 20 of 22 requests and the third search kept: '$line'" ;;
esac
case "$(held_line "$tmp/j01.csv")" in
*"changed_pairs=97 at_serialising=57 chosen=free") ;;
*) fail "seed 1, busy_partial_vote=0: '$(held_line "$tmp/j01.csv")'" ;;
esac
shuffle_rows 5 "$tmp/bb1.csv" "$tmp/sh1.csv"
"$B/infer" --algo joint $PIN --sort -o "$tmp/vs.csv" "$tmp/sh1.csv" 2> /dev/null || fail "infer s1 shuffled"
grep -v '^#' "$tmp/j1.csv" > "$tmp/a"
grep -v '^#' "$tmp/vs.csv" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "seed 1: shuffled rows changed the paths"
sed -e '/^#/!s/\blogic\b/ledger-9/g; /^#/!s/\bapi\b/zz/g' "$tmp/bb1.csv" > "$tmp/rn1.csv"
"$B/infer" --algo joint $PIN -o "$tmp/vr.csv" "$tmp/rn1.csv" 2> /dev/null || fail "infer s1 renamed"
[ "$(acc "$tmp/rn1.csv" "$tmp/vr.csv")" = "$v" ] || fail "seed 1: renamed nodes changed the accuracy"
case "$(held_line "$tmp/vr.csv")" in
*"held_services=ledger-9 "*" chosen=partial") ;;
*) fail "seed 1 renamed: '$(held_line "$tmp/vr.csv")'" ;;
esac

# the majority of the changed requests (busy_partial_vote=4, the
# default): seed 32 (a development seed of that vote), where the third
# search changes 15 requests, 11 mostly at logic (p = 0.059), and 54
# ends, 32 at logic (p = 0.11): the vote of =2 keeps the free search
# (92.2 %), the majority keeps the third search (93.0 %; fcfs 93.3).
# Shuffled rows and renamed nodes: the same.  Fails on the old tree
# (busy_partial_vote=4 out of range; the default kept the free search).
seda 32 32 busy_partial_vote=2
echo "seed 32: joint $j, busy_partial_vote=2 $j0, fcfs $f"
awk -v j="$j" -v o="$j0" 'BEGIN { exit !(j >= o + 0.005) }' ||
    fail "seed 32: joint $j not half a point above busy_partial_vote=2's $j0"
case "$(held_line "$tmp/j32.csv")" in
*"changed_requests=15 mostly_at_serialising=11 vote=majority chosen=partial") ;;
*) fail "seed 32: '$(held_line "$tmp/j32.csv")'" ;;
esac
case "$(held_line "$tmp/j032.csv")" in
*"vote=either chosen=free") ;;
*) fail "seed 32, busy_partial_vote=2: '$(held_line "$tmp/j032.csv")'" ;;
esac
shuffle_rows 3 "$tmp/bb32.csv" "$tmp/sh32.csv"
"$B/infer" --algo joint $PIN --sort -o "$tmp/ts.csv" "$tmp/sh32.csv" 2> /dev/null || fail "infer s32 shuffled"
grep -v '^#' "$tmp/j32.csv" > "$tmp/a"
grep -v '^#' "$tmp/ts.csv" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "seed 32: shuffled rows changed the paths"
sed -e '/^#/!s/\blogic\b/ledger-9/g; /^#/!s/\bapi\b/zz/g' "$tmp/bb32.csv" > "$tmp/rn32.csv"
"$B/infer" --algo joint $PIN -o "$tmp/tr.csv" "$tmp/rn32.csv" 2> /dev/null || fail "infer s32 renamed"
[ "$(acc "$tmp/rn32.csv" "$tmp/tr.csv")" = "$j" ] || fail "seed 32: renamed nodes changed the accuracy"
case "$(held_line "$tmp/tr.csv")" in
*"held_services=ledger-9 "*"vote=majority chosen=partial") ;;
*) fail "seed 32 renamed: '$(held_line "$tmp/tr.csv")'" ;;
esac

# twice the load: the busy test keeps the held search; nothing else runs
"$B/maketrace" "$CONF" -s seed=6 -s duration=1s -s instances_scale=2 > "$tmp/m2.csv" 2> /dev/null ||
    fail "maketrace x2"
"$B/skewer" -q --round 1us "$tmp/m2.csv" > "$tmp/r2.csv" || fail "skewer x2"
strip_callids "$tmp/r2.csv" > "$tmp/bb2.csv"
# (thread_soft=0: seda's threads are weighed, and under thread_soft_pick=3,
# the default since h217, the discarded search with the term is one where
# busy_partial runs; its ll is in the thread_soft_check= line)
"$B/infer" --algo joint -s thread_soft=0 -o "$tmp/k.csv" "$tmp/bb2.csv" 2> /dev/null || fail "infer x2"
"$B/infer" --algo joint -s thread_soft=0 -s busy_partial=0 -o "$tmp/k0.csv" "$tmp/bb2.csv" 2> /dev/null ||
    fail "infer x2 busy_partial=0"
grep -q 'busy_test=on.*held=yes' "$tmp/k.csv" || fail "x2: the busy test did not keep the held search"
grep -v '^# \(cpu\|params\|program\)' "$tmp/k.csv" > "$tmp/k.t"
grep -v '^# \(cpu\|params\|program\)' "$tmp/k0.csv" > "$tmp/k0.t"
cmp -s "$tmp/k.t" "$tmp/k0.t" || fail "x2: the output changed"
echo "PASS"

#!/bin/sh
# The set of calls a request makes (algorithms/joint/model/joint_oset.c,
# docs/joint/model.md "The set of calls a request makes"): two request types
# through one gateway endpoint that make different sets of calls
# (experiments/joint_osets.conf, maketrace seed 11, 1 s: not a seed the
# term was developed on), stamps rounded down to 1 ms, with call ids.  The
# held-out test turns the term on at client>gw (metadata on=1) and joint
# gains at least 10 points over -s out_sets=off (22.4 -> 51.1 %), above
# nesting (37.5).  The tree before it has no such option (fails).  Renamed
# nodes and rows given out of order (--sort) give the same links.  On the
# shape-fanin shape (ns) the test keeps the term off everywhere and the
# output is byte for byte out_sets=off's (but the params line).
. "$PB_ROOT/tests/sh/joint_lib.sh"
acc() { # trace option-value out -> exact accuracy against truth $tmp/ms.csv
    "$B/infer" --algo joint -s out_sets="$2" -o "$3" "$1" 2> "$tmp/log" ||
        fail "infer $1 out_sets=$2: $(tail -1 "$tmp/log")"
    "$B/score" --truth "$tmp/ms.csv" "$3" | exact_acc
}
# each message's parent (the instance and rank columns follow the patterns'
# names, which renaming changes)
links() { sed -n '/^# table=assignment/,$p' "$1" | grep -v '^#' | cut -d, -f1,4 | LC_ALL=C sort; }
"$B/maketrace" "$PB_ROOT/experiments/joint_osets.conf" -s seed=11 -s duration=1s \
    > "$tmp/ns.csv" 2> "$tmp/log" || fail "maketrace: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/ms.csv" || fail "skewer 1ms"
off=$(acc "$tmp/ms.csv" off "$tmp/r.0")
on=$(acc "$tmp/ms.csv" auto "$tmp/r.1")
"$B/infer" --algo nesting -q -o "$tmp/n.csv" "$tmp/ms.csv" 2> /dev/null || fail "nesting"
nest=$("$B/score" --truth "$tmp/ms.csv" "$tmp/n.csv" | exact_acc)
echo "osets x1 at 1 ms, call ids: out_sets=off $off, auto $on, nesting $nest"
grep -q '^# out_sets=client>gw requests=[0-9]* sets=[0-9]* prior=1 heldout_nats=[0-9.]* se=[0-9.]* on=1' "$tmp/r.1" ||
    fail "no out_sets line turning client>gw on: $(grep '^# out_sets=' "$tmp/r.1")"
grep -q '^# out_sets=[^ ]*>' "$tmp/r.0" && fail "out_sets=off still writes out_sets lines"
awk -v a="$on" -v b="$off" -v n="$nest" 'BEGIN { exit !(a >= b + 0.10 && a > n) }' ||
    fail "out_sets=auto $on not 10 points above off $off and above nesting $nest"
# renamed nodes: the same links (names enter no decision)
sed 's/,gw,/,zz_gw,/g; s/,catalog,/,a_cat,/g; s/,auth,/,yy,/g' "$tmp/ms.csv" > "$tmp/ms.ren.csv"
"$B/infer" --algo joint -o "$tmp/r.ren" "$tmp/ms.ren.csv" 2> "$tmp/log" || fail "renamed: $(tail -1 "$tmp/log")"
links "$tmp/r.1" > "$tmp/l.1"
links "$tmp/r.ren" > "$tmp/l.ren"
cmp -s "$tmp/l.1" "$tmp/l.ren" || fail "renamed nodes: the links differ"
# rows out of order, re-sorted: the same links
{ grep '^#' "$tmp/ms.csv"; grep -v '^#' "$tmp/ms.csv" | head -1
  grep -v '^#' "$tmp/ms.csv" | tail -n +2 | awk 'NR % 2 == 0' ; grep -v '^#' "$tmp/ms.csv" | tail -n +2 | awk 'NR % 2 == 1'; } > "$tmp/ms.shuf.csv"
"$B/infer" --algo joint --sort -o "$tmp/r.shuf" "$tmp/ms.shuf.csv" 2> "$tmp/log" || fail "sorted: $(tail -1 "$tmp/log")"
links "$tmp/r.shuf" > "$tmp/l.shuf"
cmp -s "$tmp/l.1" "$tmp/l.shuf" || fail "rows out of order (--sort): the links differ"
# where the test keeps it off, nothing changes
"$B/maketrace" "$PB_ROOT/maketrace/configs/shape-fanin.conf" -s seed=11 -s duration=1s \
    > "$tmp/h.csv" 2> "$tmp/log" || fail "maketrace shape-fanin: $(tail -1 "$tmp/log")"
"$B/infer" --algo joint -o "$tmp/h.1" "$tmp/h.csv" 2> "$tmp/e.1" || fail "shape-fanin auto"
"$B/infer" --algo joint -s out_sets=off -o "$tmp/h.0" "$tmp/h.csv" 2> "$tmp/e.0" || fail "shape-fanin off"
grep -q '^# out_sets=.* on=1' "$tmp/h.1" && fail "shape-fanin: the term was turned on: $(grep '^# out_sets=' "$tmp/h.1")"
grep -v '^# cpu_\|^# params\|^# out_sets=' "$tmp/h.1" > "$tmp/h.1s"
grep -v '^# cpu_\|^# params' "$tmp/h.0" > "$tmp/h.0s"
cmp -s "$tmp/h.1s" "$tmp/h.0s" || fail "shape-fanin: the output differs from out_sets=off"
cmp -s "$tmp/e.1" "$tmp/e.0" || fail "shape-fanin: stderr differs from out_sets=off"
echo "PASS"

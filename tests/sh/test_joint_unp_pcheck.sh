#!/bin/sh
# joint without call ids, unp_pcheck=1 (joint_unpinh.c; docs/joint/loss_late.md,
# "The loss rule's cost: where a lossy input pays (h241)"): under loss the
# second search (with the messages the loss rule forced) runs no
# parallel_check_bb of its own and takes the first search's verdict.
# (1) Requests piling up behind a slow one-worker service
# (experiments/joint_pileup.conf, seed 11, 3 s, sniffer 5 % seed 1, call
# ids stripped): the first search learns parallel calls and drops them,
# and keeps the held search without them (parallel_check_bb=early); the
# second search is run with parallel=1 (first=without) and its result is
# the default's, row for row (the default's second check chose the same).
# (2) h211's hand-made lossy trace (160 requests A>B>C, calls and answers
# lost): no parallel call learned, first=learned, and the output is the
# default's but for the line.  (3) Shuffled rows give the same line and
# assignment.  (4) Without loss: no line, the default's output.  Fails
# before unp_pcheck (unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R="$PB_ROOT"
body() { grep -v '^# \(params\|cpu\|program\|unp_pcheck\)' "$1"; }

# (1)
"$B/maketrace" "$R/experiments/joint_pileup.conf" -D duration=3s -D seed=11 \
    -D instances_scale=1 > "$tmp/ids.csv" || fail "maketrace joint_pileup"
"$B/sniffer" -q -p 0.05 --seed 1 "$tmp/ids.csv" > "$tmp/l.csv" || fail "sniffer"
strip_callids "$tmp/l.csv" > "$tmp/lb.csv"
"$B/infer" --algo joint -q -o "$tmp/pd.res" "$tmp/lb.csv" 2> /dev/null || fail "infer pileup default"
"$B/infer" --algo joint -q -s unp_pcheck=1 -o "$tmp/pp.res" "$tmp/lb.csv" 2> /dev/null ||
    fail "infer pileup unp_pcheck=1"
grep -q '^# unpaired_links=.* searched_again=1 ' "$tmp/pd.res" ||
    fail "pileup: the second search not kept: $(grep '^# unpaired_links' "$tmp/pd.res")"
grep -q '^# unp_pcheck=inherited first=without$' "$tmp/pp.res" ||
    fail "pileup: no line first=without: $(grep '^# unp_pcheck' "$tmp/pp.res")"
grep -q '^# unp_pcheck' "$tmp/pd.res" && fail "pileup: a line at the default"
body "$tmp/pd.res" > "$tmp/a"
body "$tmp/pp.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "pileup: unp_pcheck=1 changed the output"

# (2)
unp_wide_window_trace
"$B/infer" --algo joint -q -s unp_pcheck=1 -o "$tmp/p.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_pcheck=1"
grep -q '^# unp_pcheck=inherited first=learned$' "$tmp/p.res" ||
    fail "no line first=learned: $(grep '^# unp_pcheck' "$tmp/p.res")"
body "$tmp/d.res" > "$tmp/a"
body "$tmp/p.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "unp_pcheck=1 changed the output"

# (3)
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s unp_pcheck=1 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
grep '^# unp_pcheck' "$tmp/p.res" > "$tmp/a"
grep '^# unp_pcheck' "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the unp_pcheck line"
assignment_of "$tmp/p.res" > "$tmp/a"
assignment_of "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the result"

# (4)
"$B/infer" --algo joint -q -s unp_pcheck=1 -o "$tmp/np.res" "$tmp/tb.csv" 2> /dev/null ||
    fail "infer without loss"
grep -q '^# unp_pcheck' "$tmp/np.res" && fail "an unp_pcheck line without loss"
body "$tmp/n.res" > "$tmp/a"
body "$tmp/np.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_pcheck=1 changed the output"
exit 0

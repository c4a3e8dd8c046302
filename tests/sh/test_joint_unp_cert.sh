#!/bin/sh
# joint without call ids, unp_cert (joint_unpcert.c; docs/joint/loss_w36.md,
# "A certificate for unp_lite's free first search (h299)").  Two lossy
# black boxes.  (1) The hand-made trace of test_joint_unp_wholeone.sh (160
# requests A>B>C, 23 calls A>B and 23 answers C>B lost): the free search
# learns no parallel call and the busy test finds no service serialising on
# its copies (q=132 pairs in question, par=0, ser=0), so with unp_lite=4
# unp_cert=2 the free search is kept (kept=lite) and the output is
# unp_lite=4's; with unp_cert=1 (a measurement) the output is the
# default's, and the line gives the default's first search's verdict, whose
# free log-likelihood is the free search alone's (the same search).  (2)
# maketrace's joint_pileup seed 1 with 5 % of the messages dropped (sniffer
# seed 1): the free search learns parallel calls (the burst after an answer
# stacked on another request, joint_heldskip.c), so the held search could
# win: kept=default and the output is the default's.  Shuffled rows give the
# same line.  Fails before unp_cert (unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
[ -x "$B/sniffer" ] || exit 77
strip() { grep -v '^# \(params\|cpu\|program\|unp_cert\|unp_lite\)' "$1"; }
unp_wide_window_trace
"$B/infer" --algo joint -q -s unp_cert=1 -o "$tmp/c1.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_cert=1"
l=$(grep '^# unp_cert' "$tmp/c1.res")
case "$l" in
"# unp_cert mode=1 first="[fh]*" ll_free="*" q="[1-9]*" par=0 "*" ser=0 kept=-") ;;
*) fail "unp_cert=1's line: $l" ;;
esac
lf=$(echo "$l" | sed 's/.* ll_free=\([^ ]*\) .*/\1/'); ll=$(echo "$l" | sed 's/.* ll=\([^ ]*\) .*/\1/')
[ "$lf" = "$ll" ] || fail "the free search alone is not the default's free search: $lf $ll"
strip "$tmp/d.res" > "$tmp/a"; strip "$tmp/c1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "unp_cert=1 changed the output"
"$B/infer" --algo joint -q -s unp_lite=4 -o "$tmp/l4.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_lite=4"
"$B/infer" --algo joint -q -s unp_lite=4 -s unp_cert=2 -o "$tmp/c2.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_cert=2"
l=$(grep '^# unp_cert' "$tmp/c2.res")
case "$l" in
"# unp_cert mode=2 first=- "*" par=0 "*" ser=0 kept=lite") ;;
*) fail "unp_cert=2's line: $l" ;;
esac
strip "$tmp/l4.res" > "$tmp/a"; strip "$tmp/c2.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "kept=lite: not unp_lite=4's output"
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s unp_lite=4 -s unp_cert=2 -o "$tmp/x.res" "$tmp/x.csv" \
    2> /dev/null || fail "infer shuffled"
[ "$l" = "$(grep '^# unp_cert' "$tmp/x.res")" ] || fail "shuffled rows changed the line"
# (2) the free search learns parallel calls: the default's path
"$B/maketrace" -q --seed 1 -o "$tmp/pl.csv" "$PB_ROOT/experiments/joint_pileup.conf" ||
    fail "maketrace"
"$B/sniffer" -q -p 0.05 --seed 1 "$tmp/pl.csv" > "$tmp/pll.csv" || fail "sniffer"
strip_callids "$tmp/pll.csv" > "$tmp/plb.csv"
"$B/infer" --algo joint -q -o "$tmp/pd.res" "$tmp/plb.csv" 2> /dev/null || fail "infer default"
"$B/infer" --algo joint -q -s unp_lite=4 -s unp_cert=2 -o "$tmp/p2.res" "$tmp/plb.csv" \
    2> /dev/null || fail "infer pileup unp_cert=2"
l=$(grep '^# unp_cert' "$tmp/p2.res")
case "$l" in
"# unp_cert mode=2 first=- "*" par="[1-9]*" kept=default") ;;
*) fail "pileup: unp_cert=2's line: $l" ;;
esac
grep -q '^# unp_lite mode=4 .* default_path=2$' "$tmp/p2.res" ||
    fail "pileup: unp_lite's line: $(grep '^# unp_lite' "$tmp/p2.res")"
strip "$tmp/pd.res" > "$tmp/a"; strip "$tmp/p2.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "kept=default: not the default's output"
exit 0

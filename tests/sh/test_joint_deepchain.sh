#!/bin/sh
# One very deep request as a black box (h141's Jaeger chain of N nested
# spans over 8 services, experiments/joint_deep.awk; docs/joint/speed.md
# "Speed, nineteenth wave"): every call is sent before any return comes
# back, and the root request holds N/8 calls of one link.  The exchanges
# of those calls' returns are scored from the root's record, the walk
# resumed at the first step that could take either return (swap_resume,
# the default) instead of at the first call between the two: the output
# must be the one the walk from the first middle call gives
# (-s swap_resume=0), every line but the parameters and the CPU, and the
# record must have been used.  Also the tree (leaf calls at every level)
# and, with call ids, the chain.  The chain black box also with
# -s cand_sweep=0 (the candidates by the scan instead of the tree): the
# same output.  On main there is no swap_resume or cand_sweep option.
set -u
for p in importtrace infer; do
    [ -x "$PB_BIN/$p" ] || exit 77
done
B="$PB_BIN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1
strip() { grep -v '^# \(params\|cpu_read_s\|program\)' "$1"; }

for case in chain:800:bb tree:1200:bb chain:800:ids; do
    sh=${case%%:*}; rest=${case#*:}; n=${rest%%:*}; m=${rest#*:}
    c=; [ "$m" = ids ] && c=--callid
    awk -v N=$n -v SHAPE=$sh -f "$PB_ROOT/experiments/joint_deep.awk" > t.json
    "$B/importtrace" -q $c -o t.tr t.json || fail "$sh $m: importtrace"
    "$B/infer" --algo joint -o new.out t.tr 2> new.err || fail "$sh $m: infer: $(tail -1 new.err)"
    "$B/infer" --algo joint -s swap_resume=0 -o old.out t.tr 2> old.err ||
        fail "$sh $m: infer -s swap_resume=0: $(tail -1 old.err)"
    grep -q '^# params: .* swap_resume=1' new.out || fail "$sh $m: swap_resume=1 not in the params line"
    strip new.out > a
    strip old.out > b
    cmp -s a b || fail "$sh $m: output differs with swap_resume=0: $(diff a b | head -5)"
    cmp -s new.err old.err || fail "$sh $m: warnings differ with swap_resume=0"
    grep -q "^# end patterns=[0-9]* assignments=$((2 * n))\$" new.out ||
        fail "$sh $m: not every message assigned: $(grep '^# end' new.out)"
    if [ "$sh $m" = "chain bb" ]; then
        # the root's N/8 calls: exchanges scored from its record
        xr=$(sed -n 's/^# swap_top_resumed=\([0-9]*\).*/\1/p' new.out)
        [ "${xr:-0}" -ge 1000 ] || fail "chain bb: only ${xr:-0} exchanges scored from the record"
        # cand_sweep (joint_csweep.c): the candidates from the tree, the
        # same as the scan's (every call of the chain sees its service's
        # earlier requests open)
        "$B/infer" --algo joint -s cand_sweep=0 -o scan.out t.tr 2> scan.err ||
            fail "$sh $m: infer -s cand_sweep=0: $(tail -1 scan.err)"
        strip scan.out > c
        cmp -s a c || fail "$sh $m: output differs with cand_sweep=0: $(diff a c | head -5)"
        cmp -s new.err scan.err || fail "$sh $m: warnings differ with cand_sweep=0"
    fi
done
exit 0

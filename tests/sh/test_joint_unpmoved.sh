#!/bin/sh
# joint -s unpaired=1 names the messages whose state (paired or left
# unpaired) the priced choice changed: one metadata line per changed link,
# `unpaired_moved=A>B ids=...` (docs/joint/loss.md, "Which messages stay
# unpaired: the second search taken piece by piece, measured";
# algorithms/joint/unp/joint_unpaired.c).  These are what a second search must
# re-solve; experiments/unp_merge.awk reads them.  On
# experiments/joint_loss_order.conf (a development draw: maketrace seed 1,
# instances 3, 6000 messages, 2 % sniffer loss at seed 1, ids emptied):
# every changed link has its line, the ids are messages of the lossy trace,
# none twice; at the default (unpaired=0) and without loss there is no such
# line; unp_merge.awk's counts of the two results agree with
# intact_spill.awk's.  Fails on the old tree (no unpaired_moved line).
. "$PB_ROOT/tests/sh/joint_lib.sh"
[ -x "$B/sniffer" ] || exit 77
C="$PB_ROOT/experiments/joint_loss_order.conf"
SP="$PB_ROOT/experiments/intact_spill.awk"
UM="$PB_ROOT/experiments/unp_merge.awk"
"$B/maketrace" "$C" --seed 1 -D instances=3 -D messages=6000 -D duration=0 \
    > "$tmp/t.csv" || fail "maketrace"
strip_callids "$tmp/t.csv" > "$tmp/tb.csv"
"$B/infer" --algo joint -s unpaired=1 -o "$tmp/r1.csv" "$tmp/tb.csv" 2> "$tmp/log" ||
    fail "infer without loss: $(tail -1 "$tmp/log")"
grep -q '^# unpaired_moved=' "$tmp/r1.csv" && fail "without loss: an unpaired_moved line"
"$B/infer" --algo joint -o "$tmp/r0.csv" "$tmp/tb.csv" 2> "$tmp/log" ||
    fail "infer without loss: $(tail -1 "$tmp/log")"
"$B/sniffer" -q -p 0.02 --seed 1 "$tmp/t.csv" > "$tmp/p.csv" || fail "sniffer"
strip_callids "$tmp/p.csv" > "$tmp/pb.csv"
for u in 0 1; do
    "$B/infer" --algo joint -s unpaired=$u -o "$tmp/u$u.csv" "$tmp/pb.csv" 2> "$tmp/log" ||
        fail "infer -s unpaired=$u under loss: $(tail -1 "$tmp/log")"
done
grep -q '^# unpaired_moved=' "$tmp/u0.csv" && fail "unpaired=0: an unpaired_moved line"
ch=$(grep -c '^# unpaired_link=.*chosen=priced$' "$tmp/u1.csv")
mv=$(grep -c '^# unpaired_moved=' "$tmp/u1.csv")
[ "$ch" -gt 0 ] || fail "under loss no link changed (the draw no longer tests anything)"
[ "$ch" = "$mv" ] || fail "$ch links changed, $mv unpaired_moved lines"
sed -n 's/^# unpaired_moved=[^ ]* ids=//p' "$tmp/u1.csv" | tr ',' '\n' > "$tmp/ids"
n=$(wc -l < "$tmp/ids")
[ "$(sort -u "$tmp/ids" | wc -l)" = "$n" ] || fail "an id named twice"
bad=$(awk -F, 'FNR == NR { want[$1] = 1; next } /^#/ { next }
    !h { for (i = 1; i <= NF; i++) if ($i == "id") c = i; h = 1; next }
    ($c in want) { seen[$c] = 1 }
    END { for (k in want) if (!(k in seen)) b++; print b + 0 }' "$tmp/ids" "$tmp/pb.csv")
[ "$bad" = 0 ] || fail "$bad moved ids are not messages of the lossy trace"
e0=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/r0.csv" "$tmp/u0.csv" | sed 's/.*exact_loss=\([0-9]*\).*/\1/')
e1=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/r0.csv" "$tmp/u1.csv" | sed 's/.*exact_loss=\([0-9]*\).*/\1/')
m=$(awk -f "$UM" "$tmp/t.csv" "$tmp/p.csv" "$tmp/u0.csv" "$tmp/u1.csv")
case "$m" in *" first=$e0 second=$e1 "*) ;; *) fail "unp_merge: $m; intact_spill: $e0 / $e1" ;; esac
case "$m" in *" pieces_moved=0 "*) fail "no piece holds a moved message: $m" ;; esac
echo "$n messages moved on $ch links; $m"

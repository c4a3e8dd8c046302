#!/bin/sh
# Hostile input, round 18 (issue 28, the 29th wave): one block per class,
# each able to fail on the tree before it.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold maketrace

# memory and CPU caps far above what the fixed code needs (none under the
# sanitizers, whose shadow memory and speed differ)
lim() { if [ -z "${PB_SANITIZED:-}" ]; then ulimit -v 400000; ulimit -t 60; fi; }

# --- 1. maketrace: instances past the cap.  instances_scale multiplied a
# count past 1,000,000 and the product was cut to 1,000,000 without a
# word; and the loops of every tracelet together had no cap, though every
# loop is held in memory from the start (200 tracelets of
# instances=1000000: 12 GB and minutes before the first message).  Both
# are refused now, at the line, with the cap.
awk 'BEGIN { print "messages = 100"
             for (i = 1; i <= 200; i++) printf "tracelet t%d from C instances=1000000 { call B }\n", i }' > many.conf
( lim; exec "$B/maketrace" -o many.tr many.conf ) 2> many.err && fail "200 x 1e6 instances: accepted"
grep -q "^maketrace: many.conf:3: the loops add up to more than 1000000 instances .*expected at most 1000000 in all" many.err ||
    { cat many.err; fail "200 x 1e6 instances: the cap not said"; }
[ -e many.tr ] && fail "200 x 1e6 instances: output written"
"$B/maketrace" -s instances=1000000 -s instances_scale=2 -s duration=1ms -o sc.tr "$R/maketrace/configs/hotel.conf" 2> sc.err &&
    fail "instances 1e6 x instances_scale 2: accepted (cut to 1e6)"
grep -q "the shared pool's instances: 1000000 x instances_scale 2 = 2000000; expected at most 1000000" sc.err ||
    { cat sc.err; fail "instances x instances_scale: not said"; }
printf 'messages = 10\ntracelet a from C instances=1000 { call B }\n' > sc2.conf
"$B/maketrace" -s instances_scale=10000 -o sc2.tr sc2.conf 2> sc2.err && fail "a tracelet's 1000 x 10000: accepted"
grep -q "^maketrace: sc2.conf:2: tracelet a's instances: 1000 x instances_scale 10000 = 10000000; expected at most 1000000" sc2.err ||
    { cat sc2.err; fail "a tracelet's scaled instances: not said at its line"; }
# at the cap: still read
"$B/maketrace" -s instances_scale=1000 -o sc2.tr sc2.conf 2> sc2.err || { cat sc2.err; fail "1000 x 1000 instances refused"; }

# --- 2. maketrace: a config's cost grew faster than the config.  (a) An
# interleave tracelet's checks scanned the lines before each line (a
# return's pairing a scan inside a scan: cubic; 8,000 lines took 10 s) and
# both engines kept labels x nodes of scratch, reset for every path (10,000
# one-message paths: 800 MB).  (b) The worker-cycle check walked a node
# choice's block once per callee: 2^depth walks (28 nested "call A|B" took
# 3.4 s; 48 would take years).  (c) The connection models and their state
# were tables of nodes x nodes (8,000 nodes with threads: 510 MB).  Each is
# hashed now by what the config uses; the outputs are byte-identical.
awk 'BEGIN { print "messages = 100000"; print "tracelet t interleave {"
             n["0"] = "A"; n["1"] = "B"
             for (i = 0; i < 12000; i++) printf " p call %s -> %s\n", n[i % 2], n[(i + 1) % 2]
             for (i = 11999; i >= 0; i--) printf " p return %s -> %s\n", n[(i + 1) % 2], n[i % 2]
             print "}" }' > cr.conf
( lim; exec "$B/maketrace" --parse-only cr.conf ) 2> cr.err || { cat cr.err; fail "24,000 nested interleave lines: not read"; }
awk 'BEGIN { print "messages = 30000"; print "msg_delay = 1ms"; print "tracelet t interleave {"
             for (i = 1; i <= 10000; i++) printf " l%d msg A%d -> B%d\n", i, i, i
             print "}" }' > il.conf
( lim; exec "$B/maketrace" -o il.tr il.conf ) 2> il.err || { cat il.err; fail "10,000 interleave labels: not generated"; }
[ "$(grep -vc '^#' il.tr)" -eq 30001 ] || fail "10,000 interleave labels: not 30,000 messages"
# the same with the event engine (a service line)
{ echo "service Q workers=1"; cat il.conf; } > il2.conf
( lim; exec "$B/maketrace" -o il2.tr il2.conf ) 2> il2.err || { cat il2.err; fail "10,000 interleave labels, event engine: not generated"; }
awk 'BEGIN { print "messages = 100"; print "service W workers=1"; print "service B3 workers=2"
             print "tracelet t from C {"
             for (i = 0; i < 48; i++) printf "call A%d|B%d {\n", i, i
             print "call W"
             for (i = 0; i < 48; i++) print "}"
             print "}" }' > ch.conf
( lim; exec "$B/maketrace" --parse-only ch.conf ) 2> ch.err || { cat ch.err; fail "48 nested node choices: not checked"; }
# the cycle through a choice is still found (W -> B3 here, B3 -> W above)
{ cat ch.conf; echo "tracelet u from C { call W { call A7|B3 } }"; } > ch2.conf
( lim; exec "$B/maketrace" --parse-only ch2.conf ) 2> ch2.err && fail "a cycle through a node choice: accepted"
grep -q "^maketrace: ch2.conf:2:1: service W (workers=1): a path holding one of its workers can call it again" ch2.err ||
    { cat ch2.err; fail "a cycle through a node choice: not said"; }
awk 'BEGIN { print "messages = 100"; print "observed = 1"; print "tracelet t from C {"
             for (i = 1; i <= 8000; i++) printf " call N%d\n", i
             print "}" }' > nodes.conf
( lim; exec "$B/maketrace" -o nodes.tr nodes.conf ) 2> nodes.err || { cat nodes.err; fail "8,000 nodes with threads: not generated"; }
printf 'messages = 10\nobserved = 1\nlink C -> B conn=pool conns=2\nlink C -> B conn=new\ntracelet t from C { call B }\n' > lk.conf
"$B/maketrace" -o lk.tr lk.conf 2> lk.err && fail "a link declared twice: accepted"
grep -q "^maketrace: lk.conf:4:1: link C -> B is declared twice (first at line 3)" lk.err ||
    { cat lk.err; fail "a link declared twice: not said"; }

# --- 3. The experiments' PB_SEEDS (run_all.sh --seeds) was read by awk:
# "0" or "-1" gave no seed (every figure listed no job and said nothing),
# "abc" was compared as text (1 <= "abc" always: a list without end) and
# "1e9" built a list of a billion seeds.  PB_MODELS_SET
# other than 1, 2, 3 ran the first set under its name.  Refused now.
for s in abc 0 -1 1e9 1001; do
    ( lim; cd "$R" && PB_SEEDS=$s PB_MODE=tiny PB_OUT="$tmp/o" exec sh experiments/fig19.sh jobs ) > j.out 2> j.err &&
        fail "PB_SEEDS=$s: accepted"
    grep -q "^fig19: PB_SEEDS '$s': expected a whole number of seeds from 1 to 1000" j.err ||
        { cat j.err; fail "PB_SEEDS=$s: not said"; }
done
( cd "$R" && PB_SEEDS=2 PB_MODE=tiny PB_OUT="$tmp/o" exec sh experiments/fig19.sh jobs ) > j.out 2> j.err ||
    { cat j.err; fail "PB_SEEDS=2 refused"; }
[ -s j.out ] || fail "PB_SEEDS=2: no job"
( lim; cd "$R" && exec sh experiments/run_all.sh --seeds abc --list-jobs --out "$tmp/o" ) > j.out 2> j.err && fail "run_all --seeds abc: accepted"
grep -q "^run_all: --seeds 'abc': expected a whole number of seeds from 1 to 1000" j.err || { cat j.err; fail "run_all --seeds abc: not said"; }
( cd "$R" && PB_BIN="$B" PB_MODELS_SET=4 exec sh experiments/joint_models.sh --quick --configs pool --out "$tmp/o" ) > j.out 2> j.err &&
    fail "PB_MODELS_SET=4: accepted"
grep -q "^joint_models: PB_MODELS_SET '4': expected 1, 2" j.err || { cat j.err; fail "PB_MODELS_SET=4: not said"; }
[ -e "$tmp/o/joint_models.csv" ] && fail "PB_MODELS_SET=4: a table written"

# --- 4. sniffer: many capture boxes.  Every --sniffer reset every box
# added before it (a generator seeded per box: quadratic, 8,000 boxes took
# 38 s before reading a message), each box kept a table of nodes (memory
# boxes x nodes) and every message asked every box.  Now a box is reset
# when added, and each node lists the boxes that see it (in box order, so
# the draws and the drop causes are the same).
if [ -x "$B/sniffer" ]; then
    "$B/maketrace" -o t.tr "$R/maketrace/configs/tiny.conf" 2> /dev/null || fail "maketrace tiny"
    set -- $(awk 'BEGIN { for (i = 0; i < 16000; i++) printf "--sniffer X%d ", i }')
    ( lim; exec "$B/sniffer" -q "$@" --sniffer '*;loss=0.3' -o sn.tr t.tr ) 2> sn.err ||
        { tail -3 sn.err; fail "16,000 boxes: not run"; }
    "$B/sniffer" -q --sniffer '*;loss=0.3' -o sn1.tr t.tr 2> /dev/null || fail "one box"
    # the box that sees everything is the last: its draws are its own
    # (seeded by its index), so compare with the same index
    set -- $(awk 'BEGIN { for (i = 0; i < 16000; i++) printf "--sniffer X%d;loss=0.5 ", i }')
    ( lim; exec "$B/sniffer" -q "$@" --sniffer 'A,B1;loss=0' -o sn2.tr t.tr ) 2> sn.err ||
        { tail -3 sn.err; fail "16,000 boxes and a lossless one: not run"; }
    "$B/sniffer" -q --sniffer 'A,B1;loss=0' -o sn3.tr t.tr 2> /dev/null || fail "a lossless box"
    grep -v '^#' sn2.tr > sn2.rows; grep -v '^#' sn3.tr > sn3.rows
    [ -s sn3.rows ] || fail "a lossless box kept nothing"
    cmp -s sn2.rows sn3.rows || fail "16,000 boxes that see no message changed what a lossless box keeps"
fi

exit 0

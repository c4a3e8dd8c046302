#!/bin/sh
# Hostile input, round 12b (issue 28, h203): what users feed the programs
# other than the readers (score, compare, maketrace configs, skewer and
# sniffer specs, every program's options).  One block per class, each able
# to fail on the tree before it.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold score maketrace skewer sniffer infer compare

# --- 1. maketrace: delays that add up past the largest time a generated
# trace can hold (2^61 ns, about 73 years) saturated there silently: with a
# messages limit (no duration limit to drop such paths) every later row had
# the same clamped stamp.  Now refused, in both the plain generator and the
# execution-model simulator, saying why.
cat > long.conf <<'CONF'
call_delay = 1000000000s,0s
tracelet a from client { call b { call c { call d { call e { call f { call g { call h { call i { call j { call k } } } } } } } } } }
CONF
for ex in "" "-s exec=pool"; do
    # shellcheck disable=SC2086
    "$B/maketrace" -q -s messages=200 $ex -o long.tr long.conf 2> long.err && fail "time overflow ($ex): accepted"
    grep -q "^maketrace: long.conf: a message's time reaches 2305843009s" long.err ||
        { cat long.err; fail "time overflow ($ex): not said"; }
done
# long delays below the limit are not refused (ten hops of 10^7 s a path)
sed 's/1000000000s,0s/10000000s,0s/' long.conf > ok.conf
"$B/maketrace" -q -s messages=200 -o ok.tr ok.conf 2> ok.err || { cat ok.err; fail "long but valid delays refused"; }

# --- 2. score --query: message ids were compared and grouped as doubles,
# exact only up to 2^53: on a trace whose ids pass it (a trace's id column
# holds any 64-bit number), "x.id = N" matched the neighbouring id too and
# "GroupBy x.id" merged pairs of requests' messages into one group.  Now
# ids and whole-number literals compare exactly and group by their digits.
if command -v awk > /dev/null 2>&1; then
    printf 'messages = 60\ntracelet a from client { call b { call c } }\n' > s.conf
    "$B/maketrace" -q -o small.tr s.conf || fail "maketrace s.conf"
    # ids 2^53 + id (ids here are below 100; awk's numbers are doubles, so
    # the sum is written as text: 90071992547 then 40992 + id)
    awk -F, 'BEGIN { OFS = "," }
        function big(v) { return sprintf("90071992547%05d", 40992 + v) }
        /^#/ || /^id,/ { print; next }
        { $1 = big($1); if ($9 != "") $9 = big($9); print }' small.tr > big.tr
    grep -q '^9007199254740993,' big.tr || { head -5 big.tr; fail "big.tr not written"; }
    "$B/infer" -q --algo fcfs -o big.res big.tr 2> inf.err || { cat inf.err; fail "infer big.tr"; }
    "$B/score" -T big.tr --query 'From x In Send Where x.id = 9007199254740993 Select Count' big.res > q1.csv 2> q.err ||
        { cat q.err; fail "id query refused"; }
    tail -1 q1.csv | grep -q ',parent,1,1,' || { cat q1.csv; fail "x.id = 2^53+1 matched another id too"; }
    n=$(grep -vc '^#\|^id,' big.tr)
    "$B/score" -T big.tr --query 'From x In Event GroupBy x.id Select Count' big.res > q2.csv 2> q.err ||
        { cat q.err; fail "GroupBy id refused"; }
    tail -1 q2.csv | grep -q ",parent,$((2 * n)),$((2 * n)),$n,$n," || { cat q2.csv; fail "GroupBy x.id merged ids past 2^53 ($n messages)"; }
fi

# --- 3. skewer -f / sniffer --sniffer naming nodes the trace lacks: the
# warning loop asked for the i-th unseen node afresh each time (quadratic:
# a spec of 80,000 nodes took 1.8 CPU s where 20,000 took 0.13) and wrote a
# line per node.  Now one linear walk; the first 10 named, the rest counted.
printf 'messages = 40\ntracelet a from client { call b }\n' > u.conf
"$B/maketrace" -q -o u.tr u.conf || fail "maketrace u.conf"
i=0; : > u.spec; L=b
while [ $i -lt 15 ]; do i=$((i + 1)); echo "n$i=+1ms" >> u.spec; L="$L,n$i"; done
"$B/skewer" -f u.spec -o u.out u.tr 2> u.err || { cat u.err; fail "skewer u.spec"; }
[ "$(grep -c 'of the clock spec does not appear' u.err)" -eq 10 ] || { cat u.err; fail "skewer: not 10 nodes named"; }
grep -q '^skewer: warning: 5 more nodes of the clock spec do not appear in the trace (15 in all' u.err ||
    { cat u.err; fail "skewer: the rest not counted"; }
"$B/sniffer" --sniffer "$L" -o u.out u.tr 2> u.err || { cat u.err; fail "sniffer --sniffer"; }
[ "$(grep -c 'of --sniffer does not appear' u.err)" -eq 10 ] || { cat u.err; fail "sniffer: not 10 nodes named"; }
grep -q '^sniffer: warning: 5 more nodes of --sniffer do not appear in the trace (15 in all' u.err ||
    { cat u.err; fail "sniffer: the rest not counted"; }

# --- 4. compare's points files: a header naming a column twice (the first
# was used, silently), a row with more fields than the header (the extra
# dropped), and one metric said 'higher' on one row and 'lower' on another
# (in one file or across A and B: the verdict followed the last row read).
# Each refused at its file, line and column, saying what was expected.
printf 'point,metric,seed,value\np,m,1,0.5\np,m,2,0.6\n' > A.csv
printf 'point,metric,seed,value,value\np,m,1,1,2\n' > B1.csv
printf 'point,metric,seed,value\np,m,1,0.5,0.9\n' > B2.csv
printf 'point,metric,seed,value,better\np,m,1,0.5,higher\np,m,2,0.6,lower\n' > B3.csv
printf 'point,metric,seed,value,better\np,m,1,0.5,higher\np,m,2,0.6,higher\n' > A4.csv
printf 'point,metric,seed,value,better\np,m,1,0.5,lower\n' > B4.csv
"$B/compare" -q A.csv B1.csv > c.out 2> c.err; [ $? -eq 4 ] || { cat c.err; fail "a column twice: not refused"; }
grep -q "^compare: B1.csv:1:25: column 'value' twice (fields 4 and 5); expected each column once" c.err ||
    { cat c.err; fail "a column twice: not said"; }
"$B/compare" -q A.csv B2.csv > c.out 2> c.err; [ $? -eq 4 ] || { cat c.err; fail "a field past the header: not refused"; }
grep -q "^compare: B2.csv:2:11: 5 fields; expected 4 as in the header" c.err ||
    { cat c.err; fail "a field past the header: not said"; }
"$B/compare" -q A.csv B3.csv > c.out 2> c.err; [ $? -eq 4 ] || { cat c.err; fail "two directions in a file: not refused"; }
grep -q "^compare: B3.csv:3:11: point p metric m: better 'lower' where side B line 2 said 'higher'" c.err ||
    { cat c.err; fail "two directions in a file: not said"; }
"$B/compare" -q A4.csv B4.csv > c.out 2> c.err; [ $? -eq 4 ] || { cat c.err; fail "two directions across A and B: not refused"; }
grep -q "^compare: B4.csv:2:11: point p metric m: better 'lower' where side A line 2 said 'higher'" c.err ||
    { cat c.err; fail "two directions across A and B: not said"; }
# 'none' or an empty better names no direction: no conflict
printf 'point,metric,seed,value,better\np,m,1,0.5,\np,m,2,0.6,none\n' > B5.csv
"$B/compare" -q A4.csv B5.csv > c.out 2> c.err; [ $? -ne 4 ] || { cat c.err; fail "an empty better refused"; }

# --- 5. experiments/regress.sh options: --seeds abc was taken (awk then
# compared seeds as text: every baseline seed kept), --seeds 0 made every
# row MISSING, --tol-sd nan was refused by compare only after every point
# had run, and an option without its value died with the shell's
# "parameter not set".  Each now refused at once, naming the option and
# what it expects (--current: nothing is run here).
RS="$PB_ROOT/experiments/regress.sh"
if [ -f "$RS" ] && [ -f "$PB_ROOT/experiments/baseline.dat" ]; then
    grep -v '^#' "$PB_ROOT/experiments/baseline.dat" > "$tmp/cur.csv"
    for bad in "--seeds abc|--seeds abc: expected a whole number of seeds from 1 to 1000" \
               "--seeds 0|--seeds 0: expected a whole number of seeds from 1 to 1000" \
               "--tol-sd nan|--tol-sd nan: expected a number of standard deviations >= 0" \
               "--baseline|--baseline: expected a file after it" \
               "--seeds|--seeds: expected a whole number of seeds from 1 to 1000 after it"; do
        args=${bad%%|*} want=${bad#*|}
        # shellcheck disable=SC2086
        PB_BIN="$B" sh "$RS" --current "$tmp/cur.csv" $args > r.out 2> r.err
        rc=$?
        [ $rc -eq 2 ] || { cat r.out r.err; fail "regress $args: exit $rc, expected 2"; }
        grep -qF "regress: $want" r.err || { cat r.err; fail "regress $args: not said"; }
        grep -q 'regress: baseline' r.out && fail "regress $args: compared before refusing"
    done
    # a relative --current (and --baseline) is the caller's file, not the
    # checkout's (was "no file cur.csv")
    cp "$PB_ROOT/experiments/baseline.dat" base.dat
    PB_BIN="$B" sh "$RS" --current cur.csv --baseline base.dat > r.out 2> r.err ||
        { cat r.out r.err; fail "regress: a relative --current or --baseline not found"; }
    grep -q 'regress: no metric moved beyond its tolerance' r.out || { cat r.out; fail "regress: relative files: no verdict"; }
fi

# --- 6. maketrace: a choose weight from a variable whose value is no
# weight (-s NAME=-1, or let x = nan) was refused naming only "$name" at the
# config's line: the config looked fine and the value was not shown.  Now
# the value is said too.
printf 'messages = 20\nlet w = 1\ntracelet a from client { choose { $w { call b } } }\n' > w.conf
"$B/maketrace" -q -s w=-1 -o w.tr w.conf 2> w.err && fail "a weight of -1 from -s: accepted"
grep -q '^maketrace: w.conf:3:35: expected a branch weight .* got "\$w", whose value is "-1"' w.err ||
    { cat w.err; fail "a bad weight from -s: its value not said"; }

echo "ok"

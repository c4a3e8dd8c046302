#!/bin/sh
# importtrace --thread=MODE on span data (docs/importer.md, "Threads"):
# the old spelling --thread is the oracle (same rows, now named in the
# metadata as an emulation); pool, loop and random:T fill thread and
# sthread and say so; random is the same for one seed and differs for
# another; a bad mode is a usage error.  On the fan-out fixture (a 4-way
# parallel fan-out, 5-way fan-in) the pool gives the callee of each
# parallel call its own worker, and vpath's paper variant is exact.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in importtrace infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
D="$PB_ROOT/tests/data/importtrace"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
field() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' "$2"; }
for f in ties fanout; do
    "$PB_BIN/importtrace" -q --callid --thread -o "$tmp/o.csv" "$D/$f.json" || fail "--thread"
    "$PB_BIN/importtrace" -q --callid --thread=oracle -o "$tmp/o2.csv" "$D/$f.json" || fail "--thread=oracle"
    cmp -s "$tmp/o.csv" "$tmp/o2.csv" || fail "$f: --thread and --thread=oracle differ"
    grep -q '^# emulated=thread model=oracle' "$tmp/o.csv" || fail "$f: oracle not named"
    "$PB_BIN/importtrace" -q --callid -o "$tmp/n.csv" "$D/$f.json" || fail "no thread"
    # the oracle's rows are the rows without threads plus the column
    grep -v '^#' "$tmp/o.csv" | cut -d, -f1-9 > "$tmp/o.rows"
    grep -v '^#' "$tmp/n.csv" > "$tmp/n.rows"
    cmp -s "$tmp/o.rows" "$tmp/n.rows" || fail "$f: the oracle changed other columns"
    for m in pool loop random:3; do
        "$PB_BIN/importtrace" -q --callid --thread=$m -o "$tmp/$m.csv" "$D/$f.json" || fail "--thread=$m"
        grep -q "^# emulated=thread,sthread model=${m%%:*}" "$tmp/$m.csv" || fail "$f $m: not named"
        grep -v '^#' "$tmp/$m.csv" | head -n 1 | grep -q ',thread,sthread$' || fail "$f $m: no thread, sthread"
    done
    "$PB_BIN/importtrace" -q --thread=random:3 --seed 7 -o "$tmp/r7.csv" "$D/$f.json" || fail seed
    "$PB_BIN/importtrace" -q --thread=random:3 --seed 7 -o "$tmp/r7b.csv" "$D/$f.json" || fail seed
    cmp -s "$tmp/r7.csv" "$tmp/r7b.csv" || fail "$f: random not reproducible"
    "$PB_BIN/importtrace" -q --thread=random:3 --seed 8 -o "$tmp/r8.csv" "$D/$f.json" || fail seed
    cmp -s "$tmp/r7.csv" "$tmp/r8.csv" && fail "$f: seeds 7 and 8 give the same threads"
    grep -q 'model=random threads=3 seed=7' "$tmp/r7.csv" || fail "$f: random's parameters not named"
    grep -v '^#' "$tmp/loop.csv" | awk -F, 'NR > 1 && ($10 != "loop" || $11 != "loop") { bad = 1 } END { exit bad }' ||
        fail "$f: loop: a thread other than loop"
done
# fan-out: four parallel calls, each served by its own worker at its callee
"$PB_BIN/infer" --algo vpath -s variant=paper -o "$tmp/v.res" "$tmp/pool.csv" 2>/dev/null || fail "vpath pool"
"$PB_BIN/score" --truth "$tmp/pool.csv" "$tmp/v.res" > "$tmp/v.score" || fail score
[ "$(field exact_accuracy "$tmp/v.score")" = 1 ] || fail "fanout pool: vpath paper not exact"
for bad in --thread=x --thread=random:0 --thread=random:; do
    "$PB_BIN/importtrace" -q $bad "$D/ties.json" > /dev/null 2>&1
    [ $? = 2 ] || fail "$bad: expected exit 2"
done
exit 0

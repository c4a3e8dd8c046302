#!/bin/sh
# experiments/nest_check.awk, the choice-by-choice check of nesting used by
# Figure 17: hand-worked numbers on a four-call trace, and the oracle's
# result (every nested call with its true parent) on a generated trace.
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
kv() { tr ' ' '\n' | sed -n "s/^$1=//p"; }

# X and Y call B (paths 1 and 2); B calls C twice while both are open, so
# each C call has two candidates.  The result puts both C calls in X's
# instance: one right (path 1's), one wrong and older (path 2's given X).
cat >"$tmp/t.csv" <<'T'
id,ts,src,dst,type,callid,path,cause
0,0.000,X,B,call,1,1,
1,0.001,Y,B,call,2,2,
2,0.010,B,C,call,3,1,0
3,0.011,B,C,call,4,2,1
4,0.020,C,B,return,3,1,2
5,0.021,C,B,return,4,2,3
6,0.030,B,X,return,1,1,4
7,0.031,B,Y,return,2,2,5
T
cat >"$tmp/r.csv" <<'R'
# pathbench-result 1
rank,pattern,count
1,"X>B[C,C]",1
2,"Y>B",1
id,instance,rank
0,1,1
1,2,2
2,1,1
3,1,1
4,1,1
5,1,1
6,1,1
7,2,2
R
line=$(awk -f experiments/nest_check.awk "$tmp/r.csv" "$tmp/t.csv") || fail "nest_check failed"
[ "$(echo "$line" | kv nested)" = 2 ] || fail "nested calls: $line"
[ "$(echo "$line" | kv right_parent)" = 0.5000 ] || fail "right parent share: $line"
[ "$(echo "$line" | kv wrong_older)" = 1.0000 ] || fail "wrong choices taking an older parent: $line"

# the oracle gives every nested call its true parent
"$PB_BIN/maketrace" -s 3 -D duration=0 -D messages=4000 -D instances=40 maketrace/configs/multitier.conf >"$tmp/g.csv" || fail maketrace
"$PB_BIN/infer" --algo truth "$tmp/g.csv" >"$tmp/gt.csv" || fail "infer truth"
line=$(awk -f experiments/nest_check.awk "$tmp/gt.csv" "$tmp/g.csv") || fail "nest_check failed"
[ "$(echo "$line" | kv right_parent)" = 1.0000 ] || fail "oracle not all right: $line"
n=$(echo "$line" | kv nested)
[ "$n" -gt 500 ] || fail "too few nested calls: $line"
# nesting at this parallelism errs on some calls: the check can say so
"$PB_BIN/infer" --algo nesting "$tmp/g.csv" >"$tmp/gn.csv" || fail "infer nesting"
line=$(awk -f experiments/nest_check.awk "$tmp/gn.csv" "$tmp/g.csv") || fail "nest_check failed"
awk -v l="$line" 'BEGIN { split(l, a, " "); for (i in a) { split(a[i], kv, "="); v[kv[1]] = kv[2] }
    exit !(v["right_parent"] > 0.3 && v["right_parent"] < 1 && v["bg_over_peak"] > 0 && v["peak"] > 0) }' ||
    fail "nesting at 40 instances: $line"
echo PASS

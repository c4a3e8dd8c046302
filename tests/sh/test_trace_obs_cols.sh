#!/bin/sh
# The optional observed columns (thread, sthread, conn, attr, size) live in
# a side array made only for a trace that has them (core/pb_trace.h,
# pb_obs).  Checked here: (1) every algorithm gives the same output on a
# trace without the columns and on the same trace with the five columns
# present but empty; (2) the algorithms that read no observed column give
# the same output with the columns filled; (3) skewer and sniffer, which
# stream rows from reader to writer, carry the columns with their rows.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in maketrace infer skewer sniffer; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
"$PB_BIN/maketrace" "$PB_ROOT/maketrace/configs/vapp.conf" -D duration=4s > "$tmp/full.csv" ||
    fail maketrace
grep -v '^#' "$tmp/full.csv" | head -n 1 | grep -q ',thread,sthread,conn' ||
    fail "vapp.conf: no thread, sthread, conn columns"
# the nine columns; the same with the five observed columns empty
awk -F, '/^#/ { print; next } { print $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 }' \
    "$tmp/full.csv" > "$tmp/plain.csv"
awk '/^#/ { print; next } !h { print $0 ",thread,sthread,conn,attr,size"; h = 1; next }
     { print $0 ",,,,," }' "$tmp/plain.csv" > "$tmp/empty.csv"
out() { grep -v '^# \(params\|program\|cpu_\)' "$1" | sed 's/ trace=[^ ]*//'; }
same() { # ALGO A B [infer args]: outputs of ALGO on traces A and B, the same
    a=$1; x=$2; y=$3; shift 3
    "$PB_BIN/infer" --algo "$a" -q "$@" -o "$tmp/x.res" "$tmp/$x.csv" 2> "$tmp/x.err" || fail "$a on $x"
    "$PB_BIN/infer" --algo "$a" -q "$@" -o "$tmp/y.res" "$tmp/$y.csv" 2> "$tmp/y.err" || fail "$a on $y"
    out "$tmp/x.res" > "$tmp/x.out"; out "$tmp/y.res" > "$tmp/y.out"
    cmp -s "$tmp/x.out" "$tmp/y.out" || { diff "$tmp/x.out" "$tmp/y.out" | head -5; fail "$a: $x and $y differ"; }
    cmp -s "$tmp/x.err" "$tmp/y.err" || fail "$a: stderr on $x and $y differ"
}
for a in joint fcfs arrival nesting linking convolution; do
    same "$a" plain empty
done
same joint plain empty -s callids=0
for a in nesting linking; do
    same "$a" plain full
done
# skewer: rows move, each keeps its columns (joined by id)
"$PB_BIN/skewer" -n '*=+3ms,+20ppm' "$tmp/full.csv" > "$tmp/sk.csv" 2> /dev/null || fail skewer
cols() { awk -F, '!/^#/ && $1 != "id" { print $1 "," $10 "," $11 "," $12 }' "$1" | sort; }
cols "$tmp/full.csv" > "$tmp/c0"
cols "$tmp/sk.csv" > "$tmp/c1"
cmp -s "$tmp/c0" "$tmp/c1" || fail "skewer lost the observed columns"
# sniffer: the kept rows unchanged, columns included
"$PB_BIN/sniffer" -p 0.3 --seed 3 "$tmp/full.csv" > "$tmp/sn.csv" 2> /dev/null || fail sniffer
grep -v '^#' "$tmp/sn.csv" > "$tmp/r1"
n=$(wc -l < "$tmp/r1")
[ "$n" -gt 100 ] || fail "sniffer kept $n rows"
grep -v '^#' "$tmp/full.csv" | grep -F -x -f "$tmp/r1" | cmp -s - "$tmp/r1" ||
    fail "sniffer changed a kept row"
grep -v '^#' "$tmp/sn.csv" | awk -F, 'NR > 1 && $10 != "" { k++ } END { exit !(k > 0) }' ||
    fail "sniffer: no thread value kept"
exit 0

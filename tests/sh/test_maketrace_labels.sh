#!/bin/sh
# maketrace label lines (docs/maketrace.md "Labels"): attr and size on the
# links they name, first match wins, sizes in range and deterministic,
# delays unchanged by labels, and bad lines named by line and column.
set -eu
B="$PB_BIN"; R="$PB_ROOT"
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
base='seed = 3
messages = 400
call_delay = 20ms,4ms
ret_delay = 5ms,1ms
instances = 3
think = 10ms..30ms
tracelet rd from C1|C2 {
  call NN
  call DN1|DN2
}'
printf '%s\n' "$base" > "$d/plain.conf"
printf '%s\n%s\n' "$base" 'label C* -> NN type=call attr=getloc
label NN -> * attr=locs size=200
label * -> DN1 attr=first
label * -> DN* type=call attr=read size=4MB..64MB' > "$d/lab.conf"
"$B/maketrace" "$d/plain.conf" > "$d/plain.csv"
"$B/maketrace" "$d/lab.conf" > "$d/lab.csv"
"$B/maketrace" "$d/lab.conf" > "$d/lab2.csv"
cmp -s "$d/lab.csv" "$d/lab2.csv" || fail "labels not deterministic"
grep -q '^id,ts,recv_ts,src,dst,type,callid,path,cause,attr,size$' "$d/lab.csv" || fail "header"
# the same messages, delays and truth with and without labels
grep -v '^#' "$d/plain.csv" > "$d/a"
grep -v '^#' "$d/lab.csv" | cut -d, -f1-9 > "$d/b"
cmp -s "$d/a" "$d/b" || fail "labels changed the trace"
awk -F, 'NR > 1 && !/^#/ && $1 != "id" {
    want = ""; size = ""
    if ($4 ~ /^C/ && $5 == "NN" && $6 == "call") want = "getloc"
    else if ($4 == "NN") { want = "locs"; size = 200 }
    else if ($5 == "DN1") want = "first"
    else if ($5 ~ /^DN/ && $6 == "call") { want = "read"; size = "r" }
    if ($10 != want) { print "FAIL: attr " $10 " want " want ": " $0; bad = 1 }
    if (size == "r") { if ($11 < 4000000 || $11 > 64000000) { print "FAIL: size " $0; bad = 1 } }
    else if ($11 != size) { print "FAIL: size " $11 " want " size ": " $0; bad = 1 }
} END { exit bad }' "$d/lab.csv"
# the shipped configs that use labels carry the columns
"$B/maketrace" "$R/maketrace/configs/hdfs.conf" -s duration=2s | grep -q ',attr,size$' || fail "hdfs.conf columns"
# bad lines
bad() {
    printf '%s\n%s\n' "$base" "$1" > "$d/bad.conf"
    if "$B/maketrace" "$d/bad.conf" > /dev/null 2> "$d/err"; then fail "accepted: $1"; fi
    grep -q "$2" "$d/err" || { cat "$d/err"; fail "message for: $1"; }
}
bad 'label C1 NN attr=x' 'bad.conf:11:10: expected "->"'
bad 'label C1 -> NN size=1..x' 'bad.conf:11:16: expected size=BYTES'
bad 'label C1 -> NN size=9GiB' 'below 4 GiB'
bad 'label C1 -> NN attr=a attr=b' 'bad.conf:11:23: attr= given twice'
bad 'label C1 -> NN type=reply attr=a' 'expected type=call'
bad 'label C1 -> NN' 'neither attr= nor size='
bad 'label C1 -> NN colour=red' 'unknown attribute'
echo ok

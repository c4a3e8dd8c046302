#!/bin/sh
# joint_ebpf_cross.sh - evaluation only (the truth decides nothing in
# infer): on the DeepTrace eBPF capture as a black box, which requests
# joint and fcfs get exact, split into the requests that touch a
# crossing (two messages of one link received in the other order from
# how they were sent: a call read by the callee, or a return read by the
# caller) and the rest; then the log-likelihood joint gives its own
# solution against one with a crossing's pair forced to the truth's
# (call ids on those four messages only), and, for the other call
# crossings, joint's against the requests' client calls and responses
# forced to the truth's pairs.  docs/joint/systems.md, "The
# eBPF capture as a black box: the crossings".
#   sh experiments/joint_ebpf_cross.sh [DATA_DIR]   (default ../shared/data)
set -e
R=$(cd "$(dirname "$0")/.." && pwd)
B=${PB_BIN:-$R/bin}
DATA=${1:-$R/../shared/data}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
. "$R/experiments/trace_cols.sh"
ebpf_trace "$DATA" "$W"
for a in joint fcfs; do
    "$B/infer" --algo $a -o "$W/$a.csv" "$W/bb.csv" 2> /dev/null
    awk -F, -f "$R/experiments/joint_perreq.awk" "$W/bb.csv" "$W/$a.csv" | sort > "$W/$a.req"
done
# requests with a crossed message (adjacent by send stamp on one link,
# received in the other order), and the crossings themselves
awk -F, '/^#/ || $1 == "id" { next } $3 != "" { print $4 ">" $5 "/" $6, $2, $3, $1, $7 }' "$W/bb.csv" |
    sort -k1,1 -k2,2g |
    awk '{ if ($1 == pl && $3 < pr) { print pq > "/dev/stderr"; print $5 > "/dev/stderr"
                                      print "crossing", $1, pid, $4 } pl = $1; pr = $3; pid = $4; pq = $5 }' \
    2> "$W/xreq" > "$W/cross"
sort -u "$W/xreq" > "$W/xreq.u"
join "$W/joint.req" "$W/fcfs.req" | awk -v xf="$W/xreq.u" '
    BEGIN { while ((getline l < xf) > 0) x[l] = 1 }
    { g = ($1 in x) ? "crossed" : "other"; n[g]++; j[g] += $2; f[g] += $3
      if ($2 != $3) d = d " " substr($1, 1, 8) "(joint " $2 ", fcfs " $3 ")" }
    END { for (g in n) printf "%s requests=%d joint=%d fcfs=%d\n", g, n[g], j[g], f[g]
          print "differ:" d }'
cat "$W/cross"
# the call crossing whose requests joint and fcfs score differently:
# force its pairing (ids on its calls and their returns) and compare
ll() { sed -n 's/^# pair_order=auto chosen=\([a-z]*\) .*log_likelihood_held=\([-0-9.]*\) .*with_order_held=\([-0-9.]*\)/\1 \2 \3/p' "$1"; }
set -- $(awk '$2 ~ /\/call$/ { print $3, $4 }' "$W/cross" | while read a b; do
    ra=$(awk -F, -v i=$a '$1 == i { print $7 }' "$W/bb.csv"); grep -q "^$ra 0" "$W/joint.req" &&
    grep -q "^$ra 1" "$W/fcfs.req" && echo "$a $b"; done | head -1)
[ $# = 2 ] || { echo "no call crossing separates joint and fcfs"; exit 0; }
awk -F, -v a=$1 -v b=$2 'BEGIN { OFS = "," } /^#/ { print; next } $1 == "id" { print $0 ",callid"; next }
    { k = ""; if ($1 == a || ($6 == "return" && $8 == a)) k = "x1"
      if ($1 == b || ($6 == "return" && $8 == b)) k = "x2"; print $0 "," k }' "$W/bb.csv" > "$W/force.csv"
"$B/infer" --algo joint -o "$W/force.out" "$W/force.csv" 2> /dev/null
awk -F, -f "$R/experiments/joint_perreq.awk" "$W/force.csv" "$W/force.out" | awk '{ s += $2 } END { printf "forced %s: exact %d;", "'"$1/$2"'", s }'
printf " joint: kept/ll_held/with_order %s; forced: %s\n" "$(ll "$W/joint.csv")" "$(ll "$W/force.out")"
# the other call crossings: the two requests' client calls and
# responses paired as in the truth (ids on those four messages only)
awk '$2 ~ /\/call$/ { print $3, $4 }' "$W/cross" | while read a b; do
    ra=$(awk -F, -v i=$a '$1 == i { print $7 }' "$W/bb.csv")
    rb=$(awk -F, -v i=$b '$1 == i { print $7 }' "$W/bb.csv")
    [ "$a" = "$1" ] && continue
    awk -F, -v ra="$ra" -v rb="$rb" 'BEGIN { OFS = "," } /^#/ { print; next }
        $1 == "id" { print $0 ",callid"; next }
        { k = ""; if (($7 == ra || $7 == rb) && ($4 == "192.168.0.1" || $5 == "192.168.0.1")) k = substr($7, 1, 8)
          print $0 "," k }' "$W/bb.csv" > "$W/force2.csv"
    "$B/infer" --algo joint -o "$W/force2.out" "$W/force2.csv" 2> /dev/null
    n=$(awk -F, -f "$R/experiments/joint_perreq.awk" "$W/force2.csv" "$W/force2.out" | awk '{ s += $2 } END { print s }')
    echo "crossing $a/$b, client pairs forced: exact $n; kept/ll_held/with_order $(ll "$W/force2.out")"
done

#!/bin/sh
# joint_shapes.sh - the joint algorithm beside nesting and every call-view
# baseline that `infer` knows (fcfs, arrival, vpath, wap5tw when built) on
# the shape configs of issue 15, at low load (the config's instances) and
# high load (-D instances_scale=4), scored by score's exact_accuracy (and
# set_accuracy / tw_accuracy when score has them).
#
#   sh experiments/joint_shapes.sh [--out DIR] [--duration D]
#
# Environment: PB_BIN (default <repo>/bin), PB_OUT (default <repo>/out).
# Writes $PB_OUT/joint_shapes.csv (one row per config, load, algorithm)
# and $PB_OUT/joint_shapes.md (a table: exact accuracy in percent, the best
# of each row in bold).  Deterministic.  It prints what its own run took (experiments/cost.sh); the
# side scripts took 80-100 CPU s each at load 2-4 (issue 27).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/experiments/cost.sh"
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out}"
DUR=30s
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "joint_shapes: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --duration) [ $# -ge 2 ] || { echo "joint_shapes: --duration needs a value" >&2; exit 2; }
           DUR=$2; shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "joint_shapes: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "joint_shapes: $*" >&2; exit 1; }
for p in maketrace infer score; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
mkdir -p "$PB_OUT" || die "cannot create $PB_OUT"
W=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$W"' EXIT
CONFIGS="shape-fanout shape-fanin shape-join shape-optional shape-retry shape-types shape-serial shape-queue hotel-like media-like multitier children-0-2"
ALGOS="joint nesting"
for a in fcfs arrival vpath wap5tw; do
    "$PB_BIN/infer" --help 2>&1 | grep -q "^$a (call view)" && ALGOS="$ALGOS $a"
done
CSV="$PB_OUT/joint_shapes.csv"
echo "config,load,algo,exact_accuracy,set_accuracy,tw_accuracy,instance_fp_rate" > "$CSV.tmp"
for c in $CONFIGS; do
    conf="$ROOT/maketrace/configs/$c.conf"
    [ -f "$conf" ] || die "$conf missing"
    for load in low high; do
        sc=1; [ $load = high ] && sc=4
        "$PB_BIN/maketrace" "$conf" -D duration="$DUR" -D instances_scale=$sc > "$W/t.csv" ||
            die "maketrace $c failed"
        for a in $ALGOS; do
            "$PB_BIN/infer" --algo "$a" -o "$W/r.csv" "$W/t.csv" 2> "$W/log" ||
                die "infer $a on $c ($load) failed: $(tail -2 "$W/log")"
            "$PB_BIN/score" --truth "$W/t.csv" "$W/r.csv" > "$W/s.csv" 2> "$W/log" ||
                die "score $a on $c ($load) failed: $(tail -2 "$W/log")"
            awk -F, -v c="$c" -v l="$load" -v a="$a" '
                NR==1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                NR==2 { printf "%s,%s,%s,%s,%s,%s,%s\n", c, l, a, $col["exact_accuracy"],
                        ("set_accuracy" in col) ? $col["set_accuracy"] : "",
                        ("tw_accuracy" in col) ? $col["tw_accuracy"] : "",
                        $col["instance_fp_rate"] }' "$W/s.csv" >> "$CSV.tmp"
        done
    done
done
mv "$CSV.tmp" "$CSV"
awk -F, -v algos="$ALGOS" -v dur="$DUR" '
NR==1 { next }
{ v[$1 SUBSEP $2 SUBSEP $3] = $4; if (!($1 in seen)) { seen[$1] = 1; ord[++n] = $1 } }
END {
    na = split(algos, A, " ")
    print "Exact reconstruction (percent of true requests whose call tree is found"
    print "exactly), maketrace shape configs, " dur " of trace each; low load = the"
    print "config'"'"'s instances, high = 4x (`-D instances_scale=4`).  Best of each row in bold."
    print "Written by experiments/joint_shapes.sh."
    print ""
    h = "| config | load |"; s = "|---|---|"
    for (k = 1; k <= na; k++) { h = h " " A[k] " |"; s = s "---:|" }
    print h; print s
    for (i = 1; i <= n; i++) for (L = 1; L <= 2; L++) {
        load = L == 1 ? "low" : "high"; best = -1
        for (k = 1; k <= na; k++) { x = v[ord[i] SUBSEP load SUBSEP A[k]] + 0; if (x > best) best = x }
        line = "| " ord[i] " | " load " |"
        for (k = 1; k <= na; k++) {
            x = v[ord[i] SUBSEP load SUBSEP A[k]] + 0; t = sprintf("%.1f", 100 * x)
            line = line " " (x == best ? "**" t "**" : t) " |"
        }
        print line
    }
}' "$CSV" > "$PB_OUT/joint_shapes.md"
echo "joint_shapes: wrote $PB_OUT/joint_shapes.md" >&2
pb_cost_report joint_shapes.sh

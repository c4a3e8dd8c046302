#!/bin/sh
# joint_robust.sh - how the joint algorithm's accuracy falls beside
# nesting's under sniffer loss (0 to 1 %, independent) and clock offset at
# WS2 (0 to the mean call delay, 50 ms) on the multi-tier trace at Table 1's
# "normal" parallelism (-D instances=6), scored by exact_accuracy against
# the unperturbed trace (issue 15, robustness).
#
#   sh experiments/joint_robust.sh [--out DIR] [--messages N]
#
# Environment: PB_BIN (default <repo>/bin), PB_OUT (default <repo>/out).
# Writes $PB_OUT/joint_robust.dat (columns: kind value algo exact
# instance_fp_rate), $PB_OUT/joint_robust.md and, when gnuplot is
# installed, $PB_OUT/joint_robust.png.  Deterministic.  About 30 s.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out}"
N=50000
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "joint_robust: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --messages) [ $# -ge 2 ] || { echo "joint_robust: --messages needs a number" >&2; exit 2; }
           N=$2; shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "joint_robust: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "joint_robust: $*" >&2; exit 1; }
for p in maketrace infer score skewer sniffer; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
mkdir -p "$PB_OUT" || die "cannot create $PB_OUT"
W=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$W"' EXIT
"$PB_BIN/maketrace" "$ROOT/maketrace/configs/multitier.conf" -D instances=6 \
    -D messages="$N" -D duration=0 > "$W/t.csv" || die "maketrace failed"
DAT="$PB_OUT/joint_robust.dat"
echo "# joint_robust.sh: multitier.conf -D instances=6 -D messages=$N; exact accuracy vs the unperturbed truth" > "$DAT"
echo "kind value algo exact instance_fp_rate" >> "$DAT"
one() { # kind value perturbed-trace
    for a in joint nesting; do
        "$PB_BIN/infer" --algo "$a" -o "$W/r.csv" "$3" 2> "$W/log" || die "infer $a ($1 $2): $(tail -2 "$W/log")"
        "$PB_BIN/score" --truth "$W/t.csv" "$W/r.csv" 2> "$W/log" |
            awk -F, -v k="$1" -v v="$2" -v a="$a" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i}
                NR==2{print k, v, a, $c["exact_accuracy"], $c["instance_fp_rate"]}' >> "$DAT"
    done
}
for loss in 0 0.0025 0.005 0.0075 0.01; do
    "$PB_BIN/sniffer" --quiet --loss "$loss" -s 3 "$W/t.csv" > "$W/p.csv" || die "sniffer failed"
    one loss "$loss" "$W/p.csv"
done
for ms in 0 12.5 25 37.5 50; do
    # every clock 100 ms ahead (no negative stamps), WS2 ms more
    "$PB_BIN/skewer" --node "*=+100ms" --node "WS2=+$(awk -v m="$ms" 'BEGIN{printf "%g", 100 + m}')ms" \
        "$W/t.csv" > "$W/p.csv" || die "skewer failed"
    one offset "$ms" "$W/p.csv"
done
awk 'NR <= 2 { next }
{ v[$1 SUBSEP $2 SUBSEP $3] = $4; if (!(($1 SUBSEP $2) in s)) { s[$1 SUBSEP $2] = 1; o[++n] = $1 SUBSEP $2 } }
END {
    print "Exact reconstruction (percent) on the multi-tier trace (instances=6) under"
    print "perturbation; written by experiments/joint_robust.sh."
    print ""
    print "| perturbation | value | joint | nesting |"
    print "|---|---:|---:|---:|"
    for (i = 1; i <= n; i++) { split(o[i], kv, SUBSEP)
        u = kv[1] == "loss" ? sprintf("%g %%", 100 * kv[2]) : kv[2] " ms at WS2"
        printf "| %s | %s | %.1f | %.1f |\n", kv[1], u, 100 * v[o[i] SUBSEP "joint"], 100 * v[o[i] SUBSEP "nesting"] }
}' "$DAT" > "$PB_OUT/joint_robust.md"
if command -v gnuplot > /dev/null 2>&1; then
    awk 'NR>2 && $1=="loss" && $3=="joint" {print 100*$2, 100*$4}' "$DAT" > "$W/lj"
    awk 'NR>2 && $1=="loss" && $3=="nesting" {print 100*$2, 100*$4}' "$DAT" > "$W/ln"
    awk 'NR>2 && $1=="offset" && $3=="joint" {print $2, 100*$4}' "$DAT" > "$W/oj"
    awk 'NR>2 && $1=="offset" && $3=="nesting" {print $2, 100*$4}' "$DAT" > "$W/on"
    gnuplot <<GP || echo "joint_robust: gnuplot failed" >&2
set terminal pngcairo size 900,380
set output "$PB_OUT/joint_robust.png"
set multiplot layout 1,2 title "joint vs nesting under perturbation (multitier, instances=6)"
set ylabel "exact reconstruction (%)"; set yrange [0:100]; set key bottom left; set grid
set xlabel "sniffer loss (%)"
plot "$W/lj" w lp t "joint", "$W/ln" w lp t "nesting"
set xlabel "clock offset at WS2 (ms; mean call delay 50 ms)"
plot "$W/oj" w lp t "joint", "$W/on" w lp t "nesting"
unset multiplot
GP
fi
echo "joint_robust: wrote $PB_OUT/joint_robust.md" >&2

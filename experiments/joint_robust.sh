#!/bin/sh
# joint_robust.sh - how the joint algorithm's accuracy falls beside
# nesting's (and the baselines fcfs and arrival) under sniffer loss (0 to
# 1 %, independent) and under a clock offset at one node (0 to the mean
# call delay), on the multi-tier trace at Table 1's "normal" parallelism
# (-D instances=6; offset at WS2, mean call delay 50 ms) and on the
# hotel-like trace (offset at search, mean call delay 0.5 ms); issue 15,
# robustness.  joint also without call ids (-s callids=0), with its
# in-order pairing and with first-in-first-out pairing (-s align=0).
#
#   sh experiments/joint_robust.sh [--out DIR] [--messages N]
#
# Three exact accuracies per run (docs/metrics.md "Lossy traces"):
#   whole   against the whole, unperturbed truth (a request that lost a
#           message can then be exact for no algorithm);
#   kept    against the survivors' truth (score --kept: a damaged request
#           is right when what survives of it is grouped and drawn right);
#           the robustness goal is judged by this one;
#   intact  over the requests that lost nothing.
# Without loss the three are equal.
#
# Environment: PB_BIN (default <repo>/bin), PB_OUT (default
# <repo>/out/figures, where experiments/report.d/joint_robust.sh looks).
# Writes $PB_OUT/joint_robust.dat (one row per config, perturbation and
# value; per algorithm the three accuracies, fractions), joint_robust.md
# (the tables) and, with gnuplot, joint_robust.png/.svg
# (plots/joint_robust.gp).  Deterministic.  80-100 CPU s on the shared 2-core machine at load 2-4
# (issue 27); it prints what its own run took (experiments/cost.sh).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/experiments/cost.sh"
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out/figures}"
N=50000
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "joint_robust: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --messages) [ $# -ge 2 ] || { echo "joint_robust: --messages needs a number" >&2; exit 2; }
           N=$2; shift ;;
    -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "joint_robust: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "joint_robust: $*" >&2; exit 1; }
case "$N" in ''|*[!0-9]*) die "--messages: '$N' is not a count" ;; esac
for p in maketrace infer score skewer sniffer; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
mkdir -p "$PB_OUT" || die "cannot create $PB_OUT"
W=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$W"' EXIT INT TERM
# name and infer arguments; joint_nocid: joint with the call ids ignored
# (pairing calls and returns by time, as a black-box capture must),
# joint_fifo: the same with first-in-first-out pairing (-s align=0, the
# pairing before the in-order alignment)
ALL="joint nesting joint_nocid joint_fifo fcfs arrival"
args() {
    case $1 in
    joint_nocid) echo "--algo joint -s callids=0" ;;
    joint_fifo) echo "--algo joint -s callids=0 -s align=0" ;;
    *) echo "--algo $1" ;;
    esac
}
ALGOS="joint nesting joint_nocid joint_fifo"
for a in fcfs arrival; do
    "$PB_BIN/infer" --help 2>&1 | grep -q "^$a (call view)" && ALGOS="$ALGOS $a"
done
DAT="$PB_OUT/joint_robust.dat"
{
    echo "# joint_robust.sh: exact accuracy (fraction) under sniffer loss and clock offset; $N messages per trace"
    echo "# multitier: multitier.conf -D instances=6, offset at WS2 (mean call delay 50 ms); hotel-like: hotel-like.conf, offset at search (0.5 ms)"
    echo "# whole: vs the unperturbed truth; kept: vs the survivors' truth (score --kept); intact: requests that lost nothing"
    printf "# config kind value"
    for a in $ALL; do printf " %s_whole %s_kept %s_intact" "$a" "$a" "$a"; done
    echo
} > "$DAT.tmp"
one() { # config kind value truth perturbed
    line="$1 $2 $3"
    for a in $ALL; do
        case " $ALGOS " in *" $a "*) ;; *) line="$line NaN NaN NaN"; continue ;; esac
        # shellcheck disable=SC2046
        "$PB_BIN/infer" $(args "$a") -o "$W/r.csv" "$5" 2> "$W/log" ||
            die "infer $a ($1 $2 $3): $(tail -2 "$W/log")"
        "$PB_BIN/score" --truth "$4" "$W/r.csv" > "$W/s1" 2> "$W/log" ||
            die "score $a ($1 $2 $3): $(tail -2 "$W/log")"
        "$PB_BIN/score" --truth "$4" --kept "$5" "$W/r.csv" > "$W/s2" 2> "$W/log" ||
            die "score --kept $a ($1 $2 $3): $(tail -2 "$W/log")"
        v=$(awk -F, 'FNR==1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                     FNR==2 { if (FILENAME ~ /s1$/) w = $c["exact_accuracy"]
                              else { k = $c["exact_accuracy"]; t = $c["intact_exact_accuracy"] } }
                     END { print (w == "" ? "NaN" : w), (k == "" ? "NaN" : k), (t == "" ? "NaN" : t) }' "$W/s1" "$W/s2")
        line="$line $v"
    done
    echo "$line" >> "$DAT.tmp"
}
for cfg in multitier hotel-like; do
    case $cfg in
    multitier) defs="-D instances=6" node=WS2; offs="0 12.5 25 37.5 50" ;;
    hotel-like) defs="" node=search; offs="0 0.125 0.25 0.375 0.5" ;;
    esac
    # shellcheck disable=SC2086
    "$PB_BIN/maketrace" "$ROOT/maketrace/configs/$cfg.conf" $defs -D messages="$N" \
        -D duration=0 > "$W/t.csv" || die "maketrace $cfg failed"
    for loss in 0 0.0025 0.005 0.0075 0.01; do
        "$PB_BIN/sniffer" --quiet --loss "$loss" -s 3 "$W/t.csv" > "$W/p.csv" || die "sniffer failed"
        one "$cfg" loss "$loss" "$W/t.csv" "$W/p.csv"
    done
    for ms in $offs; do
        if [ "$ms" = 0 ]; then cp "$W/t.csv" "$W/p.csv" || die "cp failed"
        else "$PB_BIN/skewer" -n "$node=+${ms}ms" "$W/t.csv" > "$W/p.csv" || die "skewer failed"; fi
        one "$cfg" offset "$ms" "$W/t.csv" "$W/p.csv"
    done
done
mv "$DAT.tmp" "$DAT" || die "cannot write $DAT"
awk -v algos="$ALGOS" '
function pct(x) { return x == "NaN" ? "-" : sprintf("%.1f", 100 * x) }
/^# config/ { for (i = 2; i <= NF; i++) c[$i] = i - 1; next }
/^#/ { next }
{ row[++n] = $0 }
END {
    na = split(algos, A, " ")
    print "Exact reconstruction (percent) under perturbation; written by experiments/joint_robust.sh."
    print "Loss: against the survivors'\'' truth (`score --kept`; in brackets: against the whole"
    print "truth / over the requests that lost nothing).  Offset: against the truth (no message is lost)."
    print "joint_nocid: joint with the call ids ignored (calls and returns paired by time, as a"
    print "black-box capture must; the in-order alignment); joint_fifo: the same paired first in,"
    print "first out (`-s align=0`, the pairing before)."
    for (r = 1; r <= n; r++) {
        split(row[r], f, " ")
        if (f[1] != cur) {
            cur = f[1]
            printf "\n**%s**\n\n| perturbation |", cur
            for (a = 1; a <= na; a++) printf " %s |", A[a]
            printf "\n|---|"
            for (a = 1; a <= na; a++) printf "---:|"
            printf "\n"
        }
        u = f[2] == "loss" ? sprintf("loss %g %%", 100 * f[3]) : sprintf("offset %s ms at %s", f[3], cur == "multitier" ? "WS2" : "search")
        printf "| %s |", u
        for (a = 1; a <= na; a++) {
            k = pct(f[c[A[a] "_kept"] ])
            if (f[2] == "loss" && f[3] + 0 > 0)
                printf " %s (%s / %s) |", k, pct(f[c[A[a] "_whole"]]), pct(f[c[A[a] "_intact"]])
            else
                printf " %s |", k
        }
        printf "\n"
    }
}' "$DAT" > "$PB_OUT/joint_robust.md" || die "table failed"
if command -v gnuplot > /dev/null 2>&1; then
    gnuplot -e "datadir='$PB_OUT'" "$ROOT/plots/joint_robust.gp" 2> "$W/gp" ||
        echo "joint_robust: gnuplot failed: $(tail -3 "$W/gp")" >&2
fi
echo "joint_robust: wrote $DAT and $PB_OUT/joint_robust.md" >&2
pb_cost_report joint_robust.sh

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
#   sh experiments/joint_robust.sh [--out DIR] [--messages N] [--seeds S]
#
# Each point runs on S seeds (default 3; seed k: maketrace --seed k,
# sniffer --seed k+2, so seed 1 is the one-seed run of before), 20,000
# messages per trace by default (docs/experiments.md "How a verdict is
# judged": three seeds of 20,000 messages cost about what one of 50,000
# did); the report judges from the per-seed rows.
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
# Writes $PB_OUT/joint_robust.dat (one row per config, perturbation,
# value and seed; per algorithm the three accuracies, fractions),
# joint_robust_ci.dat (per config, perturbation and value: the number of
# seeds, then per algorithm and accuracy the mean over the seeds and its
# 95 % t interval, experiments/judge.awk), joint_robust.md (the tables of
# the means) and, with gnuplot, joint_robust.png/.svg
# (plots/joint_robust.gp, the bars from joint_robust_ci.dat).
# Deterministic.  It prints what its own run took (experiments/cost.sh).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/experiments/cost.sh"
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out/figures}"
N=20000
NS=3
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "joint_robust: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --messages) [ $# -ge 2 ] || { echo "joint_robust: --messages needs a number" >&2; exit 2; }
           N=$2; shift ;;
    --seeds) [ $# -ge 2 ] || { echo "joint_robust: --seeds needs a number" >&2; exit 2; }
           NS=$2; shift ;;
    -h|--help) sed -n '2,38p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "joint_robust: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "joint_robust: $*" >&2; exit 1; }
case "$N" in ''|*[!0-9]*) die "--messages: '$N' is not a count" ;; esac
case "$NS" in ''|0|*[!0-9]*) die "--seeds: '$NS' is not a positive count" ;; esac
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
    echo "# joint_robust.sh: exact accuracy (fraction) under sniffer loss and clock offset; $N messages per trace, seeds 1-$NS"
    echo "# multitier: multitier.conf -D instances=6, offset at WS2 (mean call delay 50 ms); hotel-like: hotel-like.conf, offset at search (0.5 ms)"
    echo "# whole: vs the unperturbed truth; kept: vs the survivors' truth (score --kept); intact: requests that lost nothing"
    printf "# config kind value seed"
    for a in $ALL; do printf " %s_whole %s_kept %s_intact" "$a" "$a" "$a"; done
    echo
} > "$DAT.tmp"
one() { # config kind value truth perturbed (seed: $S)
    line="$1 $2 $3 $S"
    for a in $ALL; do
        case " $ALGOS " in *" $a "*) ;; *) line="$line NaN NaN NaN"; continue ;; esac
        # shellcheck disable=SC2046
        # a failed run is a hole (NaN) named on stderr and in the .dat,
        # not the end of the sweep
        "$PB_BIN/infer" $(args "$a") -o "$W/r.csv" "$5" 2> "$W/log"
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "joint_robust: warning: infer $a failed (exit $rc) on $1 $2 $3 seed $S: $(tail -1 "$W/log")" >&2
            echo "# failed: infer $a (exit $rc) on $1 $2 $3 seed $S" >> "$DAT.tmp"
            line="$line NaN NaN NaN"; continue
        fi
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
  for S in $(awk -v n="$NS" 'BEGIN { for (i = 1; i <= n; i++) print i }'); do
    case $cfg in
    multitier) defs="-D instances=6" node=WS2; offs="0 12.5 25 37.5 50" ;;
    hotel-like) defs="" node=search; offs="0 0.125 0.25 0.375 0.5" ;;
    esac
    # shellcheck disable=SC2086
    "$PB_BIN/maketrace" --seed "$S" "$ROOT/maketrace/configs/$cfg.conf" $defs -D messages="$N" \
        -D duration=0 > "$W/t.csv" || die "maketrace $cfg failed"
    for loss in 0 0.0025 0.005 0.0075 0.01; do
        "$PB_BIN/sniffer" --quiet --loss "$loss" --seed $((S + 2)) "$W/t.csv" > "$W/p.csv" || die "sniffer failed"
        one "$cfg" loss "$loss" "$W/t.csv" "$W/p.csv"
    done
    for ms in $offs; do
        if [ "$ms" = 0 ]; then cp "$W/t.csv" "$W/p.csv" || die "cp failed"
        else "$PB_BIN/skewer" -n "$node=+${ms}ms" "$W/t.csv" > "$W/p.csv" || die "skewer failed"; fi
        one "$cfg" offset "$ms" "$W/t.csv" "$W/p.csv"
    done
  done
done
mv "$DAT.tmp" "$DAT" || die "cannot write $DAT"
# the means over the seeds and their 95 % t intervals (experiments/judge.awk)
CI="$PB_OUT/joint_robust_ci.dat"
awk "$(cat "$ROOT/experiments/judge.awk")"'
/^# config/ { for (i = 6; i <= NF; i++) name[i - 1] = $i; nc = NF - 1
              printf "# config kind value n"; for (i = 5; i <= nc; i++) printf " %s %s_lo %s_hi", name[i], name[i], name[i]; printf "\n"; next }
/^#/ { print; next }
{ k = $1 " " $2 " " $3; if (!(k in seen)) { seen[k] = 1; key[++n] = k }
  for (i = 5; i <= NF; i++) if ($i != "NaN") judge_add(k SUBSEP i, $i) }
END {
    for (r = 1; r <= n; r++) {
        line = ""; nmin = -1
        for (i = 5; i <= nc; i++) {
            if (judge_ci(key[r] SUBSEP i)) { line = line sprintf(" %.4f %.4f %.4f", JM, JLO, JHI); if (nmin < 0 || JN < nmin) nmin = JN }
            else line = line " NaN NaN NaN"
        }
        print key[r] " " (nmin < 0 ? 0 : nmin) line
    }
}' "$DAT" > "$CI.tmp" && mv "$CI.tmp" "$CI" || die "cannot write $CI"
awk -v algos="$ALGOS" '
function pct(x) { return x == "NaN" ? "-" : sprintf("%.1f", 100 * x) }
/^# config/ { for (i = 2; i <= NF; i++) c[$i] = i - 1; next }
/^#/ { next }
{ row[++n] = $0 }
END {
    na = split(algos, A, " ")
    print "Exact reconstruction (percent, the mean over the seeds; the intervals: joint_robust_ci.dat) under perturbation; written by experiments/joint_robust.sh."
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
}' "$CI" > "$PB_OUT/joint_robust.md" || die "table failed"
if command -v gnuplot > /dev/null 2>&1; then
    gnuplot -e "datadir='$PB_OUT'" "$ROOT/plots/joint_robust.gp" 2> "$W/gp" ||
        echo "joint_robust: gnuplot failed: $(tail -3 "$W/gp")" >&2
fi
echo "joint_robust: wrote $DAT and $PB_OUT/joint_robust.md" >&2
pb_cost_report joint_robust.sh

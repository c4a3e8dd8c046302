#!/bin/sh
# joint_models.sh - the held-out generalisation audit of issue 28 over
# execution and connection models joint was never tuned on: every
# call-view method on maketrace services with thread pools (bounded,
# handoff, batch), dispatchers, event loops (one or more threads, with and
# without event isolation), SEDA stages and every connection model
# (new, pool, pipelined, multiplexed), mixed per service, on fan-out,
# fan-in (joins), repeated calls and deep chains; stamps as generated
# (ns), rounded to 1 us and to 1 ms (`skewer --round`), and with a little
# clock skew (`skewer --random-offset uniform:0.1ms`); given spans (call
# ids) and as a black box (call ids emptied).  Scored by score's exact and
# set accuracy, with the CPU per 1000 requests (infer's cpu_read_s +
# cpu_infer_s).
#
#   sh experiments/joint_models.sh [--quick] [--out DIR] [--seeds "S..."]
#                                  [--keep DIR] [--configs "C..."]
#
# Configs: experiments/joint_models_{pool,dispatch,event,seda,mixed}.conf
# (docs/joint.md "Execution models"), each DURATION (2 s) of trace at the
# config's load (x1) and at twice its load (x2, `-s instances_scale=2`),
# with maketrace seeds 1 and 2 (--seeds).  Variants: x1 ns, 1us, 1ms,
# skew; x2 ns, 1us, 1ms.
# The trace keeps the columns a tracer of one thread per receipt would
# see (thread, as the eBPF capture's; sthread and conn are dropped).
# --quick: seed 1 only, variants x1 ns, 1us, 1ms and x2 ns.
# --keep DIR: write every variant trace (with call ids and truth) to DIR.
#
# Environment: PB_BIN (default <repo>/bin), PB_OUT (default <repo>/out),
# PB_MODELS_ALGOS (the methods; default joint and every call-view
# baseline infer knows), PB_MODELS_DURATION (default 2s).
# Writes $PB_OUT/joint_models.csv (one row per config, seed, variant, mode,
# method) and $PB_OUT/joint_models.md (joint against the best other method
# of every row, its margin in points and in requests, then every method's
# exact / set accuracy and CPU).  A row where joint is below the best other
# by more than 0.5 points and more than 2 requests is marked "LOSS".
# Deterministic (apart from the CPU column); prints what its own run took
# (experiments/cost.sh).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/experiments/cost.sh"
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out}"
: "${PB_MODELS_DURATION:=2s}"
QUICK=0
KEEP=
SEEDS=
CONFIGS="pool dispatch event seda mixed"
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) QUICK=1 ;;
    --keep) [ $# -ge 2 ] || { echo "joint_models: --keep needs a directory" >&2; exit 2; }
           KEEP=$2; shift ;;
    --out) [ $# -ge 2 ] || { echo "joint_models: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --seeds) [ $# -ge 2 ] || { echo "joint_models: --seeds needs a list" >&2; exit 2; }
           SEEDS=$2; shift ;;
    --configs) [ $# -ge 2 ] || { echo "joint_models: --configs needs a list" >&2; exit 2; }
           CONFIGS=$2; shift ;;
    -h|--help) sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "joint_models: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "joint_models: $*" >&2; exit 1; }
for p in maketrace skewer infer score; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
mkdir -p "$PB_OUT" || die "cannot create $PB_OUT"
[ -z "$KEEP" ] || mkdir -p "$KEEP" || die "cannot create $KEEP"
W=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$W"' EXIT
if [ -n "${PB_MODELS_ALGOS:-}" ]; then
    ALGOS=$PB_MODELS_ALGOS
else
    ALGOS="joint nesting"
    for a in fcfs arrival vpath wap5tw; do
        "$PB_BIN/infer" --help 2>&1 | grep -q "^$a (call view)" && ALGOS="$ALGOS $a"
    done
fi
if [ "$QUICK" = 1 ]; then
    : "${SEEDS:=1}"; VARIANTS="x1:ns x1:1us x1:1ms x2:ns"
else
    : "${SEEDS:=1 2}"; VARIANTS="x1:ns x1:1us x1:1ms x1:skew x2:ns x2:1us x2:1ms"
fi
CSV="$PB_OUT/joint_models.csv"
echo "config,seed,variant,mode,algo,exact_accuracy,set_accuracy,requests,cpu_s,cpu_s_per_1000" > "$CSV.tmp"
: > "$W/skipped"

# run every method on trace $4 (config $1, seed $2, variant $3, mode $5),
# scored against $4
run_set() {
    for a in $ALGOS; do
        "$PB_BIN/infer" --algo "$a" -o "$W/r.csv" "$4" 2> "$W/log" ||
            { echo "$1 $2 $3 $5 $a: infer failed: $(tail -1 "$W/log")" >> "$W/skipped"; continue; }
        "$PB_BIN/score" --truth "$4" "$W/r.csv" > "$W/s.csv" 2> "$W/log" ||
            { echo "$1 $2 $3 $5 $a: score failed: $(tail -1 "$W/log")" >> "$W/skipped"; continue; }
        cpu=$(sed -n 's/^# cpu_read_s=\([0-9.e+-]*\) cpu_infer_s=\([0-9.e+-]*\).*/\1 \2/p' "$W/r.csv" |
              awk '{ printf "%.3f", $1 + $2 }')
        awk -F, -v c="$1" -v s="$2" -v v="$3" -v m="$5" -v a="$a" -v cpu="$cpu" '
            NR==1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            NR==2 { n = $col["true_instances"]
                    printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3f\n", c, s, v, m, a, $col["exact_accuracy"],
                        $col["set_accuracy"], n, cpu, (n > 0 ? 1000 * cpu / n : 0) }' "$W/s.csv" >> "$CSV.tmp"
    done
}
# the columns a tracer that names the receiving thread records
keep_cols() {
    awk 'BEGIN { FS = OFS = ","; split("id ts recv_ts src dst type callid path cause thread", K, " ")
                 for (i in K) ok[K[i]] = 1 }
         /^#/ { print; next }
         !h { for (i = 1; i <= NF; i++) if ($i in ok) keep[++nk] = i; h = 1 }
         { line = ""; for (j = 1; j <= nk; j++) line = line (j > 1 ? OFS : "") $keep[j]; print line }' "$1"
}
# the black box: the call ids emptied
strip_ids() {
    awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
        !h { for (i = 1; i <= NF; i++) if ($i == "callid") c = i; h = 1; print; next }
        { if (c) $c = ""; print }' "$1"
}
for c in $CONFIGS; do
    conf="$ROOT/experiments/joint_models_$c.conf"
    [ -f "$conf" ] || die "$conf missing"
    for s in $SEEDS; do
        for v in $VARIANTS; do
            load=${v%%:*}; st=${v#*:}
            if [ ! -f "$W/gen.$load" ]; then
                "$PB_BIN/maketrace" "$conf" -s seed="$s" -s duration="$PB_MODELS_DURATION" \
                    -s instances_scale="${load#x}" > "$W/raw.csv" 2> "$W/log" ||
                    { echo "$c $s $load: maketrace failed: $(tail -1 "$W/log")" >> "$W/skipped"; continue; }
                keep_cols "$W/raw.csv" > "$W/gen.$load"
            fi
            case $st in
            ns) cp "$W/gen.$load" "$W/v.csv" ;;
            1us|1ms) "$PB_BIN/skewer" -q --round "$st" "$W/gen.$load" > "$W/v.csv" ;;
            skew) # every clock 1 ms late first, so that no stamp falls below 0
                  "$PB_BIN/skewer" -q -n '*=+1ms' "$W/gen.$load" > "$W/v0.csv" &&
                  "$PB_BIN/skewer" -q --random-offset uniform:0.1ms --seed "$s" "$W/v0.csv" > "$W/v.csv" ;;
            *) die "unknown stamps '$st'" ;;
            esac || { echo "$c $s $v: could not make the variant" >> "$W/skipped"; continue; }
            [ -z "$KEEP" ] || cp "$W/v.csv" "$KEEP/${c}_s${s}_${load}_$st.csv"
            run_set "$c" "$s" "$v" "$W/v.csv" ids
            strip_ids "$W/v.csv" > "$W/v.bb.csv"
            run_set "$c" "$s" "$v" "$W/v.bb.csv" blackbox
        done
        rm -f "$W"/gen.*
    done
done
mv "$CSV.tmp" "$CSV"
awk -F, -v algos="$ALGOS" -v dur="$PB_MODELS_DURATION" '
NR==1 { next }
{ k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; if (!(k in seen)) { seen[k] = 1; ord[++n] = k }
  ex[k SUBSEP $5] = $6; st[k SUBSEP $5] = $7; cpu[k SUBSEP $5] = $10; req[k] = $8 }
END {
    na = split(algos, A, " ")
    print "Joint against the best other method on held-out execution and connection models"
    print "(exact accuracy, percent; margin in points and in requests; " dur " of trace per"
    print "config and seed; x1 = the config'"'"'s load, x2 = twice; stamps ns as generated, 1us / 1ms"
    print "rounded down, skew = per-host offsets uniform in +-0.1 ms).  LOSS: joint below the"
    print "best other by more than 0.5 points and more than 2 requests.  Written by"
    print "experiments/joint_models.sh."
    print ""
    print "| config | seed | variant | mode | requests | joint | best other | margin | requests | joint CPU s/1000 |"
    print "|---|---:|---|---|---:|---:|---|---:|---:|---:|"
    nl = 0; nb = 0; worst = 1e9
    for (j = 1; j <= n; j++) {
        split(ord[j], P, SUBSEP); best = -1; bn = ""
        for (i = 1; i <= na; i++) if (A[i] != "joint" && (ord[j] SUBSEP A[i]) in ex && ex[ord[j] SUBSEP A[i]] + 0 > best) { best = ex[ord[j] SUBSEP A[i]] + 0; bn = A[i] }
        for (i = 1; i <= na; i++) if (A[i] != "joint" && (ord[j] SUBSEP A[i]) in ex && ex[ord[j] SUBSEP A[i]] + 0 == best && A[i] != bn) bn = bn "=" A[i]
        jk = ord[j] SUBSEP "joint"
        if (!(jk in ex)) { jt = "-"; d = "-"; dr = "-"; jc = "-" }
        else {
            dd = ex[jk] - best; nr = dd * req[ord[j]]
            jt = sprintf("%.1f", 100 * ex[jk]); d = sprintf("%+.2f", 100 * dd); dr = sprintf("%+.0f", nr)
            jc = sprintf("%.2f", cpu[jk])
            if (dd < -0.005 && nr < -2) { d = "**" d " LOSS**"; nl++ }
            else if (dd >= 0) nb++
            if (100 * dd < worst) worst = 100 * dd
        }
        printf "| %s | %s | %s | %s | %d | %s | %s %.1f | %s | %s | %s |\n", P[1], P[2], P[3], P[4], req[ord[j]], jt, bn, 100 * best, d, dr, jc
    }
    print ""
    printf "Rows: %d; joint at or above the best other on %d; LOSS rows: %d; smallest margin %+.2f points.\n", n, nb, nl, worst
    print ""
    print "Every method: exact / set accuracy (percent) and CPU s per 1000 requests (reading included)."
    print ""
    h = "| config | seed | variant | mode |"; s = "|---|---:|---|---|"
    for (i = 1; i <= na; i++) { h = h " " A[i] " |"; s = s "---:|" }
    print h; print s
    for (j = 1; j <= n; j++) {
        split(ord[j], P, SUBSEP); best = -1
        for (i = 1; i <= na; i++) if ((ord[j] SUBSEP A[i]) in ex && ex[ord[j] SUBSEP A[i]] + 0 > best) best = ex[ord[j] SUBSEP A[i]] + 0
        line = "| " P[1] " | " P[2] " | " P[3] " | " P[4] " |"
        for (i = 1; i <= na; i++) {
            k = ord[j] SUBSEP A[i]
            if (!(k in ex)) { line = line " - |"; continue }
            t = sprintf("%.1f / %.1f (%.2f s)", 100 * ex[k], 100 * st[k], cpu[k])
            if (ex[k] + 0 == best) t = "**" t "**"
            line = line " " t " |"
        }
        print line
    }
}' "$CSV" > "$PB_OUT/joint_models.md"
if [ -s "$W/skipped" ]; then
    { echo ""; echo "Skipped:"; echo ""; sed 's/^/- /' "$W/skipped"; } >> "$PB_OUT/joint_models.md"
fi
echo "joint_models: wrote $PB_OUT/joint_models.md" >&2
pb_cost_report joint_models

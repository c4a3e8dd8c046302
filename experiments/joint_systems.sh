#!/bin/sh
# joint_systems.sh - joint against every call-view method infer knows on
# the systems of issue 28, given spans (call ids) and as a black box (no
# call ids), scored by score's exact, set and tw accuracy, with the CPU
# each took per 1000 requests (infer's own cpu_read_s + cpu_infer_s:
# reading included).
#
#   sh experiments/joint_systems.sh [--out DIR] [--data DIR]
#
# Sets: the hotel topology with one-worker services stamped in whole
# milliseconds (experiments/joint_fifo.conf, `skewer --round 1ms`, at the
# config's load and 4x), the same with unrelated work interleaved in its
# services (joint_fifo_io.conf), and the real sets under DATA (default
# <repo>/data): the DeathStarBench hotel traces, nezha's OnlineBoutique
# and TrainTicket minutes and the DeepTrace eBPF capture (a set importtrace
# cannot read is listed as skipped).  "ids" rows are imported with --callid,
# "black box" rows without call ids (joint then pairs calls and returns by
# time).  Every method reads the same trace; vpath uses its thread column
# where it has one (a capture's real OS threads).  Span data records no
# threads, so the column vpath_oracle is vpath on `importtrace --thread`
# (the oracle emulation: one thread per span, the truth's own identity),
# shown in italics for reference and never counted as a row's best.
#
# PB_INFER_ARGS: infer options for joint only, e.g. "-s conf_sims=2"
# (experiments/infer_args.sh: checked before the run; recorded in the CSV's
# last column, infer_args, and in the .md).
# Environment: PB_BIN (default <repo>/bin), PB_OUT (default <repo>/out),
# PB_IMPORT (the importtrace to use, default $PB_BIN/importtrace).  The
# observed columns of a capture (sthread, conn, attr, size) are left out:
# no method here uses them.
# Writes $PB_OUT/joint_systems.csv and $PB_OUT/joint_systems.md.
# Deterministic (apart from the CPU column).  A few minutes on one core.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out}"
DATA=$ROOT/data
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "joint_systems: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --data) [ $# -ge 2 ] || { echo "joint_systems: --data needs a directory" >&2; exit 2; }
           DATA=$2; shift ;;
    -h|--help) sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "joint_systems: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "joint_systems: $*" >&2; exit 1; }
for p in maketrace skewer importtrace infer score; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
: "${PB_IMPORT:=$PB_BIN/importtrace}"
[ -x "$PB_IMPORT" ] || die "$PB_IMPORT missing"
. "$ROOT/experiments/infer_args.sh"
infer_args_check joint_systems
mkdir -p "$PB_OUT" || die "cannot create $PB_OUT"
W=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$W"' EXIT
ALGOS="joint nesting"
for a in fcfs arrival vpath wap5tw; do
    "$PB_BIN/infer" --help 2>&1 | grep -q "^$a (call view)" && ALGOS="$ALGOS $a"
done
case " $ALGOS " in *" vpath "*) ALGOS="$ALGOS vpath_oracle" ;; esac
CSV="$PB_OUT/joint_systems.csv"
echo "set,mode,algo,exact_accuracy,set_accuracy,tw_accuracy,requests,cpu_s,cpu_s_per_1000,infer_args" > "$CSV.tmp"
: > "$W/skipped"

# run every method on trace $2 (set $1, mode $3)
run_set() {
    for a in $ALGOS; do
        t=$2
        if [ "$a" = vpath_oracle ]; then
            [ -f "$2.thr" ] || continue
            t=$2.thr
        fi
        # shellcheck disable=SC2046
        "$PB_BIN/infer" --algo "${a%_oracle}" $(infer_args "$a") -o "$W/r.csv" "$t" 2> "$W/log" ||
            { echo "$1 $3 $a: infer failed: $(tail -1 "$W/log")" >> "$W/skipped"; continue; }
        "$PB_BIN/score" --truth "$t" "$W/r.csv" > "$W/s.csv" 2> "$W/log" ||
            { echo "$1 $3 $a: score failed: $(tail -1 "$W/log")" >> "$W/skipped"; continue; }
        cpu=$(sed -n 's/^# cpu_read_s=\([0-9.e+-]*\) cpu_infer_s=\([0-9.e+-]*\).*/\1 \2/p' "$W/r.csv" |
              awk '{ printf "%.3f", $1 + $2 }')
        ia='""'; [ "$a" = joint ] && ia=$INFER_ARGS_CSV
        awk -F, -v set="$1" -v m="$3" -v a="$a" -v cpu="$cpu" -v ia="$ia" '
            NR==1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            NR==2 { n = $col["true_instances"]
                    printf "%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s\n", set, m, a, $col["exact_accuracy"],
                        $col["set_accuracy"], $col["tw_accuracy"], n, cpu,
                        (n > 0 ? 1000 * cpu / n : 0), ia }' "$W/s.csv" >> "$CSV.tmp"
    done
}

# maketrace classes: call ids present; the black box has the column emptied
. "$ROOT/experiments/trace_cols.sh"
for conf in joint_fifo joint_fifo_io; do
    for sc in 1 4; do
        set=$conf-x$sc
        "$PB_BIN/maketrace" "$ROOT/experiments/$conf.conf" -D instances_scale=$sc > "$W/m.csv" ||
            die "maketrace $conf failed"
        "$PB_BIN/skewer" --round 1ms "$W/m.csv" > "$W/ids.csv" || die "skewer failed"
        strip_ids "$W/ids.csv" > "$W/bb.csv"
        run_set "$set" "$W/ids.csv" ids
        run_set "$set" "$W/bb.csv" blackbox
    done
done

# real sets: every file importtrace reads
# keep the columns the methods here read
import_set() { # name file
    if "$PB_IMPORT" -q "$2" > "$W/raw.csv" 2> "$W/log"; then
        keep_cols "$W/raw.csv" > "$W/bb.csv"
        if "$PB_IMPORT" -q --callid "$2" > "$W/raw.csv" 2> "$W/log" &&
           grep -q '^[^#]*callid' "$W/raw.csv"; then
            keep_cols "$W/raw.csv" > "$W/ids.csv"
            "$PB_IMPORT" -q --callid --thread "$2" > "$W/raw.csv" 2> /dev/null &&
                keep_cols "$W/raw.csv" > "$W/ids.csv.thr" || rm -f "$W/ids.csv.thr"
            run_set "$1" "$W/ids.csv" ids
            rm -f "$W/ids.csv.thr"
        fi
        run_set "$1" "$W/bb.csv" blackbox
    else
        echo "$1: importtrace cannot read it: $(tail -1 "$W/log")" >> "$W/skipped"
    fi
}
for f in "$DATA"/deathstarbench-hotel/*.tar.xz "$DATA"/nezha/*/*.csv.gz \
         "$DATA"/deeptrace-ebpf/*.json.gz; do
    [ -f "$f" ] || continue
    name=$(basename "$(dirname "$f")")/$(basename "$f" | sed 's/\.\(tar\.xz\|csv\.gz\|json\.gz\)$//')
    import_set "$name" "$f"
done
mv "$CSV.tmp" "$CSV"
awk -F, -v algos="$ALGOS" '
NR==1 { next }
{ k = $1 SUBSEP $2; if (!(k in seen)) { seen[k] = 1; ord[++n] = k }
  ex[k SUBSEP $3] = $4; st[k SUBSEP $3] = $5; cpu[k SUBSEP $3] = $9 }
END {
    na = split(algos, A, " ")
    print "Exact / set accuracy (percent) and CPU s per 1000 requests (reading included), every"
    print "call-view method, given call ids (ids) and as a black box.  Best exact accuracy of each"
    print "row in bold.  vpath_oracle (italics, span data only) is vpath handed the oracle emulation of"
    print "threads (importtrace --thread: one thread per span, the truth'"'"'s identity): shown for reference,"
    print "never counted as a row'"'"'s best.  Written by experiments/joint_systems.sh."
    print ""
    h = "| set | mode |"; s = "|---|---|"
    for (i = 1; i <= na; i++) { h = h " " A[i] " |"; s = s "---:|" }
    print h; print s
    for (j = 1; j <= n; j++) {
        split(ord[j], P, SUBSEP); best = -1
        for (i = 1; i <= na; i++) if (A[i] !~ /_oracle$/ && (ord[j] SUBSEP A[i]) in ex && ex[ord[j] SUBSEP A[i]] + 0 > best) best = ex[ord[j] SUBSEP A[i]] + 0
        line = "| " P[1] " | " P[2] " |"
        for (i = 1; i <= na; i++) {
            k = ord[j] SUBSEP A[i]
            if (!(k in ex)) { line = line " - |"; continue }
            t = sprintf("%.1f / %.1f (%.2f s)", 100 * ex[k], 100 * st[k], cpu[k])
            if (A[i] ~ /_oracle$/) t = "*" t "*"
            else if (ex[k] + 0 == best) t = "**" t "**"
            line = line " " t " |"
        }
        print line
    }
}' "$CSV" > "$PB_OUT/joint_systems.md"
[ -z "$INFER_ARGS_MD" ] || { echo ""; echo "$INFER_ARGS_MD"; } >> "$PB_OUT/joint_systems.md"
if [ -s "$W/skipped" ]; then
    { echo ""; echo "Skipped:"; echo ""; sed 's/^/- /' "$W/skipped"; } >> "$PB_OUT/joint_systems.md"
fi
echo "joint_systems: wrote $PB_OUT/joint_systems.md" >&2

#!/bin/sh
# joint_stress.sh - the stress audit of issue 28: harder but honest
# variants of the real sets, every call-view method on each, given spans
# (call ids) and as a black box, scored by score's exact, set and tw
# accuracy, with the CPU each took per 1000 requests (infer's own
# cpu_read_s + cpu_infer_s: reading included).
#
#   sh experiments/joint_stress.sh [--quick] [--out DIR] [--data DIR] [--keep DIR]
#
# Variants of each real set (imported as experiments/joint_systems.sh
# imports it; the black box is the same trace with the call ids emptied):
#   base       the set itself
#   half1/2    the requests whose first message is in the first / second
#              half of them (by first message), quarter the first quarter
#   fold2      the two halves shifted onto each other (the second half's
#              first message moved to the first's; its callids, paths and
#              threads prefixed so requests stay distinct): twice the
#              requests in flight
#   overlay    two or three minutes of one application shifted onto each
#              other the same way (ids kept distinct): two or three times
#              the requests in flight (OnlineBoutique, TrainTicket, hotel)
#   round1ms   every stamp rounded down to 1 ms (`skewer --round 1ms`)
#   fold2ms    fold2, then rounded to 1 ms (load and coarse stamps at once)
#   skew       per-host clock offsets, uniform in +-20 ms (`skewer
#              --random-offset uniform:20ms --seed 1`)
#   loss2      2 % of the messages dropped at random (`sniffer -p 0.02
#              --seed 1`)
#   loss2sN    the same with sniffer seed N (the synthetic rows)
#   renamed    every service renamed (names given in the reverse of their
#              byte order) and the rows shuffled (every method reads it
#              with --sort, which puts tied rows back in id order, the
#              order of events): an invariance check; joint's parent links
#              and confidences must be the base's (the md says "same" or
#              "DIFFERS" after the row)
# --keep DIR: also write every variant trace (with call ids and truth) to
# DIR, named SET_VARIANT.csv, to study a row (and the unperturbed trace of
# a lossy one as SET_VARIANT.orig.csv).
# --quick: one set per application (hotel load 25, OnlineBoutique 17:00,
# TrainTicket 08:50, eBPF) and the variants half1, fold2, round1ms, loss2,
# renamed; no overlays.  Then synthetic reproductions of the classes the
# audit found (docs/joint/audits.md, "Stress audit"): experiments/joint_pool.conf
# as generated and stamped in whole milliseconds, and (full run) the
# hotel-like config (24,000 messages) at 2 % loss with sniffer seeds 1-3.
#
# PB_INFER_ARGS: infer options for joint only, e.g. "-s conf_sims=2"
# (experiments/infer_args.sh: checked before the run; recorded in the CSV's
# last column, infer_args, and in the .md).
# Environment: PB_BIN (default <repo>/bin), PB_OUT (default <repo>/out),
# PB_IMPORT (the importtrace to use, default $PB_BIN/importtrace),
# PB_STRESS_ALGOS (the methods, default joint and every call-view
# baseline infer knows).
# Writes $PB_OUT/joint_stress.csv (one row per set, variant, mode, method)
# and $PB_OUT/joint_stress.md (the full table, then joint against the best
# other method for every variant and mode).  Deterministic (apart from the
# CPU column); prints what its own run took (experiments/cost.sh).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/experiments/cost.sh"
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out}"
DATA=$ROOT/data
QUICK=0
KEEP=
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) QUICK=1 ;;
    --keep) [ $# -ge 2 ] || { echo "joint_stress: --keep needs a directory" >&2; exit 2; }
           KEEP=$2; shift ;;
    --out) [ $# -ge 2 ] || { echo "joint_stress: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --data) [ $# -ge 2 ] || { echo "joint_stress: --data needs a directory" >&2; exit 2; }
           DATA=$2; shift ;;
    -h|--help) sed -n '2,53p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "joint_stress: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "joint_stress: $*" >&2; exit 1; }
for p in maketrace skewer sniffer importtrace infer score; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
: "${PB_IMPORT:=$PB_BIN/importtrace}"
[ -x "$PB_IMPORT" ] || die "$PB_IMPORT missing"
. "$ROOT/experiments/infer_args.sh"
infer_args_check joint_stress
mkdir -p "$PB_OUT" || die "cannot create $PB_OUT"
[ -z "$KEEP" ] || mkdir -p "$KEEP" || die "cannot create $KEEP"
W=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$W"' EXIT
ED="$ROOT/experiments/stress_edit.awk"
TAB=$(printf '\t')
if [ -n "${PB_STRESS_ALGOS:-}" ]; then
    ALGOS=$PB_STRESS_ALGOS
    algos_check joint_stress PB_STRESS_ALGOS
else
    ALGOS="joint nesting"
    for a in fcfs arrival vpath wap5tw; do
        "$PB_BIN/infer" --help 2>&1 | grep -q "^$a (call view)" && ALGOS="$ALGOS $a"
    done
fi
CSV="$PB_OUT/joint_stress.csv"
echo "set,variant,mode,algo,exact_accuracy,set_accuracy,tw_accuracy,requests,cpu_s,cpu_s_per_1000,infer_args" > "$CSV.tmp"
: > "$W/skipped"
: > "$W/invariance"

# run every method on trace $3 (set $1, variant $2, mode $4); infer reads
# with $IFLAG (--sort for shuffled rows), score with --truth $3 (or, when
# $KEPT_FROM is set, --truth $KEPT_FROM --kept $3: the survivors' truth of
# a lossy copy); joint's result is kept as $W/joint.$4.res
run_set() {
    if [ -n "$KEPT_FROM" ]; then set -- "$1" "$2" "$3" "$4" --truth "$KEPT_FROM" --kept "$3"
    else set -- "$1" "$2" "$3" "$4" --truth "$3"; fi
    for a in $ALGOS; do
        # shellcheck disable=SC2046
        "$PB_BIN/infer" --algo "$a" $IFLAG $(infer_args "$a") -o "$W/r.csv" "$3" 2> "$W/log" ||
            { echo "$1 $2 $4 $a: infer failed: $(tail -1 "$W/log")" >> "$W/skipped"; continue; }
        [ "$a" = joint ] && cp "$W/r.csv" "$W/joint.$4.res"
        "$PB_BIN/score" $IFLAG "$5" "$6" ${7:+"$7"} ${8:+"$8"} "$W/r.csv" > "$W/s.csv" 2> "$W/log" ||
            { echo "$1 $2 $4 $a: score failed: $(tail -1 "$W/log")" >> "$W/skipped"; continue; }
        cpu=$(sed -n 's/^# cpu_read_s=\([0-9.e+-]*\) cpu_infer_s=\([0-9.e+-]*\).*/\1 \2/p' "$W/r.csv" |
              awk '{ printf "%.3f", $1 + $2 }')
        ia='""'; [ "$a" = joint ] && ia=$INFER_ARGS_CSV
        awk -F, -v set="$1" -v v="$2" -v m="$4" -v a="$a" -v cpu="$cpu" -v ia="$ia" '
            NR==1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            NR==2 { n = $col["true_instances"]
                    printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s\n", set, v, m, a, $col["exact_accuracy"],
                        $col["set_accuracy"], $col["tw_accuracy"], n, cpu,
                        (n > 0 ? 1000 * cpu / n : 0), ia }' "$W/s.csv" >> "$CSV.tmp"
    done
}
IFLAG=; KEPT_FROM=
# the black box: the call ids emptied
. "$ROOT/experiments/trace_cols.sh"
# both modes of variant $2 of set $1, trace $3 (with call ids); $4 = the
# unperturbed trace (with call ids) when $3 is a lossy copy of it
run_both() {
    if [ -n "$KEEP" ]; then
        kn=$KEEP/$(echo "$1" | tr '/+' '__')_$2
        cp "$3" "$kn.csv"; [ -n "${4:-}" ] && cp "$4" "$kn.orig.csv"
    fi
    KEPT_FROM=${4:-}
    run_set "$1" "$2" "$3" ids
    strip_ids "$3" > "$W/v.bb.csv"
    [ -n "$KEPT_FROM" ] && { strip_ids "$4" > "$W/v.bb.orig.csv"; KEPT_FROM=$W/v.bb.orig.csv; }
    run_set "$1" "$2" "$W/v.bb.csv" blackbox
    KEPT_FROM=
}
# merge OUT FILE... : metadata and header of the first, rows of all in
# (ts, id) order
merge() {
    out=$1; shift
    awk '/^#/ { print; next } { print; exit }' "$1" > "$out"
    for f in "$@"; do awk -v op=key -f "$ED" "$f"; done | grep -v '^#' |
        LC_ALL=C sort -t "$TAB" -k1,1 | cut -f2- >> "$out"
}
# overlay OUT FILE... : every file after the first shifted so that its
# first message is at the first file's first message; ids raised by
# 100000000 a file, labels prefixed o2:, o3:, ...
overlay() {
    out=$1; shift
    read s0 n0 <<EOF
$(awk -v op=first -f "$ED" "$1")
EOF
    k=1; parts="$1"; first=$1; shift
    for f in "$@"; do
        k=$((k + 1))
        read s1 n1 <<EOF
$(awk -v op=first -f "$ED" "$f")
EOF
        awk -v op=shift -v sec=$((s0 - s1)) -v ns=$((n0 - n1)) -v idoff=$(( (k - 1) * 100000000 )) \
            -v pre="o$k:" -f "$ED" "$f" > "$W/ov.$k.csv"
        parts="$parts $W/ov.$k.csv"
    done
    # shellcheck disable=SC2086
    merge "$out" $parts
}
select_req() { # FILE LO HI
    awk -v op=select -v lo="$2" -v hi="$3" -f "$ED" "$1" "$1"
}
# the invariance check: joint's parent links (ids mapped back) against base
links_of() { # RES [MAP]
    sed -n '/^# table=assignment/,$p' "$1" | awk -F, -v map="${2:-}" '
        BEGIN { if (map != "") while ((getline l < map) > 0) { split(l, P, ","); old[P[1]] = P[2] } }
        NR <= 2 || /^#/ { next }
        { id = $1; p = $4; if (map != "") { id = old[id]; if (p != "") p = old[p] }
          print id "," p "," $5 }' | LC_ALL=C sort
}

# variants of one set: $1 name, $2 trace with call ids (imported), $3 the
# variants (default: all, or --quick's)
stress_set() {
    name=$1; t=$2
    if [ -n "${3:-}" ]; then
        V=$3
    elif [ "$QUICK" = 1 ]; then
        V="base half1 fold2 round1ms loss2 renamed"
    else
        V="base half1 half2 quarter fold2 round1ms fold2ms skew loss2 renamed"
    fi
    for v in $V; do
        IFLAG=; orig=
        case $v in
        base) cp "$t" "$W/v.csv" ;;
        half1) select_req "$t" 0 0.5 > "$W/v.csv" ;;
        half2) select_req "$t" 0.5 1 > "$W/v.csv" ;;
        quarter) select_req "$t" 0 0.25 > "$W/v.csv" ;;
        fold2|fold2ms)
            select_req "$t" 0 0.5 > "$W/h1.csv"; select_req "$t" 0.5 1 > "$W/h2.csv"
            overlay "$W/v.csv" "$W/h1.csv" "$W/h2.csv"
            if [ $v = fold2ms ]; then
                "$PB_BIN/skewer" -q --round 1ms "$W/v.csv" > "$W/v2.csv" && mv "$W/v2.csv" "$W/v.csv"
            fi ;;
        round1ms) "$PB_BIN/skewer" -q --round 1ms "$t" > "$W/v.csv" ;;
        skew) "$PB_BIN/skewer" -q --random-offset uniform:20ms --seed 1 --allow-negative "$t" > "$W/v.csv" ;;
        loss2) "$PB_BIN/sniffer" -q -p 0.02 --seed 1 "$t" > "$W/v.csv"; orig=$t ;;
        loss2s*) "$PB_BIN/sniffer" -q -p 0.02 --seed "${v#loss2s}" "$t" > "$W/v.csv"; orig=$t ;;
        renamed)
            awk -v op=rename -v seed=7 -v map="$W/idmap" -f "$ED" "$t" "$t" > "$W/keyed"
            { grep -v "$TAB" "$W/keyed"; grep "$TAB" "$W/keyed" | LC_ALL=C sort -k1,1 | cut -f2-; } > "$W/v.csv"
            IFLAG=--sort ;;
        esac || { echo "$name $v: could not make the variant" >> "$W/skipped"; continue; }
        run_both "$name" "$v" "$W/v.csv" $orig
        IFLAG=
        case $v in
        base) for m in ids blackbox; do
                  [ -f "$W/joint.$m.res" ] && links_of "$W/joint.$m.res" > "$W/base.$m.links"
              done ;;
        renamed) for m in ids blackbox; do
                  [ -f "$W/joint.$m.res" ] && [ -f "$W/base.$m.links" ] || continue
                  links_of "$W/joint.$m.res" "$W/idmap" > "$W/ren.links"
                  if cmp -s "$W/base.$m.links" "$W/ren.links"; then r=same
                  else
                      cut -d, -f1-2 "$W/base.$m.links" > "$W/a.p"; cut -d, -f1-2 "$W/ren.links" > "$W/b.p"
                      if cmp -s "$W/a.p" "$W/b.p"; then r="same links, confidences differ"
                      else r="DIFFERS ($(LC_ALL=C comm -23 "$W/a.p" "$W/b.p" | wc -l) of $(wc -l < "$W/a.p") parent links)"
                      fi
                  fi
                  echo "$name,$m,$r" >> "$W/invariance"
              done ;;
        esac
        rm -f "$W/joint.ids.res" "$W/joint.blackbox.res"
    done
}

import_one() { # FILE OUT
    "$PB_IMPORT" -q --callid "$1" > "$W/raw.csv" 2> "$W/log" && keep_cols "$W/raw.csv" > "$2"
}
if [ "$QUICK" = 1 ]; then
    FILES="$DATA/deathstarbench-hotel/hotel_load25.tar.xz $DATA/nezha/onlineboutique/construct_2022-08-23_17_00.csv.gz
           $DATA/nezha/trainticket/construct_2023-01-29_08_50.csv.gz $DATA/deeptrace-ebpf/rps100-spans.json.gz"
else
    FILES=$(ls "$DATA"/deathstarbench-hotel/*.tar.xz "$DATA"/nezha/*/*.csv.gz "$DATA"/deeptrace-ebpf/*.json.gz 2>/dev/null)
fi
n=0
for f in $FILES; do
    [ -f "$f" ] || continue
    name=$(basename "$(dirname "$f")")/$(basename "$f" | sed 's/\.\(tar\.xz\|csv\.gz\|json\.gz\)$//')
    n=$((n + 1))
    if import_one "$f" "$W/set$n.csv"; then
        echo "$name $f" >> "$W/sets"
        stress_set "$name" "$W/set$n.csv"
    else
        echo "$name: importtrace cannot read it: $(tail -1 "$W/log")" >> "$W/skipped"
    fi
done
# synthetic reproductions of the failure classes the audit found
# (docs/joint/audits.md, "Stress audit"): the pool of experiments/joint_pool.conf
# stamped in whole milliseconds (fast services, several requests in
# flight: first come, first served keeps the row order, joint's search
# leaves it), and 2 % loss on the hotel-like config, three seeds (seeds 1
# and 2 lose as many calls as returns on one link)
if "$PB_BIN/maketrace" "$ROOT/experiments/joint_pool.conf" > "$W/syn.csv" 2> "$W/log"; then
    stress_set synthetic/joint_pool "$W/syn.csv" "base round1ms"
else
    echo "synthetic/joint_pool: maketrace failed: $(tail -1 "$W/log")" >> "$W/skipped"
fi
if [ "$QUICK" = 0 ]; then
    if "$PB_BIN/maketrace" "$ROOT/maketrace/configs/hotel-like.conf" -D messages=24000 \
           -D duration=0 > "$W/syn.csv" 2> "$W/log"; then
        stress_set synthetic/hotel-like-24k "$W/syn.csv" "base loss2s1 loss2s2 loss2s3"
    else
        echo "synthetic/hotel-like-24k: maketrace failed: $(tail -1 "$W/log")" >> "$W/skipped"
    fi
fi
# overlays of minutes of one application (full run only)
if [ "$QUICK" = 0 ]; then
    ov() { # NAME FILE...
        oname=$1; shift; ok=1; parts=
        for f in "$@"; do
            i=$(awk -v f="$DATA/$f" '$2 == f { print NR }' "$W/sets")
            [ -n "$i" ] || { ok=0; break; }
            parts="$parts $W/set$i.csv"
        done
        [ $ok = 1 ] || { echo "$oname: a minute is missing" >> "$W/skipped"; return; }
        # shellcheck disable=SC2086
        overlay "$W/v.csv" $parts
        run_both "$oname" overlay "$W/v.csv"
    }
    ov hotel/load25+load100 deathstarbench-hotel/hotel_load25.tar.xz deathstarbench-hotel/hotel_load100.tar.xz
    ov onlineboutique/17_00+03_53 nezha/onlineboutique/construct_2022-08-23_17_00.csv.gz \
        nezha/onlineboutique/rca_2022-08-22_03_53.csv.gz
    ov onlineboutique/17_00+03_53+06_35 nezha/onlineboutique/construct_2022-08-23_17_00.csv.gz \
        nezha/onlineboutique/rca_2022-08-22_03_53.csv.gz nezha/onlineboutique/rca_2022-08-22_06_35.csv.gz
    ov trainticket/08_50+09_00 nezha/trainticket/construct_2023-01-29_08_50.csv.gz \
        nezha/trainticket/rca_2023-01-29_09_00.csv.gz
    ov trainticket/08_50+09_00+10_45 nezha/trainticket/construct_2023-01-29_08_50.csv.gz \
        nezha/trainticket/rca_2023-01-29_09_00.csv.gz nezha/trainticket/rca_2023-01-29_10_45.csv.gz
fi
mv "$CSV.tmp" "$CSV"
awk -F, -v algos="$ALGOS" -v inv="$W/invariance" '
BEGIN { while ((getline l < inv) > 0) { split(l, P, ","); iv[P[1] SUBSEP "renamed" SUBSEP P[2]] = P[3] } }
NR==1 { next }
{ k = $1 SUBSEP $2 SUBSEP $3; if (!(k in seen)) { seen[k] = 1; ord[++n] = k }
  ex[k SUBSEP $4] = $5; st[k SUBSEP $4] = $6; cpu[k SUBSEP $4] = $10; req[k] = $8 }
END {
    na = split(algos, A, " ")
    print "Joint against the best other method on every variant (exact accuracy, percent; the"
    print "difference in points; requests in the variant).  Written by experiments/joint_stress.sh."
    print ""
    print "| set | variant | mode | requests | joint | best other | joint - best |"
    print "|---|---|---|---:|---:|---|---:|"
    for (j = 1; j <= n; j++) {
        split(ord[j], P, SUBSEP); best = -1; bn = ""
        for (i = 1; i <= na; i++) if (A[i] != "joint" && (ord[j] SUBSEP A[i]) in ex && ex[ord[j] SUBSEP A[i]] + 0 > best) { best = ex[ord[j] SUBSEP A[i]] + 0; bn = A[i] }
        for (i = 1; i <= na; i++) if (A[i] != "joint" && (ord[j] SUBSEP A[i]) in ex && ex[ord[j] SUBSEP A[i]] + 0 == best && A[i] != bn) bn = bn "=" A[i]
        jk = ord[j] SUBSEP "joint"
        if (!(jk in ex)) { jt = "-"; d = "-" }
        else { jt = sprintf("%.1f", 100 * ex[jk]); d = sprintf("%+.1f", 100 * (ex[jk] - best))
               if (ex[jk] + 0 < best) d = "**" d "**" }
        note = (ord[j] in iv) ? " (invariance: " iv[ord[j]] ")" : ""
        printf "| %s | %s | %s | %d | %s%s | %s %.1f | %s |\n", P[1], P[2], P[3], req[ord[j]], jt, note, bn, 100 * best, d
    }
    print ""
    print "Every method: exact / set accuracy (percent) and CPU s per 1000 requests (reading included)."
    print ""
    h = "| set | variant | mode |"; s = "|---|---|---|"
    for (i = 1; i <= na; i++) { h = h " " A[i] " |"; s = s "---:|" }
    print h; print s
    for (j = 1; j <= n; j++) {
        split(ord[j], P, SUBSEP); best = -1
        for (i = 1; i <= na; i++) if ((ord[j] SUBSEP A[i]) in ex && ex[ord[j] SUBSEP A[i]] + 0 > best) best = ex[ord[j] SUBSEP A[i]] + 0
        line = "| " P[1] " | " P[2] " | " P[3] " |"
        for (i = 1; i <= na; i++) {
            k = ord[j] SUBSEP A[i]
            if (!(k in ex)) { line = line " - |"; continue }
            t = sprintf("%.1f / %.1f (%.2f s)", 100 * ex[k], 100 * st[k], cpu[k])
            if (ex[k] + 0 == best) t = "**" t "**"
            line = line " " t " |"
        }
        print line
    }
}' "$CSV" > "$PB_OUT/joint_stress.md"
[ -z "$INFER_ARGS_MD" ] || { echo ""; echo "$INFER_ARGS_MD"; } >> "$PB_OUT/joint_stress.md"
if [ -s "$W/skipped" ]; then
    { echo ""; echo "Skipped:"; echo ""; sed 's/^/- /' "$W/skipped"; } >> "$PB_OUT/joint_stress.md"
fi
echo "joint_stress: wrote $PB_OUT/joint_stress.md" >&2
pb_cost_report joint_stress

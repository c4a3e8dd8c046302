#!/bin/sh
# realbench.sh - the cross-system benchmark: every algorithm on every real
# trace set in data/, in every input mode the set supports, scored by one
# scorer, in one leaderboard (docs/realbench.md).
#
#   sh experiments/realbench.sh [--out DIR] [--exec NAME=COMMAND]...
#                               [--sets PATTERN] [--algos LIST]
#
#   --exec NAME=COMMAND  add an algorithm: infer --algo exec:'COMMAND' is
#                        run in the black-box and span modes (repeatable;
#                        docs/baselines.md says what the command reads and
#                        writes).  Also PB_REALBENCH_EXEC, one per line.
#   --sets PATTERN       only the sets whose id (path under data/ without
#                        its extension) matches this extended regex
#   --algos LIST         only these methods (comma-separated names; the
#                        oracle always runs: it checks each measure)
#   --out DIR            output folder (default <repo>/out)
#   --readme [FILE]      splice the leaderboard (realbench_summary.md) into
#                        README.md (or FILE) between <!-- realbench:begin -->
#                        and <!-- realbench:end -->
#
# Environment: PB_BIN (programs, default <repo>/bin), PB_DATA (default
# <repo>/data), PB_OUT (as --out).
# Writes
#   $OUT/realbench.md, .html, .csv   the leaderboard (CSV: one row per set,
#                                    mode and method; the last two columns,
#                                    cpu_s_per_1000 and peak_mb, are times)
#   $OUT/realbench_sets.csv          each set's character
#   $OUT/realbench/                  imported traces, results, logs
# Deterministic apart from the CPU and memory columns.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
case "$PB_BIN" in /*) ;; *) PB_BIN="$ROOT/$PB_BIN" ;; esac
: "${PB_OUT:=$ROOT/out}"
: "${PB_DATA:=$ROOT/data}"
execs=${PB_REALBENCH_EXEC:-}
sets_re="" algos="" readme=""
nl='
'
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "realbench: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --exec) [ $# -ge 2 ] || { echo "realbench: --exec needs NAME=COMMAND" >&2; exit 2; }
            case "$2" in *=?*) ;; *) echo "realbench: --exec $2: expected NAME=COMMAND" >&2; exit 2 ;; esac
            case "${2%%=*}" in *[!A-Za-z0-9_.-]*|"") echo "realbench: --exec: NAME may hold letters, digits, _ . - only" >&2; exit 2 ;; esac
            execs="$execs${execs:+$nl}$2"; shift ;;
    --sets) [ $# -ge 2 ] || { echo "realbench: --sets needs a pattern" >&2; exit 2; }
            sets_re=$2; shift ;;
    --algos) [ $# -ge 2 ] || { echo "realbench: --algos needs a list" >&2; exit 2; }
             algos=",$2,"; shift ;;
    --readme) readme="$ROOT/README.md"
              case "${2:-}" in ""|-*) ;; *) readme=$2; shift ;; esac ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "realbench: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "realbench: $*" >&2; exit 1; }
for p in importtrace infer score; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
[ -d "$PB_DATA" ] || die "$PB_DATA: no such folder"
case "$PB_OUT" in /*) ;; *) PB_OUT="$(pwd)/$PB_OUT" ;; esac
W="$PB_OUT/realbench"
rm -rf "$W"
mkdir -p "$W" || die "cannot create $W"
TIME=""
[ -x /usr/bin/time ] && /usr/bin/time -f '%U %S %M' true 2>/dev/null && TIME=/usr/bin/time
t_start=$(date +%s)

# ---- methods ---------------------------------------------------------
# name | mode (blackbox, spans, threads) | infer arguments | kind
# kind: tw = a TraceWeaver-artifact baseline (one call per endpoint per
# request); paths = patterns only; else plain
METHODS='oracle|blackbox|--algo truth|oracle
oracle|spans|--algo truth|oracle
oracle|threads|--algo truth|oracle
nesting|blackbox|--algo nesting|plain
nesting|spans|--algo nesting|plain
linking|blackbox|--algo linking -s x=20ms|plain
convolution|blackbox|--algo convolution|paths
fcfs|spans|--algo fcfs|tw
arrival|spans|--algo arrival|tw
wap5tw|spans|--algo wap5tw|tw
vpath|threads|--algo vpath|tw'
if "$PB_BIN/infer" --help 2>/dev/null | grep -q '^joint ('; then
    METHODS="$METHODS
joint|blackbox|--algo joint|plain
joint|spans|--algo joint|plain"
fi
if [ -n "$execs" ]; then
    METHODS="$METHODS$nl$(printf '%s\n' "$execs" | while IFS= read -r e; do
        [ -n "$e" ] || continue
        printf '%s|blackbox|exec|plain\n%s|spans|exec|plain\n' "${e%%=*}" "${e%%=*}"
    done)"
fi
exec_cmd() { printf '%s\n' "$execs" | awk -v n="$1" 'index($0, n "=") == 1 { print substr($0, length(n) + 2); exit }'; }

# ---- sets ------------------------------------------------------------
# every trace file under data/ (not the licences, READMEs, fault lists)
(cd "$PB_DATA" && find . -type f \( -name '*.tar.xz' -o -name '*.tar.gz' -o -name '*.csv' \
    -o -name '*.csv.gz' -o -name '*.json' -o -name '*.json.gz' -o -name '*.jsonl' \) \
    ! -name 'fault_list*' | sed 's|^\./||' | LC_ALL=C sort) > "$W/files"
: > "$W/sets.tsv"      # id, file, system, phase, fault
: > "$W/skipped.tsv"   # id, reason
while IFS= read -r f; do
    id=$(echo "$f" | sed -E 's/\.(tar\.xz|tar\.gz|csv\.gz|json\.gz|csv|jsonl|json)$//')
    if [ -n "$sets_re" ] && ! echo "$id" | grep -Eq -- "$sets_re"; then continue; fi
    sys=$(dirname "$f" | sed 's|^nezha/||')
    base=$(basename "$id")
    phase=fault-free fault=""
    case "$base" in
    rca_*)
        phase=faults
        # the latest injection before the minute's end (fault_list_DAY.json)
        day=$(echo "$base" | sed -E 's/^rca_([0-9-]+)_([0-9]+)_([0-9]+)$/\1/')
        hm=$(echo "$base" | sed -E 's/^rca_([0-9-]+)_([0-9]+)_([0-9]+)$/\2:\3/')
        fl="$PB_DATA/$(dirname "$f")/fault_list_$day.json"
        [ -f "$fl" ] && fault=$(awk -v lim="$day $hm:59" '
            /"inject_time"/ { t = $0; sub(/.*"inject_time": *"/, "", t); sub(/".*/, "", t) }
            /"inject_pod"/ { p = $0; sub(/.*"inject_pod": *"/, "", p); sub(/".*/, "", p) }
            /"inject_type"/ { y = $0; sub(/.*"inject_type": *"/, "", y); sub(/".*/, "", y)
                              if (t <= lim && t > best) { best = t; bp = p; by = y } }
            END { if (best != "") { sub(/^[^ ]* /, "", best); printf "%s at %s (%s)", by, bp, best } }' "$fl")
        ;;
    construct_*|hotel_load*) ;;
    *) phase=- ;;
    esac
    printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$f" "$sys" "$phase" "$fault" >> "$W/sets.tsv"
done < "$W/files"
[ -s "$W/sets.tsv" ] || die "no trace set in $PB_DATA${sets_re:+ matching $sets_re}"

# timed CMD...: run it, "user sys maxKB" appended to $W/time.last
timed() {
    if [ -n "$TIME" ]; then
        "$TIME" -f '%U %S %M' -o "$W/time.last" "$@"
    else
        "$@"; r=$?; echo "- - -" > "$W/time.last"; return $r
    fi
}
addcpu() { awk '{ print $1 + $2 }' "$W/time.last" >> "$W/cpu.all" 2>/dev/null; }
: > "$W/cpu.all"

# ---- import, character, runs -----------------------------------------
RUNS="$W/runs.tsv"   # id mode method status exact ninst tw reason cpu_s peak_kb
                     # msgs_right msgs_wrong msgs_unattached msgs_abstained
                     # link_accuracy has_confidence
: > "$RUNS"
: > "$W/character.tsv"
while IFS='	' read -r id f sys phase fault; do
    tag=$(echo "$id" | tr '/' '_')
    src="$PB_DATA/$f"
    # black box: what a sniffer sees (plain); spans: call ids; threads:
    # the thread column (real when the importer writes it by itself,
    # else emulated from the spans with --thread)
    if ! (cd "$PB_DATA" && timed "$PB_BIN/importtrace" -o "$W/$tag.blackbox.csv" "$f") 2> "$W/$tag.import.log"; then
        printf '%s\t%s\n' "$id" "$(grep -v '^ *$' "$W/$tag.import.log" | tail -1 | sed "s|$PB_DATA/||g")" >> "$W/skipped.tsv"
        continue
    fi
    addcpu
    modes="blackbox"
    if (cd "$PB_DATA" && timed "$PB_BIN/importtrace" -q --callid -o "$W/$tag.spans.csv" "$f") 2>/dev/null; then
        addcpu; modes="$modes spans"
    fi
    thr=""
    if head -50 "$W/$tag.blackbox.csv" | grep -v '^#' | head -1 | tr ',' '\n' | grep -qx thread; then
        cp "$W/$tag.blackbox.csv" "$W/$tag.threads.csv"; thr=real
    elif (cd "$PB_DATA" && timed "$PB_BIN/importtrace" -q --callid --thread -o "$W/$tag.threads.csv" "$f") 2>/dev/null; then
        addcpu; thr=emulated
    fi
    [ -n "$thr" ] && modes="$modes threads"
    # the set's character, from the black-box trace and its truth columns
    # (read here by the script, never by an algorithm)
    awk -F, -v id="$id" -v sys="$sys" -v phase="$phase" -v fault="$fault" -v thr="$thr" '
        /^# importtrace / { n = split($0, kv, " ")
                            for (i = 3; i <= n; i++) { split(kv[i], pv, "="); meta[pv[1]] = pv[2] } next }
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        {
            path = $c["path"]; ts = $c["ts"] + 0
            if (!(path in first) || ts < first[path]) first[path] = ts
            if (!(path in last) || ts > last[path]) last[path] = ts
            if (min == "" || ts < min) min = ts
            if (max == "" || ts > max) max = ts
            if ($c["type"] == "call") {
                k = path SUBSEP $c["src"] SUBSEP $c["dst"]
                if (++calls[k] == 2) rep[path] = 1
                if (!(($c["dst"], $c["src"]) in caller)) { caller[$c["dst"], $c["src"]] = 1; ncaller[$c["dst"]]++ }
            }
        }
        END {
            nreq = 0; busy = 0
            for (p in first) { nreq++; busy += last[p] - first[p] }
            nrep = 0; for (p in rep) nrep++
            mc = 0; for (d in ncaller) if (d != "client" && ncaller[d] > mc) mc = ncaller[d]
            rpcs = meta["rpcs"] + 0; spans = meta["spans"] + 0
            clk = meta["clock_call"] + meta["clock_return"]
            printf "%s\t%s\t%s\t%s\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%d\t%.1f\t%s\n", id, sys, phase, fault,
                nreq, nreq ? spans / nreq : 0, nreq ? rpcs / nreq : 0,
                (max > min ? busy / (max - min) : 0), nreq ? 100 * nrep / nreq : 0, mc,
                rpcs ? 100 * clk / rpcs : 0, thr
        }' "$W/$tag.blackbox.csv" >> "$W/character.tsv"
    rep=$(awk -F'\t' -v id="$id" '$1 == id { print $9 }' "$W/character.tsv")
    for mode in $modes; do
        echo "$METHODS" | while IFS='|' read -r name mmode args kind; do
            [ "$mmode" = "$mode" ] || continue
            # the oracle always runs: it checks each measure's premise
            case "$algos" in "") ;; *",$name,"*) ;; *) [ "$name" = oracle ] || continue ;; esac
            in="$W/$tag.$mode.csv"
            rtag="$tag.$mode.$name"
            if [ "$kind" = paths ]; then
                printf '%s\t%s\t%s\tna\t\t\t\tfinds path patterns, not requests (no per-request result)\t\t\n' "$id" "$mode" "$name" >> "$RUNS"
                continue
            fi
            if [ "$kind" = tw ] && awk -v r="$rep" 'BEGIN { exit !(r + 0 > 0) }'; then
                printf '%s\t%s\t%s\tna\t\t\t\tan endpoint is called several times in one request (repeated calls above 0 in the sets table); this baseline links each request to one call per endpoint\t\t\n' \
                    "$id" "$mode" "$name" >> "$RUNS"
                continue
            fi
            if [ "$args" = exec ]; then
                cmd=$(exec_cmd "$name")
                timed "$PB_BIN/infer" --algo "exec:$cmd" -o "$W/$rtag.result.csv" "$in" 2> "$W/$rtag.log"
            else
                # shellcheck disable=SC2086
                timed "$PB_BIN/infer" $args -o "$W/$rtag.result.csv" "$in" 2> "$W/$rtag.log"
            fi
            if [ $? -ne 0 ]; then
                why=$(grep -v '^ *$' "$W/$rtag.log" | tail -1 | tr '\t' ' ' | sed "s|$W/||g")
                printf '%s\t%s\t%s\tna\t\t\t\tfailed: %s\t\t\n' "$id" "$mode" "$name" "$why" >> "$RUNS"
                continue
            fi
            addcpu
            tm=$(cat "$W/time.last")
            if ! "$PB_BIN/score" --truth "$in" "$W/$rtag.result.csv" > "$W/$rtag.score.csv" 2>> "$W/$rtag.log"; then
                printf '%s\t%s\t%s\tna\t\t\t\tscore failed: %s\t\t\n' "$id" "$mode" "$name" \
                    "$(tail -1 "$W/$rtag.log" | tr '\t' ' ')" >> "$RUNS"
                continue
            fi
            awk -F, -v id="$id" -v mode="$mode" -v name="$name" -v tm="$tm" '
                NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                NR == 2 {
                    split(tm, t, " ")
                    cpu = t[1] == "-" ? "" : t[1] + t[2]; mem = t[3] == "-" ? "" : t[3]
                    ex = $c["exact_accuracy"]
                    st = ex == "" ? "na" : "ok"
                    # then the failure split of the messages (right,
                    # wrong = in another request, unattached = orphaned,
                    # abstained), link accuracy, and whether the result
                    # has confidences (so the method can abstain)
                    printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", id, mode, name, st, ex,
                        $c["true_instances"], $c["tw_accuracy"], ex == "" ? "no per-request result" : "", cpu, mem,
                        $c["msgs_right"], $c["msgs_wrong"], $c["msgs_unattached"], $c["msgs_abstained"],
                        $c["link_accuracy"], $c["coverage_p99"] != "" ? 1 : 0
                }' "$W/$rtag.score.csv" >> "$RUNS"
        done
    done
done < "$W/sets.tsv"

# ---- the leaderboard -------------------------------------------------
CSV="$PB_OUT/realbench.csv"
MD="$PB_OUT/realbench.md"
HTML="$PB_OUT/realbench.html"
SETS="$PB_OUT/realbench_sets.csv"
cpu_total=$(awk '{ s += $1 } END { printf "%.1f", s }' "$W/cpu.all")
wall=$(( $(date +%s) - t_start ))
# the 95 % interval: the ideal bootstrap over requests (infinitely many
# resamples).  Each request is right or not, so a resample's share is
# Binomial(n, k/n) / n, and the percentile interval is its 2.5 % and
# 97.5 % quantiles, computed exactly here (no random draws).
awk -F'\t' -v OFS=, '
function ci(p, n, q,    k, lp, lq, lpmf, cdf) {
    if (p <= 0 || p >= 1 || n <= 0) return p
    lp = log(p); lq = log(1 - p); lpmf = n * lq; cdf = lpmf > -700 ? exp(lpmf) : 0
    for (k = 0; k < n && cdf < q; ) {
        lpmf += log(n - k) - log(k + 1) + lp - lq; k++
        if (lpmf > -700) cdf += exp(lpmf)
    }
    return k / n
}
function q(s) { return "\"" s "\"" }
FILENAME ~ /character/ { ch[$1] = $0; nreq[$1] = $5; next }
function share(x, tot) { return sprintf("%.6g", x / tot) }
$3 == "oracle" {
    oex[$1, $2] = $5; otw[$1, $2] = $7; olk[$1, $2] = $15
    tot = $11 + $12 + $13; ort[$1, $2] = tot > 0 ? $11 / tot : ""
}
{ row[++n] = $0 }
END {
    print "set,mode,method,status,exact,exact_lo,exact_hi,requests,tw,reason,linked_right,orphaned,other_request,abstained,link_accuracy,cpu_s_per_1000,peak_mb"
    for (i = 1; i <= n; i++) {
        split(row[i], r, "\t")
        id = r[1]; mode = r[2]; st = r[4]; ex = r[5]; tw = r[7]; why = r[8]; lo = hi = ""
        if (st == "ok" && oex[id, mode] != "" && oex[id, mode] + 0 < 1) {
            st = "np"; why = sprintf("the oracle scores %.1f %% exact on this set: the measure does not hold", 100 * oex[id, mode]); ex = ""
        }
        if (st == "ok") { lo = ci(ex + 0, r[6] + 0, 0.025); hi = ci(ex + 0, r[6] + 0, 0.975) }
        if (st != "ok") ex = ""
        if (tw != "" && otw[id, mode] != "" && otw[id, mode] + 0 < 1) tw = "np"
        if (st != "ok") tw = ""
        cpu = (st == "ok" && r[9] != "" && r[6] + 0 > 0) ? sprintf("%.3f", 1000 * r[9] / r[6]) : ""
        mem = (st == "ok" && r[10] != "") ? sprintf("%.1f", r[10] / 1024) : ""
        # the failure split, as shares of the messages of the true
        # requests (np where the oracle does not attach every one right);
        # abstained only for a method that writes confidences (it can
        # abstain: -s min_confidence) or did abstain
        rt = orph = oth = ab = lk = ""
        tot = r[11] + r[12] + r[13]
        if (st == "ok" && tot > 0) {
            if (ort[id, mode] != "" && ort[id, mode] + 0 < 1) rt = orph = oth = ab = "np"
            else {
                rt = share(r[11], tot); oth = share(r[12], tot); orph = share(r[13], tot)
                if (r[16] == 1 || r[14] + 0 > 0) ab = share(r[14], tot)
            }
        }
        if (st == "ok" && r[15] != "") lk = (olk[id, mode] != "" && olk[id, mode] + 0 < 1) ? "np" : r[15]
        print id, mode, r[3], st, ex, lo, hi, r[6], tw, q(why), rt, orph, oth, ab, lk, cpu, mem
    }
}' "$W/character.tsv" "$RUNS" > "$CSV"
awk -F'\t' -v OFS=, 'BEGIN { print "set,system,phase,fault,requests,spans_per_request,rpcs_per_request,in_flight,repeated_calls_pct,max_callers_per_service,clock_irregular_pct,threads" }
    { $4 = "\"" $4 "\""; print }' "$W/character.tsv" > "$SETS"

# Markdown
awk -F'\t' -v cpu="$cpu_total" -v wall="$wall" -v skipped="$W/skipped.tsv" '
function pct(x) { return sprintf("%.1f", 100 * x) }
function pcs(x) { return x == "" ? "-" : x == "np" ? "n/p" : pct(x) }
function csvsplit(s, a,    n, f, inq, i, ch) {
    n = 0; f = ""; inq = 0
    for (i = 1; i <= length(s); i++) {
        ch = substr(s, i, 1)
        if (ch == "\"") inq = !inq
        else if (ch == "," && !inq) { a[++n] = f; f = "" }
        else f = f ch
    }
    a[++n] = f; return n
}
FILENAME ~ /runs.tsv$/ { if ($3 == "oracle" && $7 != "" && $7 + 0 < 1 && !($1 in otw)) otw[$1] = $7; next }
FILENAME ~ /character/ { ord[++ns] = $1; ch[$1] = $0; next }
FNR == 1 { next }
{
    csvsplit($0, a)
    id = a[1]; m = a[3] " (" a[2] ")"
    if (!(m in seen)) { seen[m] = 1; meth[++nm] = m }
    if (a[4] == "ok") cell[m, id] = sprintf("%s [%s-%s]", pct(a[5]), pct(a[6]), pct(a[7]))
    else if (a[4] == "np") cell[m, id] = "n/p"
    else cell[m, id] = "n/a"
    if (a[4] != "ok") { if (!((a[4], a[10]) in why)) { why[a[4], a[10]] = ++nw; wtext[nw] = a[10]; wk[nw] = a[4] } note[m, id] = why[a[4], a[10]] }
    tw[m, id] = a[9]; cp[m, id] = a[16]; mb[m, id] = a[17]
    if (a[4] == "ok") { sr[m, id] = a[11]; so[m, id] = a[12]; sw[m, id] = a[13]; sa[m, id] = a[14]; sl[m, id] = a[15] }
}
END {
    print "# realbench: every algorithm on every real trace set"
    print ""
    print "Exact accuracy (share of requests whose call tree is rebuilt exactly, %) with"
    print "its 95 % bootstrap interval over requests, per method (input mode) and set."
    print "**n/a**: the method cannot give this number here (reason below); **n/p**: not"
    print "printed, because the oracle does not score 100 % under this measure on this"
    print "set, so the measure does not mean what it says.  Modes: *blackbox* (what a"
    print "sniffer sees: no call ids), *spans* (call ids pair each call with its return),"
    print "*threads* (the thread column: emulated from the spans unless the set records it)."
    print ""
    printf "| method (mode) |"
    for (s = 1; s <= ns; s++) { nc = split(ord[s], pc, "/"); printf " %s |", nc >= 3 ? pc[nc - 1] "/" pc[nc] : pc[nc] }
    print ""
    printf "|---|"; for (s = 1; s <= ns; s++) printf "---:|"; print ""
    for (k = 1; k <= nm; k++) {
        m = meth[k]; printf "| %s |", m
        for (s = 1; s <= ns; s++) {
            c = cell[m, ord[s]]; if (c == "") c = ""
            if (note[m, ord[s]]) c = c " <sup>" note[m, ord[s]] "</sup>"
            printf " %s |", c
        }
        print ""
    }
    print ""
    for (w = 1; w <= nw; w++) printf "%d. %s: %s\n", w, wk[w] == "np" ? "n/p" : "n/a", wtext[w]
    print ""
    print "## The sets"
    print ""
    print "| set | system | phase | requests | spans / request | RPCs / request | requests in flight | repeated calls (% of requests) | callers of a service (max) | clock irregularities (% of RPCs) | threads |"
    print "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
    for (s = 1; s <= ns; s++) {
        split(ch[ord[s]], cc, "\t")
        printf "| %s | %s | %s%s | %s | %s | %s | %s | %s | %s | %s | %s |\n", cc[1], cc[2], cc[3],
            cc[4] != "" ? ": " cc[4] : "", cc[5], cc[6], cc[7], cc[8], cc[9], cc[10], cc[11], cc[12] == "" ? "-" : cc[12]
    }
    while ((getline l < skipped) > 0) { split(l, sk, "\t"); printf "\nNot imported: `%s` (%s).\n", sk[1], sk[2] }
    print ""
    print "## Faults beside the fault-free minute of the same system"
    print ""
    print "Exact accuracy (%) in each minute with injected faults, beside the fault-free"
    print "minute: **lower** when the fault minute'"'"'s interval lies wholly below the"
    print "fault-free one, **higher** when wholly above, else **same** (the intervals overlap)."
    print ""
    for (s = 1; s <= ns; s++) { split(ch[ord[s]], cc, "\t"); sysof[ord[s]] = cc[2]; ph[ord[s]] = cc[3]; if (cc[3] == "fault-free") base[cc[2]] = ord[s] }
    printf "| method (mode) | fault minute | fault-free | with faults | change |\n|---|---|---:|---:|---|\n"
    any = 0
    for (k = 1; k <= nm; k++) {
        m = meth[k]
        if (m ~ /^oracle /) continue
        for (s = 1; s <= ns; s++) {
            id = ord[s]
            if (ph[id] != "faults" || !((sysof[id]) in base)) continue
            b = base[sysof[id]]
            if (cell[m, id] !~ /\[/ || cell[m, b] !~ /\[/) continue
            split(cell[m, id], x, /[][ -]+/); split(cell[m, b], y, /[][ -]+/)
            v = (x[3] + 0 < y[2] + 0) ? "**lower**" : (x[2] + 0 > y[3] + 0) ? "**higher**" : "same"
            printf "| %s | %s | %s | %s | %s |\n", m, id, cell[m, b], cell[m, id], v; any = 1
        }
    }
    if (!any) print "| (no fault minute with a fault-free minute of its system) | | | | |"
    print ""
    print "## How calls fail: the failure split and link accuracy"
    print ""
    print "Of the messages of the true requests (a call and its return each), % **linked"
    print "right** (in the inferred request its own request owns), **orphaned** (in no"
    print "request: left unattached, or cut off from its root), **linked to another"
    print "request** (in the request another one owns) and **abstained** (of the orphaned,"
    print "those the method declined to link; - for a method that writes no confidence and"
    print "so cannot abstain); **link accuracy**: % of the messages whose parent is their"
    print "true cause (- for a result without parents).  `score`'"'"'s failure split"
    print "(docs/metrics.md); **n/p** where the oracle itself is under 100 % by the measure."
    print ""
    print "| method (mode) | set | exact % | linked right % | orphaned % | linked to another request % | abstained % | link accuracy % |"
    print "|---|---|---:|---:|---:|---:|---:|---:|"
    for (k = 1; k <= nm; k++) for (s = 1; s <= ns; s++) {
        m = meth[k]; id = ord[s]
        if (cell[m, id] == "" || cell[m, id] ~ /^n\//) continue
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", m, id, cell[m, id], pcs(sr[m, id]),
            pcs(so[m, id]), pcs(sw[m, id]), pcs(sa[m, id]), pcs(sl[m, id])
    }
    print ""
    print "## Cost"
    print ""
    print "CPU seconds (user + system, /usr/bin/time) per 1000 requests and peak resident"
    print "memory (MB) of each inference run; tw: TraceWeaver'"'"'s own end-to-end measure"
    print "(% of requests; n/p where the oracle is under 100 % by it)."
    print ""
    for (s = 1; s <= ns; s++) if (ord[s] in otw) tl = tl sprintf("%s%s %.1f %%", tl == "" ? "" : ", ", ord[s], 100 * otw[ord[s]])
    if (tl != "") { print "tw is n/p on these sets: the oracle itself scores " tl " by it (TraceWeaver'"'"'s"; print "measure assumes one call per endpoint and caller per request)."; print "" }
    print "| method (mode) | set | exact % | tw % | CPU s / 1000 requests | peak MB |"
    print "|---|---|---:|---:|---:|---:|"
    for (k = 1; k <= nm; k++) for (s = 1; s <= ns; s++) {
        m = meth[k]; id = ord[s]
        if (cell[m, id] == "" || cell[m, id] ~ /^n\//) continue
        t = tw[m, id]; t = (t == "" ? "-" : t == "np" ? "n/p" : pct(t))
        printf "| %s | %s | %s | %s | %s | %s |\n", m, id, cell[m, id], t, cp[m, id], mb[m, id]
    }
    print ""
    printf "Made by `sh experiments/realbench.sh` (`make realbench`) in %s CPU s (%s s wall), imports included.\n", cpu, wall
}' "$RUNS" "$W/character.tsv" "$CSV" > "$MD"

# HTML: the Markdown tables as HTML tables, the rest as paragraphs
awk '
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/&lt;sup&gt;/, "<sup>", s); gsub(/&lt;\/sup&gt;/, "</sup>", s); gsub(/\*\*/, "", s); gsub(/`/, "", s); return s }
BEGIN { print "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>realbench</title>"
        print "<style>body{font-family:sans-serif;max-width:80em}table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px}td{text-align:right}td:first-child{text-align:left}</style></head><body>" }
/^# / { print "<h1>" esc(substr($0, 3)) "</h1>"; next }
/^## / { if (tb) { print "</table>"; tb = 0 }; print "<h2>" esc(substr($0, 4)) "</h2>"; next }
/^\|---/ { next }
/^\|/ {
    n = split($0, f, "|")
    if (!tb) { print "<table>"; tb = 1; tag = "th" } else tag = "td"
    printf "<tr>"; for (i = 2; i < n; i++) { c = f[i]; gsub(/^ +| +$/, "", c); printf "<%s>%s</%s>", tag, esc(c), tag }; print "</tr>"
    next
}
/^$/ { if (tb) { print "</table>"; tb = 0 }; next }
{ print "<p>" esc($0) "</p>" }
END { if (tb) print "</table>"; print "</body></html>" }' "$MD" > "$HTML"
# the leaderboard alone (table, notes, how it was made), for the README
SUM="$PB_OUT/realbench_summary.md"
{
    awk '/^## The sets/ { exit } /^\| method \(mode\)/ { on = 1 } on' "$MD"
    echo "Sets: \`data/README.md\`; their character, the fault comparison and the cost"
    echo "columns: \`out/realbench.md\`.  Made by \`make realbench\` at commit"
    echo "$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown) in $cpu_total CPU s ($wall s wall), imports included."
} > "$SUM"
echo "realbench: wrote $MD, $HTML, $CSV and $SETS ($cpu_total CPU s, $wall s wall)"
if [ -n "$readme" ]; then
    sh "$ROOT/scripts/readme_tables.sh" realbench "$SUM" "$readme" || die "could not update $readme"
    echo "realbench: updated the realbench table in $readme"
fi

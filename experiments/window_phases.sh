#!/bin/sh
# Phased behaviour and sliding-window nesting (seed 000, section 8: the
# sliding window "to expose phased behaviour").  maketrace's config language
# has no phases, so this splices two traces: an hour of multitier.conf and
# one minute of experiments/window_phases.conf (a report job, pattern
# C3>RPT[ARCH[DB,DB,DB]]) shifted to start at 30 min (ids, call ids and path
# labels offset so they stay unique; rows merged in time order).  Then
#   infer --algo nesting -s window=10s --per-window window_phases.csv
# gives the instances of every pattern in every 10 s window.  Writes to
# $PB_OUT (default out/figures):
#   window_phases.dat   minute, report job per 10 s, top whole-trace pattern
#                       per 10 s, most frequent other pattern per 10 s
#                       (the means over the seeds; then their 95 % t
#                       intervals; # lines give seed 1's whole-trace ranks)
#   window_phases_seeds.dat  per seed: the job's rank, its and the top
#                       pattern's largest count per window, the windows
#                       where the job is first (what the report judges)
#   window_phases.png/.svg (plots/window_phases.gp) when gnuplot is there.
# About 1.5 M messages per seed, 3 seeds (PB_SEEDS=N: N; seed k: both
# traces made with maketrace --seed k).  PB_MODE=tiny: 10 min with the
# burst at 5 min, 2 seeds.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out/figures}"
mkdir -p "$PB_OUT" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
hour=3600 at=1800
[ "${PB_MODE:-}" = tiny ] && hour=600 at=300
burst='C3>RPT[ARCH[DB,DB,DB]]'
# seeds: 3 (PB_SEEDS overrides; PB_MODE=tiny: 2); seed k: both traces
# made with maketrace --seed k (seed 1: the one-seed run of before)
ns=${PB_SEEDS:-3}
[ "${PB_MODE:-}" = tiny ] && [ -z "${PB_SEEDS:-}" ] && ns=2
case "$ns" in ''|0|*[!0-9]*) echo "window_phases: PB_SEEDS '$ns' is not a positive count" >&2; exit 1 ;; esac
S=0
while [ $S -lt "$ns" ]; do
S=$((S + 1))
"$PB_BIN/maketrace" --seed $S "$ROOT/maketrace/configs/multitier.conf" -D duration=${hour}s -o "$tmp/main.csv" || exit 1
"$PB_BIN/maketrace" --seed $S "$ROOT/experiments/window_phases.conf" -o "$tmp/burst.csv" || exit 1
# the columns are id,ts,recv_ts,src,dst,type,callid,path,cause (checked)
for f in main burst; do
    [ "$(grep -v '^#' "$tmp/$f.csv" | head -1)" = "id,ts,recv_ts,src,dst,type,callid,path,cause" ] ||
        { echo "window_phases: unexpected columns in $f" >&2; exit 1; }
done
grep -v '^#' "$tmp/main.csv" | tail -n +2 >"$tmp/a"
grep -v '^#' "$tmp/burst.csv" | tail -n +2 | awk -F, -v OFS=, -v at="$at" '
    function sh(x) { return x == "" ? "" : x + 100000000 }
    { $1 = sh($1); $2 = sprintf("%.9f", $2 + at); $3 = ($3 == "" ? "" : sprintf("%.9f", $3 + at))
      $7 = sh($7); $8 = sh($8); $9 = sh($9); print }' >"$tmp/b"
{ echo "id,ts,recv_ts,src,dst,type,callid,path,cause"
  LC_ALL=C sort -m -s -t, -k2,2g "$tmp/a" "$tmp/b"; } >"$tmp/t.csv"
"$PB_BIN/infer" --algo nesting -s window=10s --per-window "$tmp/pw.csv" --no-assign \
    -o "$tmp/r.res" "$tmp/t.csv" || exit 1
# whole-trace ranks (sliding-window nesting with a window longer than every
# call is whole-trace nesting, so the pattern table is the whole trace's)
awk -F, -v b="$burst" -v pw="$tmp/pw.csv" -v at="$at" '
    FNR == 1 { file++ }
    file == 1 && /^# table=patterns/ { on = 1; next }
    file == 1 && /^# table=/ { on = 0 }
    file == 1 && on && !/^#/ && $1 != "rank" {
        n++; t = $0; sub(/^[0-9]+,"/, "", t); sub(/".*/, "", t)
        if (n == 1) top = t
        if (t == b) { br = $1 }
    }
    file == 2 && FNR > 1 {
        p = $0; sub(/^[^,]*,"/, "", p); sub(/",[0-9]+$/, "", p); w = $1 + 0
        if (p == b) cb[w] += $NF
        else if ($NF > mo[w]) mo[w] = $NF
        if (p == top) ct[w] += $NF
        if (w > last) last = w
    }
    END {
        printf "# whole trace: %d patterns; top: %s; the report job %s ranks %s\n", n, top, b, (br == "" ? "absent" : br)
        printf "# burst at %d s for 60 s; columns: minute, %s per 10 s, %s per 10 s, most frequent other pattern per 10 s\n", at, b, top
        for (w = 0; w <= last; w += 10) printf "%.4f %d %d %d\n", w / 60, cb[w], ct[w], mo[w]
    }' "$tmp/r.res" "$tmp/pw.csv" >"$tmp/wp.$S.dat" || exit 1
[ $S -eq 1 ] && cp "$tmp/pw.csv" "$PB_OUT/window_phases.csv"
done
# window_phases_seeds.dat: one row per seed, what the report judges
# (experiments/report.d/window_phases.sh): the job's whole-trace rank, the
# number of patterns, its largest count in a window, the top pattern's
# largest, the windows where the job is the most frequent pattern, the top
# pattern's mean per window
{
    echo "# window_phases: per seed (maketrace --seed k for both traces); experiments/window_phases.sh"
    echo "# seed rank patterns max_job max_top windows_job_first mean_top"
    S=0
    while [ $S -lt "$ns" ]; do S=$((S + 1))
        awk -v s=$S 'NR == 1 { r = $0; sub(/.* ranks /, "", r); np = $0; sub(/^# whole trace: /, "", np); sub(/ patterns.*/, "", np) }
            /^#/ { next }
            { if ($2 > mb) mb = $2; if ($3 > mt) mt = $3; if ($2 > $4) beat++; st += $3; n++ }
            END { printf "%d %s %s %d %d %d %.2f\n", s, (r == "absent" ? 1e9 : r), np, mb, mt, beat, n ? st / n : 0 }' "$tmp/wp.$S.dat"
    done
} >"$PB_OUT/window_phases_seeds.dat" || exit 1
# window_phases.dat: seed 1's header lines, then per window the mean over
# the seeds of the three counts (columns 2-4) and their 95 % t intervals
# (columns 5-10: lo hi of each; experiments/judge.awk)
{
    sed -n '1,2p' "$tmp/wp.1.dat"
    echo "# $ns seeds (maketrace --seed 1-$ns); columns 2-4: the means over the seeds; 5-10: job_lo job_hi top_lo top_hi other_lo other_hi (95 % t interval)"
    S=0; files=
    while [ $S -lt "$ns" ]; do S=$((S + 1)); files="$files $tmp/wp.$S.dat"; done
    # shellcheck disable=SC2086
    awk "$(cat "$ROOT/experiments/judge.awk")"'
        /^#/ { next }
        { w = $1; if (!(w in seen)) { seen[w] = 1; ws[++n] = w }
          for (i = 2; i <= 4; i++) judge_add(w SUBSEP i, $i) }
        END { for (j = 1; j <= n; j++) { w = ws[j]; line = w; ci = ""
                  for (i = 2; i <= 4; i++) { judge_ci(w SUBSEP i); line = line sprintf(" %.2f", JM); ci = ci sprintf(" %.2f %.2f", JLO, JHI) }
                  print line ci } }' $files
} >"$PB_OUT/window_phases.dat" || exit 1
head -2 "$PB_OUT/window_phases.dat"
if command -v gnuplot >/dev/null 2>&1; then
    gnuplot -e "datadir='$PB_OUT'" "$ROOT/plots/window_phases.gp" ||
        echo "window_phases: warning: gnuplot failed" >&2
fi
exit 0

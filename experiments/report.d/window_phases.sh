#!/bin/sh
# report.d/window_phases.sh - a report section for sliding-window nesting
# (seed 000, section 8, future work; experiments/window_phases.sh, which is
# run on its own: sh experiments/window_phases.sh, PB_OUT as for the
# figures).  Markdown on stdout; its verdict row appended to $PB_VERDICTS.
#
# Verdict rule: the claim is that a sliding window exposes phased
# behaviour.  agrees: the one-minute job ranks below 10 over the whole
# trace, yet it is the most frequent pattern of some 10 s window and has
# more instances there than the whole trace's top pattern has in any
# window; partly: the most frequent of some window only; differs:
# otherwise.  Each test judged from the per-seed rows
# (window_phases_seeds.dat) with experiments/judge.awk: the 95 % t
# interval over the seeds of the job's rank (> 10), of the windows where
# it is first (> 0) and of its largest count minus the top pattern's
# largest (> 0); an interval across the threshold leaves it undecided; one
# seed: "undecided (too few seeds: 1; the means alone: ...)".
set -u
# the verdict helper of every report section
J="$(cd "$(dirname "$0")/.." && pwd)/judge.awk"
out=${PB_OUT:-out/figures}
f="$out/window_phases.dat"
[ -s "$f" ] || exit 0
VT=${PB_VERDICTS:-/dev/null}
echo "## Sliding-window nesting: a one-minute phase (section 8, future work)"
echo
if [ -s "$out/window_phases.png" ]; then echo "![Instances per 10 s window of a one-minute report job spliced into an hour of the multi-tier trace, beside the whole trace's most frequent pattern](window_phases.png)"; else echo "*(window_phases.png not made: gnuplot missing or failed)*"; fi
echo
# the per-seed rows (window_phases_seeds.dat); an older one-seed run has
# only window_phases.dat: its one row is made from it
fs="$out/window_phases_seeds.dat"
if [ ! -s "$fs" ]; then
    fs="$out/window_phases_seeds.tmp.$$"
    awk 'NR == 1 { r = $0; sub(/.* ranks /, "", r); np = $0; sub(/^# whole trace: /, "", np); sub(/ patterns.*/, "", np) }
        /^#/ { next }
        { if ($2 > mb) mb = $2; if ($3 > mt) mt = $3; if ($2 > $4) beat++; st += $3; n++ }
        END { printf "1 %s %s %d %d %d %.2f\n", (r == "absent" ? 1e9 : r), np, mb, mt, beat, n ? st / n : 0 }' "$f" >"$fs"
    trap 'rm -f "$fs"' EXIT
fi
awk "$(cat "$J")"'
    function both(a, b) { return (a == "no" || b == "no") ? "no" : ((a == "?" || b == "?") ? "?" : "yes") }
    /^#/ { next }
    { judge_add("rank", $2); judge_add("np", $3); judge_add("mb", $4); judge_add("mt", $5); judge_add("beat", $6); judge_add("st", $7); judge_add("margin", $4 - $5) }
    END {
        for (JUDGE_MEANS = 0; JUDGE_MEANS <= 1; JUDGE_MEANS++) {
            judge_reset()
            rr = judge_on("rank", ">", 10); sr = judge_show("%.1f")
            rb = judge_on("beat", ">", 0); sb = judge_show("%.1f")
            rm = judge_on("margin", ">", 0); sm = judge_show("%.1f")
            V[JUDGE_MEANS] = judge_levels(both(rr, both(rb, rm)), rb); NM[JUDGE_MEANS] = JUDGE_NMIN; NX = JUDGE_NMAX
        }
        v = judge_verdict(V[0], NM[0], V[1])
        judge_ci("np"); snp = sprintf("%.0f", JM); judge_ci("mb"); smb = judge_show("%.1f"); judge_ci("st"); sst = judge_show("%.1f"); judge_ci("mt"); smt = judge_show("%.1f")
        m = sprintf("the job ranks %s of %s patterns over the hour; it has up to %s instances per 10 s window (the top pattern up to %s; the job minus the top: %s) and is the most frequent pattern in %s windows; the top pattern: %s per window on average; %s", sr, snp, smb, smt, sm, sb, sst, NM[0] < 2 ? "one seed: no interval" : "95 % t intervals over " judge_seeds(NM[0], NX))
        printf "window_phases\ta sliding window exposes phased behaviour the whole-trace ranking hides\tnesting -s window=10s --per-window\t%s\t%s\t\twindow_phases\n", m, v >> vt
        printf "| claim | method | measured | verdict |\n|---|---|---|---|\n"
        printf "| a sliding window exposes phased behaviour the whole-trace ranking hides | nesting -s window=10s --per-window | %s | **%s** |\n", m, v
    }' vt="$VT" "$fs"
echo
echo "> Seed 000, section 8: \"If the system demonstrates phased behavior, where some pattern is"
echo "> frequent only in a short time interval but infrequent over the whole trace ... if the pattern is"
echo "> relatively frequent in one time window, then it could be much easier to spot.\""
echo "> One minute of a report job (C3>RPT[ARCH[DB,DB,DB]]) spliced"
echo "> into an hour of the multi-tier trace at 30 min (experiments/window_phases.sh; docs/nesting.md"
echo "> \"Sliding window\")."
echo
echo "How the data were made:"
echo
echo "    made by experiments/window_phases.sh (run on its own, into the same folder)"
echo "    traces, per seed k: maketrace --seed k multitier.conf -D duration=1h (PB_MODE=tiny: 10 min), and maketrace --seed k experiments/window_phases.conf (one minute) shifted to 30 min (tiny: 5 min), ids offset, rows merged in time order"
echo "    each window: infer --algo nesting -s window=10s --per-window window_phases.csv --no-assign"
sed -n 's/^# \(whole trace: .*\)/\1/p; s/^# \(burst at .*\)/\1/p' "$f" | sed 's/^/    /'

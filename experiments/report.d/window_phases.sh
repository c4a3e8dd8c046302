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
# otherwise.
set -u
# the verdict helper of every report section (one run per point: no interval)
J="$(cd "$(dirname "$0")/.." && pwd)/judge.awk"
out=${PB_OUT:-out/figures}
f="$out/window_phases.dat"
[ -s "$f" ] || exit 0
VT=${PB_VERDICTS:-/dev/null}
echo "## Sliding-window nesting: a one-minute phase (section 8, future work)"
echo
if [ -s "$out/window_phases.png" ]; then echo "![Instances per 10 s window of a one-minute report job spliced into an hour of the multi-tier trace, beside the whole trace's most frequent pattern](window_phases.png)"; else echo "*(window_phases.png not made: gnuplot missing or failed)*"; fi
echo
awk "$(cat "$J")"'
    NR == 1 { rank = $0; sub(/.* ranks /, "", rank); npat = $0; sub(/^# whole trace: /, "", npat); sub(/ patterns.*/, "", npat) }
    /^#/ { next }
    { if ($2 > mb) mb = $2; if ($3 > mt) mt = $3; if ($2 > $4) beat++; st += $3; n++ }
    END {
        v = judge_verdict("undecided", 1, (rank + 0 > 10 && beat && mb > mt) ? "agrees" : (beat ? "partly" : "differs"))
        m = sprintf("the job ranks %s of %s patterns over the hour; it has up to %d instances per 10 s window and is the most frequent pattern in %d windows; the top pattern: %.0f per window on average, %d at most; one run (seed 1)", rank, npat, mb, beat, n ? st / n : 0, mt)
        printf "window_phases\ta sliding window exposes phased behaviour the whole-trace ranking hides\tnesting -s window=10s --per-window\t%s\t%s\t\twindow_phases\n", m, v >> vt
        printf "| claim | method | measured | verdict |\n|---|---|---|---|\n"
        printf "| a sliding window exposes phased behaviour the whole-trace ranking hides | nesting -s window=10s --per-window | %s | **%s** |\n", m, v
    }' vt="$VT" "$f"
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
echo "    traces: maketrace multitier.conf -D duration=1h (PB_MODE=tiny: 10 min), and maketrace experiments/window_phases.conf (one minute) shifted to 30 min (tiny: 5 min), ids offset, rows merged in time order"
echo "    each window: infer --algo nesting -s window=10s --per-window window_phases.csv --no-assign"
sed -n 's/^# \(whole trace: .*\)/\1/p; s/^# \(burst at .*\)/\1/p' "$f" | sed 's/^/    /'

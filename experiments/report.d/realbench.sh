#!/bin/sh
# report.d/realbench.sh - the report section of the cross-system benchmark
# (experiments/realbench.sh, docs/realbench.md; run by make figures and
# make realbench, PB_OUT as for the figures).  Markdown on stdout; its
# verdict row (the oracle rebuilds every request of every real set, in
# every mode) appended to $PB_VERDICTS.
set -u
out=${PB_OUT:-out/figures}
f="$out/realbench.md"
[ -s "$f" ] || exit 0
VT=${PB_VERDICTS:-/dev/null}
echo "## The cross-system benchmark: every algorithm on every real set (realbench)"
echo
# the verdict first: the oracle rebuilds every request of every set
if [ -s "$out/realbench.csv" ]; then
    awk -F, 'NR > 1 && $3 == "oracle" { n++; if ($4 == "ok" && $5 + 0 == 1) ok++ }
        END {
            v = (n && ok == n) ? "agrees" : "differs"
            m = sprintf("%d of %d (set, mode) runs exact", ok, n)
            printf "realbench\tthe oracle rebuilds every request of every real set\ttruth on each set and mode\t%s\t%s\t\trealbench\n", m, v >> vt
            printf "| claim | method | measured | verdict |\n|---|---|---|---|\n"
            printf "| the oracle rebuilds every request of every real set | truth on each set and mode | %s | **%s** |\n", m, v
        }' vt="$VT" "$out/realbench.csv"
    echo
fi
echo "> Not in the papers: every algorithm on every real trace set of \`data/\`, in each"
echo "> input mode the set supports (\`experiments/realbench.sh\`, docs/realbench.md):"
echo "> exact accuracy, how the calls fail (linked right, orphaned, linked to another"
echo "> request, abstained) and link accuracy, cost."
echo
# the leaderboard page, its headings one level down
sed -e '1d' -e 's/^## /### /' "$f"

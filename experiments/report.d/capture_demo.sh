#!/bin/sh
# report.d/capture_demo.sh - a report section for the live test system
# (issue 25; experiments/capture_demo.sh, run by make capture-demo).
# Markdown on stdout; verdict rows appended to $PB_VERDICTS.
#
# Verdict rules (the seeds' argument about execution models).
#  1. vPath (seed 003, 2.2): its rule is exact where a thread serves a
#     request: agrees when vpath_paper is exact (>= 99.5 %) at every load
#     of the thread model, captured by interposition; differs otherwise.
#  2. vPath and BorderPatrol name thread pools that hand work on and event
#     loops as what breaks thread-based tracing: agrees when vpath_paper is
#     below 99.5 % at some load of the pool or event model; differs when it
#     stays exact everywhere.  One run per point: no interval.
set -u
# the verdict helper of every report section (one run per point: no interval)
J="$(cd "$(dirname "$0")/.." && pwd)/judge.awk"
out=${PB_OUT:-out/figures}
f="$out/capture_demo.dat"
[ -s "$f" ] || exit 0
VT=${PB_VERDICTS:-/dev/null}
echo "## Real threads and real TCP: the live test system"
echo
echo "How made: \`make capture-demo\` ($(sed -n 1p "$f" | sed 's/^# capture_demo: //')); one run per point, real scheduling (not deterministic)."
echo
if [ -s "$out/capture_demo.png" ]; then echo "![capture_demo: exact reconstruction per algorithm, execution model and load](capture_demo.png)"; else echo "*(capture_demo.png not made: gnuplot missing or failed)*"; fi
echo
awk "$(cat "$J")"'
    /^#/ { next }
    $3 == "interposition" && $4 == "vpath_paper" && $5 != "nan" {
        if ($1 == "thread") { tn++; if ($5 >= 0.995) tok++; tm = tm sprintf("%s%s/s %.1f %%", tm == "" ? "" : ", ", $2, 100 * $5) }
        else { on++; if ($5 < 0.995) obad++; om = om sprintf("%s%s %s/s %.1f %%", om == "" ? "" : ", ", $1, $2, 100 * $5) } }
    END {
        v1 = tn == 0 ? "cannot tell (no vpath paper runs)" : (tok == tn ? "agrees" : "differs")
        v2 = on == 0 ? "cannot tell (no vpath paper runs)" : (obad ? "agrees" : "differs")
        if (v1 !~ /^cannot/) v1 = judge_verdict("undecided", 1, v1)
        if (v2 !~ /^cannot/) v2 = judge_verdict("undecided", 1, v2)
        c1 = "vPath: precise where one thread serves a request (thread per request)"
        c2 = "thread pools that hand work on and event loops break the thread rule"
        printf "capture_demo\t%s\tvpath -s variant=paper, interposition\t%s\t%s\t\tcapture_demo\n", c1, tm "; one run per load", v1 >> vt
        printf "capture_demo\t%s\tvpath -s variant=paper, interposition\t%s\t%s\tone run per point\tcapture_demo\n", c2, om, v2 >> vt
        printf "| claim | method | measured | verdict |\n|---|---|---|---|\n"
        printf "| %s | vpath paper, interposition | %s | **%s** |\n", c1, tm, v1
        printf "| %s | vpath paper, interposition | %s | **%s** |\n", c2, om, v2
    }' vt="$VT" "$f"
echo
[ -s "$out/capture_demo.md" ] && cat "$out/capture_demo.md" && echo
echo "> vPath, 2.2: \"if a thread is handling a request, it will not be interleaved with any other"
echo "> request\"; BorderPatrol, 2: event-driven servers multiplex requests on one thread.  Here"
echo "> the same services run in both kinds of execution model, on real kernel threads."

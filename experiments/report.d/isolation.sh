#!/bin/sh
# report.d/isolation.sh - the report section of the isolation figure
# (issue 23; experiments/isolation.sh).  Markdown on stdout; its verdict
# rows appended to $PB_VERDICTS.
#
# Verdict rules (on dearinter.conf, a single-process event-driven Apache):
#   precise with isolation (3.2, 5.5): agrees when borderpatrol (thread
#     context) is exact (>= 99.9 %) at every load with isolation.
#   without isolation a read of several requests cannot be untangled
#     (6.1): agrees when borderpatrol with batched reads is below its
#     isolated accuracy at every load; partly at some; differs.
#   the cost is modest (7.2: dearinter.net latency overhead 8.4 % static,
#     16.96 % dynamic, all tracing included): agrees when the model's
#     largest latency cost of isolation is at most 17 %.
set -u
# the verdict helper of every report section (one run per point: no interval)
J="$(cd "$(dirname "$0")/.." && pwd)/judge.awk"
out=${PB_OUT:-out/figures}
VT=${PB_VERDICTS:-/dev/null}
fi_="$out/isolation_iso.dat"
[ -s "$fi_" ] || exit 0
echo "## Event isolation: BorderPatrol on dearinter.net"
echo
if [ -s "$out/isolation.png" ]; then echo "![isolation: exact reconstruction with event isolation and batched reads, and its latency](isolation.png)"; else echo "*(isolation.png not made: gnuplot missing or failed)*"; fi
echo
awk -v vt="$VT" "$(cat "$J")"'
function col(name,   i) { for (i = 1; i <= nh; i++) if (H[i] == name) return i + 0; return 0 }
function pct(x) { return x == "NaN" || x == "" ? "-" : sprintf("%.1f %%", 100 * x) }
FNR == 1 { f = FILENAME; sub(/.*isolation_/, "", f); sub(/\.dat$/, "", f) }
/^# x / { nh = split(substr($0, 3), H, " "); next }
/^#/ { next }
f == "latency" { cost[$1] = $5; li[$1] = $3; lb[$1] = $4; next }
{ k = f SUBSEP $1; bp[k] = $(col("borderpatrol")); bn[k] = $(col("borderpatrol-node")); vp[k] = $(col("vpath-paper")); jo[k] = $(col("joint")); im[k] = $(col("immediacy")); rate[k] = $2
  if (f == "iso") xs[++nx] = $1 }
END {
    meth = "borderpatrol (thread context), exact accuracy"
    bad = 0; m = ""
    for (i = 1; i <= nx; i++) { k = "iso" SUBSEP xs[i]; if (bp[k] < 0.999) bad++
        m = m sprintf("%s%s pages/s %s", m == "" ? "" : ", ", rate[k], pct(bp[k])) }
    row("with event isolation BorderPatrol follows every request precisely (3.2, 5.5)", meth, m "; immediacy meter 1 throughout", bad == 0 ? "agrees" : (bad < nx ? "partly" : "differs"))
    good = 0; m = ""
    for (i = 1; i <= nx; i++) { ki = "iso" SUBSEP xs[i]; kb = "batch" SUBSEP xs[i]
        if (bp[kb] < bp[ki]) good++
        m = m sprintf("%s%s: %s (node %s, immediacy %s)", m == "" ? "" : "; ", xs[i], pct(bp[kb]), pct(bn[kb]), pct(im[kb])) }
    row("without isolation, a read of several requests cannot be matched to its FastCGI connections (6.1)", meth " with reads of up to 4 inputs, per number of browsers", m, good == nx ? "agrees" : (good ? "partly" : "differs"))
    mx = -1e9; m = ""
    for (i = 1; i <= nx; i++) { x = xs[i]; if (!(x in cost)) continue
        if (cost[x] > mx) mx = cost[x]
        m = m sprintf("%s%s: %.2f vs %.2f ms (%+.1f %%)", m == "" ? "" : "; ", x, li[x], lb[x], cost[x]) }
    row("tracing dearinter.net costs 8.4 % (static) to 17 % (dynamic) latency, all of BorderPatrol included (7.2)", "the model: mean page latency with isolation vs batched reads, 50 us per read", m, mx <= 17 ? "agrees" : "differs")
    printf "\n"
}
function row(claim, method, measured, verdict) {
    verdict = judge_verdict("undecided", 1, verdict); measured = measured "; one run (seed 1)"
    if (!hdr) { printf "| claim | method | measured | verdict |\n|---|---|---|---|\n"; hdr = 1 }
    printf "| %s | %s | %s | **%s** |\n", claim, method, measured, verdict
    printf "isolation\t%s\t%s\t%s\t%s\t\tisolation\n", claim, method, measured, verdict >> vt
}' "$out/isolation_iso.dat" "$out/isolation_batch.dat" "$out/isolation_latency.dat"
echo "> BorderPatrol (seed 002) 3.2: \"BorderPatrol supplies input events to modules one at a time\";"
echo "> 6.1: without isolation \"a single call to read fetched multiple image requests ... If Apache were"
echo "> to read in both requests it would be impossible to correlate which FastCGI connection"
echo "> corresponded to which client request\"."
echo
echo "The model's cost of isolation is one read (50 us, \`-s Apache.read_cost\`) per input instead of"
echo "one per batch: its size follows that setting, only its growth with load is the model's."
echo "borderpatrol by node is exact only where every node is single-threaded; here FastCGI and"
echo "PostgreSQL are pools, so it stays below borderpatrol by thread even with isolation."
echo "fcfs, arrival and linking take each of the browser's four calls of a page load (the page,"
echo "then three images) for a request of its own, so no page is ever whole for them (0 % even"
echo "with one browser)."
echo
echo "Exact accuracy (percent) with isolation / with batched reads, per number of browsers:"
echo
awk 'FNR == 1 { f++ }
     /^# x / { n = split(substr($0, 3), H, " "); next }
     /^#/ { next }
     f == 1 { for (i = 3; i <= n - 3; i++) a[$1, i] = $i; xs[++nx] = $1; r[$1] = $2; next }
     { for (i = 3; i <= n - 3; i++) b[$1, i] = $i }
     END { printf "| method |"; for (j = 1; j <= nx; j++) printf " %s (%s/s) |", xs[j], r[xs[j]]; printf "\n|---|"
           for (j = 1; j <= nx; j++) printf "---|"; printf "\n"
           for (i = 3; i <= n - 3; i++) { printf "| %s |", H[i]
               for (j = 1; j <= nx; j++) printf " %.1f / %.1f |", 100 * a[xs[j], i], 100 * b[xs[j], i]; printf "\n" } }' "$out/isolation_iso.dat" "$out/isolation_batch.dat"

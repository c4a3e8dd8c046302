#!/bin/sh
# report.d/joint_robust.sh - a report section for the robustness of joint
# (issue 15; experiments/joint_robust.sh, run on its own: sh
# experiments/joint_robust.sh, PB_OUT as for the figures).  Markdown on
# stdout; its verdict row appended to $PB_VERDICTS.
#
# Verdict rule: the claim is that under sniffer loss up to 1 % and a clock
# offset up to the mean call delay, joint's exact accuracy falls less than
# nesting's (loss judged against the survivors' truth, score --kept).
# agrees: on every config, joint's largest fall (from no perturbation to
# any point of the sweep) is smaller than nesting's, for loss and for
# offset; partly: so for some of them; differs: for none.  The same rule
# is applied again against the whole truth (score without --kept), in a
# second row: a claim that holds under one scoring only shows it.
set -u
# the verdict helper of every report section (one run per point: no interval)
J="$(cd "$(dirname "$0")/.." && pwd)/judge.awk"
out=${PB_OUT:-out/figures}
f="$out/joint_robust.dat"
[ -s "$f" ] || exit 0
VT=${PB_VERDICTS:-/dev/null}
echo "## Robustness of joint: capture loss and clock offset"
echo
if [ -s "$out/joint_robust.png" ]; then echo "![Exact reconstruction of joint and nesting under capture loss (scored against the survivors' truth) and a clock offset of one node, on the multi-tier and hotel-like traces](joint_robust.png)"; else echo "*(joint_robust.png not made: gnuplot missing or failed)*"; fi
echo
# the claim under both scorings of a lossy trace: against the survivors'
# truth (score --kept, the rule above) and against the whole truth (a
# request that lost a message is wrong for every algorithm); a claim that
# holds under one and not the other says so in two rows
printf "| claim | method | measured | verdict |\n|---|---|---|---|\n"
for sc in kept whole; do
awk -v sc="$sc" '
    /^# config/ { for (i = 2; i <= NF; i++) c[$i] = i - 1; next }
    /^#/ { next }
    {
        jc = c["joint_" sc]; nc = c["nesting_" sc]
        if (!jc || !nc) next
        k = $1 SUBSEP $2
        if (!(k in seen)) { seen[k] = 1; key[++n] = k }
        if ($3 + 0 == 0) { j0[k] = $jc; n0[k] = $nc }
        jmin[k] = (k in jmin && jmin[k] < $jc) ? jmin[k] : $jc
        nmin[k] = (k in nmin && nmin[k] < $nc) ? nmin[k] : $nc
    }
    END {
        if (!n) exit
        good = 0; m = ""
        for (i = 1; i <= n; i++) {
            k = key[i]; split(k, kk, SUBSEP)
            dj = 100 * (j0[k] - jmin[k]); dn = 100 * (n0[k] - nmin[k])
            if (dj < dn) good++
            m = m sprintf("%s%s %s: joint %.1f to %.1f (-%.1f), nesting %.1f to %.1f (-%.1f)", m == "" ? "" : "; ", kk[1], kk[2], 100 * j0[k], 100 * jmin[k], dj, 100 * n0[k], 100 * nmin[k], dn)
        }
        v = judge_verdict("undecided", 1, good == n ? "agrees" : (good ? "partly" : "differs")); m = m "; one run (seed 1)"
        claim = "under loss up to 1 % and a clock offset up to the mean call delay, joint falls less than nesting"
        meth = (sc == "kept" ? "joint, nesting; exact accuracy vs the survivors truth (score --kept)" : "joint, nesting; exact accuracy vs the whole truth (a request that lost a message is wrong)")
        printf "joint_robust\t%s\t%s\t%s\t%s\t\tjoint_robust\n", claim, meth, m, v >> vt
        printf "| %s | %s | %s | **%s** |\n", claim, meth, m, v
    }' vt="$VT" "$f"
done
echo
echo "> The claim (pathbench's, for joint): \"Robust: under sniffer loss up to 1 % and skewer offsets up to the mean call"
echo "> delay, its accuracy falls less than nesting's (a figure).\"  Multi-tier trace at Table 1's"
echo "> parallelism (offset at WS2) and the hotel-like trace (offset at search); loss scored"
echo "> against the survivors' truth, since a request that lost a message can match the whole"
echo "> truth for no algorithm (docs/metrics.md \"Lossy traces\", docs/joint.md \"Robustness\")."
echo
if [ -s "$out/joint_robust.md" ]; then cat "$out/joint_robust.md"; echo; fi
echo "How the data were made:"
echo
echo "    made by experiments/joint_robust.sh (run on its own, into the same folder)"
sed -n 's/^# \(joint_robust.sh: .*\)/\1/p; s/^# \(multitier: .*\)/\1/p; s/^# \(whole: .*\)/\1/p' "$f" | sed 's/^/    /'
echo "    each point: maketrace CONF | sniffer --loss P --seed S, or skewer -n NODE=+OFFSET; infer --algo ALGO; score --truth (whole) and score --kept (kept)"

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
# Judged from the per-seed rows of joint_robust.dat (experiments/judge.awk):
# per config, perturbation and seed the largest fall of each on the same
# traces, then the 95 % t interval over the seeds of nesting's fall minus
# joint's; a group holds the claim when the whole interval is above 0
# (undecided when it straddles 0); one seed: "undecided (too few seeds: 1;
# the means alone: ...)".
set -u
# the verdict helper of every report section
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
awk -v sc="$sc" "$(cat "$J")"'
    /^# config/ { for (i = 2; i <= NF; i++) c[$i] = i - 1; next }
    /^# failed: infer (joint|nesting) / { sub(/^# failed: /, ""); failed = failed (failed == "" ? "" : "; ") $0; next }
    /^#/ { next }
    {
        jc = c["joint_" sc]; nc = c["nesting_" sc]; sd = c["seed"] ? $(c["seed"]) : 1
        if (!jc || !nc || $jc == "NaN" || $nc == "NaN") next
        k = $1 SUBSEP $2
        if (!(k in seen)) { seen[k] = 1; key[++n] = k }
        ks = k SUBSEP sd
        if (!(ks in ss)) { ss[ks] = 1; seeds[k] = seeds[k] " " sd }
        if ($3 + 0 == 0) { j0[ks] = $jc; n0[ks] = $nc }
        jmin[ks] = (ks in jmin && jmin[ks] < $jc) ? jmin[ks] : $jc
        nmin[ks] = (ks in nmin && nmin[ks] < $nc) ? nmin[ks] : $nc
    }
    END {
        if (!n) exit
        # per seed, the largest fall of each (no perturbation to any point)
        # and nesting'"'"'s minus joint'"'"'s: the claim holds where it is > 0
        for (i = 1; i <= n; i++) { k = key[i]; m = split(seeds[k], S, " ")
            for (j = 1; j <= m; j++) { ks = k SUBSEP S[j]; if (!(ks in j0)) continue
                judge_add(k SUBSEP "j", 100 * (j0[ks] - jmin[ks])); judge_add(k SUBSEP "n", 100 * (n0[ks] - nmin[ks]))
                judge_add(k SUBSEP "d", 100 * ((n0[ks] - nmin[ks]) - (j0[ks] - jmin[ks]))) } }
        for (JUDGE_MEANS = 0; JUDGE_MEANS <= 1; JUDGE_MEANS++) {
            judge_reset(); y = 0; u = 0; tot = 0; m = ""
            for (i = 1; i <= n; i++) { k = key[i]; split(k, kk, SUBSEP)
                r = judge_on(k SUBSEP "d", ">", 0); tot++; y += (r == "yes"); u += (r == "?"); dd = judge_show("%.1f")
                judge_ci(k SUBSEP "j"); fj = judge_show("%.1f"); judge_ci(k SUBSEP "n"); fn = judge_show("%.1f")
                m = m sprintf("%s%s %s: joint falls %s points, nesting %s, nesting - joint %s", m == "" ? "" : "; ", kk[1], kk[2], fj, fn, dd) }
            V[JUDGE_MEANS] = tot ? judge_count(y, u, tot, 1, 1e-6) : "undecided"; NM[JUDGE_MEANS] = JUDGE_NMIN; NX = JUDGE_NMAX
        }
        v = judge_verdict(V[0], NM[0], V[1])
        m = m "; " (NM[0] < 2 ? "one seed: no interval" : "95 % t intervals over " judge_seeds(NM[0], NX)) (failed == "" ? "" : "; runs that failed (left out): " failed)
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
echo "    each point and seed k: maketrace --seed k CONF | sniffer --loss P --seed k+2, or skewer -n NODE=+OFFSET; infer --algo ALGO; score --truth (whole) and score --kept (kept)"

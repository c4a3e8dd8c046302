# conv_mail_verdicts.awk - the verdict rows of the e-mail experiment (seed
# 000, 7.5.7; experiments/conv_mail.sh), one rule for both computations:
# report.sh's mail relay section (comp=blocked) and report.d/conv_mail.sh
# (comp=paper, the whole-signal correlation).  Load experiments/judge.awk
# first:
#   awk -F, -f experiments/judge.awk -f experiments/conv_mail_verdicts.awk \
#       -v comp=blocked -v lab=LABEL -v ser=SERIES conv_mail.dat
# Reads the per-seed rows of conv_mail.dat; writes tab-separated
# "figure claim method measured verdict note series" rows.
#
# Rules, each judged from the 95 % t interval of the mean over the seeds
# at each quantum (experiments/judge.awk; one seed = no interval, and the
# row says so and what the means alone give):
#   FP rate 21-29 %: a quantum is in band when its whole interval lies in
#     15-35 %, out when the whole interval is outside; agrees when at
#     least 3/4 of the quanta are in band, partly when at least half,
#     else differs.  (Until issue 30 the whole-signal section said
#     "partly" as soon as the range of the means touched 21-29 %, which
#     gave "partly" for 1 quantum of 8 in band.)
#   only minor dependence on mu: the largest minus the smallest mean (the
#     interval of that difference) at most 12 points agrees, 20 partly.
#   worst at mu >= 360 s: the largest mean there minus the largest below,
#     by the interval, at least 0.
#   ignoring paths under 100 messages, none false except at 720 s: every
#     other quantum's interval at 0 (its mean 0 on every seed) agrees.
#   no frequent real path missed: none at any quantum agrees; misses only
#     at 720 s partly.
/^#/ { next }
!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
$(c["computation"]) != comp { next }
{ m = $(c["mu"]) + 0; if (!(m in seen)) { seen[m] = 1; mus[++k] = m }
  if ($(c["pattern_fp_rate"]) != "") judge_add(m SUBSEP "fp", $(c["pattern_fp_rate"]))
  if ($(c["pattern_fp_rate_min100"]) != "") judge_add(m SUBSEP "f1", $(c["pattern_fp_rate_min100"]))
  if ($(c["frequent_missed"]) != "") judge_add(m SUBSEP "mi", $(c["frequent_missed"]))
  nf = $(c["frequent_true"]) }
function row(claim, measured, verdict, note) { printf "conv_mail\t%s\t%s\t%s\t%s\t%s\t%s\n", claim, lab, measured, verdict, note, ser }
function pct(x) { return sprintf("%.0f %%", 100 * x) }
function iv(lo, hi) { return sprintf("[%.0f, %.0f] %%", 100 * lo, 100 * hi) }
END {
    if (!k) exit
    for (i = 2; i <= k; i++) for (j = i; j > 1 && mus[j] < mus[j - 1]; j--) { t = mus[j]; mus[j] = mus[j - 1]; mus[j - 1] = t }
    n = 0; yes = 0; und = 0; inm = 0; nmin = -1; nmax = 0; list = ""
    for (i = 1; i <= k; i++) { m = mus[i]
        if (!judge_ci(m SUBSEP "fp")) { list = list (list == "" ? "" : ", ") m " s -"; continue }
        n++; M[n] = m; F[n] = JM; FL[n] = JLO; FH[n] = JHI; FN[n] = JN
        if (nmin < 0 || JN < nmin) nmin = JN; if (JN > nmax) nmax = JN
        r = judge_point(JLO, JHI, JN, "in", 0.15, 0.35); if (r == "yes") yes++; else if (r == "?") und++
        if (JM >= 0.15 && JM <= 0.35) inm++
        list = list (list == "" ? "" : ", ") m " s " pct(JM) (JN > 1 ? " " iv(JLO, JHI) : "") }
    sds = "; " judge_seeds(nmin, nmax) " per quantum"
    if (n) {
        lo = 1; hi = 1; for (i = 2; i <= n; i++) { if (F[i] < F[lo]) lo = i; if (F[i] > F[hi]) hi = i }
        vm = judge_count1(inm, n, 0.75, 0.5)
        v = judge_verdict(judge_count(yes, und, n, 0.75, 0.5), nmin, vm)
        row("false-positive rate 21-29 % over the quanta", sprintf("%d of %d quanta in 15-35 %% by the 95 %% interval, %d undecided (%s)", yes, n, und, list) sds, v,
            (v == "differs" && F[hi] >= 0.15 && F[lo] <= 0.35 ? " (the range of the means touches the band, but at too few quanta)" : ""))
        judge_diff(F[lo], FL[lo], FH[lo], FN[lo], F[hi], FL[hi], FH[hi], FN[hi])
        sp = 100 * (F[hi] - F[lo])
        v = judge_verdict(judge_levels(judge_point(JLO, JHI, JN, "<=", 0.12), judge_point(JLO, JHI, JN, "<=", 0.20)), JN, (sp <= 12 ? "agrees" : (sp <= 20 ? "partly" : "differs")))
        row("only minor dependence on mu (the paper: a spread of 8 points)", sprintf("spread %.0f points (%s at %g s to %s at %g s; interval of the difference %s)", sp, pct(F[lo]), M[lo], pct(F[hi]), M[hi], iv(JLO, JHI)) sds, v, "")
        a = 0; b = 0; for (i = 1; i <= n; i++) { if (M[i] >= 360) { if (!a || F[i] > F[a]) a = i } else if (!b || F[i] > F[b]) b = i }
        if (a && b) { judge_diff(F[b], FL[b], FH[b], FN[b], F[a], FL[a], FH[a], FN[a])
            row("worst at mu >= 360 s", sprintf("largest FP rate %s at mu >= 360 s, %s below (difference %s)", pct(F[a]), pct(F[b]), iv(JLO, JHI)) sds,
                judge_verdict(judge_word(judge_point(JLO, JHI, JN, ">=", 0)), JN, (F[a] >= F[b] ? "agrees" : "differs")), "") }
        else row("worst at mu >= 360 s", "no quanta on both sides of 360 s", "not run", "")
    }
    z = 0; zu = 0; zm = 0; zl = ""; t = 0
    for (i = 1; i <= k; i++) { m = mus[i]; if (m == 720 || !judge_ci(m SUBSEP "f1")) continue
        t++; r = judge_point(JLO, JHI, JN, "<=", 0); if (r == "no") z++; else if (r == "?") zu++
        if (JM > 0) { zm++; zl = zl " " m } }
    if (t) row("ignoring paths under 100 messages, no false positive except at mu = 720 s", sprintf("false positives remain at %d of the %d quanta below 720 s%s", zm, t, (zm ? " (mu =" zl " s)" : "")) sds,
               judge_verdict(judge_count(t - z - zu, zu, t, 1, -1), nmin, (zm ? "differs" : "agrees")), "")
    ml = ""; nz = 0; only720 = 1; miss = 0
    for (i = 1; i <= k; i++) { m = mus[i]; if (!judge_ci(m SUBSEP "mi")) continue
        if (JM > 0) { nz++; miss += JM; ml = ml (ml == "" ? "" : ", ") sprintf("%g at %g s", JM, m); if (m != 720) only720 = 0 } }
    row("no frequent real path missed", (nz ? sprintf("frequent true paths (%d, 100 instances or more) missed, mean over seeds: %s; none at the other %d quanta", nf, ml, k - nz) : sprintf("none of the %d frequent true paths missed at any of the %d quanta", nf, k)) sds,
        (nz == 0 ? "agrees" : (only720 ? "partly" : "differs")), (nz && only720 ? " (only at 720 s, a quantum the paper calls useless)" : ""))
}

# judge.awk - the one place the report's verdicts are judged from the
# seeds: a claim about per-seed values against a threshold, from the 95 %
# Student t interval of the mean (docs/experiments.md, "How a verdict is
# judged").  An awk library: report.sh puts it in front of every verdict
# rule (AWKLIB), the report.d/*.sh sections and lib.sh's aggregate load it
# with -f; tests/sh/test_judge.sh checks it against hand-worked numbers.
#
#   judge_tq(df)                t(0.975, df), df = 1 .. 30 (gsl_cdf_tdist_Pinv, 6 decimals);
#                               above 30 the value at 30 (a slightly wider
#                               interval); 0 for df < 1
#   judge_add(k, v)             add one seed's value v to the sample k
#   judge_ci(k)                 the mean of sample k and its interval:
#                               sets JM, JLO, JHI, JN (JLO = JHI = JM when
#                               JN < 2: no interval); returns JN
#   judge_set(m, lo, hi, n)     the same globals from a mean and interval
#                               already computed (a series file's columns)
#   judge_mean(k, m, lo, hi, n) the mean of k points each with its own
#                               interval (independent: half-widths added in
#                               quadrature and divided by k); m, lo, hi, n
#                               arrays indexed 1..k; sets JM JLO JHI JN
#                               (JN = the smallest n)
#   judge_diff(m1, lo1, hi1, n1, m2, lo2, hi2, n2)
#                               the interval of m2 - m1 for two independent
#                               means (half-widths in quadrature: never
#                               narrower than Welch's interval); sets JM JLO
#                               JHI JN (the smaller n)
#   judge_point(lo, hi, n, op, a, b)
#                               the claim "value op a" (op <=, <, >=, >) or
#                               "a <= value <= b" (op "in") for an interval
#                               [lo, hi] of n seeds: "yes" (the whole interval
#                               holds it), "no" (the whole interval breaks
#                               it), "?" (it straddles the threshold, or
#                               n < 2: too few seeds for an interval)
#   judge_word(r)               "yes" -> agrees, "no" -> differs, "?" -> undecided
#   judge_count(yes, und, tot, fa, fp)
#                               a claim over tot points: "agrees" when the
#                               points that hold it are at least fa * tot,
#                               "partly" at least fp * tot (fp < 0: never
#                               partly), else "differs"; worked out twice,
#                               counting the undecided points as breaking it
#                               (worst case) and as holding it (best case):
#                               one word when both agree, else
#                               "undecided (WORST to BEST)"
#   judge_verdict(v, nmin, mv)  the verdict text of a row: v as it is, but
#                               when v is undecided and nmin < 2, "undecided
#                               (too few seeds: N; the means alone: MV)"
#   judge_seeds(nmin, nmax)     "N seeds" or "N-M seeds" for the measured
#                               column
function judge_tq(df) {
    if (df < 1) return 0
    if (!JUDGE_TQ_OK) {
        split("12.706205 4.302653 3.182446 2.776445 2.570582 2.446912 2.364624 2.306004 2.262157 2.228139 " \
              "2.200985 2.178813 2.160369 2.144787 2.131450 2.119905 2.109816 2.100922 2.093024 2.085963 " \
              "2.079614 2.073873 2.068658 2.063899 2.059539 2.055529 2.051831 2.048407 2.045230 2.042272", JUDGE_TQ, " ")
        JUDGE_TQ_OK = 1
    }
    if (df > 30) df = 30
    return JUDGE_TQ[df] + 0
}
function judge_add(k, v) { JUDGE_N[k]++; JUDGE_S[k] += v; JUDGE_SS[k] += v * v }
function judge_ci(k,    n, m, var, h) {
    n = JUDGE_N[k] + 0
    if (!n) { JM = JLO = JHI = ""; JN = 0; return 0 }
    m = JUDGE_S[k] / n; h = 0
    if (n > 1) { var = (JUDGE_SS[k] - n * m * m) / (n - 1); if (var < 0) var = 0; h = judge_tq(n - 1) * sqrt(var / n) }
    JM = m; JLO = m - h; JHI = m + h; JN = n
    return n
}
function judge_set(m, lo, hi, n) { JM = m + 0; JLO = lo + 0; JHI = hi + 0; JN = n + 0 }
function judge_mean(k, m, lo, hi, n,    i, s, q, h, nm) {
    s = 0; q = 0; nm = -1
    for (i = 1; i <= k; i++) { s += m[i]; h = (hi[i] - lo[i]) / 2; q += h * h; if (nm < 0 || n[i] < nm) nm = n[i] }
    JM = s / k; h = sqrt(q) / k; JLO = JM - h; JHI = JM + h; JN = nm
}
function judge_diff(m1, lo1, hi1, n1, m2, lo2, hi2, n2,    h1, h2, h) {
    h1 = (hi1 - lo1) / 2; h2 = (hi2 - lo2) / 2; h = sqrt(h1 * h1 + h2 * h2)
    JM = m2 - m1; JLO = JM - h; JHI = JM + h; JN = (n1 < n2 ? n1 : n2)
}
function judge_point(lo, hi, n, op, a, b,    e) {
    e = 1e-12
    if (op == "<=") { if (hi <= a + e && n >= 2) return "yes"; if (lo > a + e && n >= 2) return "no"; return "?" }
    if (op == "<")  { if (hi < a - e && n >= 2) return "yes"; if (lo >= a - e && n >= 2) return "no"; return "?" }
    if (op == ">=") { if (lo >= a - e && n >= 2) return "yes"; if (hi < a - e && n >= 2) return "no"; return "?" }
    if (op == ">")  { if (lo > a + e && n >= 2) return "yes"; if (hi <= a + e && n >= 2) return "no"; return "?" }
    if (op == "in") { if (lo >= a - e && hi <= b + e && n >= 2) return "yes"; if ((hi < a - e || lo > b + e) && n >= 2) return "no"; return "?" }
    return "?"
}
function judge_word(r) { return r == "yes" ? "agrees" : (r == "no" ? "differs" : "undecided") }
function judge_count1(g, tot, fa, fp) { return g >= fa * tot - 1e-9 ? "agrees" : (fp >= 0 && g >= fp * tot - 1e-9 ? "partly" : "differs") }
function judge_count(yes, und, tot, fa, fp,    w, b) {
    w = judge_count1(yes, tot, fa, fp); b = judge_count1(yes + und, tot, fa, fp)
    return w == b ? w : "undecided (" w " to " b ")"
}
function judge_verdict(v, nmin, mv) {
    if (v ~ /^undecided/ && nmin < 2) return "undecided (too few seeds: " nmin "; the means alone: " mv ")"
    return v
}
function judge_seeds(nmin, nmax) {
    if (nmax == "" || nmax == nmin) return nmin " seed" (nmin == 1 ? "" : "s")
    return nmin "-" nmax " seeds"
}
# judge_levels(ra, rp): a claim with two levels, "agrees" when the test
# ra holds and "partly" when the weaker test rp holds ("yes", "no", "?"
# each): one word when the intervals decide, else "undecided (W to B)"
function judge_levels(ra, rp,    w, b) {
    w = (ra == "yes" ? "agrees" : (rp == "yes" ? "partly" : "differs"))
    b = (ra != "no" ? "agrees" : (rp != "no" ? "partly" : "differs"))
    return w == b ? w : "undecided (" w " to " b ")"
}
# Judging a rule from per-seed samples (judge_add), twice: with the
# intervals (JUDGE_MEANS = 0) and from the means alone (JUDGE_MEANS = 1,
# the reading judge_verdict prints when one seed gives no interval):
#   judge_reset()               forget the seed counts of the last rule
#                               (JUDGE_NMIN, JUDGE_NMAX: the fewest and
#                               most seeds of the samples it judged)
#   judge_on(k, op, a, b)       judge_point of sample k's interval (its mean
#                               alone when JUDGE_MEANS); sets JM JLO JHI JN
#   judge_on_diff(k1, k2, op, a)
#                               the same for the difference mean(k2) -
#                               mean(k1) (judge_diff); JUDGE_M1, JUDGE_M2:
#                               the two means
#   judge_show(fmt, scale)      "M [LO, HI]" of the last interval, each
#                               printed with fmt after * scale (the mean
#                               alone when JN < 2)
function judge_reset() { JUDGE_NMIN = ""; JUDGE_NMAX = "" }
function judge_seen(n) {
    if (JUDGE_NMIN == "" || n < JUDGE_NMIN) JUDGE_NMIN = n
    if (JUDGE_NMAX == "" || n > JUDGE_NMAX) JUDGE_NMAX = n
}
function judge_on(k, op, a, b) {
    if (!judge_ci(k)) return "?"
    judge_seen(JN)
    if (JUDGE_MEANS) return judge_point(JM, JM, 2, op, a, b)
    return judge_point(JLO, JHI, JN, op, a, b)
}
function judge_on_diff(k1, k2, op, a,    m1, l1, h1, n1) {
    if (!judge_ci(k1)) return "?"
    m1 = JM; l1 = JLO; h1 = JHI; n1 = JN
    if (!judge_ci(k2)) return "?"
    JUDGE_M1 = m1; JUDGE_M2 = JM
    judge_diff(m1, l1, h1, n1, JM, JLO, JHI, JN)
    judge_seen(JN)
    if (JUDGE_MEANS) return judge_point(JM, JM, 2, op, a)
    return judge_point(JLO, JHI, JN, op, a)
}
function judge_show(fmt, scale) {
    if (scale == "") scale = 1
    if (JN < 2) return sprintf(fmt, JM * scale)
    return sprintf(fmt " [" fmt ", " fmt "]", JM * scale, JLO * scale, JHI * scale)
}

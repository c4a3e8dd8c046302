# calib_bins.awk - the binomial test of every bin of a reliability table
# (`score --reliability`, docs/metrics.md), shared by
# experiments/joint_calib.sh (bins_of) and tests/sh/joint_lib.sh
# (calib_over):
#
#   awk -F, -v req=REQUESTS [-v low=L] -f experiments/calib_bins.awk REL
#
# For every bin [c, c') with rows and c >= L (default: every bin), one
# line "c,c',rows,stated,right,share right,p requests,p rows": p =
# P(X <= k | n, c) for X ~ Binomial(n, c), a one-sided test of "at least
# c right".  Rows of one request share their fate (a crossing moves a
# whole tail), so "p requests" counts requests: m = the table's rows per
# request (all rows / REQUESTS, at least 1), n = rows / m and k = n x
# share right (both rounded, n at least 1); "p rows" is the same test on
# the bin's rows.  The p values are printed in full (%.17g); the callers
# format and flag them.

# P(X <= k) for X ~ Binomial(n, p), summed in log space
function lower_tail(k, n, p,    i, l, m, s, t) {
    if (p <= 0) return 1
    l = n * log(1 - p); m = l; s = 1
    for (i = 0; i < k; i++) {
        l += log(n - i) - log(i + 1) + log(p) - log(1 - p)
        if (l > m) { s = (m - l > -700 ? s * exp(m - l) : 0) + 1; m = l }
        else if (l - m > -700) s += exp(l - m)
    }
    t = m + log(s)
    return t > 0 ? 1 : (t < -700 ? 0 : exp(t))
}
FNR == 1 { next }
FNR == 2 { m_ = (req > 0 && $7 > req) ? $7 / req : 1 }
$3 > 0 && (low == "" || $1 >= low + 0) {
    n_ = int($3 / m_ + 0.5); if (n_ < 1) n_ = 1
    k_ = int(n_ * $5 / $3 + 0.5)
    printf "%s,%s,%s,%s,%s,%s,%.17g,%.17g\n", $1, $2, $3, $4, $5, $6,
        lower_tail(k_, n_, $1), lower_tail($5, $3, $1)
}

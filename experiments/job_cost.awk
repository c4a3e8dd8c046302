# job_cost.awk - a rough a-priori cost of each job of a sweep, for the
# order in which run_all.sh runs them (costliest first) and its progress
# estimate.  Input: POINTFILE<TAB>COMMAND lines (run_all.sh's job list);
# output: COST<TAB>LINENO<TAB>POINTFILE<TAB>COMMAND, COST in estimated CPU
# seconds of the reference machine.  Only the order depends on it, never a
# result: an estimate that is off makes the run a little longer, not wrong.
# The rules follow a profile of the full sweep (docs/experiments.md,
# "Run time"): the convolution's exact computation grows as 1/mu, the
# Figure 17 choice-by-choice check at 309 instances takes about 10 s, and
# everything else grows with its trace length.
{
    fig = $2; sub(/.*experiments\//, "", fig); sub(/\.sh .*/, "", fig)
    delete p
    n = split($2, w, " ")
    for (i = 1; i <= n; i++) if (w[i] ~ /^[a-z_]+=/) { k = w[i]; sub(/=.*/, "", k); p[k] = substr(w[i], length(k) + 2) }
    len = ("len" in p) ? p["len"] + 0 : 50000
    c = 0.1 + len / 250000
    if (fig == "conv_mail") c = (p["comp"] == "paper" && p["mu"] > 0) ? 130 / p["mu"] : 0.5
    else if (fig == "conv_mu" && p["mu"] > 0) c += 0.0065 / p["mu"]
    else if (fig == "fig17" && p["algo"] == "nesting" && p["seed"] == 1 && p["inst"] >= 100) c += 9
    printf "%.3f\t%d\t%s\n", c, NR, $0
}

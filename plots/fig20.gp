# Figure 20: false-positive instance rate vs delay standard deviation, one
# panel per algorithm, one curve per configuration (mean over seeds, bars
# the 95 % t interval of the mean).  The paper's claims are
# about nesting; the other panels are for comparison.
load system("dirname ".ARG0)."/common.gp"
configs = "multitier children-parallel children-0-2 children-d-cc penalty-breaker"
ctitles = "'multi-tier' 'children-parallel' 'children-0/2' 'children-d/cc' 'penalty-breaker'"
algos = "nesting linking convolution truth"
atitles = "'nesting (the method of the figure in the paper)' 'linking (no claim in the paper; for comparison)' 'convolution (no claim in the paper; for comparison)' 'truth oracle (must be 0)'"
# an algorithm list (run_all.sh --algos, PB_ALGOS): its panels and the oracle's
if (exists("palgos") && strlen(palgos) > 0) { algos = palgos . " truth"; atitles = algos }
fig = "fig20"
ftitle = "Figure 20: effect of delay variation (false-positive instances)"
xlab = "standard deviation of every node delay (s)"
ylab = "false-positive path instances (fraction)"
load system("dirname ".ARG0)."/panels.gp"

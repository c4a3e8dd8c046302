# Figure 21: false-negative instance rate vs message drop rate (sniffer
# queue 64, capture rate varied), one panel per algorithm.  The x axis is
# log(drop rate + 0.1 %), so that no loss stays on the axis and the paper's
# regions (below 1 %, 1-10 %, above) each get a fair share of the width;
# marks at 1 % and 10 %.  The paper's claims are about nesting.
load system("dirname ".ARG0)."/common.gp"
configs = "multitier children-parallel children-0-2 children-d-cc penalty-breaker multitier+idle"
ctitles = "'multi-tier' 'children-parallel' 'children-0/2' 'children-d/cc' 'penalty-breaker' 'multi-tier, idle clients'"
algos = "nesting linking convolution"
atitles = "'nesting (the method of the figure in the paper)' 'linking (no claim in the paper; for comparison)' 'convolution (no claim in the paper; for comparison)'"
# an algorithm list (run_all.sh --algos, PB_ALGOS): its panels
if (exists("palgos") && strlen(palgos) > 0) { algos = palgos; atitles = algos }
fig = "fig21"
ftitle = "Figure 21: effect of message drop rate (false-negative instances)"
xlab = "message drop rate (measured; log scale, 0 at the left)"
ylab = "false-negative path instances (fraction)"
xsymlog = 1
load system("dirname ".ARG0)."/panels.gp"

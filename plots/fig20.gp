# Figure 20: false-positive instance rate vs delay standard deviation, one
# panel per algorithm, one curve per configuration.
load system("dirname ".ARG0)."/common.gp"
configs = "multitier children-parallel children-0-2 children-d-cc penalty-breaker"
algos = "nesting linking convolution truth"
fig = "fig20"
ftitle = "Figure 20: effect of delay variation (false-positive instances)"
xlab = "standard deviation of every node delay (s)"
ylab = "false-positive path instances (fraction)"
load system("dirname ".ARG0)."/panels.gp"

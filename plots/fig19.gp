# Figure 19: false-positive instance rate vs mean per-node parallelism, one
# panel per algorithm, one curve per configuration (line: mean over seeds
# at each parallelism level; dots: every trace).
load system("dirname ".ARG0)."/common.gp"
configs = "multitier children-parallel children-0-2 children-d-cc penalty-breaker"
algos = "nesting linking convolution truth"
fig = "fig19"
ftitle = "Figure 19: effect of trace parallelism (false-positive instances)"
xlab = "mean per-node parallelism (Table 1 measure, as nesting computes it)"
ylab = "false-positive path instances (fraction)"
load system("dirname ".ARG0)."/panels.gp"

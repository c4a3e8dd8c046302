# Figure 21: false-negative instance rate vs message drop rate (sniffer
# queue 64, capture rate varied), one panel per algorithm.
load system("dirname ".ARG0)."/common.gp"
configs = "multitier children-parallel children-0-2 children-d-cc penalty-breaker multitier+idle"
algos = "nesting linking convolution"
fig = "fig21"
ftitle = "Figure 21: effect of message drop rate (false-negative instances)"
xlab = "message drop rate (fraction, measured)"
ylab = "false-negative path instances (fraction)"
load system("dirname ".ARG0)."/panels.gp"

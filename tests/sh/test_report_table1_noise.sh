#!/bin/sh
# Table 1's CPU-order verdict (WAP5 6.5: linking above nesting, below
# convolution) on hand-made table1_bars.dat files: CPU times within 20 %
# of the larger or 0.02 s decide nothing (listed as too close to call);
# an order contradicted beyond that margin makes it partly or differs.
# Before the margin, the verdict flipped between runs of the same tree.
set -u
: "${PB_ROOT:?}"
cd "$PB_ROOT" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
hdr='# workload nesting_cpu_s linking_cpu_s convolution_cpu_s nesting_mb linking_mb convolution_mb messages parallelism paper_nesting_cpu_s paper_nesting_mb paper_convolution_cpu_s paper_convolution_mb'
# verdict ROWS...: the CPU verdict cell of the report made from these rows
verdict() {
    rm -rf "$tmp/o"; mkdir -p "$tmp/o"
    { echo "$hdr"; for r in "$@"; do echo "$r"; done; } >"$tmp/o/table1_bars.dat"
    : >"$tmp/o/table1.dat"   # the section is written when Table 1 ran
    PB_OUT="$tmp/o" sh experiments/report.sh >/dev/null 2>&1
    awk -F'|' '/linking CPU time above nesting/ { print $5; exit }' "$tmp/o/report.md"
}
m=' 6 9 8 20000 3.8 NaN NaN NaN NaN'
# clear order on one row, the other too close (0.23 against 0.28 s)
v=$(verdict "a 0.10 0.25 0.40$m" "b 0.13 0.23 0.28$m")
case "$v" in *'**agrees**'*'too close to call'*'b'*) ;; *) fail "close row should not count: '$v'" ;; esac
# the same close row read the other way round decides nothing either
v=$(verdict "a 0.10 0.25 0.40$m" "b 0.13 0.28 0.23$m")
case "$v" in *'**agrees**'*) ;; *) fail "a swap within the margin changed the verdict: '$v'" ;; esac
# a clear contradiction beside a clear agreement: partly, naming it
v=$(verdict "a 0.10 0.25 0.40$m" "b 0.10 0.60 0.30$m")
case "$v" in *'**partly**'*'not on b'*) ;; *) fail "contradiction beyond the margin: '$v'" ;; esac
# only contradictions: differs
v=$(verdict "b 0.10 0.60 0.30$m")
case "$v" in *'**differs**'*) ;; *) fail "only a contradiction: '$v'" ;; esac
# tiny times (under 0.02 s apart) decide nothing: partly, not agrees
v=$(verdict "s 0.011 0.028 0.031$m")
case "$v" in *'**partly**'*'too close to call'*) ;; *) fail "all too close: '$v'" ;; esac
echo "PASS"

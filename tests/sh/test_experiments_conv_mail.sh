#!/bin/sh
# The e-mail experiment (experiments/conv_mail.sh, seed 000 7.5.7) end to
# end in --tiny mode: every point runs, the .dat files say how they were
# made, both computations are collected, the report has its section with a
# verdict table, and the shapes that must hold whatever the exact numbers:
#   - every run's roots are the four senders (message trace: senders only)
#   - at mu = 30 s, paths with >= 100 instances hold no false positive and
#     no frequent true path is missed (10 days of the mail relay trace)
#   - mu = 720 s is not better than 30 s (the paper: such quanta are useless)
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
for p in maketrace infer score; do
    [ -x "$PB_BIN/$p" ] || { echo "SKIP: $PB_BIN/$p missing"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
out="$tmp/out"
fail() { echo "FAIL: $*"; exit 1; }

PB_OUT="$out" sh experiments/run_all.sh --tiny --only conv_mail -j 2 >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; fail "run_all.sh --tiny --only conv_mail failed"; }
d="$out/conv_mail.dat"
[ -s "$d" ] || fail "conv_mail.dat missing"
grep -q '^# commits: ' "$d" || fail "conv_mail.dat: no commit line"
grep -q '^# parameters: .*comp=blocked,paper' "$d" || fail "conv_mail.dat: both computations not in the parameters line"
# get COLUMN KEY=VALUE...: the column of the matching rows
get() {
    _c=$1; shift
    awk -F, -v c="$_c" -v conds="$*" '
        BEGIN { nc = split(conds, cs, " ") }
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; if (!(c in ix)) { print "no column " c > "/dev/stderr"; exit 1 } next }
        { ok = 1; for (k = 1; k <= nc; k++) { split(cs[k], kv, "="); if ($(ix[kv[1]]) != kv[2]) ok = 0 }
          if (ok) print $(ix[c]) }' "$d"
}
[ "$(get roots | sort -u)" = "S1 S2 S3 S4" ] || fail "roots other than the senders: $(get roots | sort -u | tr '\n' ';')"
[ "$(get mu | wc -l)" = 4 ] || fail "expected 4 rows (2 computations x 2 quanta)"
for comp in blocked paper; do
    [ "$(get pattern_fp_min100 computation=$comp mu=30)" = 0 ] || fail "$comp, mu=30: false paths with >= 100 instances"
    [ "$(get frequent_missed computation=$comp mu=30)" = 0 ] || fail "$comp, mu=30: frequent true paths missed"
    [ "$(get frequent_true computation=$comp mu=30)" -gt 0 ] || fail "$comp: no true path with >= 100 instances"
    a=$(get pattern_fp_rate computation=$comp mu=30) b=$(get pattern_fp_rate computation=$comp mu=720)
    awk -v a="$a" -v b="$b" 'BEGIN { exit !(a != "" && b != "" && a <= b) }' || fail "$comp: mu=720 better ($b) than 30 s ($a)"
done
for f in conv_mail_accuracy.dat conv_mail_paper_accuracy.dat; do
    [ "$(grep -vc '^#' "$out/$f")" = 2 ] || fail "$f: expected 2 quanta"
done
if command -v gnuplot >/dev/null 2>&1; then
    [ -s "$out/conv_mail.png" ] && [ -s "$out/conv_mail.svg" ] || fail "conv_mail plot not made"
fi
grep -q '^## Convolution on a mail relay trace (7.5.7' "$out/report.md" || fail "report.md has no e-mail section"
grep -q '\*\*Paper (7.5.7):\*\* on two months of e-mail' "$out/report.md" || fail "report.md: the paper's words missing"
# the whole-signal run's section (report.d): heading, one verdict row per
# claim, the same rows in the verdict file
PB_OUT="$out" PB_VERDICTS="$tmp/vt.tsv" sh experiments/report.d/conv_mail.sh >"$tmp/sec.md" || fail "report.d/conv_mail.sh failed"
grep -q '^## Convolution on the mail relay trace in the paper' "$tmp/sec.md" || fail "report.d section: no heading"
[ "$(grep -c '^| .* | convolution, mail relay trace, whole-signal correlation .* | \*\*\(agrees\|partly\|differs\|not run\|undecided\)' "$tmp/sec.md")" = 5 ] ||
    { cat "$tmp/sec.md"; fail "report.d section: expected 5 verdict rows"; }
[ "$(awk -F'\t' '$1 == "conv_mail" && NF == 7' "$tmp/vt.tsv" | wc -l)" = 5 ] || fail "report.d: expected 5 verdict lines for conv_mail"
# without the data the section is silent
mkdir "$tmp/empty"
[ -z "$(PB_OUT="$tmp/empty" sh experiments/report.d/conv_mail.sh)" ] || fail "report.d section printed without data"
echo PASS

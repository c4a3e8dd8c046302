#!/bin/sh
# experiments/judge.awk, the report's one verdict helper, on hand-worked
# numbers: the 95 % t interval of five values (.03 .02 .02 .04 .01: mean
# 0.024, sd 0.0114018, t(0.975, 4) = 2.7764, interval [0.0098429,
# 0.0381571], as tests/unit/test_pstat.c), a threshold inside the interval
# = undecided, one seed = undecided with the means' reading, counts over
# points (worst and best case), two-level claims, differences in
# quadrature; then report.sh on a hand-made Figure 22 series: a difference
# whose interval straddles the 0.02 of "clock offsets do not matter" is
# printed as undecided, a clear one as differs.
set -u
: "${PB_ROOT:?}"
cd "$PB_ROOT" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
J=experiments/judge.awk
# jawk PROGRAM: PROGRAM run after judge.awk (a file: POSIX awk has no -e)
jawk() { printf '%s\n' "$1" >"$tmp/p.awk"; awk -f "$J" -f "$tmp/p.awk"; }
got=$(jawk 'BEGIN { split(".03 .02 .02 .04 .01", v, " "); for (i = 1; i <= 5; i++) judge_add("k", v[i])
    judge_ci("k"); printf "%d %.7f %.7f %.7f\n", JN, JM, JLO, JHI
    print judge_point(JLO, JHI, JN, ">=", 0.01), judge_point(JLO, JHI, JN, ">", 0.005), judge_point(JLO, JHI, JN, "<=", 0.005), judge_point(JLO, JHI, JN, "in", 0, 0.05)
    print judge_word(judge_point(JLO, JHI, JN, ">=", 0.01)) }' 2>&1) || fail "awk: $got"
[ "$got" = "5 0.0240000 0.0098429 0.0381571
? yes no yes
undecided" ] || fail "interval and points: got '$got'"
got=$(jawk 'BEGIN { judge_add("o", 0.3); judge_ci("o"); r = judge_point(JLO, JHI, JN, "<=", 0.5)
    print r "|" judge_verdict(judge_word(r), JN, "agrees")
    print judge_count(7, 0, 10, 0.7, 0.5) "|" judge_count(5, 3, 10, 0.7, 0.5) "|" judge_count(4, 0, 10, 0.7, 0.5) "|" judge_count(2, 2, 4, 1, -1)
    print judge_levels("yes", "yes") "|" judge_levels("no", "yes") "|" judge_levels("?", "yes") "|" judge_levels("no", "?")
    judge_diff(0.1, 0.07, 0.13, 3, 0.5, 0.46, 0.54, 4); printf "%.2f %.2f %.2f %d\n", JM, JLO, JHI, JN
    print judge_tq(1), judge_tq(4), judge_tq(30), judge_tq(100), judge_tq(0) }' 2>&1) || fail "awk: $got"
[ "$got" = "?|undecided (too few seeds: 1; the means alone: agrees)
agrees|undecided (partly to agrees)|differs|undecided (differs to agrees)
agrees|partly|undecided (partly to agrees)|undecided (differs to partly)
0.40 0.35 0.45 3
12.7062 2.77644 2.04227 2.04227 0" ] || fail "verdicts: got '$got'"

# report.sh: Figure 22's linking rows from hand-made series files
# (index 0: group x y min max n lo hi)
o="$tmp/out"; mkdir -p "$o"
echo "# fig22" >"$o/fig22.dat"
printf '0 0 0.000 0 0 3 0.000 0.000\n0.06 0.06 0.015 0 0.03 3 0.005 0.025\n' >"$o/fig22_linking-idle.dat"
printf '0 0 0.100 0 0 3 0.095 0.105\n0.06 0.06 0.200 0 0 3 0.195 0.205\n' >"$o/fig22_linking.dat"
sh experiments/report.sh --out "$o" >/dev/null 2>&1
[ -s "$o/verdicts.tsv" ] || fail "report.sh wrote no verdicts.tsv"
v=$(awk -F'\t' '$3 ~ /idle/ { print $5 }' "$o/verdicts.tsv")
[ "$v" = "undecided" ] || { cat "$o/verdicts.tsv"; fail "an interval straddling 0.02 gave '$v', expected undecided"; }
v=$(awk -F'\t' '$3 ~ /busy/ { print $5 }' "$o/verdicts.tsv")
[ "$v" = "differs" ] || { cat "$o/verdicts.tsv"; fail "a clear rise of 0.1 gave '$v', expected differs"; }
grep -q 'difference \[0.00, 0.03\]); 95 % t intervals over 3 seeds' "$o/verdicts.tsv" || { cat "$o/verdicts.tsv"; fail "interval and seeds not in the measured column"; }
# the mail relay's FP band rule (experiments/conv_mail_verdicts.awk): 8
# quanta, 2 seeds each, one quantum in 15-35 %: "differs" (the old
# whole-signal rule said "partly" as soon as the range touched the band);
# 6 of 8 in band: agrees; one seed per quantum: undecided, too few seeds
mail() { # SEEDS FP_RATES...
    _ns=$1; shift
    echo "trace,computation,mu,seed,trace_messages,true_patterns,inferred_patterns,pattern_fp,pattern_fp_rate,inferred_patterns_min100,pattern_fp_min100,pattern_fp_rate_min100,frequent_true,frequent_missed,roots"
    _m=0
    for _f in "$@"; do _m=$((_m + 1))
        for _s in $(seq 1 "$_ns"); do echo "mailrelay,paper,$((_m * 90)),$_s,1000,8,10,1,$(awk -v f="$_f" -v s="$_s" 'BEGIN { print f + 0.002 * s }'),0,0,,3,0,"; done
    done
}
for case in "2 0.02 0.03 0.05 0.25 0.6 0.7 0.8 0.9|differs" "2 0.2 0.25 0.3 0.22 0.28 0.24 0.6 0.7|agrees" "1 0.2 0.25 0.3 0.22 0.28 0.24 0.6 0.7|undecided (too few seeds: 1; the means alone: agrees)"; do
    mail ${case%|*} >"$tmp/conv_mail.dat"
    v=$(awk -F, -f "$J" -f experiments/conv_mail_verdicts.awk -v comp=paper -v lab=x -v ser=y "$tmp/conv_mail.dat" | awk -F'\t' 'NR == 1 { print $5 }')
    [ "$v" = "${case#*|}" ] || fail "mail relay FP band, case '${case%|*}': got '$v', expected '${case#*|}'"
done
echo "PASS judge.awk: intervals, undecided, counts, report rows, the mail relay band rule"

#!/bin/sh
# experiments/realbench.sh (docs/realbench.md): the oracle scores 1 on every
# real set in data/, in every mode the set supports (a set the importer of
# this build cannot read is listed as not imported, and only then); two
# runs on a small subset give the same leaderboard but for the time
# columns; every interval holds its point; the failure split and link
# accuracy are the score files' and the oracle's are perfect; a method that
# cannot represent a set is n/a with a reason, never a number; an exec:
# command joins.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in importtrace infer score; do
    [ -x "$PB_BIN/$p" ] || { echo "no $p"; exit 77; }
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
RB="$PB_ROOT/experiments/realbench.sh"

# 1. the oracle on every set of data/
sh "$RB" --out "$T/all" --algos oracle > "$T/all.log" 2>&1 || { cat "$T/all.log"; fail "realbench --algos oracle"; }
ntraces=$(cd "$PB_ROOT/data" && find . -type f \( -name '*.tar.xz' -o -name '*.csv.gz' -o -name '*.json.gz' \) | wc -l)
nsets=$(awk 'END { print NR - 1 }' "$T/all/realbench_sets.csv")
nskip=$(grep -c '^Not imported:' "$T/all/realbench.md")
[ $((nsets + nskip)) -eq "$ntraces" ] || fail "$ntraces trace files in data/, $nsets sets scored, $nskip not imported"
[ "$nsets" -ge 9 ] || fail "expected at least the 9 hotel and Nezha sets, got $nsets"
if grep '^Not imported:' "$T/all/realbench.md" | grep -v 'deeptrace-ebpf' | grep -q .; then
    fail "a set other than the eBPF capture was not imported: $(grep '^Not imported:' "$T/all/realbench.md")"
fi
awk -F, 'NR > 1 && $3 == "oracle" { n++; if ($4 != "ok" || $5 != 1 || $6 != 1 || $7 != 1) { print "oracle not 1: " $0; bad = 1 } }
    END { if (n < 27 || bad) exit 1 }' "$T/all/realbench.csv" || fail "the oracle is not exact on every set and mode"

# 2. reproducible on a small subset (Train Ticket's fault-free minute)
for r in 1 2; do
    sh "$RB" --out "$T/r$r" --sets 'trainticket/construct' --algos oracle,nesting,linking,fcfs,convolution \
        > "$T/r$r.log" 2>&1 || { cat "$T/r$r.log"; fail "realbench run $r"; }
done
sed -E 's/,[^,]*,[^,]*$//' "$T/r1/realbench.csv" > "$T/a"
sed -E 's/,[^,]*,[^,]*$//' "$T/r2/realbench.csv" | cmp -s - "$T/a" || fail "two runs give different leaderboards (time columns aside)"
head -1 "$T/r1/realbench.csv" | grep -q ',cpu_s_per_1000,peak_mb$' || fail "the time columns are not the last two"
sed '/^## Cost/,$d' "$T/r1/realbench.md" > "$T/m1"
sed '/^## Cost/,$d' "$T/r2/realbench.md" | cmp -s - "$T/m1" || fail "two runs give different Markdown tables"
cmp -s "$T/r1/realbench_sets.csv" "$T/r2/realbench_sets.csv" || fail "set character differs between runs"
grep -q '^<table>' "$T/r1/realbench.html" || fail "no HTML table"
# every interval holds its point, and is a real interval inside (0, 1)
awk -F, 'NR > 1 && $4 == "ok" { if (!($6 <= $5 && $5 <= $7)) bad = 1; if ($5 > 0 && $5 < 1 && !($6 < $7)) bad = 1 }
    END { exit bad }' "$T/r1/realbench.csv" || fail "an interval misses its point"
# the interval is the ideal bootstrap: the 2.5 % and 97.5 % quantiles of
# Binomial(n, k/n) / n, recomputed here independently (Python's exact
# binomial coefficients) for every scored row
if command -v python3 > /dev/null 2>&1; then
    python3 - "$T/r1/realbench.csv" "$T/all/realbench.csv" <<'PY' || fail "an interval differs from the binomial quantiles"
import csv, sys
from math import comb
def q(n, p, a):
    c = 0.0
    for k in range(n + 1):
        c += comb(n, k) * p ** k * (1 - p) ** (n - k)
        if c >= a - 1e-12:
            return k / n
    return 1.0
bad = 0
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        if r["status"] != "ok":
            continue
        n = int(r["requests"]); p = float(r["exact"])
        k = round(p * n); p = k / n
        for col, a in (("exact_lo", 0.025), ("exact_hi", 0.975)):
            if abs(float(r[col]) - q(n, p, a)) > 1e-5:
                print("%s %s %s: %s %s, expected %.6f" % (r["set"], r["mode"], r["method"], col, r[col], q(n, p, a)))
                bad = 1
sys.exit(bad)
PY
fi
# the failure split and link accuracy: the oracle links every message
# right; every scored row's shares add up to 1; each equals its share
# recomputed from the run's own score file; abstained is empty exactly for
# the methods that write no confidence; the Markdown has the section
awk -F, 'NR > 1 && $3 == "oracle" && !($11 == 1 && $12 == 0 && $13 == 0 && $14 == "" && $15 == 1) { print; bad = 1 }
    END { exit bad }' "$T/r1/realbench.csv" || fail "the oracle does not link every message right"
awk -F, 'NR > 1 && $4 == "ok" { s = $11 + $12 + $13; if (s < 0.99999 || s > 1.00001) { print; bad = 1 } }
    END { exit bad }' "$T/r1/realbench.csv" || fail "a failure split does not add up to 1"
if command -v python3 > /dev/null 2>&1; then
    python3 - "$T/r1" <<'PY' || fail "a failure split or link accuracy differs from its score file"
import csv, sys
d = sys.argv[1]
bad = n = 0
for r in csv.DictReader(open(d + "/realbench.csv")):
    if r["status"] != "ok":
        continue
    tag = "%s.%s.%s" % (r["set"].replace("/", "_"), r["mode"], r["method"])
    s = next(csv.DictReader(open("%s/realbench/%s.score.csv" % (d, tag))))
    tot = sum(int(s[k]) for k in ("msgs_right", "msgs_wrong", "msgs_unattached"))
    want = {"linked_right": int(s["msgs_right"]) / tot, "other_request": int(s["msgs_wrong"]) / tot,
            "orphaned": int(s["msgs_unattached"]) / tot, "link_accuracy": float(s["link_accuracy"])}
    for k, v in want.items():
        n += 1
        if abs(float(r[k]) - v) > 1e-5:
            print("%s %s: %s, expected %.6f" % (tag, k, r[k], v)); bad = 1
    conf = s["coverage_p99"] != ""
    if (r["abstained"] != "") != conf or (conf and abs(float(r["abstained"]) - int(s["msgs_abstained"]) / tot) > 1e-5):
        print("%s abstained: '%s', confidences %s" % (tag, r["abstained"], conf)); bad = 1
sys.exit(bad or n < 20)
PY
fi
grep -q '^## How calls fail' "$T/r1/realbench.md" || fail "no failure split section in the Markdown"
grep -q '^| nesting (spans) | nezha/trainticket/construct_2023-01-29_08_50 | [0-9.]* \[[0-9.-]*\] | [0-9.]* | [0-9.]* | [0-9.]* | [0-9.]* | [0-9.]* |$' \
    "$T/r1/realbench.md" || fail "nesting's failure split row not in the Markdown"
grep -q '<th>linked right %</th>' "$T/r1/realbench.html" || fail "no failure split table in the HTML"

# Train Ticket calls an endpoint several times in one request: FCFS is n/a
# with its reason, convolution too (patterns only); no number for either
grep -q '^nezha/trainticket/construct_2023-01-29_08_50,spans,fcfs,na,,,,,,"an endpoint is called several times' \
    "$T/r1/realbench.csv" || fail "fcfs not n/a on Train Ticket: $(grep fcfs "$T/r1/realbench.csv")"
grep -q ',blackbox,convolution,na,,,,,,"finds path patterns' "$T/r1/realbench.csv" || fail "convolution not n/a"
grep -q '| fcfs (spans) | n/a <sup>' "$T/r1/realbench.md" || fail "fcfs n/a not in the Markdown"
awk -F, 'NR > 1 && $1 ~ /trainticket/ { rep = $9 } END { exit !(rep > 0) }' "$T/r1/realbench_sets.csv" ||
    fail "Train Ticket's repeated calls not counted"

# 3. an exec: command joins the leaderboard with one option
if command -v python3 > /dev/null 2>&1 && [ -f "$PB_ROOT/examples/fcfs.py" ]; then
    sh "$RB" --out "$T/x" --sets 'trainticket/construct' --algos mine \
        --exec "mine=python3 $PB_ROOT/examples/fcfs.py" > "$T/x.log" 2>&1 || { cat "$T/x.log"; fail "realbench --exec"; }
    [ "$(grep -c ',mine,' "$T/x/realbench.csv")" -eq 2 ] || fail "exec method not in both modes: $(cat "$T/x/realbench.csv")"
    awk -F, 'NR > 1 && $3 == "mine" && !($4 == "ok" && $5 != "" || $4 == "na" && $10 != "\"\"") { exit 1 }' \
        "$T/x/realbench.csv" || fail "exec row neither a number nor a reason"
fi
sh "$RB" --exec nonsense > /dev/null 2>&1; [ $? -eq 2 ] || fail "--exec without NAME=: expected exit 2"
echo "realbench ok"

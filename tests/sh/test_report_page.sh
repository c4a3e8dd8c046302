#!/bin/sh
# The report of a tiny run (run_all.sh --tiny: every figure, plots, report):
#   - the run exits 0 (no figure's timing or plot may fail it)
#   - every figure section has a verdict table (claim, method, measured,
#     verdict) right under its figure, and verdicts.md / verdicts.tsv exist
#   - no verdict says "agrees" for a series whose false-negative rate is
#     above 0.95 at every point (computed here from the .dat files), and
#     every false-negative series is named by some verdict row
#   - report.html (pandoc) has as many paragraphs as report.md, a <th>
#     header row for every table, right-aligned numeric columns, every image
#     embedded with alt text, and every image report.md names exists
# The checkers are also run on broken inputs, which they must reject.
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
for p in maketrace infer score skewer sniffer; do
    [ -x "$PB_BIN/$p" ] || { echo "SKIP: $PB_BIN/$p missing"; exit 77; }
done
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot missing"; exit 77; }
command -v pandoc >/dev/null 2>&1 || { echo "SKIP: pandoc missing (scripts/deps.sh installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
out="$tmp/out"
fail() { echo "FAIL: $*"; exit 1; }

PB_OUT="$out" sh experiments/run_all.sh --tiny -j 2 >"$tmp/log" 2>&1 || { tail -n 30 "$tmp/log"; fail "run_all.sh --tiny exited non-zero"; }
for f in report.md report.html verdicts.md verdicts.tsv; do [ -s "$out/$f" ] || fail "$f not written"; done

# --- every "## " section has a verdict table, before any quote of the paper
awk '/^## / { if (sec != "" && !vt) { print "no verdict table in: " sec; bad = 1 } sec = $0; vt = 0; q = 0; next }
     /^> / { q = 1 }
     /^\| claim \| method \| measured \| verdict \|$/ { if (q) { print "verdict table after the quote in: " sec; bad = 1 } vt = 1 }
     END { if (sec != "" && !vt) { print "no verdict table in: " sec; bad = 1 } exit bad }' "$out/report.md" ||
    fail "a section lacks its verdict table (or it is not first under the figure)"
n=$(grep -c '^## ' "$out/report.md")
[ "$n" -ge 8 ] || fail "only $n sections in report.md"

# --- saturation: no "agrees" on a series above 0.95 FN at every point
# sat_series DIR: the false-negative series files whose every mean is > 0.95
sat_series() {
    for f in "$1"/fig17_*-t0.dat "$1"/fig17_*-t6.dat "$1"/fig21_*-*.dat "$1"/fig22_*.dat; do
        [ -f "$f" ] || continue
        case "$f" in *_marks.dat|*_summary*) continue ;; esac
        awk '/^#/ { next } NF == 0 { exit } { n++; if ($3 + 0 <= 0.95) low = 1 } END { exit !(n > 0 && !low) }' "$f" &&
            basename "$f" .dat
    done
}
fn_series() {
    for f in "$1"/fig17_*-t0.dat "$1"/fig21_*-*.dat "$1"/fig22_*.dat; do
        [ -f "$f" ] || continue
        case "$f" in *_marks.dat) continue ;; esac
        basename "$f" .dat
    done
}
# check_sat DIR VERDICTS.TSV: fails (exit 1) on "agrees" for a saturated
# series, or an FN series no row names
check_sat() {
    sat_series "$1" >"$tmp/sat.txt"
    fn_series "$1" >"$tmp/fn.txt"
    awk -F'\t' -v satf="$tmp/sat.txt" -v fnf="$tmp/fn.txt" '
        BEGIN { while ((getline l < satf) > 0) sat[l] = 1; while ((getline l < fnf) > 0) fn[l] = 1 }
        NR == 1 { next }
        { k = split($7, s, " "); for (i = 1; i <= k; i++) { named[s[i]] = 1
              if ((s[i] in sat) && $5 ~ /^agrees/) { print "agrees on saturated series " s[i] ": " $0; bad = 1 } } }
        END { for (f in fn) if (!(f in named)) { print "no verdict row names " f; bad = 1 } exit bad }' "$2"
}
check_sat "$out" "$out/verdicts.tsv" || fail "a saturated method is said to agree, or a series has no verdict"
[ -s "$tmp/sat.txt" ] || fail "the tiny run has no saturated series (linking on the busy trace should be): the check tests nothing"
# the checker must catch a doctored verdict: make every row about a saturated series say agrees
awk -F'\t' -v OFS='\t' -v satf="$tmp/sat.txt" 'BEGIN { while ((getline l < satf) > 0) sat[l] = 1 }
    NR > 1 { k = split($7, s, " "); for (i = 1; i <= k; i++) if (s[i] in sat) $5 = "agrees" } { print }' \
    "$out/verdicts.tsv" >"$tmp/bad.tsv"
check_sat "$out" "$tmp/bad.tsv" >/dev/null && fail "the saturation check accepts 'agrees' on a saturated series"
# and the words themselves
grep -q 'saturated\*\* (about 100 % false negatives): says nothing about' "$out/report.md" || fail "no saturated wording"
grep -q 'no claim in the paper\*\*; shown for comparison' "$out/report.md" || fail "no 'no claim in the paper' wording"
grep -q 'exact (oracle)' "$out/report.md" || fail "the oracle is not shown exact"

# --- paragraphs: Markdown vs HTML
# md_paras FILE: paragraphs as pandoc makes them: runs of text lines, a
# blockquote run is one, an image alone is a figure (no <p>); headings,
# tables, fences, fenced divs, indented code and list items are not
md_paras() {
    awk 'function end() { if (inp && !img) n++; inp = 0; img = 0 }
        /^```/ { end(); fence = !fence; next } fence { next }
        /^[ \t]*$/ { end(); inq = 0; next }
        /^:::/ { end(); next }
        /^#/ { end(); next }
        /^\|/ { end(); next }
        /^    / && !inp { next }
        /^([-*+]|[0-9]+\.) / && !inp { next }
        /^> *$/ { end(); next }
        /^>/ { if (!inp) { inp = 1; img = 0 } next }
        /^!\[[^]]*\]\([^)]*\)$/ && !inp { inp = 1; img = 1; next }
        { if (!inp) { inp = 1; img = 0 } else img = 0 }
        END { end(); print n + 0 }' "$1"
}
html_paras() { grep -o '<p[ >]' "$1" | wc -l | tr -d ' '; }
pm=$(md_paras "$out/report.md"); ph=$(html_paras "$out/report.html")
[ "$pm" -gt 10 ] || fail "only $pm paragraphs counted in report.md"
[ "$pm" = "$ph" ] || fail "report.md has $pm paragraphs, report.html $ph"
# the counter must see a renderer that makes each wrapped line a paragraph
printf 'one paragraph\nwrapped over\nthree lines\n\n> a quote\n> on two lines\n' >"$tmp/p.md"
[ "$(md_paras "$tmp/p.md")" = 2 ] || fail "paragraph counter miscounts the sample"
printf '<p>one paragraph</p><p>wrapped over</p><p>three lines</p><blockquote><p>a quote on two lines</p></blockquote>\n' >"$tmp/p.html"
[ "$(html_paras "$tmp/p.html")" != 2 ] || fail "paragraph check cannot tell a line-per-paragraph page"

# --- tables: a <th> header row for each, numbers right-aligned
nt=$(grep -c '^|[-|: ]*---[-|: ]*|$' "$out/report.md")
nh=$(grep -o '<thead>' "$out/report.html" | wc -l | tr -d ' ')
[ "$nt" = "$nh" ] || fail "report.md has $nt tables, report.html $nh header rows"
grep -q '<th[^>]*>claim</th>' "$out/report.html" || fail "verdict tables have no <th> header"
grep -q '<td style="text-align: right;">' "$out/report.html" || fail "no right-aligned number column"
grep -q '<strong>agrees</strong>\|<strong>differs</strong>\|<strong>saturated</strong>' "$out/report.html" || fail "no emphasis inside table cells"

# --- images: every one named exists, each embedded with alt text
ni=0
for i in $(sed -n 's/^!\[[^]]*\](\([^)]*\))$/\1/p' "$out/report.md"); do
    ni=$((ni + 1))
    [ -s "$out/$i" ] || fail "report.md names $i, which does not exist"
done
[ "$ni" -ge 8 ] || fail "report.md embeds only $ni images"
hi=$(grep -o '<img [^>]*>' "$out/report.html" | wc -l | tr -d ' ')
[ "$hi" = "$ni" ] || fail "report.md has $ni images, report.html $hi"
grep -o '<img [^>]*>' "$out/report.html" | grep -v 'src="data:image/png;base64,' >/dev/null && fail "an image is not embedded"
grep -o '<img [^>]*>' "$out/report.html" | grep -v 'alt="[^"]\{12,\}"' >/dev/null && fail "an image has no alt text"
grep -q 'break-after: avoid' "$out/report.html" || fail "headings are not kept with their figure"
grep -q 'pre { white-space: pre-wrap' "$out/report.html" || fail "long <pre> lines are not wrapped"

# --- Table 1: CPU seconds are never 0 (a 0 cannot go on the log axis)
awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next } { if (!($(c["cpu_s"]) + 0 > 0)) bad = 1 } END { exit bad }' "$out/table1.dat" ||
    fail "table1: a CPU time of 0"
grep -q 'not run' "$out/table1.md" || fail "table1.md does not mark the runs not done"
echo ok

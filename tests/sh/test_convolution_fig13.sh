#!/bin/sh
# Figure 13 of seed 000: on the added-delay multi-tier trace the extra
# 200 ms at WS2 (between its call to AUTH and its call to AP1/AP2) shows on
# the WS2 -> AP edge that follows AUTH -> WS2, within one quantum; WS1, and
# WS2 in the normal trace, show the plain 50 ms call delay there.
set -u
B=${PB_BIN:?} R=${PB_ROOT:?}
for f in "$R/maketrace/configs/multitier.conf" "$R/maketrace/configs/multitier-delay.conf"; do
    [ -f "$f" ] || { echo "no $f"; exit 77; }
done
[ -x "$B/maketrace" ] || { echo "no maketrace"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# mean node latency at position 3 (the second WS visit: the delay before
# it calls AP) over the patterns C>WSn[AUTH[WSn[AP..., weighted by count
lat() { # result-file ws
    awk -F, -v ws="$2" '
        /^#/ || /^rank,/ { next }
        {
            p = $2; gsub(/"/, "", p)
            if (p !~ ("^C[12]>" ws "\\[AUTH\\[" ws "\\[AP[12]\\[")) next
            n = split($8, l, ";"); if (n < 4 || l[4] == "") next
            s += $3 * l[4]; w += $3
        }
        END { if (w < 100) print "none"; else printf "%.6f\n", s / w }' "$1"
}

for conf in multitier multitier-delay; do
    "$B/maketrace" "$R/maketrace/configs/$conf.conf" -D duration=100s \
        -o "$tmp/$conf.csv" || { echo "maketrace $conf failed"; exit 1; }
    "$B/infer" --algo convolution -o "$tmp/$conf.r" "$tmp/$conf.csv" ||
        { echo "infer failed on $conf"; exit 1; }
done
n1=$(lat "$tmp/multitier.r" WS1) n2=$(lat "$tmp/multitier.r" WS2)
d1=$(lat "$tmp/multitier-delay.r" WS1) d2=$(lat "$tmp/multitier-delay.r" WS2)
echo "normal: WS1 $n1 WS2 $n2; added delay: WS1 $d1 WS2 $d2"
for v in "$n1" "$n2" "$d1" "$d2"; do
    [ "$v" != none ] || { echo "pattern C>WS[AUTH[WS[AP... not found"; exit 1; }
done
# mu = 10 ms: within one quantum
awk -v n1="$n1" -v n2="$n2" -v d1="$d1" -v d2="$d2" 'function ok(x, want) {
        return x >= want - 0.010 && x <= want + 0.010 }
    BEGIN { exit !(ok(n1, 0.05) && ok(n2, 0.05) && ok(d1, 0.05) && ok(d2, 0.25) &&
                   ok(d2 - d1, 0.20)) }' || { echo "added delay not where expected"; exit 1; }
# the report carries it too: an edge WS2 -> AP right under AUTH -> WS2
# with 0.25 s as its most frequent delay
"$B/infer" --algo convolution --report "$tmp/rep.txt" -o /dev/null "$tmp/multitier-delay.csv" || exit 1
awk '/AUTH -> WS2 / { i = index($0, "AUTH"); want = i + 2; next }
     want && index($0, "WS2 -> AP") == want && /delays=0\.25/ { found = 1 }
     END { exit !found }' "$tmp/rep.txt" || { echo "report lacks WS2 -> AP at 0.25 s"; exit 1; }
exit 0

#!/bin/sh
# Stripping the truth columns and renaming the nodes change nothing in the
# convolution result: same patterns (names mapped back), counts and
# latencies, same graph size.
set -u
B=${PB_BIN:?} R=${PB_ROOT:?}
conf="$R/maketrace/configs/multitier.conf"
[ -x "$B/maketrace" ] && [ -f "$conf" ] || { echo "no maketrace"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$B/maketrace" "$conf" -D duration=60s -o "$tmp/t.csv" || exit 1

# drop the columns named path and cause
awk -F, 'BEGIN { OFS = "," }
    /^#/ { print; next }
    !hdr { hdr = 1; for (i = 1; i <= NF; i++) if ($i == "path" || $i == "cause") drop[i] = 1 }
    { s = ""; sep = ""
      for (i = 1; i <= NF; i++) if (!(i in drop)) { s = s sep $i; sep = "," }
      print s }' "$tmp/t.csv" > "$tmp/strip.csv"
if head -20 "$tmp/strip.csv" | grep -q 'path\|cause'; then echo "strip failed"; exit 1; fi

# rename every node to x<NN>_, numbered against the names' order so the
# sort order changes; the map goes back afterwards
awk -F, '/^#/ { next } !hdr { hdr = 1; for (i = 1; i <= NF; i++) { if ($i == "src") s = i; if ($i == "dst") d = i }; next }
    { n[$s] = 1; n[$d] = 1 }
    END { for (k in n) print k }' "$tmp/t.csv" | sort -r | awk '{ printf "%s x%02d_\n", $1, NR }' > "$tmp/map"
awk -F, -v map="$tmp/map" 'BEGIN { OFS = ","; while ((getline l < map) > 0) { split(l, a, " "); m[a[1]] = a[2] } }
    /^#/ { print; next }
    !hdr { hdr = 1; for (i = 1; i <= NF; i++) { if ($i == "src") s = i; if ($i == "dst") d = i }; print; next }
    { $s = m[$s]; $d = m[$d]; print }' "$tmp/t.csv" > "$tmp/ren.csv"

for t in t strip ren; do
    "$B/infer" --algo convolution -o "$tmp/$t.r" "$tmp/$t.csv" || { echo "infer failed on $t"; exit 1; }
done

# the pattern table without the rank (ties may rank differently once the
# names sort differently), names mapped back, sorted
table() { # result [map]
    awk -F, -v map="${2:-}" 'BEGIN { if (map != "") while ((getline l < map) > 0) { split(l, a, " "); back[a[2]] = a[1] } }
        /^#/ || /^rank,/ { next }
        { for (k in back) gsub(k, back[k], $2); s = $2
          for (i = 3; i <= NF; i++) s = s "," $i
          print s }' "$1" | sort
}
table "$tmp/t.r" > "$tmp/t.tab"
table "$tmp/strip.r" > "$tmp/strip.tab"
table "$tmp/ren.r" "$tmp/map" > "$tmp/ren.tab"
[ -s "$tmp/t.tab" ] || { echo "no patterns at all"; exit 1; }
grep -q '^"C[12]>WS[12]\[AUTH\[WS[12]\[' "$tmp/t.tab" || { echo "expected patterns missing"; exit 1; }
cmp "$tmp/t.tab" "$tmp/strip.tab" || { echo "stripping truth changed the result"; diff "$tmp/t.tab" "$tmp/strip.tab" | head; exit 1; }
cmp "$tmp/t.tab" "$tmp/ren.tab" || { echo "renaming nodes changed the result"; diff "$tmp/t.tab" "$tmp/ren.tab" | head; exit 1; }
# the same graph: the counters line is identical
for t in strip ren; do
    a=$(grep '^# vertices=' "$tmp/t.r") b=$(grep '^# vertices=' "$tmp/$t.r")
    [ -n "$a" ] && [ "$a" = "$b" ] || { echo "graph differs ($t): $a / $b"; exit 1; }
done
exit 0

#!/bin/sh
# Properties of infer --algo linking, end to end:
#  - same input twice gives a byte-identical result;
#  - stripping the truth columns changes nothing;
#  - renaming every node changes nothing but the names;
#  - a constant clock offset on one node (bin/skewer) changes no pattern,
#    count, score or node delay, and is what the offset estimate reports;
#  - a trace without recv_ts runs (every message spontaneous);
#  - untraced=NODES equals blanking the receive times at those nodes;
#  - bad parameters get a clear error and exit status 2.
set -u
B="$PB_BIN"
[ -x "$B/maketrace" ] && [ -x "$B/infer" ] || exit 77
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

"$B/maketrace" "$PB_ROOT/maketrace/configs/multitier.conf" -D duration=20s \
    -D net_delay=2ms -D net_sd=500us -o "$d/t.csv" || fail maketrace
# results without the lines naming the input file and the CPU times
body() { grep -v -e '^# algo=' -e '^# cpu_' -e '^# fingerprint:' "$1"; }

"$B/infer" --algo linking "$d/t.csv" > "$d/r1" || fail infer
"$B/infer" --algo linking "$d/t.csv" > "$d/r1b" || fail infer
body "$d/r1" > "$d/b1"
body "$d/r1b" | cmp -s - "$d/b1" || fail "two runs differ"
grep -q '^1,"C[12]>WS' "$d/r1" || fail "no client pattern ranked first"
grep -q '^# table=assignment' "$d/r1" || fail "no assignment table"

# strip truth: drop the path and cause columns by name
awk -F, 'BEGIN { OFS = "," }
    /^#/ { print; next }
    !h { for (i = 1; i <= NF; i++) if ($i != "path" && $i != "cause") keep[++n] = i; h = 1 }
    { s = $(keep[1]); for (j = 2; j <= n; j++) s = s OFS $(keep[j]); print s }' \
    "$d/t.csv" > "$d/s.csv"
grep -q path "$d/s.csv" && head -3 "$d/s.csv" | grep -q ',path' && fail "strip"
"$B/infer" --algo linking "$d/s.csv" > "$d/r2" || fail "infer stripped"
body "$d/r2" | cmp -s - "$d/b1" || fail "stripping truth changed the result"

# rename: prefix every node name (keeps their byte order)
awk -F, 'BEGIN { OFS = "," }
    /^#/ { print; next }
    !h { for (i = 1; i <= NF; i++) { if ($i == "src") s = i; if ($i == "dst") t = i } h = 1; print; next }
    { $s = "zq" $s; $t = "zq" $t; print }' "$d/t.csv" > "$d/n.csv"
"$B/infer" --algo linking "$d/n.csv" > "$d/r3" || fail "infer renamed"
grep -q 'zqWS1' "$d/r3" || fail "renamed nodes not in the result"
body "$d/r3" | sed 's/zq//g' | cmp -s - "$d/b1" || fail "renaming changed the result"

# clock offset of +0.5 s on WS1
if [ -x "$B/skewer" ]; then
    "$B/skewer" -n WS1=+500ms "$d/t.csv" > "$d/k.csv" || fail skewer
    "$B/infer" --algo linking "$d/k.csv" > "$d/r4" || fail "infer skewed"
    # pattern, count, score (to 1e-6), node latencies (to 1 ns)
    pat() {
        awk -F'"' '/^# table=patterns/ { p = 1; next } /^# table=assignment/ { p = 0 }
            p && !/^rank/ { split($3, a, ","); print $2, a[2], a[3], a[7] }' "$1" | sort
    }
    pat "$d/r1" > "$d/p1"
    pat "$d/r4" > "$d/p4"
    [ -s "$d/p1" ] || fail "no patterns"
    paste -d' ' "$d/p1" "$d/p4" | awk '
        { if ($1 != $5 || $2 != $6) { print "pattern/count: " $0; bad = 1; exit }
          if (($3 - $7) > 1e-6 * (1 + $3) || ($7 - $3) > 1e-6 * (1 + $3)) { print "score: " $0; bad = 1; exit }
          n = split($4, x, ";"); split($8, y, ";")
          for (i = 1; i <= n; i++) if (x[i] - y[i] > 1e-9 || y[i] - x[i] > 1e-9) { print "node delay: " $0; bad = 1; exit } }
        END { exit bad }' || fail "a clock offset changed patterns or node delays"
    # every pair with WS1: +0.5 s (WS1 as dst) or -0.5 s (as src), to the
    # 0.1 ms the random network delays allow
    awk '/^# link_clock_offset=/ && /WS1/ {
            split($2, a, "="); split($3, o, "="); want = (a[2] ~ /^WS1>/) ? -0.5 : 0.5
            if (o[2] - want > 1e-4 || want - o[2] > 1e-4) { print "offset: " $0; exit 1 }
            n++ }
        END { exit n < 3 }' "$d/r4" || fail "offset estimate is not the 0.5 s applied"
fi

# no recv_ts at all: runs, every message is its own instance
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
    !h { for (i = 1; i <= NF; i++) if ($i == "recv_ts") c = i; h = 1 }
    { s = ""; for (i = 1; i <= NF; i++) if (i != c) s = s (s == "" ? "" : OFS) $i; print s }' \
    "$d/t.csv" > "$d/nr.csv"
"$B/infer" --algo linking "$d/nr.csv" > "$d/r5" || fail "infer without recv_ts"
grep -q 'link_no_recv_ts=[1-9]' "$d/r5" || fail "nil receive stamps not counted"

# untraced=C1,C2 is the same as a trace without receive times at C1 and C2
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
    !h { for (i = 1; i <= NF; i++) { if ($i == "recv_ts") c = i; if ($i == "dst") t = i } h = 1; print; next }
    $t == "C1" || $t == "C2" { $c = "" } { print }' "$d/t.csv" > "$d/u.csv"
"$B/infer" --algo linking "$d/u.csv" > "$d/r6" || fail "infer blanked"
"$B/infer" --algo linking -s untraced=C1,C2 "$d/t.csv" > "$d/r7" || fail "infer untraced"
body "$d/r6" | grep -v '^# params' > "$d/b6"
body "$d/r7" | grep -v '^# params' | cmp -s - "$d/b6" || fail "untraced= differs from blank receive times"
cmp -s "$d/b6" "$d/b1" && fail "untraced changed nothing"
"$B/infer" --algo linking -s untraced=C1,nosuch "$d/t.csv" > /dev/null 2> "$d/err" && fail "unknown untraced node accepted"
grep -q 'nosuch' "$d/err" || fail "unknown untraced node not named"

# bad parameters: exit 2 with a message naming the option
for bad in k=99 k=-1 x=0 band=0.7 y=-1 max_tree=0 nosuch=1; do
    "$B/infer" --algo linking -s "$bad" "$d/t.csv" > /dev/null 2> "$d/err"
    rc=$?
    [ $rc -eq 2 ] || fail "-s $bad: exit $rc"
    name=${bad%%=*}
    grep -q "$name" "$d/err" || fail "-s $bad: message does not name the option"
done
exit 0

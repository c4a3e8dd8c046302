#!/bin/sh
# skewer end to end: zero clocks are the identity, the hand-worked
# three-node example, skew then de-skew restores every row byte for byte
# (with drift), the estimator recovers known offsets, bad specs give clear
# errors naming the argument.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
S="$PB_BIN/skewer"
[ -x "$S" ] || { echo "no $S"; exit 77; }
D="$PB_ROOT/tests/data/perturb"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
rows() { grep -v '^#' "$1"; }

# 1. zero clocks = identity (rows and input metadata; one line added)
"$S" -n B=0 -n 'C=0ms,0ppm' "$D/three.csv" >"$tmp/z" || fail "zero skew failed"
grep -v '^#' "$D/three.csv" >"$tmp/orig"
rows "$tmp/z" | cmp -s - "$tmp/orig" || fail "zero offsets changed rows"
grep -q '^# generator=hand' "$tmp/z" || fail "input metadata not kept"
grep -q '^# skewer: skew B=+0s C=+0s ref=' "$tmp/z" ||
    fail "no skewer metadata line"
"$S" "$D/three.csv" | rows - | cmp -s - "$tmp/orig" || fail "empty spec changed rows"

# 2. hand-worked: B +5 ms, C -3 ms (three-skewed.csv worked out by hand:
#    ts moves by the sender's clock, recv_ts by the receiver's, rows re-sorted)
"$S" -n B=+5ms -n C=-3ms "$D/three.csv" >"$tmp/s" || fail "skew failed"
diff "$tmp/s" "$D/three-skewed.csv" || fail "three-node example differs from the hand-worked file"
# the same from stdin and from a spec file
printf '# clocks\nB = +5ms\n\nC=-3ms\n' >"$tmp/spec"
"$S" -f "$tmp/spec" <"$D/three.csv" | rows - >"$tmp/s2"
rows "$D/three-skewed.csv" | cmp -s - "$tmp/s2" || fail "spec file / stdin differ"

# 3. skew then de-skew = identity, with offsets and drift (positive and
#    negative drift; ref far from the data so drift matters)
for spec in "-n B=+5ms -n C=-3ms" \
            "-n A=+1s,+50ppm -n B=-0.5ms,+3.25ppm --ref 900s" \
            "-n B=+20ms,-40ppm -n *=+7us,+800ppb --ref -100s"; do
    # shellcheck disable=SC2086
    "$S" $spec "$D/three.csv" >"$tmp/k" 2>"$tmp/err" || fail "skew $spec failed"
    # shellcheck disable=SC2086
    "$S" --deskew $spec "$tmp/k" >"$tmp/b" || fail "deskew $spec failed"
    if grep -q 'repeats a nanosecond' "$tmp/err"; then
        fail "unexpected non-invertible timestamps for $spec"
    fi
    rows "$tmp/b" | cmp -s - "$tmp/orig" || fail "skew+deskew is not the identity for $spec"
    [ "$(grep -c '^# skewer:' "$tmp/b")" -eq 2 ] || fail "metadata lines not kept"
done
# random clocks: same seed same output; --deskew with the same arguments,
# or with the printed spec, inverts
"$S" --random-offset uniform:2ms --random-drift uniform:40ppm -s 4 --print-spec "$tmp/ps" \
    "$D/three.csv" >"$tmp/r1" || fail "random skew failed"
"$S" --random-offset uniform:2ms --random-drift uniform:40ppm -s 4 "$D/three.csv" >"$tmp/r2"
cmp -s "$tmp/r1" "$tmp/r2" || fail "same seed, different output"
"$S" --random-offset uniform:2ms -s 5 "$D/three.csv" | cmp -s - "$tmp/r1" && fail "seed ignored"
[ "$(grep -c '=' "$tmp/ps")" -eq 3 ] || fail "--print-spec should list 3 nodes"
"$S" -d -f "$tmp/ps" "$tmp/r1" | rows - | cmp -s - "$tmp/orig" || fail "printed spec does not invert"
"$S" -d --random-offset uniform:2ms --random-drift uniform:40ppm -s 4 "$tmp/r1" | rows - |
    cmp -s - "$tmp/orig" || fail "random de-skew does not invert"

# 4. a larger trace through skew/de-skew, if maketrace is there
if [ -x "$PB_BIN/maketrace" ] && [ -f "$PB_ROOT/maketrace/configs/multitier.conf" ]; then
    "$PB_BIN/maketrace" -D duration=60s "$PB_ROOT/maketrace/configs/multitier.conf" >"$tmp/mt" ||
        fail "maketrace failed"
    "$S" -n WS2=+30ms,+50ppm -n AP1=+2ms,+20ppm -n 'DB=-0.25ms' --allow-negative "$tmp/mt" |
        "$S" -d -n WS2=+30ms,+50ppm -n AP1=+2ms,+20ppm -n 'DB=-0.25ms' --allow-negative >"$tmp/mtb" ||
        fail "multitier skew/deskew failed"
    rows "$tmp/mt" >"$tmp/mtr"
    rows "$tmp/mtb" | cmp -s - "$tmp/mtr" || fail "multitier skew+deskew is not the identity"
fi

# 5. estimate: known offsets on a trace with symmetric delays (three.csv
#    has 1 ms each way), printed as a spec that --deskew reads
"$S" --estimate --ref-node A "$tmp/s" >"$tmp/est" || fail "estimate failed"
grep -q '^A=+0s$' "$tmp/est" || fail "estimate: A"
grep -q '^B=+5ms$' "$tmp/est" || fail "estimate: B should be +5 ms"
grep -q '^C=-3ms$' "$tmp/est" || fail "estimate: C should be -3 ms"
"$S" -d -f "$tmp/est" "$tmp/s" | rows - | cmp -s - "$tmp/orig" || fail "deskew by estimate"

# 6. errors name the argument; an unknown node is only a warning
"$S" -n B=+5xs "$D/three.csv" >/dev/null 2>"$tmp/e" && fail "bad duration accepted"
grep -q -- '--node' "$tmp/e" && grep -q 'offset "+5xs"' "$tmp/e" || fail "bad duration message: $(cat "$tmp/e")"
"$S" -n B=+5ms,fast "$D/three.csv" >/dev/null 2>"$tmp/e" && fail "bad drift accepted"
grep -q 'drift "fast"' "$tmp/e" || fail "bad drift message: $(cat "$tmp/e")"
"$S" -n B "$D/three.csv" >/dev/null 2>"$tmp/e" && fail "spec without = accepted"
grep -q 'NODE=OFFSET' "$tmp/e" || fail "missing = message"
"$S" --random-offset gauss:1ms "$D/three.csv" >/dev/null 2>"$tmp/e" && fail "bad distribution accepted"
grep -q -- '--random-offset' "$tmp/e" || fail "bad distribution message"
"$S" -n B=1ms -n B=2ms "$D/three.csv" >/dev/null 2>"$tmp/e" && fail "duplicate node accepted"
printf 'B=+1ms\nC=+1msx\n' >"$tmp/badspec"
"$S" -f "$tmp/badspec" "$D/three.csv" >/dev/null 2>"$tmp/e" && fail "bad spec file accepted"
grep -q "badspec:2:" "$tmp/e" || fail "spec file error should name file:line: $(cat "$tmp/e")"
"$S" -n NOSUCH=+1ms "$D/three.csv" >"$tmp/w" 2>"$tmp/e" || fail "unknown node should not be an error"
grep -q 'warning: node "NOSUCH"' "$tmp/e" || fail "unknown node warning missing"
rows "$tmp/w" | cmp -s - "$tmp/orig" || fail "unknown node changed rows"
"$S" -n A=-2s "$D/three.csv" >/dev/null 2>"$tmp/e" && fail "negative timestamps accepted"
grep -q ':3: ts 1.000000000 of node A becomes negative' "$tmp/e" || fail "negative message: $(cat "$tmp/e")"
"$S" -n A=-2s --allow-negative "$D/three.csv" >/dev/null || fail "--allow-negative"
"$S" -n B=+1s --max-window 2 "$D/three.csv" >/dev/null 2>"$tmp/e" && fail "window overflow accepted"
grep -q 're-sort window full' "$tmp/e" || fail "window message: $(cat "$tmp/e")"
printf 'id,ts,src,dst\n1,2.0,A,B\n2,1.0,A,B\n' >"$tmp/unsorted"
"$S" "$tmp/unsorted" >/dev/null 2>"$tmp/e" && fail "unsorted input accepted"
grep -q ':3:' "$tmp/e" || fail "unsorted message should name line 3"
exit 0

#!/bin/sh
# infer --algo convolution from the command line: parameters listed in
# --help, bad values and bad traces refused with a clear message (never a
# crash), the Project 5 whitespace format read, report and dot written.
set -u
B=${PB_BIN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

"$B/infer" --help > "$tmp/help" 2>&1 || fail "--help"
for o in mu N S v root min_count max_depth filter_count filter_depth \
         filter_cycle filter_negative filter_chance lag_bound mode; do
    grep -q "^    $o " "$tmp/help" || fail "--help does not list $o"
done

# a small trace: A>B>C>B>A at random gaps of 50-250 ms (a Lehmer generator,
# exact in awk's doubles), in the P5 format: timestamp op sender rcvr ID
awk 'BEGIN { x = 42; t = 1; for (i = 0; i < 200; i++) { x = (x * 16807) % 2147483647; t += 0.05 + 0.2 * x / 2147483647
        printf "%.6f CALL_SENT A B %d\n", t, 4 * i
        printf "%.6f CALL_SENT B C %d\n", t + 0.020, 4 * i + 1
        printf "%.6f RET_SENT C B %d\n", t + 0.050, 4 * i + 1
        printf "%.6f RET_SENT B A %d\n", t + 0.055, 4 * i } }' | sort -n > "$tmp/p5.txt"
"$B/infer" --algo convolution -s mu=5ms --report "$tmp/rep" --dot "$tmp/dot" \
    -o "$tmp/r" "$tmp/p5.txt" 2> "$tmp/err" || { cat "$tmp/err"; fail "P5 trace"; }
grep -q '^# algo=convolution view=path' "$tmp/r" || fail "result header"
grep -q '"A>B\[C\[B\[A\]\]\]",200,' "$tmp/r" || fail "chain A>B>C>B>A x200 missing"
grep -q '^  B -> C  count=200  delays=0.020000000(200)$' "$tmp/rep" || fail "report edge"
grep -q '^digraph convolution {' "$tmp/dot" || fail "dot"
grep -q '^# table=assignment' "$tmp/r" && fail "convolution ascribes no messages"

# bad parameter values: usage error, exit 2, message names the option
for s in mu=-1ms mu=fast N=x min_count=0 max_depth=0 filter_cycle=maybe nosuch=1; do
    "$B/infer" --algo convolution -s "$s" "$tmp/p5.txt" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "-s $s: exit $rc, expected 2"
    [ -s "$tmp/err" ] || fail "-s $s: no message"
done
# values only the algorithm can judge: exit 1 with a message
for s in S=5 v=soon lag_bound=-1s mode=fast root=Nobody; do
    "$B/infer" --algo convolution -s "$s" "$tmp/p5.txt" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 1 ] || fail "-s $s: exit $rc, expected 1"
    name=${s%%=*}
    grep -q "$name" "$tmp/err" || fail "-s $s: message does not name $name: $(cat "$tmp/err")"
done
# an exact-mode FFT that would not fit: refused, not attempted
"$B/infer" --algo convolution -s mu=1ns -s mode=exact "$tmp/p5.txt" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "blocked" "$tmp/err" || fail "huge exact FFT: $(cat "$tmp/err")"
# a broken trace
printf 'id,ts,src,dst\n1,abc,A,B\n' > "$tmp/bad.csv"
"$B/infer" --algo convolution "$tmp/bad.csv" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && [ -s "$tmp/err" ] || fail "bad trace"
exit 0

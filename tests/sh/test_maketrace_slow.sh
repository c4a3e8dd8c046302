#!/bin/sh
# maketrace `service NODE slow=S`: a per-request slowdown shared by every
# delay a served call's block draws at NODE (hand-worked ratios on delays
# without spread), the spread of its log, slow=0 and configs without it
# byte-identical to the same config without the attribute, the -s
# override, the metadata, and the values that must be rejected.
set -u
MT="$PB_BIN/maketrace"
[ -x "$MT" ] || { echo "no $MT"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# B's block: the call to C 0.1 ms after B received the request, B's
# return 0.2 ms after C's return: both times the request's own factor f,
# so for every request (return - C's return) = 2 (call C - arrival), to
# the rounding of two whole nanoseconds; C's own delay is not slowed (0.3 ms).
cat > "$tmp/s.conf" <<'C'
seed = 3
duration = 2s
instances = 2
think = 1ms..2ms
call_delay = 0.05ms,0
ret_delay = 0.05ms,0
service B slow=0.5
tracelet req from client {
  call B ret=0.2ms,0 {
    call C delay=0.1ms,0 ret=0.3ms,0
  }
}
C
"$MT" "$tmp/s.conf" > "$tmp/s.csv" || fail "s.conf exit $?"
grep -q '^# params:.* B\.slow=0\.5$' "$tmp/s.csv" || fail "no B.slow=0.5 in the params line"
awk -F, '/^#/ || $1 == "id" { next }
    { t[$1] = $2; r[$1] = $3; ty[$1] = $6; src[$1] = $4; dst[$1] = $5; ca[$1] = $9 }
    END {
        for (i in t) {
            if (ty[i] != "return" || src[i] != "B") continue
            cr = ca[i]                     # C return received by B
            cc = ca[cr]                    # B -> C call
            ar = ca[cc]                    # client -> B call
            d1 = (t[cc] - r[ar]) * 1e9; d2 = (t[i] - r[cr]) * 1e9; dc = (t[cr] - r[cc]) * 1e9
            if (d2 - 2 * d1 > 2.5 || 2 * d1 - d2 > 2.5) { printf "ratio %s: %.0f %.0f\n", i, d1, d2; bad++ }
            if (dc < 299999 || dc > 300001) { printf "C slowed %s: %.0f\n", i, dc; bad++ }
            l = log(d1 / 1e5); n++; s += l; ss += l * l
        }
        sd = sqrt(ss / n - (s / n) ^ 2)
        printf "requests=%d sd_log=%.3f\n", n, sd
        if (n < 500 || sd < 0.45 || sd > 0.55 || bad) exit 1
    }' "$tmp/s.csv" > "$tmp/s.out" || fail "slowdown not shared as drawn: $(tail -3 "$tmp/s.out")"

# slow=0 (in the file or by -s) draws nothing: the trace of the config
# without the attribute, byte for byte (a service line needs workers or a
# model to exist without slow=, so compare with workers=1000000)
sed 's/slow=0.5/workers=1000000/' "$tmp/s.conf" > "$tmp/w.conf"
sed 's/slow=0.5/workers=1000000 slow=0/' "$tmp/s.conf" > "$tmp/w0.conf"
"$MT" "$tmp/w.conf" | sed 1d > "$tmp/w.csv" || fail "w.conf"
"$MT" "$tmp/w0.conf" | sed 1d > "$tmp/w0.csv" || fail "w0.conf"
cmp -s "$tmp/w.csv" "$tmp/w0.csv" || fail "slow=0 changed the trace"
"$MT" "$tmp/s.conf" -s B.workers=1000000 -s B.slow=0 | sed 1d > "$tmp/w1.csv" || fail "-s B.slow=0"
cmp -s "$tmp/w.csv" "$tmp/w1.csv" || fail "-s B.slow=0 changed the trace"
# -s overrides the file
"$MT" "$tmp/s.conf" -s B.slow=1 | grep -q '^# params:.* B\.slow=1$' || fail "-s B.slow=1 not taken"
# deterministic
"$MT" "$tmp/s.conf" > "$tmp/s2.csv"; cmp -s "$tmp/s.csv" "$tmp/s2.csv" || fail "not deterministic"

# rejected, with the line and what was expected
for v in -1 abc 4 0.5x; do
    sed "s/slow=0.5/slow=$v/" "$tmp/s.conf" > "$tmp/b.conf"
    "$MT" "$tmp/b.conf" > /dev/null 2> "$tmp/err" && fail "slow=$v accepted"
    grep -q 'b.conf:7:.*slow=S with S the SD of the log slowdown in 0..3' "$tmp/err" ||
        fail "slow=$v: $(cat "$tmp/err")"
done
"$MT" "$tmp/s.conf" -s B.slow=-2 > /dev/null 2> "$tmp/err" && fail "-s B.slow=-2 accepted"
grep -q 'B.slow=-2: expected slow=S' "$tmp/err" || fail "-s B.slow=-2: $(cat "$tmp/err")"
echo "ok: $(cat "$tmp/s.out")"

#!/bin/sh
# skewer --estimate on a real trace: the DeathStarBench hotel traces at
# load 100 (data/), imported with importtrace.  The frontend and
# search hosts' clocks differ by about 1.5 ms; de-skewing by the estimate
# and estimating again gives zero everywhere.  Skips without the data,
# importtrace or an xz-capable tar.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
S="$PB_BIN/skewer"
I="$PB_BIN/importtrace"
data="$PB_ROOT/data/deathstarbench-hotel/hotel_load100.tar.xz"
[ -x "$S" ] && [ -x "$I" ] && [ -f "$data" ] || { echo "no importtrace or data"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
tar -xJf "$data" -C "$tmp" 2>/dev/null || { echo "cannot unpack $data"; exit 77; }
"$I" -q "$tmp/hotel_load100" -o "$tmp/h.csv" || fail "importtrace failed"
"$S" --estimate --ref-node frontend "$tmp/h.csv" >"$tmp/est" || fail "estimate failed"
off=$(sed -n 's/^search=\([-+0-9.]*\)ms$/\1/p' "$tmp/est")
[ -n "$off" ] || fail "no estimate for search: $(cat "$tmp/est")"
awk -v o="$off" 'BEGIN { a = o < 0 ? -o : o; exit !(a >= 1.2 && a <= 1.9) }' ||
    fail "frontend vs search offset $off ms, expected about 1.5 ms"
"$S" --deskew -f "$tmp/est" "$tmp/h.csv" >"$tmp/d.csv" || fail "deskew by the estimate failed"
"$S" --estimate --ref-node frontend "$tmp/d.csv" >"$tmp/est2" || fail "second estimate failed"
grep -v '^#' "$tmp/est2" | grep -v '=+0s$' && fail "after de-skewing, offsets should be 0"
[ "$(grep -vc '^#' "$tmp/est2")" -ge 6 ] || fail "too few nodes estimated"
exit 0

#!/bin/sh
# The precise tracers on maketrace's execution and connection models
# (docs/maketrace.md, "Threads and connections"; skipped where maketrace
# has no models).  Properties of issue 23:
# - on every config whose immediacy (maketrace --stats) is 1, borderpatrol
#   by thread is exact;
# - with pool threads and no hand-off (a dispatcher allowed), vpath's paper
#   variant is exact at every load;
# - vpath's paper variant is never silently wrong: every request it gets
#   wrong has a message in an instance it flagged.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in maketrace infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
C="$PB_ROOT/maketrace/configs"
"$PB_BIN/maketrace" --help 2>&1 | grep -q 'observed' || { echo "maketrace has no execution models"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
field() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' "$2"; }
exact() {
    # shellcheck disable=SC2086
    "$PB_BIN/infer" --algo $1 --report "$tmp/rep" -o "$tmp/r.res" "$tmp/t.csv" 2>/dev/null || fail "$name: infer $1"
    "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/r.res" > "$tmp/r.score" || fail "$name: score $1"
    field exact_accuracy "$tmp/r.score"
}
# name | paper must be exact (1/0) | config and settings
while IFS='|' read -r name paper_exact conf sets; do
    [ -n "$name" ] || continue
    [ -f "$C/$conf" ] || { echo "no $conf: skipped"; continue; }
    # shellcheck disable=SC2086
    "$PB_BIN/maketrace" "$C/$conf" $sets -o "$tmp/t.csv" --stats 2> "$tmp/stats" || fail "$name: maketrace"
    imm=$(awk '$1 == "immediacy" { print $2 }' "$tmp/stats")
    p=$(exact "vpath -s variant=paper")
    awk -F, -f "$PB_ROOT/experiments/flag_check.awk" "$tmp/rep" "$tmp/r.res" "$tmp/t.csv" > "$tmp/fc" ||
        fail "$name: vpath paper silently wrong: $(cat "$tmp/fc")"
    [ "$paper_exact" = 1 ] && [ "$p" != 1 ] && fail "$name: vpath paper $p, expected exact"
    b=$(exact borderpatrol)
    [ "$imm" = 1.0000 ] && [ "$b" != 1 ] && fail "$name: immediacy 1 but borderpatrol $b"
    echo "$name: immediacy $imm, vpath paper $p, borderpatrol $b"
done <<'CONFIGS'
pool load 5|1|hotel.conf|-s duration=10s -s observed=1
pool load 22|1|hotel.conf|-s duration=10s -s observed=1 -s instances=22
pool load 60|1|hotel.conf|-s duration=10s -s observed=1 -s instances=60
dispatcher|1|hotel.conf|-s duration=10s -s exec=dispatcher -s instances=22
hand-off 0.1|0|hotel.conf|-s duration=10s -s handoff=0.1 -s instances=22
hand-off 0.5|0|hotel.conf|-s duration=10s -s handoff=0.5 -s instances=22
event, 1 thread|0|hotel.conf|-s duration=10s -s exec=event -s instances=22
event, 4 threads|0|hotel.conf|-s duration=10s -s exec=event -s threads=4 -s instances=22
seda|0|hotel.conf|-s duration=10s -s exec=seda -s instances=22
pipelined|1|hotel.conf|-s duration=10s -s conn=pipelined -s instances=22
multiplexed|0|hotel.conf|-s duration=10s -s conn=multiplexed -s instances=22
connection pool|1|hotel.conf|-s duration=10s -s conn=pool -s instances=22
dearinter (isolation)|0|dearinter.conf|-s duration=5s
dearinter batch 4|0|dearinter.conf|-s duration=5s -s Apache.batch=4
tpcw|1|tpcw.conf|-s duration=5s
rubis|1|rubis.conf|-s duration=5s
vapp|1|vapp.conf|-s duration=10s
CONFIGS
exit 0

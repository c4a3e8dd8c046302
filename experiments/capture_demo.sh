#!/bin/sh
# capture_demo.sh - the algorithms on real kernel threads and real TCP
# (issue 25; docs/capture.md): the live test system (testbed/hotel.py) in
# its three execution models at a few loads, captured at once by library
# interposition (pbcapture) and by tcpdump on the loopback device,
# imported, and every algorithm scored against the truth of the
# traceparent headers.
#
#   sh experiments/capture_demo.sh [--out DIR] [--duration S] [--rates LIST]
#
# Defaults: 20 s per run, rates 10,30,60 requests/s.  Needs python3; the
# packet half needs tcpdump and the right to capture (root).  Writes
# $PB_OUT/capture_demo.dat (model rate source algorithm exact set), .md and,
# with gnuplot, capture_demo.png/.svg; the report section is
# experiments/report.d/capture_demo.sh.  Not deterministic: real threads
# and a real kernel schedule the requests (the load's arrivals are seeded).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out/figures}"
dur=20; rates="10,30,60"
while [ $# -gt 0 ]; do
    case "$1" in
    --out) PB_OUT=$2; shift ;;
    --duration) dur=$2; shift ;;
    --rates) rates=$2; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "capture_demo: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "capture_demo: $*" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || die "python3 missing (scripts/deps.sh capture installs it)"
for p in pbcapture importtrace infer score; do [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"; done
pcap=1
command -v tcpdump >/dev/null 2>&1 || { echo "capture_demo: tcpdump missing: interposition only" >&2; pcap=0; }
[ "$(id -u)" = 0 ] || { echo "capture_demo: not root: no packet capture, interposition only" >&2; pcap=0; }
mkdir -p "$PB_OUT" || die "cannot create $PB_OUT"
W=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$W"' EXIT INT TERM
ALGOS="truth nesting linking fcfs arrival wap5tw vpath vpath_paper borderpatrol joint joint_nocid"
args() {
    case $1 in
    joint_nocid) echo "--algo joint -s callids=0" ;;
    vpath_paper) echo "--algo vpath -s variant=paper" ;;
    *) echo "--algo $1" ;;
    esac
}
names=$(python3 -c 'o=["db","geo","rate","reservation","profile","search","frontend"]
print(" ".join("--name 127.0.0.%d=%s" % (i + 2, n) for i, n in enumerate(o)), "--name 127.0.0.%d=client" % (len(o) + 2))')
dat="$PB_OUT/capture_demo.dat"
echo "# capture_demo: experiments/capture_demo.sh --duration $dur --rates $rates; model rate source algo exact set sent" > "$dat.tmp"
for m in thread pool event; do
    for r in $(echo "$rates" | tr ',' ' '); do
        rm -rf "$W/cap" "$W/p.pcap"
        pc=""; [ $pcap = 1 ] && pc="--pcap $W/p.pcap"
        out=$(timeout $((dur + 90)) python3 "$ROOT/testbed/hotel.py" run --model $m --rate $r --duration "$dur" \
            --pbcapture "$PB_BIN/pbcapture" --capture "$W/cap" $pc) || { echo "capture_demo: $m $r: run failed" >&2; continue; }
        sent=$(echo "$out" | sed -n 's/^sent=\([0-9]*\).*/\1/p')
        for src in interposition packets; do
            if [ $src = interposition ]; then
                "$PB_BIN/importtrace" -q "$W/cap" > "$W/t.csv" || continue
            else
                [ $pcap = 1 ] && [ -s "$W/p.pcap" ] || continue
                "$PB_BIN/importtrace" -q $names "$W/p.pcap" > "$W/t.csv" || continue
            fi
            for a in $ALGOS; do
                "$PB_BIN/infer" $(args $a) "$W/t.csv" > "$W/r" 2>/dev/null || { echo "$m $r $src $a nan nan $sent" >> "$dat.tmp"; continue; }
                "$PB_BIN/score" --truth "$W/t.csv" --no-header "$W/r" |
                    awk -F, -v m=$m -v r=$r -v s=$src -v a=$a -v n="$sent" '{ print m, r, s, a, ($14 == "" ? "nan" : $14), ($15 == "" ? "nan" : $15), n }' >> "$dat.tmp"
            done
        done
    done
done
mv "$dat.tmp" "$dat"
awk 'BEGIN { print "| model | rate | source | " } /^#/ { next }
     { k = $1 " | " $2 " | " $3; if (!(k in seen)) { seen[k] = 1; key[++n] = k } v[k, $4] = $5; if (!($4 in al)) { al[$4] = 1; a[++na] = $4 } }
     END { printf "| model | rate (req/s) | source |"; for (i = 1; i <= na; i++) printf " %s |", a[i]; printf "\n|---|---|---|"
           for (i = 1; i <= na; i++) printf "---|"; printf "\n"
           for (j = 1; j <= n; j++) { printf "| %s |", key[j]; for (i = 1; i <= na; i++) { x = v[key[j], a[i]]; printf " %s |", (x == "" || x == "nan") ? "-" : sprintf("%.1f", 100 * x) } printf "\n" } }' "$dat" | sed 1d > "$PB_OUT/capture_demo.md"
if command -v gnuplot >/dev/null 2>&1; then
    gnuplot -e "datadir='$PB_OUT'; outdir='$PB_OUT'" "$ROOT/plots/capture_demo.gp" || echo "capture_demo: gnuplot failed" >&2
fi
echo "capture_demo: wrote $dat and capture_demo.md" >&2

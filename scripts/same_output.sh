#!/bin/sh
# Check that a refactoring changed no result: run the same commands with two
# builds of the programs and compare every output byte for byte (the
# `# cpu_...` timing line and the `# program=... commit=...` line of result
# files excepted: two builds of different commits always differ there).
#
#   scripts/same_output.sh OLD_BIN NEW_BIN [WORKDIR]
#
# OLD_BIN, NEW_BIN: folders holding maketrace, importtrace, infer, score,
# skewer and sniffer (for instance a `git worktree` of the old commit built
# with `make`, and this tree's bin/).  The inputs are made once, by the old
# programs: traces of the mailrelay, freeform, multi-tier and hotel configs
# and the two DeathStarBench hotel traces of data/ (skipped when
# absent).  Then both builds regenerate traces (maketrace, importtrace,
# sniffer, skewer) and run convolution (several settings), linking, nesting,
# joint, the baselines and the oracle, and score them.  WORKDIR (default: a
# temporary folder, removed at the end) keeps old/ and new/ for a look.
# Exit status: 0 identical, 1 some output differs (the diff is shown),
# 2 bad usage.  Takes about 10 s.
set -u
[ $# -ge 2 ] || { echo "usage: same_output.sh OLD_BIN NEW_BIN [WORKDIR]" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OLD=$(cd "$1" && pwd) || exit 2
NEW=$(cd "$2" && pwd) || exit 2
for b in "$OLD" "$NEW"; do
    for p in maketrace importtrace infer score skewer sniffer; do
        [ -x "$b/$p" ] || { echo "same_output: no $b/$p" >&2; exit 2; }
    done
done
if [ $# -ge 3 ]; then
    O=$3
    rm -rf "$O"
    mkdir -p "$O" || exit 2
else
    O=$(mktemp -d)
    trap 'rm -rf "$O"' EXIT INT TERM
fi
mkdir -p "$O/old" "$O/new" "$O/in"
C=$ROOT/maketrace/configs
D=$ROOT/data/deathstarbench-hotel
loads=""
for L in 25 100; do
    [ -f "$D/hotel_load$L.tar.xz" ] || continue
    "$OLD/importtrace" -q --callid --thread -o "$O/in/l$L.csv" "$D/hotel_load$L.tar.xz" || exit 1
    loads="$loads $L"
done
"$OLD/maketrace" -s messages=20000 "$C/mailrelay.conf" > "$O/in/mail.csv" || exit 1
"$OLD/maketrace" -s messages=20000 "$C/freeform.conf" > "$O/in/free.csv" || exit 1
"$OLD/maketrace" -s messages=30000 "$C/multitier.conf" > "$O/in/mt.csv" || exit 1
"$OLD/maketrace" -s messages=20000 "$C/hotel.conf" > "$O/in/hotel.csv" || exit 1

run() {  # run BIN OUTDIR: every command, outputs and stderr into OUTDIR
    B=$1 W=$2 I=$O/in
    for L in $loads; do
        "$B/importtrace" -q --callid --thread -o "$W/imp$L.csv" "$D/hotel_load$L.tar.xz" 2>"$W/imp$L.err"
    done
    "$B/maketrace" -s messages=20000 "$C/mailrelay.conf" > "$W/mail.csv" 2>"$W/mail.err"
    "$B/maketrace" -s messages=30000 "$C/multitier.conf" > "$W/mt.csv" 2>"$W/mt.err"
    "$B/sniffer" -p 0.05 --seed 3 "$I/mt.csv" > "$W/sniff.csv" 2>"$W/sniff.err"
    "$B/skewer" -n WS1=+3ms -n AP1=-2ms "$I/mt.csv" > "$W/skew.csv" 2>"$W/skew.err"
    for t in mail free mt hotel; do
        "$B/infer" -a convolution --report "$W/conv_$t.rep" --dot "$W/conv_$t.dot" \
            -o "$W/conv_$t.res" "$I/$t.csv" 2>"$W/conv_$t.err"
        "$B/score" -T "$I/$t.csv" "$W/conv_$t.res" > "$W/conv_$t.score" 2>&1
    done
    "$B/infer" -a convolution -s mu=10ms -s filter_chance=0 -s root_rule=spontaneous \
        --report "$W/conv_mt2.rep" -o "$W/conv_mt2.res" "$I/mt.csv" 2>"$W/conv_mt2.err"
    "$B/infer" -a convolution -s mode=exact -s mu=20ms -o "$W/conv_free2.res" \
        "$I/free.csv" 2>"$W/conv_free2.err"
    "$B/infer" -a convolution -s mu=1s -s match=pairs -s v=spike -o "$W/conv_mail2.res" \
        "$I/mail.csv" 2>"$W/conv_mail2.err"
    "$B/infer" -a linking -o "$W/link_mt.res" "$I/mt.csv" 2>"$W/link_mt.err"
    "$B/score" -T "$I/mt.csv" "$W/link_mt.res" > "$W/link_mt.score" 2>&1
    "$B/infer" -a nesting -o "$W/nest_mt.res" "$I/mt.csv" 2>"$W/nest_mt.err"
    "$B/score" -T "$I/mt.csv" --text "$W/nest_mt.res" > "$W/nest_mt.score" 2>&1
    for L in $loads; do
        for a in nesting joint fcfs arrival vpath wap5tw truth convolution; do
            "$B/infer" -a $a -o "$W/h${L}_$a.res" "$I/l$L.csv" 2>"$W/h${L}_$a.err"
            "$B/score" -T "$I/l$L.csv" "$W/h${L}_$a.res" > "$W/h${L}_$a.score" 2>&1
        done
        "$B/infer" -a linking -s entry=client -s hist=1 --report "$W/h${L}_link.rep" \
            -o "$W/h${L}_link.res" "$I/l$L.csv" 2>"$W/h${L}_link.err"
        "$B/score" -T "$I/l$L.csv" --text "$W/h${L}_link.res" > "$W/h${L}_link.score" 2>&1
    done
}
run "$OLD" "$O/old"
run "$NEW" "$O/new"
n=$(find "$O/new" -type f | wc -l)
if diff -r -I '^# cpu_read_s=' -I '^# program=' "$O/old" "$O/new"; then
    echo "same_output: all $n outputs identical"
    exit 0
fi
echo "same_output: outputs differ (above)"
exit 1

#!/bin/sh
# Inputs that were quadratic as a black box (docs/joint/speed_w21.md "Speed,
# twenty-first wave (h168)"), each run with the two exact speed-ups on
# (the defaults) and off: the output must be the same, every line but the
# parameters and the CPU, and the warnings too.
#  - one request with N parallel calls sent at one stamp whose returns
#    share one stamp (h162/h163's repro), and the same with the returns
#    spread over a few stamps in a shuffled order (the exchanged returns
#    then move in the record's sorted list): `swap_ties`, the exchanges'
#    walks (joint_model.c ties_resort);
#  - one very deep request (experiments/joint_deep.awk, chain and tree):
#    `repair_pick`, the re-pairing's greedy by heaps (joint_rpick.c), and
#    swap_ties on the exchanges of the root's calls;
#  - N overlapping requests, each with one call, all open at once.
# On main there is no swap_ties or repair_pick option: infer refuses them.
. "$PB_ROOT/tests/sh/joint_lib.sh" # B, tmp, fail, joint_overlap_trace
[ -x "$B/importtrace" ] || exit 77
cd "$tmp" || exit 1
strip() { grep -v '^# \(params\|cpu_read_s\|program\)' "$1"; }

# one request, N calls a->b at one stamp; returns at one stamp (spread=0)
# or over `spread` ticks in a seeded shuffled order
par() { # N spread seed
    awk -v N="$1" -v S="$2" -v seed="$3" 'BEGIN {
        srand(seed); print "id,ts,recv_ts,src,dst,type,path,cause"
        print "1,0.000,0.000,client,a,call,r0,"
        for (i = 0; i < N; i++) print (2 + i) ",0.001,0.001,a,b,call,r0,1"
        for (i = 0; i < N; i++) lv[i] = S ? int(rand() * S) : 0
        id = 2 + N
        for (l = 0; l < (S ? S : 1); l++)
            for (i = 0; i < N; i++)
                if (lv[i] == l)
                    printf "%d,%.3f,%.3f,b,a,return,r0,%d\n", id++, 0.002 + 0.001 * l, 0.002 + 0.001 * l, 2 + i
        printf "%d,%.3f,%.3f,a,client,return,r0,1\n", 2 + 2 * N, 0.003 + 0.001 * S, 0.003 + 0.001 * S }'
}
# N requests client->a, each calling b once, all open at once (the calls
# 1 ms apart, the returns in the reverse order)

for case in par:300:0 par:300:3 par:200:7 chain:800 tree:1200 overlap:300; do
    sh=${case%%:*}; rest=${case#*:}
    case $sh in
    par) par "${rest%%:*}" "${rest#*:}" 7 > t.tr ;;
    overlap) joint_overlap_trace "$rest" > t.tr ;;
    *) awk -v N="$rest" -v SHAPE="$sh" -f "$PB_ROOT/experiments/joint_deep.awk" > t.json
       "$B/importtrace" -q -o t.tr t.json || fail "$case: importtrace" ;;
    esac
    "$B/infer" --algo joint -o new.out t.tr 2> new.err || fail "$case: infer: $(tail -1 new.err)"
    "$B/infer" --algo joint -s swap_ties=0 -s repair_pick=0 -o old.out t.tr 2> old.err ||
        fail "$case: infer -s swap_ties=0 -s repair_pick=0: $(tail -1 old.err)"
    grep -q '^# params: .* swap_ties=1' new.out || fail "$case: swap_ties=1 not in the params line"
    grep -q '^# params: .* repair_pick=1' new.out || fail "$case: repair_pick=1 not in the params line"
    strip new.out > a
    strip old.out > b
    cmp -s a b || fail "$case: output differs with the options off: $(diff a b | head -5)"
    cmp -s new.err old.err || fail "$case: warnings differ with the options off"
    grep -q '^# end patterns=[0-9]* assignments=[1-9]' new.out || fail "$case: nothing assigned"
done
exit 0

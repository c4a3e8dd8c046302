#!/bin/sh
# repair_bucket (joint_rpick.c; docs/joint/speed_w21.md "Speed, twenty-second
# wave (h178)"): the re-pairing's greedy keeps the open calls whose cost
# is a density of the time since their start by density bin, ordered by
# start, and scores the latest start of a bin first.  Speed only: the
# output (every line but the parameters and the CPU) and the warnings must
# be those of repair_bucket=0 (every open call scored), by default (1:
# from 32 such calls) and with the buckets always (2), on
#  - N overlapping requests, each with one call, all open at once, first
#    in last out (the `overlap` input of test_joint_onestamp.sh);
#  - N requests with one call each, starts on whole milliseconds shared by
#    about four requests (ties in call start), durations over three
#    decades (the calls spread over many density bins), returns on whole
#    milliseconds (seeded).
# The deliberately wrong bucket (3: a bin's oldest call alone instead of
# its latest first) must change the output on each input: the inputs do
# reach the buckets and the check can fail.
# On main there is no repair_bucket option: infer refuses it.
. "$PB_ROOT/tests/sh/joint_lib.sh"
cd "$tmp" || exit 1
strip() { grep -v '^# \(params\|cpu_read_s\|program\)' "$1"; }

ties() { # N seed
    awk -v N="$1" -v seed="$2" 'BEGIN {
        srand(seed); print "id,ts,recv_ts,src,dst,type,path,cause"; id = 0; n = 0
        for (i = 0; i < N; i++) {
            s = int(rand() * N / 4); d = int(exp(log(2) + rand() * log(2000)))
            e = s + d + 1 + int(rand() * 3)
            ev[n++] = sprintf("%012d %d 0", s * 10, i)
            ev[n++] = sprintf("%012d %d 1", s * 10 + 1, i)
            ev[n++] = sprintf("%012d %d 2", (s + d) * 10 + 2, i)
            ev[n++] = sprintf("%012d %d 3", e * 10 + 3, i) }
        for (x = 1; x < n; x++) { v = ev[x]; y = x - 1
            while (y >= 0 && ev[y] > v) { ev[y + 1] = ev[y]; y-- }
            ev[y + 1] = v }
        for (x = 0; x < n; x++) { split(ev[x], f, " "); t = int(f[1] / 10) / 1000; i = f[2]; k = f[3]
            if (k == 0) { printf "%d,%.3f,%.3f,client,a,call,r%d,\n", ++id, t, t, i; c[i] = id }
            if (k == 1) { printf "%d,%.3f,%.3f,a,b,call,r%d,%d\n", ++id, t, t, i, c[i]; dd[i] = id }
            if (k == 2) printf "%d,%.3f,%.3f,b,a,return,r%d,%d\n", ++id, t, t, i, dd[i]
            if (k == 3) printf "%d,%.3f,%.3f,a,client,return,r%d,%d\n", ++id, t, t, i, c[i] } }'
}

for case in overlap:300 ties:400:1 ties:400:2; do
    sh=${case%%:*}; rest=${case#*:}
    case $sh in
    overlap) joint_overlap_trace "$rest" > t.tr ;;
    ties) ties "${rest%%:*}" "${rest#*:}" > t.tr ;;
    esac
    "$B/infer" --algo joint -s repair_bucket=0 -o ref.out t.tr 2> ref.err ||
        fail "$case: infer -s repair_bucket=0: $(tail -1 ref.err)"
    strip ref.out > b
    grep -q '^# end patterns=[0-9]* assignments=[1-9]' ref.out || fail "$case: nothing assigned"
    for m in 1 2; do
        if [ $m = 1 ]; then
            "$B/infer" --algo joint -o new.out t.tr 2> new.err || fail "$case: infer: $(tail -1 new.err)"
            grep -q '^# params: .* repair_bucket=1' new.out || fail "$case: repair_bucket=1 not the default"
        else
            "$B/infer" --algo joint -s repair_bucket=$m -o new.out t.tr 2> new.err ||
                fail "$case: infer -s repair_bucket=$m: $(tail -1 new.err)"
        fi
        strip new.out > a
        cmp -s a b || fail "$case: repair_bucket=$m: output differs from 0: $(diff a b | head -5)"
        cmp -s new.err ref.err || fail "$case: repair_bucket=$m: warnings differ from 0"
    done
    "$B/infer" --algo joint -s repair_bucket=3 -o mut.out t.tr 2> mut.err ||
        fail "$case: infer -s repair_bucket=3: $(tail -1 mut.err)"
    strip mut.out > a
    cmp -s a b && fail "$case: the wrong bucket head gives the same output: the check cannot fail"
done
exit 0

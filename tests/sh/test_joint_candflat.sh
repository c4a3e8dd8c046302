#!/bin/sh
# Scale (docs/joint/scale.md "The overlap input: the input's parallelism,
# not the algorithm's (h250)"): a call's candidates are the requests open
# over its whole span (a window in time, not a count of requests), so at a
# fixed parallelism the candidates per request do not grow with the
# trace.  The trace is K copies of one block of B overlapping requests
# (client -> a -> b, 7-11 of them open at once, durations spread), each
# copy after the last one has ended: K = K0, 2 K0, 4 K0, 8 K0 must give
# candidate_parents, nested_pairs and ambiguous_pairs exactly K / K0 times
# K0's, with call ids (K0 = 1) and as a black box (K0 = 2: one block alone
# is too short for the held search, which picks another pairing; from two
# blocks on the pairing is the same per block).  No timings.
. "$PB_ROOT/tests/sh/joint_lib.sh" # B, tmp, fail
cd "$tmp" || exit 1
blocks() { # K [ids]
    awk -v K="$1" -v IDS="${2:-0}" 'BEGIN {
        nb = 30; print (IDS ? "id,ts,recv_ts,src,dst,type,callid,path,cause" : "id,ts,recv_ts,src,dst,type,path,cause")
        id = 0
        for (k = 0; k < K; k++) {
            o = k * 0.4; n = 0
            for (j = 0; j < nb; j++) {
                s = o + 0.003 * j; c = s + 0.0005 + 0.0001 * (j % 5)
                r = c + 0.020 + 0.001 * ((7 * j) % 11); e = r + 0.0005
                ev[n] = s; line[n++] = sprintf("client,a,call,%s,b%dr%d,", IDS ? "k" k "j" j "x" : "", k, j)
                ev[n] = c; line[n++] = sprintf("a,b,call,%s,b%dr%d,C", IDS ? "k" k "j" j "y" : "", k, j)
                ev[n] = r; line[n++] = sprintf("b,a,return,%s,b%dr%d,R", IDS ? "k" k "j" j "y" : "", k, j)
                ev[n] = e; line[n++] = sprintf("a,client,return,%s,b%dr%d,E", IDS ? "k" k "j" j "x" : "", k, j)
            }
            for (i = 1; i < n; i++) { t = ev[i]; l = line[i]
                for (m = i; m > 0 && ev[m - 1] > t; m--) { ev[m] = ev[m - 1]; line[m] = line[m - 1] }
                ev[m] = t; line[m] = l }
            for (i = 0; i < n; i++) {
                split(line[i], f, ","); p = f[5]; id++
                if (f[3] == "call" && f[1] == "client") top[p] = id
                if (f[3] == "call" && f[1] == "a") mid[p] = id
                cause = f[3] == "call" && f[1] == "client" ? "" : f[1] == "a" && f[3] == "call" ? top[p] : f[1] == "b" ? mid[p] : top[p]
                printf "%d,%.4f,%.4f,%s,%s,%s,%s%s,%s\n", id, ev[i], ev[i], f[1], f[2], f[3], IDS ? f[4] "," : "", p, cause } } }'
}
val() { sed -n "s/^# $1=\([0-9]*\).*/\1/p" "$2"; }
for ids in 1 0; do
    k0=$((2 - ids))
    for k in $k0 $((2 * k0)) $((4 * k0)) $((8 * k0)); do
        blocks "$k" "$ids" > t$k.csv
        "$B/infer" --algo joint -s conf_selfcal=0 -o r$k.out t$k.csv 2> log ||
            fail "ids=$ids K=$k: infer: $(tail -1 log)"
        cp=$(val candidate_parents r$k.out); np=$(val nested_pairs r$k.out); ap=$(val ambiguous_pairs r$k.out)
        [ -n "$cp" ] && [ -n "$np" ] && [ -n "$ap" ] || fail "ids=$ids K=$k: no candidate lines"
        if [ "$k" = "$k0" ]; then
            c1=$cp; n1=$np; a1=$ap
            [ "$n1" -gt 0 ] || fail "ids=$ids: no call nested (nothing to test)"
            [ "$ids" = 0 ] || [ "$a1" -gt 0 ] || fail "ids=$ids: no ambiguous call (nothing to test)"
        else
            x=$((k / k0))
            [ "$cp" -eq $((x * c1)) ] || fail "ids=$ids K=$k: candidate_parents $cp, not $x x $c1"
            [ "$np" -eq $((x * n1)) ] || fail "ids=$ids K=$k: nested_pairs $np, not $x x $n1"
            [ "$ap" -eq $((x * a1)) ] || fail "ids=$ids K=$k: ambiguous_pairs $ap, not $x x $a1"
        fi
    done
    echo "ids=$ids: per $k0 block(s) candidate_parents=$c1 nested_pairs=$n1 ambiguous_pairs=$a1"
done
exit 0

#!/bin/sh
# order_cross (joint_tieorder.c; docs/joint/loss_late.md, "The eBPF
# capture: crossed calls and the order of answers (h210)"): a hand-made
# black box of 240 requests through a front service B (client > B; B calls
# C, then D; B answers), in pairs 120-250 us apart that B serves in arrival
# order at every step.  One pair (r60, r60b) has the eBPF capture's stamps
# of its requests fa88e32f / 636caaa4: B's two calls to D sent 3 us apart
# (r60's first) and read by D the other way round (22 us), D answering in
# send order (r60's first).  With the order of answers' term as the
# search scores it (every pair by the callee's reads) the pairing in read
# order is 4 nats cheaper there, so the search pairs D's answers by reads
# and both requests are wrong (230 of 240 exact); order_cross scores the
# crossing's other pairing with that pair out of question, where B's own
# delay after D's answer (99 us against B's 150-350) decides it: kept,
# both requests right (232).  A trace without the crossing is left
# byte for byte; renamed nodes and stripped truth change nothing.
. "$PB_ROOT/tests/sh/joint_lib.sh"
gen() {   # gen CROSS: the trace (CROSS 0: the pair's D reads in send order)
    awk -v CROSS="$1" '
function u() { seed = (16807 * seed) % 2147483647; return seed / 2147483647 }
function row(ts, rs, src, dst, ty, p, cause) {
    n++; line[n] = sprintf("%.9f,%s,%s,%s,%s,,%s,%s", ts / 1e6, rs == "" ? "" : sprintf("%.9f", rs / 1e6), src, dst, ty, p, cause)
    key[n] = ts; return n }
BEGIN {
    seed = 4242; N = 120
    for (q = 1; q <= N; q++) {
        t = 1000000 + 3000 * q; p = "r" q
        if (q == N / 2) {
            split("0 517.5 545.2 734.4 810.5 1155.1 1240.0 1418.4 1446.4 1703.6", A, " ")
            split("164.8 626.5 648.6 860.8 958.3 1158.0 1217.5 1581.3 1604.2 1819.9", Bq, " ")
            if (!CROSS) Bq[7] = 1262.0
            i1 = row(t, t, "client", "B", "call", p, "")
            i2 = row(t + Bq[1], t + Bq[1], "client", "B", "call", p "b", "")
            j1 = row(t + A[2], t + A[3], "B", "C", "call", p, i1); j2 = row(t + Bq[2], t + Bq[3], "B", "C", "call", p "b", i2)
            k1 = row(t + A[4], t + A[5], "C", "B", "return", p, j1); k2 = row(t + Bq[4], t + Bq[5], "C", "B", "return", p "b", j2)
            l1 = row(t + A[6], t + A[7], "B", "D", "call", p, k1); l2 = row(t + Bq[6], t + Bq[7], "B", "D", "call", p "b", k2)
            m1 = row(t + A[8], t + A[9], "D", "B", "return", p, l1); m2 = row(t + Bq[8], t + Bq[9], "D", "B", "return", p "b", l2)
            row(t + A[10], "", "B", "client", "return", p, m1); row(t + Bq[10], "", "B", "client", "return", p "b", m2)
            continue
        }
        g = 120 + 130 * u()
        for (h = 0; h < 2; h++) {
            x = h ? g : 0; w = h ? "b" : ""
            d1 = 350 + 300 * u(); d2 = 180 + 250 * u(); d3 = 150 + 200 * u()
            if (h) { d1 = pd1 + 60 * u() - 30; d2 = pd2 + 60 * u() - 30; d3 = pd3 + 60 * u() - 30 }
            pd1 = d1; pd2 = d2; pd3 = d3
            c1 = t + x + d1; c1r = c1 + 20 + 30 * u(); a1 = c1r + 150 + 80 * u(); a1r = a1 + 60 + 20 * u()
            c2 = a1r + d2; c2r = c2 + 40 + 40 * u(); a2 = c2r + 150 + 250 * u(); a2r = a2 + 20 + 10 * u()
            e = a2r + d3
            i = row(t + x, t + x, "client", "B", "call", p w, ""); j = row(c1, c1r, "B", "C", "call", p w, i)
            k = row(a1, a1r, "C", "B", "return", p w, j); l = row(c2, c2r, "B", "D", "call", p w, k)
            m = row(a2, a2r, "D", "B", "return", p w, l); row(e, "", "B", "client", "return", p w, m)
        }
    }
    for (i = 1; i <= n; i++) ord[i] = i
    for (i = 2; i <= n; i++) { v = ord[i]; j = i - 1
        while (j > 0 && key[ord[j]] > key[v]) { ord[j + 1] = ord[j]; j-- }
        ord[j + 1] = v }
    for (i = 1; i <= n; i++) newid[ord[i]] = i
    print "id,ts,recv_ts,src,dst,type,callid,path,cause"
    for (i = 1; i <= n; i++) { split(line[ord[i]], F, ","); c = F[8] == "" ? "" : newid[F[8]]
        printf "%d,%s,%s,%s,%s,%s,,%s,%s\n", i, F[1], F[2], F[3], F[4], F[5], F[7], c }
}'
}
# exact requests of RESULT against TRUTH
nexact() { "$B/score" --truth "$1" "$2" 2> /dev/null |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $(c["instances_exact"]) }'; }
gen 1 > "$tmp/t.csv"
[ "$(grep -c . "$tmp/t.csv")" = 1441 ] || fail "the trace has $(grep -c . "$tmp/t.csv") lines, not 1441"
run_nocal "$tmp/t.csv" "$tmp/off.res" -s order_cross=0
run_nocal "$tmp/t.csv" "$tmp/on.res" -s order_cross=1 -s order_cross_alone=1
grep -q '^# order_cross=' "$tmp/off.res" && fail "order_cross metadata with the option off"
[ "$(nexact "$tmp/t.csv" "$tmp/off.res")" = 230 ] ||
    fail "off: $(nexact "$tmp/t.csv" "$tmp/off.res") exact, expected 230 (the crossing paired by D's reads)"
grep -q '^# order_cross=on crossings=1 exchanges_tried=1 kept=1 ' "$tmp/on.res" ||
    fail "on: $(grep '^# order_cross=' "$tmp/on.res")"
[ "$(nexact "$tmp/t.csv" "$tmp/on.res")" = 232 ] ||
    fail "on: $(nexact "$tmp/t.csv" "$tmp/on.res") exact, expected 232"
# the pair itself: every message of r60 and r60b in its own request
awk -F, 'NR > 1 && ($8 == "r60" || $8 == "r60b") { print $1, $8 }' "$tmp/t.csv" | sort > "$tmp/pair"
assignment_of "$tmp/on.res" | awk -F, '$1 ~ /^[0-9]+$/ { print $1, $2 }' | sort > "$tmp/asg"
join "$tmp/pair" "$tmp/asg" | awk '{ k = $2 " " $3; if (!(k in s)) { s[k] = 1; n[$2]++ } }
    END { if (n["r60"] != 1 || n["r60b"] != 1 || length(s) != 2) exit 1 }' ||
    fail "the crossed pair is not two whole requests: $(join "$tmp/pair" "$tmp/asg" | tr '\n' ' ')"
# stripped truth, renamed nodes: the same assignment
cut -d, -f1-7 "$tmp/t.csv" > "$tmp/s.csv"
run_nocal "$tmp/s.csv" "$tmp/s.res" -s order_cross=1 -s order_cross_alone=1
cmp -s "$tmp/asg" "$(assignment_of "$tmp/s.res" | awk -F, '$1 ~ /^[0-9]+$/ { print $1, $2 }' | sort > "$tmp/sa"; echo "$tmp/sa")" ||
    fail "stripping the truth changed the result"
sed -e '/^#/!s/,B,/,zz_front,/g; /^#/!s/,D,/,aa_d,/g' "$tmp/t.csv" > "$tmp/r.csv"
cmp -s "$tmp/t.csv" "$tmp/r.csv" && fail "renaming changed nothing"
run_nocal "$tmp/r.csv" "$tmp/r.res" -s order_cross=1 -s order_cross_alone=1
[ "$(nexact "$tmp/r.csv" "$tmp/r.res")" = 232 ] || fail "renamed nodes: $(nexact "$tmp/r.csv" "$tmp/r.res") exact"
# without the crossing (the pair's D reads in send order) nothing is tried
# and the assignment is the option's off
gen 0 > "$tmp/u.csv"
run_nocal "$tmp/u.csv" "$tmp/uoff.res" -s order_cross=0
run_nocal "$tmp/u.csv" "$tmp/uon.res" -s order_cross=1 -s order_cross_alone=1
grep -q '^# order_cross=on crossings=0 exchanges_tried=0 kept=0 ' "$tmp/uon.res" ||
    fail "no crossing: $(grep '^# order_cross=' "$tmp/uon.res")"
cmp -s "$(assignment_of "$tmp/uoff.res" > "$tmp/ua"; echo "$tmp/ua")" \
       "$(assignment_of "$tmp/uon.res" > "$tmp/ub"; echo "$tmp/ub")" ||
    fail "order_cross changed a trace without a crossing"
echo "PASS"

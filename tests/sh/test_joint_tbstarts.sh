#!/bin/sh
# thread_bound_starts (h319; algorithms/joint/busy/joint_busythr.c;
# docs/joint/shapes_w36.md "Pool x2 1 ms with call ids: the thread bar's
# power (h319)"): maketrace's thread pools (experiments/joint_models_pool.conf:
# a front end of three blocking workers) at twice the load, seed 61, 2 s,
# stamps rounded down to 1 ms, with call ids (the held-out row
# pool,61,x2:1ms,ids of experiments/joint_models.sh --seeds 61).  The front
# end is saturated: at nearly every answer every worker holds an open
# visit, so chance gives about 2 misses, under thread_expect (10), and
# thread_bound never tests it; its calls go to other requests' visits and
# about 14 % of the requests are right.  Its visits' starts keep off the
# threads open visits hold (a worker takes its next visit as the last
# ends, in the same 1 ms tick): at thread_bound_starts=10 it is bound, a
# call keeps the one visit on its answer's thread: over 95 % right.
# Hand-worked: the starts' z recomputed here from the trace's columns
# (frontend visits: the client call's recv_ts and thread, the response's
# ts; a visit open at a start when its end's tick is after the start's;
# chance = the open threads' visit frequencies, at most 1, per start;
# z = (chance - collisions) / sqrt(chance)) agrees with the line's within
# 0.05; the line's chance is under 10 and its misses at most chance's.
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_models_pool.conf" -s seed=61 -s duration=2s \
    -s instances_scale=2 > "$tmp/raw.csv" || fail "maketrace"
keep_cols "$tmp/raw.csv" > "$tmp/g.csv"
"$B/skewer" -q --round 1ms "$tmp/g.csv" > "$tmp/m.csv" || fail "skewer"
run_nocal "$tmp/m.csv" "$tmp/d.res"
run_nocal "$tmp/m.csv" "$tmp/u.res" -s thread_bound_starts=10
d=$(exact_of "$tmp/m.csv" "$tmp/d.res")
u=$(exact_of "$tmp/m.csv" "$tmp/u.res")
echo "# pool x2 s61 1 ms with call ids: default $d, thread_bound_starts=10 $u"
grep '^# thread_bound_starts=\|^# thread_service=frontend' "$tmp/u.res"
! grep -q '^# thread_bound_starts=' "$tmp/d.res" || fail "the default wrote a thread_bound_starts= line"
grep -q '^# thread_service=frontend .* bound=no' "$tmp/d.res" ||
    fail "the default bound the front end: $(grep '^# thread_service=frontend' "$tmp/d.res")"
# the starts' z from the trace (ms ticks: the stamps are whole ms)
awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    $c["type"] == "call" && $c["dst"] == "frontend" { st[$c["callid"]] = $c["recv_ts"]; th[$c["callid"]] = $c["thread"] }
    $c["type"] == "return" && $c["src"] == "frontend" { en[$c["callid"]] = $c["ts"] }
    END { for (k in st) if (k in en) printf "%.6f %.6f %s\n", st[k], en[k], th[k] }' "$tmp/m.csv" |
    sort -k1,1n -k2,2n -k3,3 > "$tmp/v.txt"
z=$(awk '{ s[NR] = $1; e[NR] = $2; t[NR] = $3; f[$3]++ }
    END { n = NR; hit = 0; ch = 0
          for (i = 1; i <= n; i++) {
              ti = int(s[i] * 1000 + 0.5); delete o; on = 0
              for (j = i - 1; j >= 1 && j >= i - 200; j--)
                  if (int(e[j] * 1000 + 0.5) > ti) { o[t[j]] = 1; if (t[j] == t[i]) on = 1 }
              c = 0; for (u in o) c += f[u] / n; if (c > 1) c = 1
              hit += on; ch += c }
          printf "%.2f", (ch - hit) / sqrt(ch) }' "$tmp/v.txt")
echo "# the starts' z recomputed: $z"
awk -v z="$z" '/^# thread_bound_starts=frontend / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        d = v["z_starts"] - z; if (d < 0) d = -d
        if (v["bound"] != "yes" || d > 0.05 || v["chance_misses"] >= 10 || v["misses"] > v["chance_misses"] ||
            v["z_starts"] < v["level"]) { print "# wrong: " $0; bad = 1 }; seen = 1 }
     END { exit bad || !seen }' "$tmp/u.res" ||
    fail "the thread_bound_starts= line disagrees with the rule or the trace"
awk -v a="$d" 'BEGIN { exit !(a < 0.30) }' || fail "the default gives $d: the trace or the search changed; look again"
awk -v a="$u" 'BEGIN { exit !(a >= 0.95) }' || fail "thread_bound_starts=10 gives $u, under 95 %"
echo "PASS"

#!/bin/sh
# The calibration copy's delays drawn in blocks of time where the trace
# shows them correlated (conf_sim_block, joint_simblock.c;
# docs/joint/confidence.md, "The copy keeps delays correlated in time";
# off by default: it lost coverage on the real sets).  Two maketrace
# traces, the columns a real set has (no thread), as black boxes:
# experiments/joint_stall.conf (F's requests queue behind slow ones on two
# workers: F's delays correlated between requests served at once) and
# experiments/joint_slow.conf (one event thread, a slow factor per request
# but light load: no correlation between requests).  With -s
# conf_sim_block=16: the stall trace has keys that pass the test (lag-1
# rank autocorrelation, rho sqrt(n) >= 3) and block draws, its assignment
# is the one conf_sim_block=0 gives (confidence only); the slow trace has
# none, and its output is conf_sim_block=0's byte for byte but the options
# line and the rule's own metadata line.  With -s conf_sim_block_pool=1
# as well (the block copy pooled with the independent one) no reliability
# bin of the stall trace is over-confident by the request-level one-sided
# binomial test at 5 % of experiments/joint_calib.sh.  Fails on main (no
# option).
: "${PB_BIN:?}" "${PB_ROOT:?}"
. "$PB_ROOT/tests/sh/joint_lib.sh"
# the black box with a real set's columns: id ts recv_ts src dst type
# callid (emptied) path cause
bbcols() {
    awk 'BEGIN { FS = OFS = ","; split("id ts recv_ts src dst type callid path cause", K, " ")
                 for (i in K) ok[K[i]] = 1 }
         /^#/ { print; next }
         !h { for (i = 1; i <= NF; i++) if ($i in ok) { keep[++nk] = i; if ($i == "callid") c = nk }
              h = 1; hdr = 1 }
         { line = ""; for (j = 1; j <= nk; j++) { v = $keep[j]; if (!hdr && j == c) v = ""
                                                 line = line (j > 1 ? OFS : "") v }
           hdr = 0; print line }' "$1"
}
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
"$B/maketrace" "$PB_ROOT/experiments/joint_stall.conf" > "$tmp/st.csv" 2> "$tmp/log" ||
    fail "maketrace stall: $(cat "$tmp/log")"
bbcols "$tmp/st.csv" > "$tmp/stbb.csv"
"$B/maketrace" "$PB_ROOT/experiments/joint_slow.conf" -s duration=1s > "$tmp/sl.csv" 2> "$tmp/log" ||
    fail "maketrace slow: $(cat "$tmp/log")"
bbcols "$tmp/sl.csv" > "$tmp/slbb.csv"
run() { # run OUT TRACE ARGS...
    o=$1 t=$2; shift 2
    "$B/infer" --algo joint -q "$@" -o "$o" "$t" 2> "$tmp/log" || fail "infer $*: $(cat "$tmp/log")"
}
run "$tmp/st16" "$tmp/stbb.csv" -s conf_sim_block=16
run "$tmp/st0" "$tmp/stbb.csv" -s conf_sim_block=0
line=$(grep '^# conf_sim_block=16 keys_tested=' "$tmp/st16") || fail "no conf_sim_block metadata line"
kc=$(echo "$line" | sed 's/.*keys_correlated=\([0-9]*\).*/\1/')
bd=$(echo "$line" | sed 's/.*block_draws=\([0-9]*\).*/\1/')
[ "$kc" -ge 1 ] && [ "$bd" -ge 1 ] || fail "stall trace: no key drawn in blocks: $line"
assign "$tmp/st16" > "$tmp/a1"
assign "$tmp/st0" > "$tmp/a0"
cmp -s "$tmp/a1" "$tmp/a0" || fail "stall trace: the assignment differs from conf_sim_block=0's"
run "$tmp/sl16" "$tmp/slbb.csv" -s conf_sim_block=16
run "$tmp/sl0" "$tmp/slbb.csv" -s conf_sim_block=0
grep -q '^# conf_sim_block=16 keys_tested=[1-9][0-9]* keys_correlated=0 block_draws=0 ' "$tmp/sl16" ||
    fail "slow trace: a key passed: $(grep '^# conf_sim_block' "$tmp/sl16")"
# the same output but the options (params) line, the cpu line and the rule's line
strip() { grep -v -e '^# conf_sim_block=' -e '^# params' -e '^# cpu' -e 'cpu_' "$1"; }
strip "$tmp/sl16" > "$tmp/b1"
strip "$tmp/sl0" > "$tmp/b0"
cmp -s "$tmp/b1" "$tmp/b0" || fail "slow trace: output differs from conf_sim_block=0's where no key passed"
run "$tmp/stp" "$tmp/stbb.csv" -s conf_sim_block=16 -s conf_sim_block_pool=1
"$B/score" --truth "$tmp/stbb.csv" --reliability "$tmp/rel" "$tmp/stp" > "$tmp/row" || fail "score"
req=$(awk -F, 'NR == 2 { print $7 }' "$tmp/row")
# every bin above 0, on requests (calib_over, joint_lib.sh)
calib_over "$tmp/rel" "$req" 0 0 || fail "a bin over-confident with the block copy pooled"
echo "PASS test_joint_calib_block"

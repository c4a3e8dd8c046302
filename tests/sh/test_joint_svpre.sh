#!/bin/sh
# joint's sv_pre (joint_svpre.c; docs/joint/speed_w36.md, "Deciding before
# the main solve (h314)"): without call ids, with sv_lazy=3, the free
# search pauses in its main solve's first round just after that solve's
# first refit (free_pre); the held search is made to the same point
# (held_pre); the leader there runs to its end and the other is left
# paused when the leader's end leads it by 10 nats plus sv_lazy_k times the
# leader's own gain over its main solve; else both run.
# - joint_models_dispatch (experiments/, 1 s, black box, no self-
#   calibration): free_pre -91904.546, held_pre -91949.228: the free search
#   leads; its end -91814.363 leads held_pre by 134.866 nats, but its main
#   solve gained 90.184 (threshold 190.4): the held search runs too
#   (both_run), and both resumed searches give sv_pre=0's output to the
#   byte (but the sv lines): resuming from the pause is exact;
# - the same with held_swaps=1 (a held option: sv_lazy decides): the free
#   search runs on to sv_lazy's mark (to_mark): sv_pre=0's output but the
#   sv_pre line (the sv_lazy line included);
# - joint_apps_wide (1 s, black box): the free search leads held_pre by
#   85.745 nats with a gain of 15.550 (threshold 41.1): the held search is
#   left before its main solve (loser_paused): the rows are sv_pre=0's,
#   the held log-likelihood in the pair_order line its paused one;
# - sv_pre=2 on dispatch: the same verdict before the main solve (a
#   positive gain), then the held search's second look at sv_lazy's mark:
#   the free end leads held_mid -91853.100 by 38.737 nats, under 10 + 2 x
#   96.128 (the held search's own first main solve): it runs on, and the
#   output is sv_pre=0's again;
# - sv_pre=0 writes no line.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=\|^# sv_pre=' "$1"; }
nosv() { body "$1" | grep -v '^# sv_lazy='; }
rows() { grep -v '^#' "$1"; }
run() { # name trace [options...]
    _n=$1; _t=$2; shift 2
    "$B/infer" --algo joint -q -s conf_selfcal=0 "$@" -o "$tmp/$_n.res" "$_t" 2> "$tmp/$_n.err" ||
        fail "infer $_n: $(cat "$tmp/$_n.err")"
}
"$B/maketrace" "$R/experiments/joint_models_dispatch.conf" -D duration=1s > "$tmp/ids.csv" ||
    fail "maketrace dispatch"
strip_callids "$tmp/ids.csv" > "$tmp/b.csv"
run d0 "$tmp/b.csv" -s sv_pre=0
run d1 "$tmp/b.csv" -s sv_pre=1
run d2 "$tmp/b.csv" -s sv_pre=2
run h0 "$tmp/b.csv" -s sv_pre=0 -s held_swaps=1
run h1 "$tmp/b.csv" -s sv_pre=1 -s held_swaps=1
! grep -q '^# sv_pre=' "$tmp/d0.res" || fail "sv_pre=0 wrote a line"
grep -q '^# sv_pre=both_run leader=free lead=134.866 gain=90.184 free_pre=-91904.546 held_pre=-91949.228 end=-91814.363$' "$tmp/d1.res" ||
    fail "dispatch: $(grep '^# sv_pre=' "$tmp/d1.res")"
nosv "$tmp/d0.res" > "$tmp/a"
nosv "$tmp/d1.res" > "$tmp/b"
[ -s "$tmp/a" ] || fail "no output"
cmp -s "$tmp/a" "$tmp/b" || fail "dispatch: both resumed, the output changed"
cmp -s "$tmp/d0.err" "$tmp/d1.err" || fail "dispatch: stderr changed"
grep -q '^# sv_pre=both_run leader=free lead=134.866 gain=90.184 ' "$tmp/d2.res" ||
    fail "dispatch 2: $(grep '^# sv_pre=' "$tmp/d2.res")"
nosv "$tmp/d2.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "dispatch 2: the output changed"
grep -q '^# sv_pre=to_mark free_pre=-91904.546$' "$tmp/h1.res" ||
    fail "dispatch held_swaps: $(grep '^# sv_pre=' "$tmp/h1.res")"
body "$tmp/h0.res" > "$tmp/a"
body "$tmp/h1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "dispatch held_swaps: to sv_lazy's mark, the output changed"
"$B/maketrace" "$R/experiments/joint_apps_wide.conf" -D duration=1s > "$tmp/wi.csv" ||
    fail "maketrace wide"
strip_callids "$tmp/wi.csv" > "$tmp/w.csv"
run w0 "$tmp/w.csv" -s sv_pre=0
run w1 "$tmp/w.csv" -s sv_pre=1
grep -q '^# sv_pre=loser_paused leader=free lead=85.745 gain=15.550 free_pre=-106375.630 held_pre=-106445.825 end=-106360.080$' "$tmp/w1.res" ||
    fail "wide: $(grep '^# sv_pre=' "$tmp/w1.res")"
grep -q '^# pair_order=auto chosen=free log_likelihood_free=-106360.080 log_likelihood_held=-106445.825 ' "$tmp/w1.res" ||
    fail "wide choice: $(grep '^# pair_order=auto' "$tmp/w1.res")"
rows "$tmp/w0.res" > "$tmp/a"
rows "$tmp/w1.res" > "$tmp/b"
[ -s "$tmp/a" ] || fail "wide: no rows"
cmp -s "$tmp/a" "$tmp/b" || fail "wide: the rows changed"
echo "PASS"

#!/bin/sh
# joint's sv_lazy (joint_sv.c; docs/joint/speed_late.md, "Fewer solves:
# a search paused (h229)"): without call ids and pair_order=auto,
# the free search pauses after its main solve's first refit, the held
# search runs in full, and the held solution is kept at once when its lead
# over the paused free one passes 10 nats plus sv_lazy_k times the larger
# of the held search's gain over its swap rounds and the free search's over
# its first main solve; else the free search resumes.  sv_lazy=3 also the
# other way round (the held search left paused behind a free one out of
# reach).
# - joint_models_dispatch (experiments/, 1 s, black box, no self-
#   calibration): the held search leads the paused free one by 16.967
#   nats; the free search's first main solve gained 43.603: at sv_lazy_k=2
#   the free search resumes (it gains 46.6 more and is kept): the output is
#   sv_lazy=0's but the sv_lazy line and the extra refit's two work
#   counters, and sv_lazy=2's (pause, always resume) and the default (3) too;
# - at sv_lazy_k=0 the bound is gone and the held solution is kept early
#   (the bet lost: the class the bound is for): its rows are the held
#   search's own (pair_order=on), the free log-likelihood the paused one;
# - joint_apps_wide (1 s, black box): at sv_lazy=3 the free search leads
#   the held one's pause by 84.929 nats, its own swap rounds gained 15.550:
#   the held search is left paused, the rows are sv_lazy=0's;
# - sv_lazy=0 writes no line; with call ids nothing changes;
# - shuffled rows give the same output.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$1"; }
nosv() { body "$1" | grep -v '^# sv_lazy=\|^# fit_walks_replayed='; }
rows() { grep -v '^#' "$1"; }
run() { # name trace [options...]
    _n=$1; _t=$2; shift 2
    "$B/infer" --algo joint -q -s conf_selfcal=0 "$@" -o "$tmp/$_n.res" "$_t" 2> "$tmp/$_n.err" ||
        fail "infer $_n: $(cat "$tmp/$_n.err")"
}
"$B/maketrace" "$R/experiments/joint_models_dispatch.conf" -D duration=1s > "$tmp/ids.csv" ||
    fail "maketrace dispatch"
strip_callids "$tmp/ids.csv" > "$tmp/b.csv"
run s0 "$tmp/b.csv" -s sv_lazy=0
run s1 "$tmp/b.csv" -s sv_lazy=1
run d3 "$tmp/b.csv"
run s2 "$tmp/b.csv" -s sv_lazy=2
run k0 "$tmp/b.csv" -s sv_lazy=1 -s sv_lazy_k=0
run on "$tmp/b.csv" -s pair_order=on -s sv_lazy=0
! grep -q '^# sv_lazy=' "$tmp/s0.res" || fail "sv_lazy=0 wrote a line"
grep -q '^# sv_lazy=free_resumed lead=16.967 gain=43.603 k=2 free_pre=-91904.546 free_mid=-91860.944 held_mid=-91853.100 held_end=-91843.977$' "$tmp/s1.res" ||
    fail "dispatch k=2: $(grep '^# sv_lazy=' "$tmp/s1.res")"
grep -q '^# sv_lazy=held_kept_early lead=16.967 gain=43.603 k=0 ' "$tmp/k0.res" ||
    fail "dispatch k=0: $(grep '^# sv_lazy=' "$tmp/k0.res")"
grep -q '^# pair_order=auto chosen=free log_likelihood_free=-91814.363 ' "$tmp/s1.res" ||
    fail "dispatch k=2 choice: $(grep '^# pair_order=auto' "$tmp/s1.res")"
grep -q '^# pair_order=auto chosen=held log_likelihood_free=-91860.944 log_likelihood_held=-91843.977 ' "$tmp/k0.res" ||
    fail "dispatch k=0 choice: $(grep '^# pair_order=auto' "$tmp/k0.res")"
nosv "$tmp/s0.res" > "$tmp/a"
[ -s "$tmp/a" ] || fail "no output"
for k in s1 s2 d3; do
    nosv "$tmp/$k.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "dispatch $k: the output changed"
    cmp -s "$tmp/s0.err" "$tmp/$k.err" || fail "dispatch $k: stderr changed"
done
rows "$tmp/on.res" > "$tmp/a"
rows "$tmp/k0.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "dispatch k=0: the rows are not the held search's"
"$B/maketrace" "$R/experiments/joint_apps_wide.conf" -D duration=1s > "$tmp/wi.csv" ||
    fail "maketrace wide"
strip_callids "$tmp/wi.csv" > "$tmp/w.csv"
run w0 "$tmp/w.csv" -s sv_lazy=0
run w3 "$tmp/w.csv" -s sv_lazy=3
grep -q '^# sv_lazy=free_kept_early lead=84.929 gain=15.550 k=2 free_pre=-106375.630 free_mid=-106375.630 free_end=-106360.080 held_mid=-106445.010$' "$tmp/w3.res" ||
    fail "wide 3: $(grep '^# sv_lazy=' "$tmp/w3.res")"
rows "$tmp/w0.res" > "$tmp/a"
rows "$tmp/w3.res" > "$tmp/b"
[ -s "$tmp/a" ] || fail "wide: no rows"
cmp -s "$tmp/a" "$tmp/b" || fail "wide 3: the rows changed"
shuffle_rows 7 "$tmp/b.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s conf_selfcal=0 -s sv_lazy=1 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
body "$tmp/s1.res" > "$tmp/a"
body "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the result"
run i0 "$tmp/ids.csv" -s sv_lazy=0
run i1 "$tmp/ids.csv" -s sv_lazy=1
! grep -q '^# sv_lazy=' "$tmp/i1.res" || fail "call ids: a sv_lazy line"
body "$tmp/i0.res" > "$tmp/a"
body "$tmp/i1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "call ids: output changed"
echo "PASS"

#!/bin/sh
# joint's options fuzzed (tests/fuzz/joint_optfuzz.sh; docs/joint/search_late.md,
# "Options fuzzed"): a short fixed-seed round on generated traces (thread
# models and application shapes of experiments/) and a slice of the eBPF
# capture (data/deeptrace-ebpf), both modes, with and without loss and
# skew -- every run ends with a result score reads or an error naming the
# option, none crashes, hangs or runs 50x the defaults' CPU, and every
# third run is repeated and shuffled with the same paths -- then one block
# per class the fuzzer found:
#   A. a string option at a word no rule reads (matching, start,
#      service_order, pair_order, callers, out_sets, tick_ivl, subtick)
#      passed --parse-only ("parameters ok") and was refused only after the
#      trace was read (exit 1), service_order's message naming "order";
#      now refused before the trace, exit 2, naming the option as given.
#      The audits' PB_INFER_ARGS check (--parse-only) let such a word through.
#   B. a stub with no pair (calls without returns) under halves=0 or a
#      calibration copy: greedy_cycle (joint_rpcyc.c) memcpy'd 0 bytes from
#      NULL, undefined behaviour that stops the run under make asan (UBSan).
#   C. the defaults (!) on a lossy black box at 1 ms whose calibration copy
#      has a cycle of parents: the confidence product read an unset share
#      (NaN), and the calibration map's fit ran past its arrays: SIGSEGV or
#      abort, depending on the heap.
# Under the sanitizers (PB_SANITIZED=1, make asan) the round is shorter.
. "$PB_ROOT/tests/sh/joint_lib.sh"
for p in importtrace sniffer; do [ -x "$B/$p" ] || exit 77; done
. "$PB_ROOT/experiments/trace_cols.sh"

# A: every string option at a bad word, refused by --parse-only and by the
# run before the trace is read, naming the option and its words
"$B/maketrace" "$PB_ROOT/experiments/joint_models_pool.conf" -q -s messages=300 > "$tmp/t.csv" ||
    fail "maketrace"
for kv in matching=bogus start=Rank service_order=bogus pair_order=AUTO callers=bogus \
          out_sets=yes tick_ivl=bogus subtick=bogus order=bogus; do
    k=${kv%%=*}; [ "$k" = order ] && k=service_order
    "$B/infer" --algo joint --parse-only -s "$kv" "$tmp/t.csv" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "A: --parse-only -s $kv: exit $rc, expected 2 (a bad value): $(tail -1 "$tmp/err")"
    grep -q "option $k: .*expected" "$tmp/err" || fail "A: -s $kv: the error names not $k and its words: $(tail -1 "$tmp/err")"
    # the run: refused before the trace is read (a trace that is no file)
    "$B/infer" --algo joint -s "$kv" -o "$tmp/o" "$tmp/nosuch.csv" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "A: -s $kv on a missing trace: exit $rc, expected 2 before the trace: $(tail -1 "$tmp/err")"
done
# the audits' check of PB_INFER_ARGS (experiments/infer_args.sh, --parse-only)
# stops at such a word instead of letting every joint row fail
. "$PB_ROOT/experiments/infer_args.sh"
( PB_INFER_ARGS="-s pair_order=held"; infer_args_check optfuzz ) > /dev/null 2> "$tmp/err" &&
    fail "A: PB_INFER_ARGS=\"-s pair_order=held\" passed the audits' check"
grep -q 'option pair_order' "$tmp/err" || fail "A: the audits' check names not pair_order: $(tail -1 "$tmp/err")"
# and every word each takes still runs
for kv in matching=flow start=local start=earliest service_order=on service_order=0 pair_order=off \
          callers=keyed callers=pooled out_sets=on tick_ivl=auto subtick=off; do
    "$B/infer" --algo joint -q --parse-only -s "$kv" "$tmp/t.csv" 2> "$tmp/err" ||
        fail "A: -s $kv refused: $(tail -1 "$tmp/err")"
done

# B: a stub with no pair (two calls, no return) under halves=0 (and a
# calibration copy of it, conf_sims=16): greedy_cycle copied 0 bytes from a
# NULL array (joint_rpcyc.c), undefined behaviour UBSan stops at (make asan;
# a plain build ran on); both modes, and at every greedy_cycle setting
awk '/^#/ || !h { print; if (!/^#/) h = 1; next } n++ < 2' "$tmp/t.csv" > "$tmp/stub.csv"
strip_ids "$tmp/stub.csv" > "$tmp/stubb.csv"
for t in stub stubb; do
    for o in "-s halves=0" "-s conf_sims=16" "-s halves=0 -s greedy_cycle=0" "-s halves=0 -s iters=1"; do
        # shellcheck disable=SC2086
        "$B/infer" --algo joint -q $o -o "$tmp/o" "$tmp/$t.csv" 2> "$tmp/err" ||
            fail "B: $o on a stub without returns ($t): $(grep -v warning "$tmp/err" | head -2)"
        grep -q -E 'runtime error|Sanitizer' "$tmp/err" && fail "B: $o ($t): $(grep -m1 -E 'runtime error|Sanitizer' "$tmp/err")"
        "$B/score" --truth "$tmp/stub.csv" "$tmp/o" > /dev/null 2> "$tmp/err" || fail "B: $o ($t): score: $(tail -1 "$tmp/err")"
    done
done

# C: the defaults on a black box with loss and 1 ms stamps whose
# calibration copy holds a cycle of parents: the confidence product
# (joint_pav.c, walk_down) read a share not yet set, a NaN that sent the
# map's fit (joint_pav_fit) past its arrays: a crash that came and went
# with the heap (the output's path), so three paths, each must end, and
# alike
"$B/maketrace" "$PB_ROOT/experiments/joint_models_mesh.conf" -q -s seed=3 -s messages=1500 |
    "$B/skewer" -q --round 1ms > "$tmp/cy0.csv" || fail "C: the trace"
"$B/sniffer" -q -p 0.05 --seed 7 "$tmp/cy0.csv" > "$tmp/cy.csv" || fail "C: the loss"
strip_ids "$tmp/cy.csv" > "$tmp/cyb.csv"
for o in a bb cccccccccccccccccccccccccccccccc; do
    "$B/infer" --algo joint -q -o "$tmp/$o.res" "$tmp/cyb.csv" 2> "$tmp/err" ||
        fail "C: the defaults on a copy with a cycle of parents (-o $o.res): exit $?: $(grep -v warning "$tmp/err" | tail -1)"
    grep -v -e '^# cpu_' -e '^# algo=' "$tmp/$o.res" > "$tmp/$o.body"
    cmp -s "$tmp/a.body" "$tmp/$o.body" || fail "C: the output depends on the output's path ($o)"
done
"$B/score" --truth "$tmp/cy0.csv" --kept "$tmp/cyb.csv" "$tmp/a.res" > /dev/null 2> "$tmp/err" || fail "C: score: $(tail -1 "$tmp/err")"

# the fixed-seed round
mkdir -p "$tmp/real"
"$B/importtrace" -q "$PB_ROOT/data/deeptrace-ebpf/rps100-spans.json.gz" > "$tmp/raw.csv" || fail "importtrace"
keep_cols "$tmp/raw.csv" > "$tmp/real/ebpf.ids.csv"
strip_ids "$tmp/real/ebpf.ids.csv" > "$tmp/real/ebpf.bb.csv"
runs=30
[ "${PB_SANITIZED:-0}" = 1 ] && runs=8
sh "$PB_ROOT/tests/fuzz/joint_optfuzz.sh" --seed 2053 --runs $runs --messages 300 --requests 100 \
    --real "$tmp/real" --timeout 300 --configs "experiments/joint_models_pool.conf \
    experiments/joint_models_event.conf experiments/joint_models_seda.conf \
    experiments/joint_apps_retry.conf experiments/joint_apps_async.conf \
    maketrace/configs/hotel-like.conf" > "$tmp/fuzz.log" 2>&1 ||
    { grep -E 'FINDING|joint_optfuzz' "$tmp/fuzz.log" | head -20; fail "the fuzzer's round found something"; }
grep -q ' 0 findings$' "$tmp/fuzz.log" || { tail -5 "$tmp/fuzz.log"; fail "the fuzzer's round did not end"; }
tail -1 "$tmp/fuzz.log"
echo ok

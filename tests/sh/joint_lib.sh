# What the end-to-end tests of joint share; a test reads it with
#   . "$PB_ROOT/tests/sh/joint_lib.sh"
# (not a test itself: tests/run.sh runs only tests/sh/test_*.sh).  Needs
# PB_BIN and PB_ROOT (tests/run.sh sets both).  Sets B (the programs) and
# tmp (a scratch folder, removed on exit); exits 77 (skip) when maketrace,
# skewer, infer or score is missing.
set -u
B="$PB_BIN"
for p in maketrace skewer infer score; do [ -x "$B/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# OLD_COPY: infer options that give back the self-calibration copy before
# the thirty-sixth wave (the copy as big as conf_sim_share, its search as
# the real one's); the tests of one confidence rule whose hand-made
# over-confident case lives on that copy pin it on both sides, so the rule
# is still checked against a case that exists (the default copy's smaller,
# bound-corrected map no longer shows those cases: docs/joint/audits_late.md)
OLD_COPY="-s conf_copy_repair=-1 -s conf_copy_share=0 -s conf_copy_share_z=0 -s conf_copy_share_fpc=0"

# fail MESSAGE: say FAIL and stop the test
fail() { echo "FAIL: $*"; exit 1; }

# strip_callids TRACE: the trace with its callid column emptied (a black
# box) on stdout (experiments/trace_cols.sh's strip_ids, read below)
strip_callids() { strip_ids "$1"; }

# exact_acc: the exact_accuracy column of score's output read on stdin
exact_acc() { awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c["exact_accuracy"])}'; }

# run_nocal TRACE OUT [OPTIONS...]: joint without the self-calibration copy
# (the tests of the search's choices need no confidence), OUT written
run_nocal() {
    _t=$1; _o=$2; shift 2
    "$B/infer" --algo joint -s conf_selfcal=0 "$@" -o "$_o" "$_t" 2> "$tmp/log" ||
        fail "infer $*: $(tail -2 "$tmp/log")"
}

# exact_of TRUTH RESULT: score's exact accuracy of RESULT against TRUTH
exact_of() { "$B/score" --truth "$1" "$2" 2> /dev/null | exact_acc; }

# assignment_of RESULT: the assignment table of a result file
assignment_of() { awk '/^# table=assignment/ { on = 1 } on' "$1"; }

# calib_over REL REQUESTS ROWS [LOW]: print every bin of score's
# reliability table REL from LOW (default 0.5; 0: every bin above 0) up with a one-sided binomial test at 5 % of "at least
# c right" (c the bin's lower edge), on requests (rows per request m = all
# rows / REQUESTS, n = rows / m, k = n x share right, as
# experiments/joint_calib.sh; the test is experiments/calib_bins.awk, shared
# with it) and, when ROWS is 1, on rows too; exits 1 when a bin fails it
calib_over() {
    [ -r "$1" ] || { echo "calib_over: cannot read $1"; return 2; }
    awk -F, -v req="$2" -v low="${4:-0.5}" -f "$PB_ROOT/experiments/calib_bins.awk" "$1" |
    awk -F, -v rows="$3" '
    $1 > 0 {
        printf "bin [%s, %s): %d rows, %.1f %% right, p requests %.4f, p rows %.4f\n", $1, $2, $3, 100 * $6, $7, $8
        if ($7 + 0 < 0.05 || (rows && $8 + 0 < 0.05)) bad = 1
    }
    END { exit bad }'
}

# joint_vs_best TABLE: per row of an audit table (the columns config, seed,
# variant, mode, method, accuracy), sorted, the line "config,seed,variant,
# mode,joint's accuracy,the best other method's"
joint_vs_best() {
    awk -F, 'NR > 1 { k = $1 "," $2 "," $3 "," $4
                      if ($5 == "joint") j[k] = $6; else if (!(k in b) || $6 + 0 > b[k]) b[k] = $6 + 0 }
             END { for (k in j) printf "%s,%s,%s\n", k, j[k], b[k] }' "$1" | sort
}

# shuffle_rows SEED IN OUT: IN with its data rows in a random order drawn
# with awk's srand(SEED) (comment lines and the header first), into OUT;
# the test fails when the order did not change (read it back with
# infer --sort)
shuffle_rows() {
    awk -v seed="$1" 'BEGIN { srand(seed) } /^#/ || !h { print; if (!/^#/) h = 1; next }
         { printf "%.12f\t%s\n", rand(), $0 }' "$2" > "$tmp/keyed"
    { grep -v "$(printf '\t')" "$tmp/keyed"; grep "$(printf '\t')" "$tmp/keyed" | sort -k1,1 | cut -f2-; } > "$3"
    cmp -s "$2" "$3" && fail "shuffling $2 changed nothing"
    return 0
}

# check_shuffled_same TRACE RESULT [infer options...]: TRACE with its rows
# shuffled (seed 7) and read back with --sort gives RESULT's assignment
# table (infer --algo joint -s conf_selfcal=0 with the options); the test
# fails otherwise
check_shuffled_same() {
    t=$1; r=$2; shift 2
    shuffle_rows 7 "$t" "$tmp/shs.csv"
    "$B/infer" --algo joint -s conf_selfcal=0 "$@" --sort -o "$tmp/shs.res" "$tmp/shs.csv" \
        2> /dev/null || fail "infer shuffled"
    awk '/^# table=assignment/ { on = 1 } on' "$r" > "$tmp/shs.a"
    awk '/^# table=assignment/ { on = 1 } on' "$tmp/shs.res" > "$tmp/shs.b"
    cmp -s "$tmp/shs.a" "$tmp/shs.b" ||
        { diff "$tmp/shs.a" "$tmp/shs.b" | head -5; fail "shuffled rows changed the result"; }
}

# shuffle_ticks SEED IN OUT: IN with the data rows of each timestamp in a
# random order among themselves (awk's srand(SEED); rows of other
# timestamps keep their order), into OUT: a capture whose rows within a
# tick are not in event order; the test fails when nothing changed or a
# row was lost
shuffle_ticks() {
    awk -v seed="$1" 'BEGIN { FS = ","; srand(seed) }
        /^#/ { print; next }
        !h { for (i = 1; i <= NF; i++) if ($i == "ts") c = i; h = 1; print; next }
        { printf "%s\t%.12f\t%s\n", $c, rand(), $0 }' "$2" > "$tmp/keyed"
    { grep -v "$(printf '\t')" "$tmp/keyed"
      grep "$(printf '\t')" "$tmp/keyed" | sort -t "$(printf '\t')" -k1,1n -k2,2 | cut -f3-; } > "$3"
    cmp -s "$2" "$3" && fail "shuffling within ticks changed nothing"
    [ "$(wc -l < "$2")" = "$(wc -l < "$3")" ] || fail "shuffling lost rows"
    return 0
}

# check_shuffle_rename TRACE RES: the black-box result RES of TRACE (made
# with `infer --algo joint -q`) is the same with the data rows shuffled
# (read back with --sort: the same lines but the run's own) and with the
# nodes B and C renamed zz_front and aa_c (the same exact accuracy); the
# renamed run's result is left in $tmp/r.res for the caller's own checks.
# Needs $B, $tmp, and the test's exact() and body()
check_shuffle_rename() {
    shuffle_rows 7 "$1" "$tmp/x.csv"
    "$B/infer" --algo joint -q --sort -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null || fail "infer shuffled"
    body "$2" > "$tmp/a"
    body "$tmp/x.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "shuffled rows changed the result"; }
    sed -e '/^#/!s/\bB\b/zz_front/g; /^#/!s/\bC\b/aa_c/g' "$1" > "$tmp/r.csv"
    cmp -s "$1" "$tmp/r.csv" && fail "renaming changed nothing"
    "$B/infer" --algo joint -q -o "$tmp/r.res" "$tmp/r.csv" 2> /dev/null || fail "infer renamed"
    [ "$(exact "$tmp/r.csv" "$tmp/r.res")" = "$(exact "$1" "$2")" ] ||
        fail "renaming nodes changed the accuracy"
}

# shuffle_services SEED "SVCS" "LINKS" IN OUT: IN with, within every run of
# rows of one ts, the rows sent by a service in SVCS ("*": every service)
# put in a random order (awk's srand(SEED)) among their own places, and the
# call ids emptied on the links in LINKS ("caller>callee" ...), into OUT:
# a capture merged from hosts that keep the order of events and hosts
# that do not, spans on some links only
shuffle_services() {
    awk -v seed="$1" -v svcs="$2" -v links="$3" '
        BEGIN { FS = OFS = ","; srand(seed); n = split(svcs, a, " "); for (i = 1; i <= n; i++) S[a[i]] = 1
                n = split(links, b, " "); for (i = 1; i <= n; i++) L[b[i]] = 1 }
        function flush(   i, j, t, np, k) {
            np = 0
            for (i = 1; i <= nr; i++) if (sel[i]) pos[++np] = i
            for (i = np; i > 1; i--) { j = int(rand() * i) + 1; t = pos[i]; pos[i] = pos[j]; pos[j] = t }
            k = 0
            for (i = 1; i <= nr; i++) print (sel[i] ? r[pos[++k]] : r[i])
            nr = 0
        }
        /^#/ { print; next }
        !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
        { if (nr && $c["ts"] != t) flush()
          t = $c["ts"]
          lk = $c["type"] == "call" ? $c["src"] ">" $c["dst"] : $c["dst"] ">" $c["src"]
          if (lk in L) $c["callid"] = ""
          r[++nr] = $0; sel[nr] = svcs == "*" || ($c["src"] in S) }
        END { if (nr) flush() }' "$4" > "$5"
    cmp -s "$4" "$5" && fail "shuffle_services: $4 did not change"
    return 0
}

# keep_cols TRACE, strip_ids TRACE: as the audits make their traces
. "$PB_ROOT/experiments/trace_cols.sh"

# abc_trace N SPAN PERIODIC: N requests A>B>C by hand (A the client, B the
# front end, C a leaf), a request every 1-3 ms (a golden-ratio sequence, so
# no two gaps alike; PERIODIC=1: every 2 ms exactly), B calls C 0.2 ms
# after a request arrives, C answers in 1 ms + SPAN x (0..1) (another
# golden-ratio sequence), B answers 0.2 ms later; rows in time order, call
# ids and path (the request, 1..N) filled.  Used by the lost-call tests.
abc_trace() {
awk -v nreq="$1" -v span="$2" -v per="$3" 'BEGIN {
    OFS = ","; print "id,ts,recv_ts,src,dst,type,callid,path,cause"
    n = 0; t = 0.001
    for (k = 0; k < nreq; k++) {
        g = 0.41421356 * k - int(0.41421356 * k)
        if (k) t += per ? 0.002 : 0.001 + 0.002 * g
        u = 0.618034 * k - int(0.618034 * k)
        d = 0.001 + span * u
        ev[n++] = sprintf("%.9f,A,B,call,%d,%d", t, 2 * k + 1, k + 1)
        ev[n++] = sprintf("%.9f,B,C,call,%d,%d", t + 0.0002, 2 * k + 2, k + 1)
        ev[n++] = sprintf("%.9f,C,B,return,%d,%d", t + 0.0002 + d, 2 * k + 2, k + 1)
        ev[n++] = sprintf("%.9f,B,A,return,%d,%d", t + 0.0004 + d, 2 * k + 1, k + 1)
    }
    for (i = 1; i < n; i++) {
        x = ev[i]; j = i - 1
        while (j >= 0 && (ev[j] + 0) > (x + 0)) { ev[j + 1] = ev[j]; j-- }
        ev[j + 1] = x
    }
    for (i = 0; i < n; i++) { split(ev[i], a, ","); print i, a[1], a[1], a[2], a[3], a[4], a[5], a[6], "" }
}'
}

# A rule that runs a second search (recur_inner, recur_cycle): CONF's
# trace at 0.5 s, with call ids and as a black box, the default against
# OPT=0.  Leaves $tmp/{m.csv,i1.res,i0.res,bb.csv,b1.res,b0.res} and
# sets e1 e0 (ids) and b1 b0 (black box) for the caller's own checks;
# checks: ids OPT=0 <= OFF_MAX and default >= ON_MIN; the black box
# default kept (a `recur_inner=kept` line) and BB_GAIN above OPT=0;
# shuffled rows the same assignment; the service NAME renamed the same
# accuracy.
second_search_check() { # CONF OPT NAME OFF_MAX ON_MIN BB_GAIN
    "$B/maketrace" "$1" -s duration=0.5s > "$tmp/m.csv" || fail "maketrace $1"
    run_nocal "$tmp/m.csv" "$tmp/i1.res"
    run_nocal "$tmp/m.csv" "$tmp/i0.res" -s "$2=0"
    e1=$(exact_of "$tmp/m.csv" "$tmp/i1.res")
    e0=$(exact_of "$tmp/m.csv" "$tmp/i0.res")
    echo "# ids: $2=0 $e0, default $e1"
    awk -v a="$e0" -v b="$e1" -v x="$4" -v y="$5" 'BEGIN { exit !(a <= x && b >= y) }' ||
        fail "ids: $2=0 $e0 (want <= $4), default $e1 (want >= $5)"
    check_shuffled_same "$tmp/m.csv" "$tmp/i1.res"
    sed -e "/^#/!s/\\b$3\\b/aa_$3/g" "$tmp/m.csv" > "$tmp/rn.csv"
    cmp -s "$tmp/m.csv" "$tmp/rn.csv" && fail "renaming $3 changed nothing"
    run_nocal "$tmp/rn.csv" "$tmp/rn.res"
    [ "$(exact_of "$tmp/rn.csv" "$tmp/rn.res")" = "$e1" ] || fail "renaming $3 changed the accuracy"
    strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
    run_nocal "$tmp/bb.csv" "$tmp/b1.res"
    run_nocal "$tmp/bb.csv" "$tmp/b0.res" -s "$2=0"
    b1=$(exact_of "$tmp/m.csv" "$tmp/b1.res")
    b0=$(exact_of "$tmp/m.csv" "$tmp/b0.res")
    echo "# black box: $2=0 $b0, default $b1"
    grep -q '^# recur_inner=kept ' "$tmp/b1.res" || fail "black box: not kept"
    awk -v a="$b0" -v b="$b1" -v g="$6" 'BEGIN { exit !(b >= a + g) }' ||
        fail "black box: $2=0 $b0, default $b1 (want $6 more)"
}

# The same rule on a trace where it cannot fire (CONF2 made by the
# caller): no line matching RE, and the output OPT=0's byte for byte but
# the params line.
second_search_silent() { # CONF2 OPT RE
    "$B/maketrace" "$1" -s duration=0.5s > "$tmp/n.csv" || fail "maketrace $1"
    run_nocal "$tmp/n.csv" "$tmp/n1.res"
    run_nocal "$tmp/n.csv" "$tmp/n0.res" -s "$2=0"
    ! grep -q "$3" "$tmp/n1.res" || fail "a recur line where $2 cannot fire"
    grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$tmp/n1.res" > "$tmp/a"
    grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$tmp/n0.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "$2 cannot fire: output changed"; }
}

# joint_overlap_trace N: N overlapping requests client -> a, each with one
# call a -> b, all open at once, first in last out (a black box: the
# re-pairing's greedy sees N open calls a link; test_joint_onestamp.sh,
# test_joint_rbucket.sh) on stdout
joint_overlap_trace() {
    awk -v N="$1" 'BEGIN {
        print "id,ts,recv_ts,src,dst,type,path,cause"; id = 0
        for (i = 0; i < N; i++) {
            t = 0.001 * (2 * i); printf "%d,%.3f,%.3f,client,a,call,r%d,\n", ++id, t, t, i; c[i] = id
            t += 0.0005; printf "%d,%.3f,%.3f,a,b,call,r%d,%d\n", ++id, t, t, i, c[i]; d[i] = id }
        for (i = N - 1; i >= 0; i--) {
            t = 0.001 * (2 * N + 2 * (N - 1 - i)); printf "%d,%.3f,%.3f,b,a,return,r%d,%d\n", ++id, t, t, i, d[i]
            t += 0.0005; printf "%d,%.3f,%.3f,a,client,return,r%d,%d\n", ++id, t, t, i, c[i] } }'
}

# lostmid_trace SPAN: test_joint_unp_lostmid.sh's hand-made trace into
# $tmp: t.csv (120 requests A>B>C, C answering in 1 ms + SPAN x (0..1)),
# p.csv (the calls A>B of requests 31, 60 and 90 removed), tb.csv / pb.csv
# (both with call ids emptied)
lostmid_trace() {
    abc_trace 120 "$1" 0 > "$tmp/t.csv" || fail "the hand-made trace"
    awk -F, 'NR == 1 || !($4 == "A" && $6 == "call" && ($8 == 31 || $8 == 60 || $8 == 90))' \
        "$tmp/t.csv" > "$tmp/p.csv"
    [ "$(wc -l < "$tmp/p.csv")" -eq 478 ] || fail "the three calls not removed"
    strip_callids "$tmp/t.csv" > "$tmp/tb.csv"
    strip_callids "$tmp/p.csv" > "$tmp/pb.csv"
}

# toss_trace: print the hand-made trace of two requests through a front
# service B calling D, with truth (test_joint_ebpf_toss.sh and
# test_joint_parjoin_toss.sh describe what each counts on it): B's calls
# 3 and 4 to D sent 3 us apart and read by D the other way round, D
# answering in send order, B answering the client out of order.
toss_trace() {
    cat <<'CSV'
id,ts,recv_ts,src,dst,type,callid,path,cause
1,1.000000,1.000010,client,B,call,,p1,
2,1.000005,1.000015,client,B,call,,p2,
3,1.000100,1.000130,B,D,call,,p1,1
4,1.000103,1.000110,B,D,call,,p2,2
5,1.000300,1.000310,D,B,return,,p1,3
6,1.000400,1.000410,D,B,return,,p2,4
7,1.000500,,B,client,return,,p2,6
8,1.000600,,B,client,return,,p1,5
CSV
}

# scramble_threads IN OUT: IN with each service's thread labels (the
# thread column of the rows it receives, dst) dealt out again at random
# among its rows (awk's srand(5)): threads that say nothing about visits
scramble_threads() {
    awk 'BEGIN { FS = OFS = ","; srand(5) }
         /^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
         { d = $c["dst"]; n[d]++; v[d, n[d]] = $c["thread"] }
         END { for (d in n) { for (i = n[d]; i > 1; i--) { j = int(rand() * i) + 1
                              t = v[d, i]; v[d, i] = v[d, j]; v[d, j] = t }
                              for (i = 1; i <= n[d]; i++) print d, i, v[d, i] } }' "$1" |
        sort -t, -k1,1 -k2,2n > "$tmp/deal"
    awk 'BEGIN { FS = OFS = "," }
         NR == FNR { th[$1, $2] = $3; next }
         /^#/ { print; next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }
         { d = $c["dst"]; k[d]++; $c["thread"] = th[d, k[d]]; print }' "$tmp/deal" "$1" \
        > "$2"
}

# unp_wide_window_trace: the loss rule's trace whose window is over half
# the messages (test_joint_unp_wholeone.sh, _wholeother.sh): 160 requests
# A>B>C, the calls A>B of every request = 2 mod 7 and the answers C>B = 4
# mod 7 lost; writes $tmp/t.csv (whole), p.csv (lossy), tb.csv / pb.csv
# (call ids emptied) and joint's default results n.res (tb) and d.res (pb)
unp_wide_window_trace() {
    abc_trace 160 0.002 0 > "$tmp/t.csv" || fail "the hand-made trace"
    awk -F, 'NR == 1 || !(($4 == "A" && $6 == "call" && ($8 % 7 == 2)) ||
                          ($4 == "C" && $6 == "return" && ($8 % 7 == 4)))' "$tmp/t.csv" > "$tmp/p.csv"
    [ "$(wc -l < "$tmp/p.csv")" -eq 595 ] || fail "the messages not removed: $(wc -l < "$tmp/p.csv")"
    strip_callids "$tmp/t.csv" > "$tmp/tb.csv"
    strip_callids "$tmp/p.csv" > "$tmp/pb.csv"
    "$B/infer" --algo joint -q -o "$tmp/n.res" "$tmp/tb.csv" 2> /dev/null || fail "infer without loss"
    "$B/infer" --algo joint -q -o "$tmp/d.res" "$tmp/pb.csv" 2> /dev/null || fail "infer default"
}

# thread_pick_neutral PICK LINES RES: where the threads say nothing the
# receiving thread's term with thread_soft_pick=PICK changes nothing
# (test_joint_thread_warm.sh, _rate.sh): on $tmp/bb.csv with each service's
# thread labels dealt out again, no line matching the grep pattern LINES
# and thread_soft=0's assignment; with call ids ($tmp/m.csv) the assignment
# of thread_soft=0; shuffled rows of $tmp/bb.csv give RES's assignment
thread_pick_neutral() {
    scramble_threads "$tmp/bb.csv" "$tmp/s.csv"
    cmp -s "$tmp/bb.csv" "$tmp/s.csv" && fail "scrambling the threads changed nothing"
    run_nocal "$tmp/s.csv" "$tmp/s0.res" -s thread_soft=0
    run_nocal "$tmp/s.csv" "$tmp/sp.res" -s thread_soft=0.5 -s thread_soft_pick="$1"
    ! grep -q "$2" "$tmp/sp.res" || fail "scrambled threads: $(grep '^# thread_soft' "$tmp/sp.res")"
    assignment_of "$tmp/s0.res" > "$tmp/a"
    assignment_of "$tmp/sp.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "scrambled threads, pick=$1: not thread_soft=0's assignment"
    # with call ids every pair is made by call id: the term never applies
    run_nocal "$tmp/m.csv" "$tmp/i0.res" -s thread_soft=0
    run_nocal "$tmp/m.csv" "$tmp/ip.res" -s thread_soft=0.5 -s thread_soft_pick="$1"
    assignment_of "$tmp/i0.res" > "$tmp/a"
    assignment_of "$tmp/ip.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "pick=$1 with call ids: the assignment changed"
    check_shuffled_same "$tmp/bb.csv" "$3" -s thread_soft=0.5 -s thread_soft_pick="$1"
}

# mesh_1ms_trace: the mesh model (experiments/joint_models_mesh.conf) x2 for
# 0.3 s, stamps rounded to 1 ms: $tmp/m.csv with call ids, $tmp/bb.csv
# without (test_joint_thread_warm.sh, _rate.sh)
mesh_1ms_trace() {
    "$B/maketrace" "$R/experiments/joint_models_mesh.conf" -s duration=0.3s -s instances_scale=2 \
        > "$tmp/raw.csv" || fail "maketrace"
    keep_cols "$tmp/raw.csv" > "$tmp/k.csv"
    "$B/skewer" -q --round 1ms "$tmp/k.csv" > "$tmp/m.csv" || fail "skewer"
    strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
}

# conf_run NAME [infer options...]: joint on $tmp/t.csv into $tmp/r.NAME;
# $tmp/x.NAME its output without the cpu, params and program lines (and
# lines matching $conf_run_drop when set), $tmp/b.NAME the busy test's
# lines, $tmp/p.NAME the rows (id, instance, rank, parent) without the
# confidence; prints the metadata's selfcal_rows (test_joint_copypairs.sh,
# test_joint_scopy.sh)
conf_run() {
    _n=$1; shift
    "$B/infer" --algo joint -q "$@" -o "$tmp/r.$_n" "$tmp/t.csv" 2> "$tmp/log" ||
        fail "infer $_n: $(cat "$tmp/log")"
    grep -v "^# cpu_\|^# params:\|^# program=${conf_run_drop:+\\|$conf_run_drop}" "$tmp/r.$_n" \
        > "$tmp/x.$_n"
    grep '^# busy_' "$tmp/r.$_n" > "$tmp/b.$_n"
    sed -n '/^id,instance,rank,parent,confidence$/,$p' "$tmp/r.$_n" | cut -d, -f1-4 > "$tmp/p.$_n"
    sed -n 's/.* selfcal_rows=\([0-9]*\).*/\1/p' "$tmp/r.$_n"
}

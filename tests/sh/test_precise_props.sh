#!/bin/sh
# Properties of the precise tracers (docs/precise.md):
# - renaming threads, connections and nodes changes nothing (the same
#   messages in the same instances, the same scores), for vpath's paper
#   variant and borderpatrol in both contexts;
# - vpath's paper variant is never silently wrong: every request it gets
#   wrong has a message in an instance it flagged (experiments/
#   flag_check.awk), on the papers' examples, the hand-made capture, and
#   (with the shared data) the hotel traces under every thread emulation
#   and the eBPF capture;
# - with pool threads (importtrace --thread=pool, no hand-off) vpath's
#   paper variant and borderpatrol by thread are exact at both loads.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in importtrace infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
field() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' "$2"; }
SH="${PB_SHARED:-$PB_ROOT/../shared}/data"
set -- "$PB_ROOT"/tests/data/precise/*.csv "$PB_ROOT/tests/data/ebpf/small.csv"
if [ -f "$SH/deeptrace-ebpf/rps100-spans.json.gz" ]; then
    "$PB_BIN/importtrace" -q -o "$tmp/ebpf.csv" "$SH/deeptrace-ebpf/rps100-spans.json.gz" || fail "import capture"
    set -- "$@" "$tmp/ebpf.csv"
fi
if [ -f "$SH/deathstarbench-hotel/hotel_load25.tar.xz" ]; then
    for L in 25 100; do
        for m in pool loop random:4; do
            [ $L = 25 ] && [ $m != pool ] && continue
            f="$tmp/h$L-$(echo $m | tr : _).csv"
            "$PB_BIN/importtrace" -q --callid --thread=$m -o "$f" "$SH/deathstarbench-hotel/hotel_load$L.tar.xz" ||
                fail "import hotel $L $m"
            [ $L = 100 ] && set -- "$@" "$f"
        done
        for a in "vpath -s variant=paper" "borderpatrol"; do
            # shellcheck disable=SC2086
            "$PB_BIN/infer" --algo $a -o "$tmp/p.res" "$tmp/h$L-pool.csv" 2>/dev/null || fail "$a pool $L"
            "$PB_BIN/score" --truth "$tmp/h$L-pool.csv" "$tmp/p.res" > "$tmp/p.score"
            [ "$(field exact_accuracy "$tmp/p.score")" = 1 ] || fail "hotel $L pool: $a not exact"
        done
    done
fi
# a call chain 50,000 levels deep, on a 1 MB stack: exact, no recursion
awk -v D=50000 'BEGIN {
    print "id,ts,recv_ts,src,dst,type,callid,path,cause,thread,sthread,conn"; id = 0
    for (i = 0; i < D; i++) {
        printf "%d,%.6f,%.6f,N%d,N%d,call,%d,1,%s,t%d,t%d,c%d\n", id, i*1e-6, i*1e-6+5e-7, i, i+1, i+1, (i ? id-1 : ""), i+1, i, i; id++ }
    for (i = D-1; i >= 0; i--) { t = (2*D-i)*1e-6
        printf "%d,%.6f,%.6f,N%d,N%d,return,%d,1,%d,t%d,t%d,c%d\n", id, t, t+5e-7, i+1, i, i+1, id-1, i, i+1, i; id++ }
}' > "$tmp/deep.csv"
(
    ulimit -s 1024 || exit 0
    for a in "vpath -s variant=paper" "borderpatrol -s view=message"; do
        # shellcheck disable=SC2086
        "$PB_BIN/infer" --algo $a -o "$tmp/d.res" "$tmp/deep.csv" 2>/dev/null || fail "deep: $a"
        "$PB_BIN/score" --truth "$tmp/deep.csv" "$tmp/d.res" > "$tmp/d.score" || fail "deep: score $a"
        [ "$(field exact_accuracy "$tmp/d.score")" = 1 ] || fail "deep: $a not exact"
    done
) || exit 1
# rename: every thread, sthread, conn label and node name gets a prefix
rename() {
    awk -F, -v OFS=, '/^#/ { print; next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }
        { $(c["src"]) = "n_" $(c["src"]); $(c["dst"]) = "n_" $(c["dst"])
          if ("thread" in c && $(c["thread"]) != "") $(c["thread"]) = "T" $(c["thread"])
          if ("sthread" in c && $(c["sthread"]) != "") $(c["sthread"]) = "T" $(c["sthread"])
          if ("conn" in c && $(c["conn"]) != "") $(c["conn"]) = "C" $(c["conn"])
          print }' "$1"
}
assign() { sed -n '/^# table=assignment/,/^# end/p' "$1" | grep -v '^#' | cut -d, -f1,2; }
for f in "$@"; do
    rename "$f" > "$tmp/r.csv"
    for a in "vpath -s variant=paper" "vpath -s variant=paper -s view=message" \
             "borderpatrol" "borderpatrol -s context=node"; do
        # shellcheck disable=SC2086
        "$PB_BIN/infer" --algo $a --report "$tmp/rep" -o "$tmp/a.res" "$f" 2>/dev/null || fail "$a on $f"
        # shellcheck disable=SC2086
        "$PB_BIN/infer" --algo $a -o "$tmp/b.res" "$tmp/r.csv" 2>/dev/null || fail "$a on renamed $f"
        assign "$tmp/a.res" > "$tmp/a.as"
        assign "$tmp/b.res" > "$tmp/b.as"
        cmp -s "$tmp/a.as" "$tmp/b.as" || fail "$a: renaming changed the instances of $f"
        case $a in
        vpath*) awk -F, -f "$PB_ROOT/experiments/flag_check.awk" "$tmp/rep" "$tmp/a.res" "$f" > "$tmp/fc" ||
                    fail "$a silently wrong on $f: $(cat "$tmp/fc")" ;;
        esac
    done
done
exit 0

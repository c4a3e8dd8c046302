#!/bin/sh
# Hostile input, second round (issue 29), end to end.  One block per class
# of the issue; each block tries several cases of its class, not one
# example.
set -u
for p in maketrace skewer sniffer infer score importtrace; do
    [ -x "$PB_BIN/$p" ] || exit 77
done
B="$PB_BIN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1
# expect_err NAME SUBSTRING CMD...: CMD exits 1 or 2 and says SUBSTRING
expect_err() {
    name=$1 want=$2
    shift 2
    "$@" > out 2> err
    rc=$?
    [ $rc -eq 1 ] || [ $rc -eq 2 ] || { cat err; fail "$name: exit $rc, expected 1 or 2"; }
    grep -qF -- "$want" err || { cat err; fail "$name: no \"$want\" in the message"; }
}
"$B/maketrace" -s messages=400 -o t.csv "$PB_ROOT/maketrace/configs/multitier.conf" ||
    fail maketrace
cp t.csv t.orig
"$B/infer" -a nesting -o r.csv t.csv || fail infer
cp r.csv r.orig
intact() { cmp -s t.csv t.orig || fail "$1 destroyed t.csv"; cmp -s r.csv r.orig || fail "$1 destroyed r.csv"; }

# --- 1. data loss: an output is never an input, whatever its name -------
# through a symbolic link, /dev/stdin, a link to a link; input on stdin
ln -s t.csv l1.csv
ln -s l1.csv l2.csv
for o in l1.csv l2.csv /dev/stdin; do
    for cmd in "skewer -n WS2=+5ms" "sniffer -q" "infer -a nesting" \
               "infer -a nesting -s window=1s" "infer -a nesting --dot" \
               "infer -a nesting --report" "skewer -n WS2=+1ms --print-spec"; do
        case "$cmd" in *--dot|*--report|*--print-spec) oo="$cmd $o" ;; *) oo="$cmd -o $o" ;; esac
        # shellcheck disable=SC2086
        "$B"/$oo < t.csv > /dev/null 2> err
        [ $? -eq 1 ] || { cat err; fail "$oo < t.csv: not refused"; }
        grep -q 'is also an input' err || { cat err; fail "$oo: message"; }
        intact "$oo < t.csv"
    done
    "$B/score" -T r.csv --topn-curve "$o" - < t.csv > /dev/null 2> err
    [ $? -eq 1 ] && grep -q 'is also an input' err || { cat err; fail "score --topn-curve $o < t.csv"; }
    intact "score --topn-curve $o"
done
# the link's target is replaced through a temporary file: the link stays
"$B/skewer" -n WS2=+5ms t.csv > s.ref
ln -s s.out ls.csv   # a link to a file that does not exist yet
"$B/skewer" -n WS2=+5ms -o ls.csv t.csv || fail "skewer -o dangling link"
[ -L ls.csv ] && cmp -s s.out s.ref || fail "-o through a dangling link"
"$B/skewer" -n WS2=+7ms -o ls.csv t.csv || fail "skewer -o link"
[ -L ls.csv ] || fail "-o replaced the link itself"
"$B/skewer" -n WS2=+7ms -o ls.csv nosuch.csv 2> /dev/null && fail "skewer on a missing input"
[ -L ls.csv ] && [ "$(cat s.out)" != "" ] || fail "a failed run emptied the link's target"
ls | grep -q '\.tmp' && fail "temporary files left: $(ls)"
# -o /dev/stdout is the run's own standard output
"$B/skewer" -n WS2=+5ms -o /dev/stdout t.csv > so.csv || fail "-o /dev/stdout"
cmp -s so.csv s.ref || fail "-o /dev/stdout wrote something else"

# files read after the outputs are opened: score --kept, -s callgraph=,
# importtrace's folder members
cp t.csv k.csv; cp k.csv k.orig
expect_err "--kept = --topn-curve" "is also an output" "$B/score" -T t.csv --kept k.csv --topn-curve k.csv r.csv
cmp -s k.csv k.orig || fail "score --kept replaced by --topn-curve"
printf 'C1 WS1 AP1\n' > cg.txt; cp cg.txt cg.orig
for fl in -o --dot --report --export-jaeger; do
    expect_err "callgraph = $fl" "is also an output" "$B/infer" -a joint -s callgraph=cg.txt $fl cg.txt t.csv
    cmp -s cg.txt cg.orig || fail "callgraph file replaced by $fl"
done
mkdir d d/sub
cp "$PB_ROOT/tests/data/importtrace/irregular.json" d/sub/a.json
cp d/sub/a.json a.orig
expect_err "importtrace -o member" "is also an output" "$B/importtrace" -q -o d/sub/a.json d
cmp -s d/sub/a.json a.orig || fail "importtrace replaced a member of its folder"
ln -s sub/a.json d/alias.json
expect_err "importtrace -o member via link" "is also an output" "$B/importtrace" -q -o d/alias.json d
cmp -s d/sub/a.json a.orig || fail "importtrace replaced a member through a link"
# two outputs of one run that are one file
for cmd in "infer -a nesting -o x --dot x" "infer -a nesting -o x --report x" \
           "infer -a nesting --dot x --report ./x" "infer -a nesting -o x --export-jaeger x" \
           "infer -a nesting -o l1x --dot x" "skewer -n WS2=+1ms -o x --print-spec x"; do
    ln -sf x l1x
    echo keep > x
    # shellcheck disable=SC2086
    set -- $cmd
    p=$1; shift
    expect_err "$cmd" "is also another output" "$B/$p" "$@" t.csv
    [ "$(cat x)" = keep ] || fail "$cmd: changed x"
done
# exec: the command inherits no descriptor of infer's beyond 0, 1, 2 (the
# shell's own copies of them aside): not the temporary file of infer's -o
expect_err "exec fds" "exited with status 3" "$B/infer" -a "exec:ls -l /proc/\$\$/fd >&2; exit 3" -o e.res t.csv
grep -- '->' err | grep -v 'pathbench-exec-' && fail "exec: the command inherited descriptors of infer"
[ "$(grep -c -- '->' err)" -ge 3 ] || { cat err; fail "exec: no descriptor listing"; }

exit 0

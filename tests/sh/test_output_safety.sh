#!/bin/sh
# Output files (issue 16 items 2 and 8; docs/DEVELOPING.md "Output files"):
# no program destroys an input, every output is opened before the work,
# every write is checked, a failed run leaves the old output as it was and
# no temporary file behind.
set -u
B="$PB_BIN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1

"$B/maketrace" -s messages=400 -o t.csv "$PB_ROOT/maketrace/configs/multitier.conf" || fail "maketrace"
cp t.csv t.orig
"$B/infer" -a nesting -o r.csv t.csv || fail "infer"
cp r.csv r.orig
sum() { cksum < "$1"; }

# 1. an output that is an input is refused, and the input is intact
for cmd in "skewer -n WS2=+5ms -o t.csv t.csv" "sniffer -q -r 100 -o t.csv t.csv" \
           "infer -a nesting -o t.csv t.csv" "infer -a nesting --dot t.csv t.csv" \
           "infer -a nesting --report t.csv t.csv" "score -T t.csv --topn-curve t.csv r.csv" \
           "score -T t.csv --topn-curve r.csv r.csv" "skewer -n WS2=+5ms --print-spec t.csv t.csv"; do
    # shellcheck disable=SC2086
    set -- $cmd
    p=$1; shift
    "$B/$p" "$@" >/dev/null 2>err
    rc=$?
    [ $rc -eq 1 ] || fail "$cmd: exit $rc, expected 1"
    grep -q 'is also an input' err || fail "$cmd: message: $(cat err)"
    cmp -s t.csv t.orig || fail "$cmd destroyed its input t.csv"
    cmp -s r.csv r.orig || fail "$cmd destroyed its input r.csv"
done
# ... also through another name of the same file (a hard link)
ln t.csv same.csv
"$B/skewer" -n WS2=+5ms -o same.csv t.csv >/dev/null 2>err && fail "skewer -o (hard link of the input) accepted"
cmp -s t.csv t.orig || fail "skewer -o hard link destroyed the input"
printf 'messages = 10\ntracelet t from A { call B }\n' > c.conf
cp c.conf c.orig
"$B/maketrace" -o c.conf c.conf 2>err && fail "maketrace -o CONFIG accepted"
cmp -s c.conf c.orig || fail "maketrace -o CONFIG destroyed the config"

# 2. outputs are opened before the work: a bad folder fails at once (the
#    trace named after it does not even exist, and is not mentioned)
for cmd in "infer -a nesting --dot nodir/x.dot missing.csv" "infer -a nesting --report nodir/x.txt missing.csv" \
           "infer -a nesting -o nodir/r.csv missing.csv" "skewer -n A=+1ms -o nodir/x.csv missing.csv" \
           "skewer -n A=+1ms --print-spec nodir/x.spec missing.csv" "sniffer -o nodir/x.csv missing.csv" \
           "score -T missing.csv --topn-curve nodir/c.csv missing.res" "importtrace -o nodir/x.csv missing.json" \
           "maketrace -o nodir/x.csv $PB_ROOT/maketrace/configs/tiny.conf"; do
    # shellcheck disable=SC2086
    set -- $cmd
    p=$1; shift
    "$B/$p" "$@" >/dev/null 2>err
    rc=$?
    [ $rc -eq 1 ] || fail "$cmd: exit $rc, expected 1"
    grep -q 'nodir/' err || fail "$cmd: the message does not name the output: $(cat err)"
    grep -q 'missing' err && fail "$cmd: worked on the input before opening the output: $(cat err)"
done

# 3. every write is checked: a full device is a failure, never exit 0
if [ -w /dev/full ]; then
    for cmd in "maketrace -o /dev/full $PB_ROOT/maketrace/configs/multitier.conf" \
               "infer -a nesting -o /dev/full t.csv" "infer -a nesting --dot /dev/full t.csv" \
               "infer -a nesting --report /dev/full t.csv" "skewer -n WS2=+1ms -o /dev/full t.csv" \
               "sniffer -q -o /dev/full t.csv" "score -T t.csv --topn-curve /dev/full r.csv" \
               "importtrace -q -o /dev/full $PB_ROOT/tests/data/importtrace/irregular.json"; do
        # shellcheck disable=SC2086
        set -- $cmd
        p=$1; shift
        "$B/$p" "$@" >/dev/null 2>err && fail "$cmd: exit 0 on a full device"
        grep -qi 'write\|space' err || fail "$cmd: message: $(cat err)"
    done
    # standard output on a full device
    for cmd in "infer -a nesting t.csv" "skewer -n WS2=+1ms t.csv" "sniffer -q t.csv" \
               "score -T t.csv r.csv" "maketrace $PB_ROOT/maketrace/configs/multitier.conf"; do
        # shellcheck disable=SC2086
        set -- $cmd
        p=$1; shift
        "$B/$p" "$@" >/dev/full 2>err && fail "$cmd >/dev/full: exit 0"
    done
    # the old file is left as it was when the run fails
    "$B/infer" -a nesting -o r.csv nosuch.csv 2>/dev/null && fail "infer on a missing trace"
    cmp -s r.csv r.orig || fail "a failed infer changed the old output"
fi

# a read-only output stays protected (root may write anything: not checked)
if [ "$(id -u)" != 0 ]; then
    echo old > ro.csv; chmod 444 ro.csv
    "$B/infer" -a nesting -o ro.csv t.csv 2>err && fail "infer replaced a read-only file"
    [ "$(cat ro.csv)" = old ] || fail "read-only file changed"
fi

# 4. a good run replaces the output, with the usual mode, and leaves no
#    temporary file
"$B/skewer" -n WS2=+5ms -o s.csv t.csv || fail "skewer -o"
"$B/skewer" -n WS2=+5ms t.csv | cmp -s - s.csv || fail "skewer -o and stdout differ"
[ -r s.csv ] && [ "$(find s.csv -perm -0600 | wc -l)" -eq 1 ] || fail "s.csv mode"
ls | grep -q '\.tmp' && fail "temporary files left: $(ls)"
# writing to a device (not a regular file) works
"$B/infer" -a nesting -o /dev/null t.csv || fail "infer -o /dev/null"
[ -c /dev/null ] || fail "/dev/null replaced by a regular file"
exit 0

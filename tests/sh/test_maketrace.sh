#!/bin/sh
# maketrace end to end: the golden trace, the command line, located errors,
# and that the core reader accepts what maketrace writes.
set -u
MT="$PB_BIN/maketrace"
CONF="$PB_ROOT/maketrace/configs"
[ -x "$MT" ] || { echo "no $MT"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# golden: tiny.conf, seed 7 (from the config), byte for byte
"$MT" "$CONF/tiny.conf" > "$tmp/tiny.csv" || fail "tiny.conf exit $?"
cmp "$tmp/tiny.csv" "$PB_ROOT/tests/data/maketrace/tiny.golden.csv" || fail "tiny.conf differs from the golden trace"
# run from another directory, with -o: the same bytes
(cd "$tmp" && "$MT" "$CONF/tiny.conf" -o out.csv) || fail "-o exit $?"
cmp "$tmp/out.csv" "$tmp/tiny.csv" || fail "-o output differs from stdout"

# -s and -D seed= agree with each other and differ from the default
"$MT" "$CONF/tiny.conf" -s 8 > "$tmp/s8.csv" || fail "-s 8 exit $?"
"$MT" "$CONF/tiny.conf" -D seed=8 > "$tmp/d8.csv" || fail "-D seed=8 exit $?"
cmp -s "$tmp/s8.csv" "$tmp/tiny.csv" && fail "-s 8 gives the seed 7 trace"
cmp "$tmp/s8.csv" "$tmp/d8.csv" || fail "-s 8 and -D seed=8 differ"
head -1 "$tmp/s8.csv" | grep -q '^# generator=maketrace config=tiny.conf seed=8$' || fail "metadata: $(head -1 "$tmp/s8.csv")"
sed -n 3p "$tmp/s8.csv" | grep -q '^id,ts,recv_ts,src,dst,type,callid,path,cause$' || fail "header: $(sed -n 3p "$tmp/s8.csv")"

# every shipped config parses
for c in "$CONF"/*.conf; do
    "$MT" "$c" --parse-only 2>"$tmp/err" || fail "$c: --parse-only: $(cat "$tmp/err")"
done

# the core reader takes the output, truth included
if [ -x "$PB_BIN/infer" ]; then
    "$PB_BIN/infer" --algo truth --parse-only "$tmp/tiny.csv" 2>"$tmp/err" || fail "infer rejects tiny: $(cat "$tmp/err")"
    "$MT" "$CONF/children-parallel.conf" -D duration=5s | "$PB_BIN/infer" --algo truth --parse-only 2>"$tmp/err" \
        || fail "infer rejects children-parallel: $(cat "$tmp/err")"
fi

# bad config: exit 1, message names file and line and what was expected
printf 'messages = 5\ntracelet t from A {\n  jump B\n}\n' > "$tmp/bad.conf"
"$MT" "$tmp/bad.conf" > /dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "bad config exit $rc"
grep -q 'bad.conf:3:3: unknown statement "jump"; expected call, send' "$tmp/err" || fail "bad config message: $(cat "$tmp/err")"
"$MT" "$tmp/bad.conf" --parse-only > /dev/null 2>&1 && fail "--parse-only accepts a bad config"

# -D that names nothing, bad -D value
"$MT" "$CONF/tiny.conf" -D nosuch=1 > /dev/null 2>"$tmp/err" && fail "-D nosuch accepted"
grep -q -- '-s: nosuch: no setting' "$tmp/err" || fail "-D nosuch message: $(cat "$tmp/err")"
"$MT" "$CONF/tiny.conf" -D instances=zero > /dev/null 2>"$tmp/err" && fail "-D instances=zero accepted"
grep -q 'option instances: expected an integer' "$tmp/err" || fail "-D instances message: $(cat "$tmp/err")"

# no length limit
printf 'tracelet t from A { call B }\n' > "$tmp/nolimit.conf"
"$MT" "$tmp/nolimit.conf" > /dev/null 2>"$tmp/err" && fail "no length limit accepted"
grep -q 'no length limit' "$tmp/err" || fail "no-limit message: $(cat "$tmp/err")"

# missing file, usage errors, help
"$MT" "$tmp/none.conf" > /dev/null 2>"$tmp/err"
[ $? -eq 1 ] || fail "missing config exit"
grep -q 'none.conf: cannot open config' "$tmp/err" || fail "missing config message: $(cat "$tmp/err")"
"$MT" > /dev/null 2>&1
[ $? -eq 2 ] || fail "no argument: exit not 2"
"$MT" "$CONF/tiny.conf" -s x > /dev/null 2>&1
[ $? -eq 2 ] || fail "-s x: exit not 2"
"$MT" --help | grep -q instances_scale || fail "--help lacks the settings"

# a length limit by count holds whole paths only
"$MT" "$CONF/multitier.conf" -D duration=0 -D messages=5000 > "$tmp/m.csv" || fail "messages=5000 exit"
n=$(grep -vc '^#' "$tmp/m.csv")
[ "$n" -le 5001 ] && [ "$n" -gt 4950 ] || fail "messages=5000 gave $((n - 1)) rows"
awk -F, '!/^#/ && $6=="call" {c[$7]++} !/^#/ && $6=="return" {r[$7]++}
    END {for (k in c) if (r[k] != 1) bad++; for (k in r) if (c[k] != 1) bad++; exit bad > 0}' "$tmp/m.csv" \
    || fail "messages=5000: a call without its return"
exit 0

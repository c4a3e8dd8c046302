#!/bin/sh
# The command-line convention (docs/DEVELOPING.md) over every program's
# option table, read through the hidden --list-options flag:
#   - one short letter, one long name, in every program;
#   - long flags join words with '-', parameters with '_' (never mixed);
#   - every program has -h/--help; bad usage exits 2 (an unknown flag, a
#     flag without its value, a misspelled parameter); --help exits 0.
set -u
B="$PB_BIN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

n=0
for p in "$B"/*; do
    [ -x "$p" ] || continue
    name=$(basename "$p")
    "$p" --list-options >"$tmp/$name.list" 2>"$tmp/err" ||
        fail "$name --list-options: exit $? $(cat "$tmp/err")"
    grep -q '^flag -h --help$' "$tmp/$name.list" || fail "$name has no -h/--help"
    sed "s/^/$name /" "$tmp/$name.list" >>"$tmp/all"
    n=$((n + 1))
done
[ "$n" -ge 6 ] || fail "only $n programs found in $B"

# one meaning per short letter
awk '$2 == "flag" && $3 != "-" {
        if (($3 in long) && long[$3] != $4) {
            printf "%s %s is %s here but %s in %s\n", $1, $3, $4, long[$3], where[$3]; bad = 1
        }
        long[$3] = $4; where[$3] = $1
    }
    END { exit bad }' "$tmp/all" || fail "a short option has two meanings"
# a long name is a flag or takes a value the same way everywhere
awk '$2 == "flag" { k = $4; a = (NF > 4) ? "arg" : "noarg"
        if ((k in seen) && seen[k] != a) { printf "%s %s: %s here, %s elsewhere\n", $1, k, a, seen[k]; bad = 1 }
        seen[k] = a }
    END { exit bad }' "$tmp/all" || fail "a long flag takes a value in one program only"
# separators
awk '$2 == "flag" && $4 ~ /_/ { print $1 " flag " $4 " has _"; bad = 1 }
     $2 == "param" && $3 ~ /-/ { print $1 " param " $3 " has -"; bad = 1 }
     END { exit bad }' "$tmp/all" || fail "a name mixes separators"
# every program with parameters sets them with -s/--set
for p in $(awk '$2 == "param" { print $1 }' "$tmp/all" | sort -u); do
    grep -q '^flag -s --set NAME=VALUE$' "$tmp/$p.list" || fail "$p has parameters but no -s/--set"
done

# the shared flags of every program (issue 27): -q, -o, -s and --version in
# every program but pbcapture (which runs a command and sets no parameter;
# compare joined in h141); --seed where the program draws (maketrace,
# skewer, sniffer; compare's bootstrap)
for p in infer maketrace skewer sniffer score importtrace compare; do
    for f in '-q --quiet' '-o --output FILE' '-s --set NAME=VALUE' '- --version'; do
        grep -q "^flag $f\$" "$tmp/$p.list" || fail "$p has no $f"
    done
    "$B/$p" --version >"$tmp/v" 2>&1 || fail "$p --version exit $?"
    grep -Eq "^$p \(pathbench\) [0-9]+\.[0-9]+\.[0-9]+( \(git [0-9a-f]+(-dirty)?\))?\$" "$tmp/v" ||
        fail "$p --version: $(cat "$tmp/v")"
done
for p in maketrace skewer sniffer compare; do
    grep -q '^flag - --seed ' "$tmp/$p.list" || fail "$p draws but has no --seed"
done
# one version everywhere
[ "$(for p in infer maketrace skewer sniffer score importtrace compare pbcapture; do "$B/$p" --version | cut -d' ' -f3-; done | sort -u | wc -l)" -eq 1 ] ||
    fail "the programs print different versions"

# one meaning per parameter name across algorithms and programs: a name with two types
# is two meanings (linking's duration x against nesting's exponent x)
awk '$2 == "param" { if (($3 in t) && t[$3] != $4) { print $1 " param " $3 ": " t[$3] " in " w[$3] ", " $4 " here"; bad = 1 } t[$3] = $4; w[$3] = $1 }
     END { exit bad }' "$tmp/all" || fail "a parameter name means two things in two algorithms"
printf 'infer param x duration\ninfer param x number\n' | awk '$2 == "param" { if (($3 in t) && t[$3] != $4) bad = 1; t[$3] = $4 } END { exit !bad }' ||
    fail "the two-types check does not catch x as a duration and a number"
# renamed parameters: the old names are still read, with a note on stderr
"$B/maketrace" "$PB_ROOT/maketrace/configs/tiny.conf" -o "$tmp/tl.csv" || fail "maketrace tiny"
"$B/infer" -a linking -s x=1s "$tmp/tl.csv" 2>"$tmp/err" >"$tmp/r.csv" || fail "linking -s x=1s (old name) refused"
grep -q 'now called spont_window' "$tmp/err" || fail "no deprecation note for x: $(cat "$tmp/err")"
grep -q '^# params: spont_window=1s ' "$tmp/r.csv" || fail "x=1s did not set spont_window"

# the checks above can fail: a table that breaks the rules is caught
printf 'x flag -s --set NAME=VALUE\ny flag -s --seed N\n' | awk '$2 == "flag" && $3 != "-" {
        if (($3 in long) && long[$3] != $4) bad = 1; long[$3] = $4 } END { exit !bad }' ||
    fail "the two-meanings check does not catch -s = --set and --seed"

# exit codes: 2 for bad usage, 0 for --help
C="$PB_ROOT/maketrace/configs/tiny.conf"
"$B/maketrace" "$C" -o "$tmp/t.csv" || fail "maketrace tiny"
for cmd in "infer --bogus" "infer -a nesting -s" "infer -a nesting -s nosuch=1 $tmp/t.csv" \
           "infer -a nesting -s hist_lowest=5 $tmp/t.csv" \
           "maketrace --bogus $C" "maketrace -D nosuch=1 $C" "maketrace -s net_dela=1ms $C" \
           "maketrace -s duration=30 $C" \
           "skewer --bogus $tmp/t.csv" "skewer -n A=30 $tmp/t.csv" "skewer -s nosuch=1 $tmp/t.csv" \
           "sniffer --bogus $tmp/t.csv" "sniffer -s nosuch=1 $tmp/t.csv" \
           "score --bogus" "score -T $tmp/t.csv --top x" "importtrace --bogus x" "importtrace"; do
    # shellcheck disable=SC2086
    set -- $cmd
    p=$1; shift
    "$B/$p" "$@" >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "$cmd: exit $rc, expected 2 (bad usage): $(cat "$tmp/err")"
    [ -s "$tmp/err" ] || fail "$cmd: exit 2 without a message"
done
for p in infer maketrace skewer sniffer score importtrace compare; do
    "$B/$p" --help >/dev/null || fail "$p --help exit $?"
done
# a duration without its unit is refused with the units named
"$B/skewer" -n A=30 "$tmp/t.csv" 2>&1 >/dev/null | grep -q "ms" || fail "skewer -n A=30: units not named"
"$B/maketrace" -s duration=30 "$C" 2>&1 >/dev/null | grep -q "ns, us, ms, s" || fail "maketrace duration=30: units not named"
# old spellings still work: -D, -s SEED, hyphenated parameter names
"$B/maketrace" -D seed=8 "$C" >"$tmp/a" && "$B/maketrace" -s 8 "$C" >"$tmp/b" &&
    "$B/maketrace" --seed 8 "$C" >"$tmp/c" && "$B/maketrace" -s seed=8 "$C" >"$tmp/d" || fail "seed spellings"
cmp -s "$tmp/a" "$tmp/b" && cmp -s "$tmp/a" "$tmp/c" && cmp -s "$tmp/a" "$tmp/d" || fail "seed spellings differ"
"$B/sniffer" -q --ge-loss-bad 0.5 -s ge_p=0.1 "$tmp/t.csv" >"$tmp/a" &&
    "$B/sniffer" -q -s ge-loss-bad=0.5 --ge-p 0.1 "$tmp/t.csv" >"$tmp/b" || fail "sniffer spellings"
cmp -s "$tmp/a" "$tmp/b" || fail "sniffer: old and new parameter spellings differ"
grep -q 'ge_loss_bad=0.5' "$tmp/a" || fail "sniffer metadata: $(grep sniffer: "$tmp/a")"
# -s in score and importtrace: the same as the flag of that name
"$B/maketrace" "$C" -s seed=3 -o "$tmp/t3.csv" || fail "maketrace"
"$B/infer" -a nesting -q -o "$tmp/r3.csv" "$tmp/t3.csv" || fail "infer -q"
grep -q '^# program=infer version=[0-9]' "$tmp/r3.csv" || fail "the result does not record the program version"
"$B/score" -T "$tmp/t3.csv" --topn 3 "$tmp/r3.csv" >"$tmp/s1" || fail "score --topn"
"$B/score" -T "$tmp/t3.csv" -s topn=3 -o "$tmp/s2" "$tmp/r3.csv" || fail "score -s topn=3 -o"
cmp -s "$tmp/s1" "$tmp/s2" || fail "score -s topn=3 -o FILE differs from --topn 3 on stdout"
"$B/score" -T "$tmp/t3.csv" -s nosuch=3 "$tmp/r3.csv" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'topn' "$tmp/err" || fail "score -s nosuch: $(cat "$tmp/err")"
"$B/importtrace" -s format=nosuch x >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'jaeger' "$tmp/err" || fail "importtrace -s format=nosuch: $(cat "$tmp/err")"
"$B/importtrace" -s callid=maybe x >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "importtrace -s callid=maybe: $(cat "$tmp/err")"
# maketrace -s errors name -s (the old -D as well)
for f in -s -D; do
    "$B/maketrace" $f nosuch=1 "$C" 2>&1 >/dev/null | grep -q -- '-s: nosuch' || fail "maketrace $f nosuch: not named -s"
done

# numbers in help are in their shortest exact form
for p in infer maketrace skewer sniffer; do
    "$B/$p" --help | grep -E '[0-9]\.[0-9]{10,}|e\+0[0-9]' && fail "$p --help prints a raw float"
done
exit 0

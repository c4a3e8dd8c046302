#!/bin/sh
# Whole-trace nesting writes its message table through a temporary file
# (pb_result_spool_assign, as the windowed run does) so that its rows and
# links (40 bytes a message) do not sit in memory beside the algorithm's:
# the 2 M-message row of bench_nesting.sh went from 192 to 152 MB (max
# RSS; docs/nesting.md).  The output must be the bytes the in-memory table
# gives: with no temporary file possible (TMPDIR missing) infer keeps the
# table in memory, and both runs, with links and confidences, abstentions
# (min_confidence) and every output, must agree byte for byte.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold maketrace infer
for c in multitier.conf hotel.conf shape-retry.conf; do
    "$B/maketrace" -q "$R/maketrace/configs/$c" -s messages=20000 -o t.csv 2> /dev/null ||
        "$B/maketrace" "$R/maketrace/configs/$c" -s messages=20000 -o t.csv 2> /dev/null || fail "$c: maketrace"
    for args in "--rank-by count" "-s min_confidence=0.5" "--rank-by count --dot d.dot"; do
        "$B/infer" --algo nesting $args -o a.res t.csv 2> a.err || { cat a.err; fail "$c $args: refused"; }
        [ -f d.dot ] && mv d.dot a.dot
        TMPDIR="$tmp/none" "$B/infer" --algo nesting $args -o b.res t.csv 2> b.err ||
            { cat b.err; fail "$c $args: refused without a temporary file"; }
        [ -f d.dot ] && { cmp -s a.dot d.dot || fail "$c $args: dot differs"; rm -f a.dot d.dot; }
        grep -v '^# cpu_\|^# program=' a.res > a.cmp
        grep -v '^# cpu_\|^# program=' b.res > b.cmp
        cmp -s a.cmp b.cmp || fail "$c $args: the spooled table is not the in-memory one"
        cmp -s a.err b.err || fail "$c $args: stderr differs"
    done
done
exit 0

#!/bin/sh
# Hostile input, round 19 (issue 28, the 30th wave): one block per class,
# each able to fail on the tree before it.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace

# memory and CPU caps far above what the fixed code needs (none under the
# sanitizers, whose shadow memory and speed differ)
lim() { if [ -z "${PB_SANITIZED:-}" ]; then ulimit -v 400000; ulimit -t 60; fi; }
D="$R/tests/data/importtrace"

# --- 1. importtrace: an archive inside an archive.  The folder's walk
# reads x.tar (x.zip, x.tar.gz, ...) files, but inside an archive such a
# member was skipped (counted skipped_files as "not ... archives or
# folders", which it is), so an archive and its unpacked folder gave
# different traces: every request in the inner archive lost.  Now read
# where its name falls, at most 8 archives deep; damage inside is said
# naming OUTER:INNER.
mkdir -p in out
cp "$D/two.json" in/a.json
cp "$D/fanout.json" in/b.json
tar cf out/inner.tar -C in a.json b.json
cp "$D/ties.json" out/c.json
gzip -c out/inner.tar > out/z.tar.gz
tar cf outer.tar -C out c.json inner.tar z.tar.gz
"$B/importtrace" -q -o folder.tr out || fail "nested: the folder not read"
"$B/importtrace" -q -o arch.tr outer.tar 2> arch.err || { cat arch.err; fail "an archive inside an archive: not read"; }
cmp -s folder.tr arch.tr || fail "an archive inside an archive: not the trace of its unpacked folder"
"$B/importtrace" outer.tar 2>&1 >/dev/null | grep -q "skipped_files" && fail "nested: members still skipped"
# a cut inner archive is named inside the outer one
head -c 100 out/z.tar.gz > cut.tar.gz
tar cf outer2.tar cut.tar.gz
"$B/importtrace" -q -o x.tr outer2.tar 2> cut.err && fail "a cut inner archive: accepted"
grep -q "^importtrace: outer2.tar:cut.tar.gz: cannot read: gzip data end in the middle of a member" cut.err ||
    { cat cut.err; fail "a cut inner archive: not said"; }
# ten archives one inside another: refused at the cap, never recursing on
cp "$D/two.json" l.json
prev=l.json
for i in 0 1 2 3 4 5 6 7 8 9; do tar cf "d$i.tar" "$prev"; prev="d$i.tar"; done
( lim; exec "$B/importtrace" -q -o x.tr d9.tar ) 2> deep.err && fail "10 nested archives: accepted"
grep -q "archives nested more than 8 deep" deep.err || { cat deep.err; fail "10 nested archives: the cap not said"; }
( lim; exec "$B/importtrace" -q -o x.tr d6.tar ) 2> deep.err || { cat deep.err; fail "7 nested archives: refused"; }

# --- 2. importtrace: a tar's hard links.  Each link held a copy of its
# target's data (found by a scan of every member before it: quadratic in
# the members), so 4 MB of JSON with 200 links (5 KB of .tar.gz) took
# 800 MB and failed "out of memory"; 40,000 members and 40,000 links took
# 30 s.  Links now share their target's buffer and find it by name.
# two.json with 4 MB of white space after its first byte
{ head -c 1 "$D/two.json"; head -c 4000000 /dev/zero | tr '\0' ' '; tail -c +2 "$D/two.json"; } > pad.json
mkdir -p hl
cp pad.json hl/a.json
i=0
while [ $i -lt 200 ]; do ln hl/a.json "hl/l$i.json"; i=$((i + 1)); done
tar czf hl.tar.gz -C hl .
( lim; exec "$B/importtrace" -q -o hl.tr hl.tar.gz ) 2> hl.err || { cat hl.err; fail "200 hard links to 4 MB: not read"; }
"$B/importtrace" -q -o one.tr pad.json || fail "the 4 MB document: not read"
grep -v '^#' hl.tr > hl.rows
grep -v '^#' one.tr > one.rows
cmp -s hl.rows one.rows || fail "200 hard links: not the requests of the one document"
grep -q "files=201 .*repeated_span=2400 " hl.tr || fail "200 hard links: not read as 201 files"
exit 0

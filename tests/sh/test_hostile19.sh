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
# --- 3. importtrace: a packet capture's stamps.  (a) Packets stamped
# before the packet before them (a clock stepped back; captures merged out
# of time order) were read without a word, so a response came out stamped
# 100 s before its request; now counted and said (even with -q) in a
# "capture: backward" line.  (b) A pcap file's seconds are unsigned 32
# bits (to 2106), but libpcap hands them on signed: every capture made
# after January 2038 was refused as "time stamp -2084967296 s out of
# range"; now read as the format defines them.
if command -v python3 >/dev/null 2>&1; then
cat > mk.py <<'PY'
import socket, struct, sys
def tcp(src, dst, sp, dp, seq, flags, payload=b''):
    t = struct.pack('!HHIIBBHHH', sp, dp, seq, 0, 5 << 4, flags, 65535, 0, 0)
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 40 + len(payload), 0, 0, 64, 6, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    return b'\0' * 12 + b'\x08\x00' + ip + t + payload
req = (b'GET / HTTP/1.1\r\nHost: x\r\ntraceparent: '
       b'00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\n\r\n')
res = b'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'
P = [tcp('10.0.0.1', '10.0.0.2', 40000, 80, 1, 2), tcp('10.0.0.2', '10.0.0.1', 80, 40000, 100, 0x12),
     tcp('10.0.0.1', '10.0.0.2', 40000, 80, 2, 0x18, req), tcp('10.0.0.2', '10.0.0.1', 80, 40000, 101, 0x18, res)]
for name, t0, step in (('back.pcap', 2000, -100), ('y2040.pcap', 2210000000, 1)):
    with open(name, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, p in enumerate(P):
            f.write(struct.pack('<IIII', t0 + step * i, 0, len(p), len(p)) + p)
PY
python3 mk.py || fail "the captures not made"
"$B/importtrace" -q -o back.tr back.pcap 2> back.err || { cat back.err; fail "a capture stamped backwards: refused"; }
grep -q "^importtrace: warning: back.pcap: 3 of 4 packets were stamped before the packet before them (first: packet 2; 100.000000000 s back at most) and 1 responses before their requests" back.err ||
    { cat back.err; fail "a capture stamped backwards: not said"; }
grep -q "^# capture: backward back.pcap: 3 of 4 packets" back.tr || fail "a capture stamped backwards: not in the metadata"
"$B/importtrace" -q -o y.tr y2040.pcap 2> y.err || { cat y.err; fail "a capture of 2040: refused"; }
grep -q "^1,2210000002.000000000,,10.0.0.1,10.0.0.2,call," y.tr || { cat y.tr; fail "a capture of 2040: not stamped in 2040"; }
[ -s y.err ] && { cat y.err; fail "a capture in order: warned"; }
fi
# --- 4. The audits' method lists (PB_MODELS_ALGOS, PB_STRESS_ALGOS,
# PB_APPS_ALGOS) were not checked: a misspelt method ran the whole audit,
# every row of it failing into the report's "Skipped" list, and exited 0
# without a word.  And with joint alone (how the audits are run for a
# merge) the report set joint against -100 % ("best other -100.0, margin
# +198.10") and counted every row as at or above the best other.
if [ -x "$B/infer" ] && [ -x "$B/maketrace" ] && [ -x "$B/score" ] && [ -x "$B/skewer" ]; then
PB_MODELS_DURATION=0.1s PB_MODELS_ALGOS="jiont fcfs" PB_OUT=$PWD/au sh "$R/experiments/joint_models.sh" --quick --configs pool > au.out 2> au.err
rc=$?
[ $rc -eq 2 ] || { cat au.err; fail "PB_MODELS_ALGOS=\"jiont fcfs\": exit $rc, expected 2"; }
grep -q "^joint_models: PB_MODELS_ALGOS item 'jiont': not a method infer knows; expected some of: .* joint " au.err ||
    { cat au.err; fail "PB_MODELS_ALGOS=\"jiont fcfs\": not said"; }
[ -e au/joint_models.csv ] && fail "PB_MODELS_ALGOS=\"jiont fcfs\": the audit ran"
PB_STRESS_ALGOS="fcsf" PB_OUT=$PWD/au sh "$R/experiments/joint_stress.sh" --quick > au.out 2> au.err
[ $? -eq 2 ] && grep -q "^joint_stress: PB_STRESS_ALGOS item 'fcsf'" au.err || { cat au.err; fail "PB_STRESS_ALGOS=fcsf: not said"; }
PB_APPS_ALGOS="fcsf" PB_OUT=$PWD/au sh "$R/experiments/joint_apps.sh" --quick > au.out 2> au.err
[ $? -eq 2 ] && grep -q "^joint_apps: PB_APPS_ALGOS item 'fcsf'" au.err || { cat au.err; fail "PB_APPS_ALGOS=fcsf: not said"; }
PB_MODELS_DURATION=0.1s PB_MODELS_ALGOS=joint PB_OUT=$PWD/au sh "$R/experiments/joint_models.sh" --quick --configs pool > au.out 2> au.err ||
    { cat au.err; fail "PB_MODELS_ALGOS=joint: failed"; }
grep -q -- "-100.0" au/joint_models.md && fail "joint alone: set against -100 %"
grep -q "^Rows: 8; none has joint and another method: no margin" au/joint_models.md ||
    { grep "^Rows" au/joint_models.md; fail "joint alone: the rows counted as at or above the best other"; }
fi
# --- 5. importtrace: many small members.  Every member of an archive is
# held until the members are in folder order, each in a buffer of at least
# 64 KiB (kept at that size), so 100,000 members of 230 bytes (23 MB of
# JSON) took 6.5 GB of address space and 500 MB resident ("out of memory"
# under a 2 GB limit).  A member's buffer is now the size its header
# announces, or cut to its data: 98 MB.
if command -v python3 >/dev/null 2>&1; then
cat > mkmany.py <<'PY'
import io, tarfile
with tarfile.open('many.tar.gz', 'w:gz', compresslevel=1) as t:
    for i in range(40000):
        d = (b'{"data":[{"traceID":"t%d","spans":[{"traceID":"t%d","spanID":"s1",'
             b'"operationName":"op","startTime":%d,"duration":10,"processID":"p1",'
             b'"references":[],"tags":[{"key":"span.kind","value":"server"}]}],'
             b'"processes":{"p1":{"serviceName":"a"}}}]}' % (i, i, 1000 + i))
        ti = tarfile.TarInfo('m%06d.json' % i)
        ti.size = len(d)
        t.addfile(ti, io.BytesIO(d))
PY
python3 mkmany.py || fail "many.tar.gz not made"
( lim; exec "$B/importtrace" -q -o many.tr many.tar.gz ) 2> many.err || { cat many.err; fail "40,000 small members: not read"; }
grep -q "files=40000 traces=40000 " many.tr || fail "40,000 small members: not 40,000 files and traces"
fi
# --- 6. importtrace: a member's name with control bytes.  Names come
# from the archive and went into messages as they were: a newline split an
# error over two lines, an escape byte drove the terminal.  Now \xHH.
if command -v python3 >/dev/null 2>&1; then
python3 -c '
import io, tarfile
with tarfile.open("esc.tar", "w") as t:
    d = b"{\"data\": 5}"
    ti = tarfile.TarInfo("a\x1b[31mred\n.json")
    ti.size = len(d)
    t.addfile(ti, io.BytesIO(d))
' || fail "esc.tar not made"
"$B/importtrace" -q -o x.tr esc.tar 2> esc.err && fail "a bad member: accepted"
[ "$(wc -l < esc.err)" -eq 1 ] || { cat esc.err; fail "a name with a newline: the error not on one line"; }
grep -q '^importtrace: esc.tar:a\\x1b\[31mred\\x0a\.json:1:1: ' esc.err || { cat esc.err; fail "a name with control bytes: not \\xHH"; }
fi
# --- 7. importtrace: a zip whose members are not the ones it lists.  The
# streaming reader walks the members' local headers; unzip lists the
# central directory.  A member deleted or replaced by rewriting only the
# directory (its old data left in place) was read without a word: here
# a.json, which unzip does not list.  Now refused, with both counts.
if command -v python3 >/dev/null 2>&1; then
python3 - "$D/two.json" <<'PY' || fail "stale.zip not made"
import io, struct, sys, zipfile
data = open(sys.argv[1], 'rb').read()
b = io.BytesIO()
with zipfile.ZipFile(b, 'w') as z:
    z.writestr('a.json', data)
    z.writestr('b.json', data)
raw = b.getvalue()
cd = raw.find(b'PK\x01\x02')
cd2 = raw.find(b'PK\x01\x02', cd + 1)
end = raw.find(b'PK\x05\x06')
e = bytearray(raw[end:])
struct.pack_into('<HHII', e, 8, 1, 1, end - cd2, cd)
open('stale.zip', 'wb').write(raw[:cd] + raw[cd2:end] + bytes(e))
open('whole.zip', 'wb').write(raw)
PY
"$B/importtrace" -q -o x.tr stale.zip 2> stale.err && fail "a zip listing 1 of its 2 members: accepted"
grep -q "^importtrace: stale.zip: the zip archive's central directory lists 1 member, but 2 members were found in its data" stale.err ||
    { cat stale.err; fail "a zip listing 1 of its 2 members: not said"; }
"$B/importtrace" -q -o x.tr whole.zip || fail "the whole zip: refused"
fi
# --- 8. importtrace: its own output read back.  An output written into
# the folder being imported (importtrace -o dir/out.csv dir) is read by the
# next import as a span CSV, and a trace piped back in was "found '#' ...
# expected a JSON document", a trace without its comment lines "a CSV
# header that is not Nezha's span layout": said now as what it is.
mkdir -p od
cp "$D/two.json" od/
"$B/importtrace" -q -o od/out.csv od || fail "the folder od: not read"
"$B/importtrace" -q -o od2.csv od 2> od.err && fail "a folder holding a trace: accepted"
grep -q "^importtrace: od/out.csv:1: a pathbench message trace (the output of importtrace, maketrace or sniffer" od.err ||
    { cat od.err; fail "a trace in the folder read: not said as one"; }
"$B/importtrace" -q - < od/out.csv > x.tr 2> pipe.err && fail "a trace on stdin: accepted"
grep -q "^importtrace: (stdin):1:1: a pathbench message trace" pipe.err || { cat pipe.err; fail "a trace on stdin: not said as one"; }
grep -v '^#' od/out.csv > bare.csv
"$B/importtrace" -q bare.csv > x.tr 2> bare.err && fail "a bare trace: accepted"
grep -q "^importtrace: bare.csv:1: a pathbench message trace" bare.err || { cat bare.err; fail "a bare trace: not said as one"; }
exit 0

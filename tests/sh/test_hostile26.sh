#!/bin/sh
# Hostile input, round 26 (issue 28, the 38th wave): one block per class,
# each able to fail on the tree before it (BLOCKS="2" runs that alone).
# Inputs in several pieces, as tools leave them: an archive appended to
# (the same member name twice), a packet capture in several files (a
# rotation; both ends of a connection).  Inputs without them read as
# before.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace
M="$R/tests/data/capture"
BLOCKS=${BLOCKS:-"1 2 3 4"}
on() { case " $BLOCKS " in *" $1 "*) return 0 ;; esac; return 1; }

# a Jaeger trace a -> b, its trace id TID
J='{"data":[{"traceID":"TID","spans":[{"traceID":"TID","spanID":"1","operationName":"x","references":[],"startTime":1000,"duration":100,"processID":"p1","tags":[{"key":"span.kind","value":"server"}]},{"traceID":"TID","spanID":"2","operationName":"y","references":[{"refType":"CHILD_OF","traceID":"TID","spanID":"1"}],"startTime":1010,"duration":50,"processID":"p1","tags":[{"key":"span.kind","value":"client"}]},{"traceID":"TID","spanID":"3","operationName":"y","references":[{"refType":"CHILD_OF","traceID":"TID","spanID":"2"}],"startTime":1020,"duration":30,"processID":"p2","tags":[{"key":"span.kind","value":"server"}]}],"processes":{"p1":{"serviceName":"a"},"p2":{"serviceName":"b"}}}]}'
# paths NAME: the trace ids (path column) of NAME's calls, sorted, one line
paths() { grep -v '^#' "$1" | awk -F, '$6 == "call" { print $7 }' | sort -u | tr '\n' ' '; }

# --- 1. An archive member named as an earlier one.  tar -r and tar -u
# append a newer copy of a file under its name, and unpacking keeps the
# last; a zip may list a name twice; "./a.json" and "a.json" are one file
# unpacked.  Every copy was read: the archive gave another trace than its
# unpacked folder (the old copy's requests added, or its spans read twice
# with the new ones), without a word.  Now the last of a name is read,
# counted replaced_member and said even with -q; archives without such
# names are read as before (no new metadata field).
if on 1; then
mkdir -p v1 v2 v3
echo "$J" | sed 's/TID/t1/g' > v1/a.json
echo "$J" | sed 's/TID/t2/g' > v2/a.json
echo "$J" | sed 's/TID/t3/g' > v3/a.json
echo "$J" | sed 's/TID/t9/g' > v1/b.json
tar -cf r.tar -C v1 a.json b.json && tar -rf r.tar -C v2 a.json      # appended (tar -r)
tar -cf r3.tar -C v1 a.json && tar -rf r3.tar -C v2 a.json && tar -rf r3.tar -C v3 a.json
tar -cf dot.tar -C v1 ./a.json && tar -rf dot.tar -C v2 a.json       # ./a.json, then a.json
mkdir -p d1/d && cp v1/a.json d1/d/ && tar -cf sl.tar -C d1 d/a.json && tar -rf sl.tar -C d1 d//a.json 2> /dev/null
gzip -c r.tar > r.tar.gz
python3 - << 'PY' || fail "zip not written"
import zipfile, warnings
warnings.simplefilter("ignore")
z = zipfile.ZipFile("r.zip", "w")
z.writestr("a.json", open("v1/a.json").read())
z.writestr("a.json", open("v2/a.json").read())
z.close()
PY
for a in r.tar:"t2 t9" r3.tar:"t3" dot.tar:"t2" r.tar.gz:"t2 t9" r.zip:"t2" sl.tar:"t1"; do
    f=${a%%:*}; want="${a#*:} "
    "$B/importtrace" -q -o $f.tr $f 2> $f.err || { cat $f.err; fail "$f: refused"; }
    [ "$(paths $f.tr)" = "$want" ] || { cat $f.err; fail "$f: paths $(paths $f.tr), expected $want (the last copy of each name)"; }
    grep -q '^importtrace: warning: [0-9]* replaced_member: ' $f.err || { cat $f.err; fail "$f: not said with -q"; }
    grep -q ' replaced_member=[1-9]' $f.tr || fail "$f: not in the metadata"
done
# an archive without a name twice: no new field, nothing said
tar -cf ok.tar -C v1 a.json b.json
"$B/importtrace" -q -o ok.tr ok.tar 2> ok.err || fail "ok.tar refused"
[ -s ok.err ] && { cat ok.err; fail "ok.tar: something said"; }
grep -q replaced_member ok.tr && fail "ok.tar: replaced_member in the metadata"
fi

# --- 2. A packet capture in several files.  A rotated capture (tcpdump -C /
# -G / -W, dumpcap -b, editcap -c) holds connections open across a file
# boundary, and one capture per host holds each connection between two
# captured hosts twice.  Each file began with no TCP flows: a connection
# going on into the next file was joined open there (the message across the
# boundary lost, answers to the file before's requests left out), and one
# met again with its own SYN (both ends; a capture given twice) became a
# second connection, every request counted twice, without a word.  Now the
# flows go on from file to file: every cut of a capture into two or three
# files reads as the whole file, a second copy (at any clock offset) adds
# nothing, and a "capture: files" line says so even with -q.
if on 2; then
command -v python3 > /dev/null 2>&1 || exit 77
mkdir -p c2
python3 "$M/mkpcap.py" c2 > /dev/null || fail "mkpcap"
python3 "$M/mkh2pcap.py" c2 > /dev/null || fail "mkh2pcap"
for src in c2/exchange.pcap c2/h2.pcap; do
    "$B/importtrace" -q "$src" 2> /dev/null | grep -v '^#' > whole.rows || fail "$src refused"
    n=$(python3 "$M/pcapfiles.py" count "$src")
    k=1
    while [ $k -lt "$n" ]; do
        python3 "$M/pcapfiles.py" split "$src" $k a.pcap b.pcap
        "$B/importtrace" -q a.pcap b.pcap 2> k.err | grep -v '^#' > k.rows
        cmp -s k.rows whole.rows || { diff whole.rows k.rows | head; cat k.err; fail "$src cut after packet $k: not the whole capture's rows"; }
        j=$((k + 3))
        if [ $j -lt "$n" ]; then
            python3 "$M/pcapfiles.py" split "$src" $k $j a.pcap b.pcap c.pcap
            "$B/importtrace" -q a.pcap b.pcap c.pcap 2> k.err | grep -v '^#' > k.rows
            cmp -s k.rows whole.rows || { cat k.err; fail "$src cut after packets $k and $j: not the whole capture's rows"; }
        fi
        k=$((k + 1))
    done
    # a connection inside its packets: said
    python3 "$M/pcapfiles.py" split "$src" 5 a.pcap b.pcap
    "$B/importtrace" -q -o k.tr a.pcap b.pcap 2> k.err
    grep -q '^importtrace: warning: [1-9][0-9]* TCP connections went on from one file into the next' k.err ||
        { cat k.err; fail "$src: a connection going on into the next file not said"; }
    grep -q '^# capture: files: ' k.tr || fail "$src: no capture: files line"
    # the same packets again, on another host's clock (or the same file twice)
    for us in 0 300 -200; do
        python3 "$M/pcapfiles.py" shift "$src" $us s.pcap
        "$B/importtrace" -q "$src" s.pcap 2> s.err | grep -v '^#' > s.rows
        # read once, at the stamps of the file that begins first (block 3)
        cp whole.rows want.rows
        [ $us -lt 0 ] && "$B/importtrace" -q s.pcap 2> /dev/null | grep -v '^#' > want.rows
        cmp -s s.rows want.rows || { diff want.rows s.rows | head; fail "$src and a copy $us us off: requests counted twice"; }
        grep -q 'were met again with their own SYN in a later file' s.err || { cat s.err; fail "$src: a copy not said"; }
    done
done
# one file: nothing said
"$B/importtrace" -q -o one.tr c2/exchange.pcap 2> one.err
grep -q 'capture: files' one.tr one.err && fail "one file: capture: files said"
fi

# --- 3. Packet capture files given out of time order.  A rotated capture's
# names sort out of it (cap, cap1, cap10, cap11, cap2: a shell glob), and
# with the flows going on from file to file (block 2) a later file read
# first would take an earlier one's bytes for sent again.  Now the files
# are read in the order of their first packets' stamps, said even with -q
# ("capture: file-order"); every order of a capture cut in four reads as
# the whole file.  Files given in time order say nothing.
if on 3; then
command -v python3 > /dev/null 2>&1 || exit 77
mkdir -p c3
python3 "$M/mkpcap.py" c3 > /dev/null || fail "mkpcap"
python3 "$M/mkh2pcap.py" c3 > /dev/null || fail "mkh2pcap"
for src in c3/exchange.pcap c3/h2.pcap; do
    "$B/importtrace" -q "$src" 2> /dev/null | grep -v '^#' > whole.rows || fail "$src refused"
    python3 "$M/pcapfiles.py" split "$src" 5 12 18 p0.pcap p1.pcap p2.pcap p3.pcap
    for o in "0 1 2 3" "3 2 1 0" "1 0 3 2" "2 0 3 1" "0 2 1 3"; do
        set -- $o
        "$B/importtrace" -q -o o.tr p$1.pcap p$2.pcap p$3.pcap p$4.pcap 2> o.err
        grep -v '^#' o.tr > o.rows
        cmp -s o.rows whole.rows || { diff whole.rows o.rows | head; cat o.err; fail "$src in the order $o: not the whole capture's rows"; }
        if [ "$o" = "0 1 2 3" ]; then
            grep -q 'file-order' o.err o.tr && fail "$src in time order: file-order said"
        else
            grep -q '^importtrace: warning: [0-9]* of the 4 packet capture files were given out of the order' o.err ||
                { cat o.err; fail "$src in the order $o: not said"; }
            grep -q '^# capture: file-order: ' o.tr || fail "$src in the order $o: no meta line"
        fi
    done
done
fi

# --- 4. pbcapture event files given twice.  A thread writes one file (its
# header names the process and thread, its stamps are its own), so a file
# whose lines are an earlier one's is the same thread again: the same
# folder or file given twice, a copy beside it, a copy that passed through
# Windows (CRLF).  Its events were read twice: every request on it counted
# twice (a second connection "#2"), without a word.  Now read once, said
# even with -q ("capture: events-twice"); distinct files say nothing.
if on 4; then
C="$R/tests/fuzz/corpus/fuzz_capture"
mkdir -p ev ev2 ev3
cp "$C/client.events" ev/10.11.events
cp "$C/server.events" ev/20.21.events
cp ev/*.events ev2/
sed 's/$/\r/' "$C/client.events" > ev3/10.11.events
"$B/importtrace" -q -o one.tr ev 2> one.err || { cat one.err; fail "events: refused"; }
[ -s one.err ] && { cat one.err; fail "events: something said"; }
grep -q 'events-twice' one.tr && fail "events: events-twice in the metadata"
grep -v '^#' one.tr > one.rows
for a in "ev ev" "ev ev2" "ev/10.11.events ev/10.11.events ev/20.21.events" "ev ev/20.21.events" "ev ev3/10.11.events" "ev2/10.11.events ev ev2/20.21.events"; do
    "$B/importtrace" -q -o tw.tr $a 2> tw.err || { cat tw.err; fail "events $a: refused"; }
    grep -v '^#' tw.tr > tw.rows
    cmp -s tw.rows one.rows || { diff one.rows tw.rows | head; fail "events $a: not the trace of one copy"; }
    grep -q '^importtrace: warning: [1-9][0-9]* pbcapture event files held the lines of an event file read before' tw.err ||
        { cat tw.err; fail "events $a: not said"; }
    grep -q '^# capture: events-twice: ' tw.tr || fail "events $a: no meta line"
done
fi
exit 0

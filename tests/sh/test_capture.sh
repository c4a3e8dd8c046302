#!/bin/sh
# Capture (docs/capture.md): packet captures written here with known bytes
# (keep-alive, pipelining, chunked, retransmission, a cut connection, a
# stream that is not HTTP) give exactly the expected messages; bad capture
# files get clear errors or counted irregularities; pbcapture on two tiny
# programs gives the expected messages, threads and connections, changes
# nothing the programs see, and follows fork and threads; on the live test
# system the oracle scores 1 and every request sent is in the trace.
set -u
B="$PB_BIN"; R="$PB_ROOT"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 missing"; exit 77; }
[ -x "$B/pbcapture" ] || { echo "FAIL: pbcapture not built"; exit 1; }
d=$(mktemp -d); srv=""
cleanup() { [ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$d"; }
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
T="$R/testbed/tiny.py"

# ---- packets --------------------------------------------------------------
python3 "$R/tests/data/capture/mkpcap.py" "$d" || fail "mkpcap"
"$B/importtrace" "$d/exchange.pcap" > "$d/ex.csv" 2> "$d/ex.err" || { cat "$d/ex.err"; fail "exchange.pcap"; }
grep -v '^#' "$d/ex.csv" | cut -d, -f2- > "$d/ex.rows"
cat > "$d/ex.want" <<'W'
ts,recv_ts,src,dst,type,callid,path,cause,conn,attr,size
1000.004000000,,10.0.0.1,10.0.0.2,call,10.0.0.1:40001>10.0.0.2:80/1,6f6e6500000000000000000000000000,,10.0.0.1:40001>10.0.0.2:80,GET /one,100
1000.006000000,,10.0.0.2,10.0.0.1,return,10.0.0.1:40001>10.0.0.2:80/1,6f6e6500000000000000000000000000,1,10.0.0.1:40001>10.0.0.2:80,200,43
1000.007000000,,10.0.0.1,10.0.0.2,call,10.0.0.1:40001>10.0.0.2:80/2,74776f00000000000000000000000000,,10.0.0.1:40001>10.0.0.2:80,GET /two,100
1000.007000000,,10.0.0.1,10.0.0.2,call,10.0.0.1:40001>10.0.0.2:80/3,74687265650000000000000000000000,,10.0.0.1:40001>10.0.0.2:80,GET /three,102
1000.008000000,,10.0.0.2,10.0.0.1,return,10.0.0.1:40001>10.0.0.2:80/2,74776f00000000000000000000000000,3,10.0.0.1:40001>10.0.0.2:80,200,44
1000.008000000,,10.0.0.2,10.0.0.1,return,10.0.0.1:40001>10.0.0.2:80/3,74687265650000000000000000000000,4,10.0.0.1:40001>10.0.0.2:80,200,67
W
diff "$d/ex.want" "$d/ex.rows" || fail "exchange.pcap: messages differ"
grep -q 'requests=4 responses=3 pairs=3 unanswered=1 unrequested=0 no_request_id=0 non_http=1 truncated=0 cut=1' "$d/ex.csv" ||
    { grep capture: "$d/ex.csv"; fail "exchange.pcap: counts"; }
# --name and --port
"$B/importtrace" -q --name 10.0.0.1=web --name 10.0.0.2:80=db --port 80 "$d/exchange.pcap" > "$d/n.csv" || fail "--name"
grep -q ',web,db,call,' "$d/n.csv" || fail "--name did not rename"
grep -q 'non_http=0.*filtered=1' "$d/n.csv" || fail "--port: the other port's connection not filtered"
# a capture cut short: kept with a warning
"$B/importtrace" "$d/truncated.pcap" > "$d/tr.csv" 2> "$d/tr.err" || fail "truncated.pcap refused"
grep -q "warning: the packet capture ends in an error" "$d/tr.err" || fail "no warning for a cut capture"
grep -q "capture: cut-short" "$d/tr.csv" || fail "the cut is not in the metadata"
# an unknown link type, garbage: errors naming the file
if "$B/importtrace" "$d/linktype.pcap" > /dev/null 2> "$d/lt.err"; then fail "link type 147 accepted"; fi
grep -q "linktype.pcap: link type 147" "$d/lt.err" || fail "link type message"
if "$B/importtrace" "$d/garbage.pcap" > /dev/null 2> "$d/g.err"; then fail "garbage accepted"; fi
grep -q "garbage.pcap: not a packet capture" "$d/g.err" || fail "garbage message"

# ---- interposition ----------------------------------------------------------
"$B/pbcapture" -o "$d/cap" --name srv -- python3 "$T" server "$d/port" &
srv=$!
i=0; while [ ! -s "$d/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$d/port" ] || fail "tiny server did not start"
P=$(cat "$d/port")
"$B/pbcapture" -o "$d/cap" --name cli -- python3 "$T" client "$P" > "$d/with.out" || fail "client under pbcapture"
python3 "$T" client "$P" > "$d/without.out" || fail "client"
cmp -s "$d/with.out" "$d/without.out" || fail "capture changed what the client saw"
printf 'body /one\nbody /two\nbody three\n' | cmp -s - "$d/with.out" || fail "client output"
"$B/pbcapture" -o "$d/cap" --name cli -- python3 "$T" forker "$P" > "$d/fork.out" || fail "forker"
"$B/pbcapture" -o "$d/cap" --name cli -- python3 "$T" threads "$P" 12 > /dev/null || fail "threads"
python3 "$T" quit "$P"
wait "$srv"; srv=""
"$B/importtrace" "$d/cap" > "$d/cap.csv" 2> "$d/cap.err" || { cat "$d/cap.err"; fail "import of the events"; }
# the keep-alive connection: GET /one, then /two and /three pipelined
awk -F, '!/^#/ && $1 != "id" && $4 == "cli" && $6 == "call" && $13 ~ /^GET \/(one|two|three)$/ { n++; conn[$12] = 1; th[$10] = 1; sth[$11] = 1 }
    END { c = 0; for (k in conn) c++; t = 0; for (k in th) t++; s = 0; for (k in sth) s++
          if (n != 3 || c != 1 || t != 1 || s != 1) { print "FAIL: keep-alive calls " n " on " c " connections, " t " server threads, " s " client threads"; exit 1 } }' "$d/cap.csv" || exit 1
# a call's sending thread is its return's receiving thread
awk -F, '!/^#/ && $1 != "id" { if ($6 == "call") st[$7] = $10 SUBSEP $11; else if ($6 == "return") rt[$7] = $11 SUBSEP $10 }
    END { for (k in st) if ((k in rt) && st[k] != rt[k]) { print "FAIL: threads of " k; bad = 1 } exit bad }' "$d/cap.csv" || exit 1
# fork: the child's request was captured as the parent's was
for p in /child /parent; do
    grep -q ",cli,srv,call,.*,GET $p," "$d/cap.csv" || fail "fork: $p not captured"
done
[ "$(grep -c ',cli,srv,call,.*,GET /t[0-9]*,' "$d/cap.csv")" -eq 12 ] || fail "threads: not 12 calls"
"$B/infer" --algo truth "$d/cap.csv" | "$B/score" --truth "$d/cap.csv" --no-header | awk -F, '$14 != 1 { exit 1 }' ||
    fail "the oracle is not exact on the tiny capture"
# the 4-tuple kept per descriptor is forgotten when the descriptor changes:
# one descriptor number carries two connections in turn (close, then a new
# socket), and a pipe dup2'ed onto a socket's number is no socket
cat > "$d/reuse.py" <<'PY'
import os, socket
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(4)
fds = []
for i in range(2):
    c = socket.create_connection(srv.getsockname()); s, _ = srv.accept()
    c.send(b"x%d" % i); s.recv(2); fds.append(c.fileno()); c.close(); s.close()
c = socket.create_connection(srv.getsockname()); s, _ = srv.accept()
r, w = os.pipe(); os.write(w, b"PIPE")
os.dup2(r, c.fileno()); os.read(c.fileno(), 4)
print(fds[0] == fds[1])
# close_range closes inside the C library: its descriptors are forgotten
# too, so a pipe that takes a socket's number is no socket
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
c2 = socket.create_connection(srv.getsockname()); s2, _ = srv.accept()
c2.send(b"y"); s2.recv(1)
n = c2.detach()
if hasattr(libc, "close_range") and libc.close_range(n, n, 0) == 0:
    r2, w2 = os.pipe(); os.write(w2, b"QUUX")
    print("close_range", r2 == n)
    os.read(r2, 4)
PY
"$B/pbcapture" -o "$d/reuse" -- python3 "$d/reuse.py" > "$d/reuse.out" || fail "reuse program"
grep -q True "$d/reuse.out" || echo "note: the descriptor number was not reused; the check below still runs"
awk '!/^#/ && $5 == "send" { n++; l[$7] = 1 } END { c = 0; for (k in l) c++; exit !(n == 3 && c == 3) }' \
    "$d"/reuse/*.events || fail "a reused descriptor kept its old connection's addresses"
grep -q ' recv 4 .* 50495045$' "$d"/reuse/*.events && fail "a pipe dup2'ed onto a socket was recorded as the socket"
grep -q ' recv 4 .* 51555558$' "$d"/reuse/*.events && fail "a pipe on a number close_range freed was recorded as the socket"
grep -q 'close_range True' "$d/reuse.out" || echo "note: close_range missing or the number was not reused; the check above still runs"

# bad event files: file, line, column
mkdir "$d/bad"
printf '# pbcapture 1 pid=1 tid=1 name=x clock=CLOCK_REALTIME payload=1024\n1 1 1 3 recv 1 127.0.0.1:1 127.0.0.1:2 4142\n' > "$d/bad/1.1.events"
if "$B/importtrace" "$d/bad" > /dev/null 2> "$d/bad.err"; then fail "a payload longer than BYTES accepted"; fi
grep -q "1.1.events:2:.*expected at most BYTES" "$d/bad.err" || { cat "$d/bad.err"; fail "bad event message"; }
printf '# pbcapture 1 pid=1 tid=1 name=x\n1 1 1 3 snd 4 a b -\n' > "$d/bad/1.1.events"
if "$B/importtrace" "$d/bad" > /dev/null 2> "$d/bad.err"; then fail "an unknown op accepted"; fi
grep -q "1.1.events:2:9: field 5: expected accept" "$d/bad.err" || { cat "$d/bad.err"; fail "bad op message"; }

# ---- the live test system ---------------------------------------------------
for m in thread pool event; do
    rm -rf "$d/live"
    timeout 60 python3 "$R/testbed/hotel.py" run --model $m --rate 10 --duration 1.5 \
        --pbcapture "$B/pbcapture" --capture "$d/live" > "$d/live.out" || fail "$m: testbed run"
    sent=$(sed -n 's/^sent=\([0-9]*\) ok=.*/\1/p' "$d/live.out")
    "$B/importtrace" -q "$d/live" > "$d/live.csv" || fail "$m: import"
    calls=$(grep -c ',client,frontend,call,' "$d/live.csv")
    [ "$calls" = "$sent" ] || fail "$m: $sent requests sent, $calls in the trace"
    "$B/infer" --algo truth "$d/live.csv" | "$B/score" --truth "$d/live.csv" --no-header |
        awk -F, '$14 != 1 { exit 1 }' || fail "$m: the oracle is not exact"
    # vPath's own rule: exact where a thread serves a request, violations said elsewhere
    if "$B/infer" --algo vpath -s variant=paper "$d/live.csv" > "$d/vp.res" 2> "$d/vp.err"; then
        ex=$("$B/score" --truth "$d/live.csv" --no-header "$d/vp.res" | cut -d, -f14)
        if [ $m = thread ]; then
            [ "$ex" = 1 ] || fail "thread: vpath paper $ex, not exact"
        else
            grep -qi "violation" "$d/vp.err" "$d/vp.res" || fail "$m: vpath paper reports no violation"
        fi
    fi
done
echo ok

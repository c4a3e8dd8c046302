#!/bin/sh
# HTTP/2 and gRPC in captures (docs/capture.md, "HTTP/2 and gRPC"): a packet
# capture written here with known bytes (interleaved streams answered in the
# opposite order, a header block over HEADERS + CONTINUATION with padding and
# PRIORITY, the HPACK dynamic table, DATA bodies, gRPC trailers, a health
# check, a reset stream, server push, a capture gap inside a header block)
# gives exactly the expected messages, paired by stream id; bad HTTP/2 (a
# frame over SETTINGS_MAX_FRAME_SIZE, an HPACK error, bad padding, a stray
# CONTINUATION, garbage, a capture ending inside a frame) is counted with a
# note naming the file and connection; cut and mutated captures never crash;
# two tiny programs speaking HTTP/2 under pbcapture give the expected
# messages, threads and receipt times, and with the client's payload cap
# too small, the server's views alone.
set -u
B="$PB_BIN"; R="$PB_ROOT"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 missing"; exit 77; }
d=$(mktemp -d); srv=""
cleanup() { [ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$d"; }
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
G="$R/tests/data/capture"

python3 "$G/mkh2pcap.py" "$d" || fail "mkh2pcap"
"$B/importtrace" "$d/h2.pcap" > "$d/h2.csv" 2> "$d/h2.err" || { cat "$d/h2.err"; fail "h2.pcap"; }
grep -v '^#' "$d/h2.csv" | cut -d, -f2- > "$d/h2.rows"
# packet k of the file is stamped 1000 + k ms.  Connection 1: stream 1's
# head is packet 6, stream 3's packet 7 (its CONTINUATION packet 8); the
# answers: stream 3 in packet 12, stream 1 in packet 14.  Sizes are DATA
# payload bytes without padding.  Connection 2: /a in 24, its answer in 25.
C1=10.0.0.1:40001\>10.0.0.2:50051; C2=10.0.0.1:40002\>10.0.0.2:50051
ONE=6f6e6500000000000000000000000000; THREE=74687265650000000000000000000000
A=61000000000000000000000000000000
cat > "$d/h2.want" <<W
ts,recv_ts,src,dst,type,callid,path,cause,conn,attr,size
1000.006000000,,10.0.0.1,10.0.0.2,call,$C1/1,$ONE,,$C1,POST /shop.Cart/Get,12
1000.007000000,,10.0.0.1,10.0.0.2,call,$C1/3,$THREE,,$C1,POST /shop.Cart/Add,8
1000.012000000,,10.0.0.2,10.0.0.1,return,$C1/3,$THREE,2,$C1,200 grpc-status=0,10
1000.014000000,,10.0.0.2,10.0.0.1,return,$C1/1,$ONE,1,$C1,200 grpc-status=5,6
1000.024000000,,10.0.0.1,10.0.0.2,call,$C2/1,$A,,$C2,GET /a,0
1000.025000000,,10.0.0.2,10.0.0.1,return,$C2/1,$A,5,$C2,200,2
W
diff "$d/h2.want" "$d/h2.rows" || fail "h2.pcap: messages differ"
# requests: 1, 3, 5 (health check, no traceparent) and /a; stream 7 reset
# inside its body (cut); responses: 3, pushed 2 (no request), 1, 5, /a and
# the one to the request behind the gap (no request seen); the gap: truncated
grep -q 'requests=4 responses=6 pairs=4 unanswered=0 unrequested=2 no_request_id=1 non_http=0 truncated=1 cut=1 .* http2=2 malformed=0' "$d/h2.csv" ||
    { grep capture: "$d/h2.csv"; fail "h2.pcap: counts"; }
grep -q "warning: .*h2.pcap: connection $C2: HTTP/2 (client to server, on the wire): bytes of a header block were not captured" "$d/h2.err" ||
    { cat "$d/h2.err"; fail "h2.pcap: no note on the gap"; }
# the HPACK dynamic table: stream 3 names x-tenant by the index stream 1's
# block added, so both carry "blue" as their request id
"$B/importtrace" -q --request-header x-tenant "$d/h2.pcap" > "$d/xt.csv" || fail "--request-header x-tenant"
[ "$(grep -c ',call,.*,blue,' "$d/xt.csv")" = 2 ] || { cat "$d/xt.csv"; fail "x-tenant (dynamic table) not decoded on both streams"; }
grep -q 'pairs=4 .*no_request_id=2' "$d/xt.csv" || fail "x-tenant: counts"
# the oracle is exact; stripped of truth, the trace still reads
"$B/infer" --algo truth "$d/h2.csv" | "$B/score" --truth "$d/h2.csv" --no-header | awk -F, '$14 != 1 { exit 1 }' ||
    fail "the oracle is not exact on h2.pcap"

# ---- bad HTTP/2: counted, noted with the file and connection ---------------
"$B/importtrace" "$d/h2bad.pcap" > "$d/bad.csv" 2> "$d/bad.err" || { cat "$d/bad.err"; fail "h2bad.pcap refused"; }
grep -q 'pairs=1 .*cut=1 .*http2=6 malformed=5' "$d/bad.csv" || { grep capture: "$d/bad.csv"; fail "h2bad.pcap: counts"; }
for w in "41000>10.0.0.2:50051: .*a DATA frame of 20000 bytes, over the peer's SETTINGS_MAX_FRAME_SIZE (16384)" \
         "41001>10.0.0.2:50051: .*an HPACK error" \
         "41002>10.0.0.2:50051: .*HEADERS padding longer than its frame" \
         "41003>10.0.0.2:50051: .*CONTINUATION without a header block open" \
         "41004>10.0.0.2:50051: " \
         "41005>10.0.0.2:50051: .*the stream ends inside a frame"; do
    grep -q "warning: .*h2bad.pcap: connection 10.0.0.1:$w" "$d/bad.err" || { cat "$d/bad.err"; fail "no note: $w"; }
done
# cut at many places and mutated: never a crash (an error or a trace)
python3 - "$d" <<'PY' || fail "mutants"
import random, sys
d = sys.argv[1]
data = open(d + "/h2.pcap", "rb").read()
rng = random.Random(25)
for i in range(12):
    open("%s/cut%d.pcap" % (d, i), "wb").write(data[:rng.randrange(300, len(data))])
for i in range(24):
    b = bytearray(data)
    for _ in range(1 + i % 4):
        p = rng.randrange(200, len(b))      # past the first packets' headers
        b[p] = rng.randrange(256)
    open("%s/mut%d.pcap" % (d, i), "wb").write(bytes(b))
PY
for f in "$d"/cut*.pcap "$d"/mut*.pcap; do
    "$B/importtrace" -q "$f" > /dev/null 2> "$d/m.err"
    rc=$?
    [ $rc -le 1 ] || { cat "$d/m.err"; fail "$(basename "$f"): exit $rc"; }
done

# ---- pbcapture: two programs speaking HTTP/2 ----------------------------------
[ -x "$B/pbcapture" ] || { echo "ok (pbcapture not built: its part skipped)"; exit 0; }
"$B/pbcapture" -o "$d/cap" --name srv -- python3 "$G/h2peer.py" server "$d/port" &
srv=$!
i=0; while [ ! -s "$d/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$d/port" ] || fail "h2peer server did not start"
"$B/pbcapture" -o "$d/cap" --name cli -- python3 "$G/h2peer.py" client "$(cat "$d/port")" > "$d/cli.out" ||
    fail "h2peer client under pbcapture"
wait "$srv"; srv=""
grep -q "answers on streams 3 1" "$d/cli.out" || fail "h2peer: the answers did not come back 3, then 1"
"$B/importtrace" "$d/cap" > "$d/cap.csv" 2> "$d/cap.err" || { cat "$d/cap.err"; fail "import of the h2 events"; }
grep -q 'requests=2 responses=2 pairs=2 unanswered=0 unrequested=0 no_request_id=0 non_http=0 truncated=0 cut=0 filtered=0 one_sided=0 .* http2=1 malformed=0' "$d/cap.csv" ||
    { grep capture: "$d/cap.csv"; fail "h2peer: counts"; }
# every message: sent before received; calls cli>srv with stream ids 1 and 3,
# answered 3 first; sizes are gRPC message bytes; a call's sending thread is
# its return's receiving thread
awk -F, '!/^#/ && $1 != "id" {
        if ($3 == "" || $3 < $2) { print "FAIL: receipt " $3 " before send " $2; exit 1 }
        split($7, c, "/"); sid = c[2]
        row = $4 ">" $5 " " $6 " " sid " " $13 " " $14
        got = got row ";"
        if ($6 == "call") st[sid] = $11; else if (st[sid] != $10) { print "FAIL: threads of stream " sid; exit 1 }
    }
    END { want = "cli>srv call 1 POST /shop.Cart/Get 7;cli>srv call 3 POST /shop.Cart/Add 9;srv>cli return 3 200 grpc-status=0 8;srv>cli return 1 200 grpc-status=5 6;"
          if (got != want) { print "FAIL: h2peer messages\n got  " got "\n want " want; exit 1 } }' "$d/cap.csv" || exit 1
"$B/infer" --algo truth "$d/cap.csv" | "$B/score" --truth "$d/cap.csv" --no-header | awk -F, '$14 != 1 { exit 1 }' ||
    fail "the oracle is not exact on the h2peer capture"
# the client captured with a 16-byte payload cap: pbcapture keeps an
# HTTP/2 connection's events whole once its preface crossed it (a header
# block cut by the cap would leave the rest of the connection undecodable),
# so nothing is truncated and both sides' views give every message
"$B/pbcapture" -o "$d/cap16" --name srv -- python3 "$G/h2peer.py" server "$d/port16" &
srv=$!
i=0; while [ ! -s "$d/port16" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$d/port16" ] || fail "h2peer server did not start"
"$B/pbcapture" -o "$d/cap16" --name cli --payload 16 -- python3 "$G/h2peer.py" client "$(cat "$d/port16")" > /dev/null ||
    fail "h2peer client under pbcapture --payload 16"
wait "$srv"; srv=""
"$B/importtrace" "$d/cap16" > "$d/cap16.csv" 2> "$d/cap16.err" || { cat "$d/cap16.err"; fail "import of the capped h2 events"; }
grep -q 'requests=2 responses=2 pairs=2 unanswered=0 unrequested=0 no_request_id=0 non_http=0 truncated=0 cut=0 .* http2=1 malformed=0' "$d/cap16.csv" ||
    { grep capture: "$d/cap16.csv"; fail "--payload 16: counts (an HTTP/2 connection's events must be kept whole)"; }
! grep -q "were not captured" "$d/cap16.err" ||
    { cat "$d/cap16.err"; fail "--payload 16: a view of the HTTP/2 connection was cut"; }
# the client's own events are whole past the 16-byte cap (the preface is 24)
cf=$(grep -l ' name=cli ' "$d"/cap16/*.events | head -1)
[ -n "$cf" ] || fail "--payload 16: no event file of the client"
awk '$5 == "send" && length($9) > 32 { n++ } END { exit !(n >= 1) }' "$cf" ||
    fail "--payload 16: the client's HTTP/2 writes were cut at the cap"
echo ok

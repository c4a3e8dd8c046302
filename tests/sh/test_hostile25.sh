#!/bin/sh
# Hostile input, round 25 (issue 28, the 37th wave): one block per class,
# each able to fail on the tree before it (BLOCKS="2 4" runs those alone).
# All five are HTTP/1 as servers and clients write it, read from packet
# captures (the same framing reads eBPF and pbcapture events): interim
# responses, protocol switches, bare LF line ends, a field given on
# several lines, chunk sizes that are no size.  Captures without them read
# as before.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace
command -v python3 > /dev/null 2>&1 || exit 77
M="$R/tests/data/capture"
BLOCKS=${BLOCKS:-"1 2 3 4 5"}
on() { case " $BLOCKS " in *" $1 "*) return 0 ;; esac; return 1; }

# cap MODE: write MODE.pcap and MODE.expect, import into MODE.tr (stderr
# MODE.err); 1 when refused
cap() {
    python3 "$M/mkhttp25.py" "$M" "$1" "$1.pcap" "$1.expect" || fail "$1: capture not written"
    shift_args=""
    "$B/importtrace" -q -o "$1.tr" "$1.pcap" 2> "$1.err"
}
# pairs MODE: the trace's pairs are exactly MODE.expect's: every request
# answered by its own response (its trace id and that response's size)
pairs() {
    grep -v '^#' "$1.tr" | awk -F, 'NR > 1 && $6 == "return" { print $8, $12 }' | sort > "$1.got"
    sort "$1.expect" > "$1.want"
    cmp -s "$1.got" "$1.want" || { echo "got:"; cat "$1.got"; echo "want:"; cat "$1.want";
        cat "$1.err"; fail "$1: the pairs are not the capture's"; }
    [ "$(grep -v '^#' "$1.tr" | grep -c ',call,')" = "$(grep -c . "$1.want")" ] ||
        fail "$1: not one call per pair"
}

# --- 1. Interim responses (1xx but 101).  Each took a place among its
# stream's messages, so every later pair of its connection was shifted by
# one: a response paired with the request after its own (Expect:
# 100-continue, 103 Early Hints, 102 Processing), said only as "responses
# before their requests" (the clock blamed); a HEAD after one had its
# answer's body read (the method looked up one request off).  Now an
# interim response takes no place.
if on 1; then
for m in plain cont100 early103 two1xx 1xxhead 1xxpipe; do
    cap $m || { cat $m.err; fail "$m: refused"; }
    pairs $m
    grep -q "before their requests" $m.err && { cat $m.err; fail "$m: responses before requests said"; }
done
fi

# --- 2. Protocol switches: a 101 Switching Protocols (WebSocket, h2c) or
# a 2xx answer to CONNECT (a proxy's tunnel).  The 101 was taken for an
# interim response and the tunnel's bytes for a body or a header: the
# whole connection was left out as not HTTP (the pairs before the switch
# too).  Now the switch's answer is its request's, the bytes after it are
# not read, and a "capture: switched" line says so; an upgrade the server
# refused goes on as HTTP/1 without a word.
if on 2; then
for m in ws connect h2c; do
    cap $m || { cat $m.err; fail "$m: refused (the connection left out)"; }
    pairs $m
    grep -q '^# capture: switched: 1 HTTP/1 connections switched protocols' $m.tr ||
        { grep '^#' $m.tr; fail "$m: the switch not said in the metadata"; }
    grep -q 'warning: 1 HTTP/1 connections switched' $m.err || { cat $m.err; fail "$m: not said with -q"; }
done
grep -q '(1 by a 101 response, 0 by' ws.tr || fail "ws: not counted as a 101"
grep -q '0 by a 101 response, 1 by a 2xx answer to CONNECT' connect.tr || fail "connect: not counted as CONNECT"
cap refused || { cat refused.err; fail "refused: refused"; }
pairs refused
grep -q 'capture: switched' refused.tr && fail "refused: a switch said where none was made"
fi

# --- 3. Bare LF line ends (RFC 9112 2.2: a recipient may read a bare LF
# as a line end).  Only CRLF CRLF ended a header and a request line needed
# its CR: a message written with bare LFs never ended, and every pair of
# its connection was lost ("no request ... was found").  Now read, said in
# a "capture: bare-lf" line (a note without -q).
if on 3; then
for m in lf lfresp lfreq lfchunk lfmixed; do
    cap $m || { cat $m.err; fail "$m: refused"; }
    pairs $m
    grep -q '^# capture: bare-lf: ' $m.tr || { grep '^#' $m.tr; fail "$m: not said in the metadata"; }
done
grep -q 'capture: bare-lf' plain.tr 2> /dev/null && fail "plain: bare LF said of CRLF lines"
"$B/importtrace" -o x.tr lf.pcap 2> x.err || fail "lf: refused without -q"
grep -q 'note: 4 HTTP/1 messages ended their lines with a bare LF' x.err || { cat x.err; fail "lf: no note"; }
fi

# --- 4. A field given on several lines is one list (RFC 9110 5.3); the
# first line alone was read.  Transfer-Encoding "gzip" then "chunked" was
# not chunked (the body read to the close, the next response swallowed);
# two Content-Length values took the first; two traceparent headers of two
# traces the first, silently.  Now the lines are joined: chunked is seen,
# two lengths are no length (the connection left out with a note), two
# traceparents of two traces leave the pair out as one without the header
# (said: "capture: request-id-twice"); one value twice is that value.
if on 4; then
for m in te2 te2case cl2same tp2same; do
    cap $m || { cat $m.err; fail "$m: refused"; }
    pairs $m
    grep -q 'request-id-twice' $m.tr && fail "$m: one value twice said as two"
done
cap tp2 || { cat tp2.err; fail "tp2: refused"; }
pairs tp2
grep -q '^# capture: request-id-twice: 1 request/response pairs whose request carried the request-id header (traceparent) on two lines with different values (first: "GET /a")' tp2.tr ||
    { grep '^#' tp2.tr; fail "tp2: the two traceparents not said"; }
grep -q 'warning: 1 request/response pairs whose request carried' tp2.err || { cat tp2.err; fail "tp2: not said with -q"; }
cap cl2 || { cat cl2.err; fail "cl2: refused"; }
pairs cl2
grep -q 'whose Content-Length is no length ("10, 40")' cl2.tr || { grep '^#' cl2.tr; fail "cl2: two lengths not said"; }
fi

# --- 5. A chunk size that is no size was read by strtoull: a sign taken
# ("-3" as 2^64 - 3, plus its CRLF wrapped around: the rest of the stream
# one chunk, every later response on the connection swallowed without a
# word), a size past 64 bits cut.  Now the connection is left out with a
# note naming the value (as a Content-Length that is no length); the
# other connection is read.
if on 5; then
for sz in -3 -2 FFFFFFFFFFFFFFFE 1FFFFFFFFFFFFFFFFF +4 0x4 "4 4"; do
    m="chunk:$sz"
    python3 "$M/mkhttp25.py" "$M" "$m" c.pcap c.expect || fail "$m: capture not written"
    "$B/importtrace" -q -o c.tr c.pcap 2> c.err || { cat c.err; fail "$m: refused"; }
    cp c.expect chunk.expect; cp c.tr chunk.tr; cp c.err chunk.err
    pairs chunk
    grep -q "whose chunk size is no size (\"$sz\"): this connection is left out" c.tr ||
        { grep '^#' c.tr; fail "$m: not said"; }
done
for sz in 4 04 "4;x=1" "4 " " 4" "4 ;x"; do  # sizes as RFC 9112 writes them
    m="chunk:$sz"
    python3 "$M/mkhttp25.py" "$M" "$m" c.pcap c.expect || fail "$m: capture not written"
    "$B/importtrace" -q -o c.tr c.pcap 2> c.err || { cat c.err; fail "$m: refused"; }
    [ "$(grep -v '^#' c.tr | grep -c ',return,')" = 4 ] || { cat c.err; fail "$m: not four pairs"; }
done
fi
exit 0

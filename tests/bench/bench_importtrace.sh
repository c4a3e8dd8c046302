#!/bin/sh
# importtrace memory and time on one large synthetic Jaeger file (the query
# API's {"data":[...]}, hotel-like traces of 11 spans with real-looking
# tags, about 800 bytes a span), plain and xz-compressed.  Prints the input
# size, the peak resident memory (/usr/bin/time -v) and its ratio to the
# input, and the time.  docs/importer.md ("Memory") quotes this.
#   PB_BENCH_QUICK=1: 2,000 traces (~18 MB); else 19,000 (~167 MB).
#   IMPORT_TRACES=N: N traces.
set -u
: "${PB_BENCH_DIR:=/tmp}"
N=${IMPORT_TRACES:-19000}
[ "${PB_BENCH_QUICK:-0}" = 1 ] && N=${IMPORT_TRACES:-2000}
[ -x /usr/bin/time ] || { echo "no /usr/bin/time (Debian package time)"; exit 0; }
F="$PB_BENCH_DIR/import_$N.json"
if [ ! -s "$F" ]; then
    awk -v n="$N" 'BEGIN {
        tags = "{\"key\":\"component\",\"type\":\"string\",\"value\":\"gRPC\"}," \
               "{\"key\":\"http.method\",\"type\":\"string\",\"value\":\"GET\"}," \
               "{\"key\":\"http.url\",\"type\":\"string\",\"value\":\"/hotels?inDate=2015-04-09&outDate=2015-04-10&lat=37.7749&lon=-122.4194\"}," \
               "{\"key\":\"peer.address\",\"type\":\"string\",\"value\":\"10.0.0.17:50412\"}," \
               "{\"key\":\"internal.span.format\",\"type\":\"string\",\"value\":\"proto\"}"
        # service, kind, parent index (0 = none), start offset, duration (us)
        split("frontend frontend search search geo search rate frontend reservation frontend profile", svc, " ")
        split("server client server client server client server client server client server", kind, " ")
        split("0 1 2 3 4 3 6 1 8 1 10", par, " ")
        split("0 10 20 30 40 200 210 500 510 800 810", off, " ")
        split("1000 400 360 150 100 150 100 250 230 150 130", dur, " ")
        printf "{\"data\":["
        for (t = 1; t <= n; t++) {
            tid = sprintf("%016x", t * 7919)
            base = 1655753657000000 + t * 900
            printf "%s{\"traceID\":\"%s\",\"spans\":[", (t > 1 ? "," : ""), tid
            for (s = 1; s <= 11; s++) {
                ref = par[s] ? sprintf("{\"refType\":\"CHILD_OF\",\"traceID\":\"%s\",\"spanID\":\"%s%02x\"}", tid, substr(tid, 1, 14), par[s]) : ""
                printf "%s{\"traceID\":\"%s\",\"spanID\":\"%s%02x\",\"flags\":1,\"operationName\":\"/%s.%s/Handle\",\"references\":[%s],\"startTime\":%d,\"duration\":%d,\"tags\":[{\"key\":\"span.kind\",\"type\":\"string\",\"value\":\"%s\"},%s],\"logs\":[],\"processID\":\"p%d\",\"warnings\":null}", \
                    (s > 1 ? "," : ""), tid, substr(tid, 1, 14), s, svc[s], svc[s], ref, base + off[s], dur[s], kind[s], tags, s
            }
            printf "],\"processes\":{"
            for (s = 1; s <= 11; s++)
                printf "%s\"p%d\":{\"serviceName\":\"%s\",\"tags\":[{\"key\":\"hostname\",\"type\":\"string\",\"value\":\"%s-7d9f\"}]}", (s > 1 ? "," : ""), s, svc[s], svc[s]
            printf "},\"warnings\":null}"
        }
        print "],\"total\":0,\"limit\":0,\"offset\":0,\"errors\":null}"
    }' > "$F"
fi
[ -s "$F.xz" ] || xz -T1 -1 -c "$F" > "$F.xz"
size=$(wc -c < "$F")
printf '%-10s %12s %10s %10s %8s %8s\n' input bytes spans peak_MB peak/in seconds
for f in "$F" "$F.xz"; do
    /usr/bin/time -v "$PB_BIN/importtrace" -q -o /dev/null "$f" 2> "$PB_BENCH_DIR/import.time" ||
        { cat "$PB_BENCH_DIR/import.time"; exit 1; }
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$PB_BENCH_DIR/import.time")
    el=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$PB_BENCH_DIR/import.time")
    printf '%-10s %12s %10s %10.1f %8.2f %8s\n' "$(basename "$f" | sed 's/.*\.json/json/')" \
        "$size" "$((N * 11))" "$(echo "$rss / 1024" | bc -l)" "$(echo "$rss * 1024 / $size" | bc -l)" "$el"
done
echo "(peak/in: peak resident memory over the uncompressed input size)"

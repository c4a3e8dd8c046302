# One Jaeger trace of a single request that fans out n calls from service
# a to service b (every third call longer), the wide fan-out of
# docs/joint/speed.md "Speed, eighteenth wave": the test
# (tests/sh/test_joint_widefan.sh) and the benchmark row (make bench,
# BENCH=joint) make it the same way.
#   awk -v n=3000 -f experiments/wide_fanout.awk > wide.json
function sp(i, st, d, p, k, par) {
    printf "%s{\"traceID\":\"t1\",\"spanID\":\"%x\",\"startTime\":%d,\"duration\":%d,", (i > 1 ? "," : ""), i, st, d
    printf "\"processID\":\"%s\",\"tags\":[{\"key\":\"span.kind\",\"type\":\"string\",\"value\":\"%s\"}]", p, k
    if (par) printf ",\"references\":[{\"refType\":\"CHILD_OF\",\"traceID\":\"t1\",\"spanID\":\"%x\"}]", par
    printf "}"
}
BEGIN {
    printf "{\"data\":[{\"traceID\":\"t1\",\"spans\":["
    sp(1, 1000000, 30 * n + 100, "p1", "server", 0)
    for (j = 0; j < n; j++) {
        st = 1000010 + 30 * j; d = j % 3 ? 20 : 75
        sp(2 + 2 * j, st, d, "p1", "client", 1)
        sp(3 + 2 * j, st + 2, d - 4, "p2", "server", 2 + 2 * j)
    }
    printf "],\"processes\":{\"p1\":{\"serviceName\":\"a\"},\"p2\":{\"serviceName\":\"b\"}}}]}\n"
}

# joint_deep.awk - one very deep request as Jaeger JSON (experiments/joint_deep.sh,
# docs/joint/speed.md "Speed, nineteenth wave").  awk -v N=SPANS -v SHAPE=S
#   chain: span sI child of s(I-1), process p(I%8+1), start 1000000+I us,
#          duration 4N+100-2I us (every call sent before any return: h141's)
#   tree:  a chain of N/4 levels, each level calling three leaf services
#          (1 us each, one after the other) before its nested call
#   fan:   one root span with N-1 children, 1 us apart, each 1 us long
function span(id, par, st, du, pr,   ref) {
    ref = par == "" ? "" : sprintf("{\"refType\": \"CHILD_OF\", \"traceID\": \"t1\", \"spanID\": \"%s\"}", par)
    printf "%s{\"traceID\": \"t1\", \"spanID\": \"%s\", \"operationName\": \"op\", \"references\": [%s], \"startTime\": %d, \"duration\": %d, \"tags\": [{\"key\": \"span.kind\", \"type\": \"string\", \"value\": \"server\"}], \"processID\": \"%s\"}\n", (ns++ ? "," : ""), id, ref, st, du, pr
}
BEGIN {
    printf "{\"data\": [{\"traceID\": \"t1\", \"spans\": [\n"
    if (SHAPE == "chain") {
        for (i = 0; i < N; i++)
            span("s" i, i ? "s" (i - 1) : "", 1000000 + i, 4 * N + 100 - 2 * i, "p" (i % 8 + 1))
    } else if (SHAPE == "tree") {
        D = int(N / 4)
        for (i = 0; i < D; i++) {
            st = 1000000 + 8 * i
            span("s" i, i ? "s" (i - 1) : "", st, 1000000 + 10 * D + 100 - 2 * i - st, "p" (i % 8 + 1))
            for (j = 0; j < 3; j++)
                span("l" i "_" j, "s" i, st + 1 + 2 * j, 1, "q" (j + 1))
        }
    } else {
        span("s0", "", 1000000, 2 * N + 100, "p1")
        for (i = 1; i < N; i++)
            span("s" i, "s0", 1000000 + 2 * i, 1, "p" (i % 8 + 2))
    }
    printf "], \"processes\": {"
    for (p = 1; p <= 9; p++)
        printf "\"p%d\": {\"serviceName\": \"svc%d\"}, ", p, p
    printf "\"q1\": {\"serviceName\": \"leaf1\"}, \"q2\": {\"serviceName\": \"leaf2\"}, \"q3\": {\"serviceName\": \"leaf3\"}}}]}\n"
}

# One request of a black box that calls one service N times, ~5 calls open
# at once (fe calls db every 10 ms, each answered in 50 ms), as a trace CSV
# without call ids (docs/joint/speed.md "Wide requests: the exchange's
# tail"; experiments/joint_superlinear.sh and
# tests/sh/test_joint_xtail.sh make it the same way).
#   awk -v N=4000 -f experiments/joint_wide1.awk > wide.csv
function row(id, t, src, dst, type, cause) {
    printf "%d,%.6f,%.6f,%s,%s,%s,r0,%s\n", id, t, t, src, dst, type, cause
}
BEGIN {
    print "id,ts,recv_ts,src,dst,type,path,cause"
    row(1, 0, "client", "fe", "call", "")
    for (m = 0; m < N + 5; m++) {
        # call m - 5's return, at call m's time
        if (m >= 5)
            row(3 + 2 * (m - 5), 0.001 + 0.010 * (m - 5) + 0.050, "db", "fe", "return", 2 + 2 * (m - 5))
        if (m < N)
            row(2 + 2 * m, 0.001 + 0.010 * m, "fe", "db", "call", 1)
    }
    row(2 * N + 2, 0.010 * N + 0.1, "fe", "client", "return", 1)
}

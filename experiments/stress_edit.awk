# stress_edit.awk - trace edits for experiments/joint_stress.sh, on a
# pathbench message trace with truth (id, ts, recv_ts, src, dst, type,
# callid, path, cause, [thread]).  The truth column `path` is used only to
# build a variant (which request a message belongs to); no method ever
# sees this script's choices except through the edited trace.
#
#   awk -v op=select -v lo=A -v hi=B -f stress_edit.awk T.csv T.csv
#       the requests (truth path) whose first message is among the ranks
#       [A*n, B*n) of the n requests in order of their first message
#   awk -v op=first -f stress_edit.awk T.csv
#       the first data row's ts as "SECONDS NANOSECONDS"
#   awk -v op=shift -v sec=S -v ns=N -v idoff=K -v pre=P -f stress_edit.awk T.csv
#       every ts and recv_ts moved by S s + N ns (signed), every id and
#       cause raised by K, P put before every callid, path and thread
#       label (so that overlaid parts keep distinct requests)
#   awk -v op=key -f stress_edit.awk T.csv
#       data rows prefixed by a sort key (zero-padded ts, then id) and a tab
#   awk -v op=rename -v seed=N -f stress_edit.awk T.csv T.csv
#       every node renamed (names given in the reverse of their byte
#       order: n0001 for the last), data rows prefixed by a random key
#       and a tab (sort on it to shuffle them); ids kept, so that
#       `infer --sort` puts rows that tie in ts back in their order (the
#       order of events, docs/formats.md "Timestamp resolution").  With
#       -v permute=1 the ids are also replaced by a random permutation
#       (causes follow; the map new-id,old-id goes to -v map=FILE): that
#       loses the order of tied rows, so it is no invariance
# Timestamps are split into seconds and nanoseconds, so no stamp loses a
# digit to floating point.
BEGIN { FS = OFS = "," }
function colidx(   i) {
    for (i = 1; i <= NF; i++) C[$i] = i
}
# "S.F" -> TS_S, TS_N
function parse_ts(s,   p, f) {
    p = index(s, ".")
    if (!p) { TS_S = s + 0; TS_N = 0; return }
    TS_S = substr(s, 1, p - 1) + 0
    f = substr(s, p + 1) "000000000"
    TS_N = substr(f, 1, 9) + 0
}
function fmt_ts(s, n,   q) {
    q = int(n / 1e9); if (n < 0 && q * 1e9 != n) q--
    s += q; n -= q * 1e9
    return sprintf("%d.%09d", s, n)
}
function moved(v) {
    if (v == "") return v
    parse_ts(v)
    return fmt_ts(TS_S + sec, TS_N + ns)
}
op == "first" { if (/^#/) next; if (!h) { h = 1; colidx(); next }
    parse_ts($C["ts"]); printf "%d %d\n", TS_S, TS_N; exit }
op == "key" {
    if (/^#/) { print "#\t" $0; next }
    if (!h) { h = 1; colidx(); print "#\t" $0; next }
    parse_ts($C["ts"])
    printf "%012d%09d%020d\t%s\n", TS_S, TS_N, $C["id"], $0
    next
}
op == "shift" {
    if (/^#/) { print; next }
    if (!h) { h = 1; colidx(); print; next }
    $C["ts"] = moved($C["ts"])
    if ("recv_ts" in C) $C["recv_ts"] = moved($C["recv_ts"])
    $C["id"] = $C["id"] + idoff
    if ("cause" in C && $C["cause"] != "") $C["cause"] = $C["cause"] + idoff
    if ("callid" in C && $C["callid"] != "") $C["callid"] = pre $C["callid"]
    if ("path" in C && $C["path"] != "") $C["path"] = pre $C["path"]
    if ("thread" in C && $C["thread"] != "") $C["thread"] = pre $C["thread"]
    print
    next
}
op == "select" && NR == FNR {
    if (/^#/) next
    if (!h) { h = 1; colidx(); next }
    k = $C["path"] != "" ? $C["path"] : "#" $C["id"]
    if (!(k in rank)) rank[k] = nreq++
    next
}
op == "select" {
    if (/^#/ || !h2) { if (!/^#/) h2 = 1; print; next }
    k = $C["path"] != "" ? $C["path"] : "#" $C["id"]
    r = rank[k]
    if (r >= lo * nreq && r < hi * nreq) print
    next
}
op == "rename" && NR == FNR {
    if (/^#/) next
    if (!h) { h = 1; colidx(); next }
    name[$C["src"]] = 1; name[$C["dst"]] = 1
    ids[++nid] = $C["id"]
    next
}
op == "rename" && !ready {
    ready = 1
    srand(seed)
    # names in reverse byte order: sort them by insertion, then rank
    nn = 0; for (x in name) nl[++nn] = x
    for (i = 2; i <= nn; i++) { x = nl[i]; for (j = i - 1; j >= 1 && nl[j] > x; j--) nl[j + 1] = nl[j]; nl[j + 1] = x }
    for (i = 1; i <= nn; i++) newname[nl[i]] = sprintf("n%04d", nn + 1 - i)
    # a random permutation of the ids
    for (i = 1; i <= nid; i++) perm[i] = ids[i]
    for (i = nid; i > 1; i--) { j = int(rand() * i) + 1; x = perm[i]; perm[i] = perm[j]; perm[j] = x }
    for (i = 1; i <= nid; i++) {
        newid[ids[i]] = permute ? perm[i] : ids[i]
        if (map != "") print newid[ids[i]] "," ids[i] > map
    }
}
op == "rename" {
    if (/^#/ || !h2) { if (!/^#/) h2 = 1; print; next }
    $C["src"] = newname[$C["src"]]; $C["dst"] = newname[$C["dst"]]
    $C["id"] = newid[$C["id"]]
    if ("cause" in C && $C["cause"] != "" && ($C["cause"] in newid)) $C["cause"] = newid[$C["cause"]]
    printf "%.12f\t%s\n", rand(), $0
    next
}

#!/usr/bin/env python3
"""unp_piece.py - decide the second search of `unpaired=1` piece by piece
by a held-out likelihood with a test whose level is named (issue 28,
"Robust to loss" without call ids; docs/joint/loss.md, "Which messages
stay unpaired: pieces decided by a held-out likelihood").  Evaluation
only: it reads the truth to score, never to decide.

    python3 experiments/unp_piece.py TRUTH LOSSY RESULT_FIRST RESULT_SECOND [ALPHA ...]

TRUTH: the unperturbed trace (path column); LOSSY: the sniffer copy both
results were inferred from; RESULT_FIRST / RESULT_SECOND: infer's with
`-s unpaired=0` and `-s unpaired=1`.  Pieces as in unp_merge.awk (groups
of messages closed under both results' instances whose two partitions
differ).  The model is fitted on the messages outside every piece (where
the two results agree, so neither result's piece is seen by it): for each
message kind (type, src, dst) the share of messages with no parent, the
share of each parent kind, and a histogram of log delay (the message's
stamp minus its parent's) per pair of kinds, add-one smoothed, in delay
space (the 1/delay Jacobian kept).  Each message of a piece gets a
log-likelihood under each result's parent; d = second - first.  The
second's partition is taken on a piece when the one-sided paired test on
its messages' d (z = mean / (sd / sqrt(n)), the changed messages only)
rejects "no better" at level ALPHA (z > z_{1-ALPHA}); ALPHA given as
arguments (default 0.05 0.01 0.001).  Prints one line per rule:
    rule=R intact=N exact=E lost=L gained=G pieces_taken=K of=P
with lost / gained counted against the first result (intact requests
exact only in the first / only in the merge): a draw falls beyond noise
when L - G > 2 sqrt(L + G) (the sign test on the discordant requests at
about 2.3 %, one-sided).
"""
import math
import os
import sys
from statistics import NormalDist

BIN = 0.25  # histogram bin in log-seconds


def table(path, want_assignment):
    """rows of a trace (want_assignment=False) or of a result's assignment table"""
    rows, hdr, on = [], None, not want_assignment
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                if want_assignment and line.startswith("# table="):
                    on = line.startswith("# table=assignment")
                    hdr = None
                continue
            if not on:
                continue
            if hdr is None:
                hdr = {k: i for i, k in enumerate(line.split(","))}
                continue
            a = line.split(",")
            rows.append({k: a[i] if i < len(a) else "" for k, i in hdr.items()})
    return rows


def main():
    truth, lossy, ra, rb = sys.argv[1:5]
    alphas = [float(x) for x in sys.argv[5:]] or [0.05, 0.01, 0.001]
    path = {r["id"]: r["path"] for r in table(truth, False)}
    msg = {}
    for r in table(lossy, False):
        msg[r["id"]] = (float(r["ts"]), r["type"], r["src"], r["dst"])
    A = {r["id"]: (r["instance"], r["parent"], r["confidence"]) for r in table(ra, True)}
    B = {r["id"]: (r["instance"], r["parent"], r["confidence"]) for r in table(rb, True)}
    ids = list(msg)
    up = {}

    def find(x):
        r = x
        while up.get(r, r) != r:
            r = up[r]
        while up.get(x, x) != x:
            up[x], x = r, up[x]
        return r

    firsts = {}
    for tag, R in (("A", A), ("B", B)):
        for m in ids:
            x = R.get(m, ("", "", ""))[0]
            if x == "":
                continue
            k = (tag, x)
            if k in firsts:
                a, b = find(m), find(firsts[k])
                if a != b:
                    up[a] = b
            else:
                firsts[k] = m
    grp = {m: find(m) for m in ids}
    differ, toB, toA, size = set(), {}, {}, {}
    for m in ids:
        g = grp[m]
        size[g] = size.get(g, 0) + 1
        xa, xb = A.get(m, ("",))[0], B.get(m, ("",))[0]
        if xa == "" or xb == "":
            differ.add(g)
            continue
        if toB.get(xa, xb) != xb or toA.get(xb, xa) != xa:
            differ.add(g)
        toB[xa] = xb
        toA[xb] = xa

    def kind(m):
        return msg[m][1:]

    def feat(R, m):
        p = R.get(m, ("", "", ""))[1]
        if p == "" or p not in msg:
            return None
        d = msg[m][0] - msg[p][0]
        return kind(p), max(d, 1e-7)

    # the model, fitted outside every piece
    nroot, nkind, npk, hist, nh = {}, {}, {}, {}, {}
    for m in ids:
        if grp[m] in differ:
            continue
        mk = kind(m)
        nkind[mk] = nkind.get(mk, 0) + 1
        f = feat(A, m)
        if f is None:
            nroot[mk] = nroot.get(mk, 0) + 1
            continue
        pk, d = f
        npk[mk, pk] = npk.get((mk, pk), 0) + 1
        b = math.floor(math.log(d) / BIN)
        hist[mk, pk, b] = hist.get((mk, pk, b), 0) + 1
        nh[mk, pk] = nh.get((mk, pk), 0) + 1
    nbins = 160  # log-delay range about 1e-7 .. 1e1 s in bins of BIN
    kinds_p = {}
    for (mk, pk) in npk:
        kinds_p.setdefault(mk, set()).add(pk)

    def ll(R, m):
        mk = kind(m)
        n = nkind.get(mk, 0)
        r = nroot.get(mk, 0)
        f = feat(R, m)
        if f is None:
            return math.log((r + 1) / (n + 2))
        pk, d = f
        npks = len(kinds_p.get(mk, ())) + 1
        l = math.log((n - r + 1) / (n + 2))
        l += math.log((npk.get((mk, pk), 0) + 1) / (n - r + npks))
        b = math.floor(math.log(d) / BIN)
        c = hist.get((mk, pk, b), 0)
        l += math.log((c + 1) / (nh.get((mk, pk), 0) + nbins)) - math.log(BIN) - math.log(d)
        return l

    dsum, clus = {}, {}
    for m in ids:
        g = grp[m]
        if g not in differ:
            continue
        if A.get(m, ("", ""))[:2] == B.get(m, ("", ""))[:2]:
            continue
        v = ll(B, m) - ll(A, m)
        dsum.setdefault(g, []).append(v)
        ck = (g, A.get(m, ("",))[0] or ("m" + m))
        clus[ck] = clus.get(ck, 0.0) + v
    csum = {}  # the results' own confidence (unp_merge.awk's conf), for comparison
    for m in ids:
        g = grp[m]
        if g in differ:
            for R, sg in ((A, -1), (B, 1)):
                v = R.get(m, ("", "", ""))[2]
                v = float(v) if v else 1.0
                csum[g] = csum.get(g, 0) + sg * math.log(max(v, 1e-6))
    zs = {}
    for g, ds in dsum.items():
        n = len(ds)
        mu = sum(ds) / n
        sd = math.sqrt(sum((x - mu) ** 2 for x in ds) / (n - 1)) if n > 1 else 0.0
        zs[g] = (mu / (sd / math.sqrt(n)) if sd > 0 else (math.inf if mu > 0 else -math.inf), n, sum(ds))

    # scoring (truth)
    kept = set(msg)
    bypath = {}
    for m, p in path.items():
        bypath.setdefault(p, []).append(m)
    intact = [p for p, ms in bypath.items() if all(m in kept for m in ms)]

    def exact_set(lab):
        cnt = {}
        for m in ids:
            cnt[lab[m]] = cnt.get(lab[m], 0) + 1
        out = set()
        for p in intact:
            ms = bypath[p]
            ls = {lab[m] for m in ms}
            if len(ls) == 1:
                l0 = next(iter(ls))
                if not l0.endswith(":") and cnt[l0] == len(ms):
                    out.add(p)
        return out

    def labels(take):
        return {m: ("B:" + B.get(m, ("",))[0]) if grp[m] in take else ("A:" + A.get(m, ("",))[0]) for m in ids}

    rules = [("first", set()), ("second", set(differ)),
             ("ll", {g for g in differ if g in zs and zs[g][2] > 0}),
             ("ll_m1.92", {g for g in differ if g in zs and zs[g][2] > 1.9207}),
             ("conf", {g for g in differ if csum.get(g, 0) > 0})]
    # the requests of the first result as clusters: the sum over a piece
    # self-normalised by its clusters' sums (a request's messages move
    # together, so they are not independent)
    cn = {}
    for (g, _), v in clus.items():
        cn[g] = cn.get(g, 0.0) + v * v
    small = {g for g in differ if size[g] <= 0.1 * len(ids)}
    rules.append(("llm_small", {g for g in small if g in zs and zs[g][2] > 1.9207}))
    z05 = NormalDist().inv_cdf(0.95)
    rules.append(("a05_or_small", {g for g in differ if g in zs and (zs[g][0] > z05 or (
        g in small and zs[g][2] > 1.9207))}))
    for a in alphas:
        zc = NormalDist().inv_cdf(1 - a)
        rules.append(("ll_a%g" % a, {g for g in differ if g in zs and zs[g][0] > zc}))
        rules.append(("llc_a%g" % a, {g for g in differ if g in zs and cn.get(g, 0) > 0 and
                                        zs[g][2] / math.sqrt(cn[g]) > zc}))
    e0 = exact_set(labels(set()))
    # locality: where the priced choice moved messages, and how much of the
    # trace a second search limited to a window around them would cover
    moved = set()
    with open(rb) as f:
        for line in f:
            if line.startswith("# unpaired_moved="):
                moved.update(x for x in line.split(" ids=", 1)[1].strip().split(",") if x in msg)
    ts = sorted(v[0] for v in msg.values())
    t0, t1 = ts[0], ts[-1]
    mv = sorted(msg[m][0] for m in moved)
    ends = sum(1 for t in mv if t - t0 < 0.01 * (t1 - t0) or t1 - t < 0.01 * (t1 - t0))
    import bisect
    cover = []
    for w in (0.01, 0.05):
        n = 0
        for t in ts:
            i = bisect.bisect_left(mv, t - w)
            if i < len(mv) and mv[i] <= t + w:
                n += 1
        cover.append(n / len(ts))
    print("moved=%d at_ends=%d window10ms=%.3f window50ms=%.3f pieces_msgs=%.3f"
          % (len(moved), ends, cover[0], cover[1],
             sum(size[g] for g in differ) / len(ids)))
    # a second search run only around the moved messages reaches at best
    # the pieces that hold one (unp_merge.awk's local)
    gm = {grp[m] for m in moved}
    rules.append(("llm_local", {g for g in small if g in gm and g in zs and zs[g][2] > 1.9207}))
    # the choice made inside joint (-s unpaired=1 -s unp_pieces=1): its
    # metadata names each taken piece by its first message (env UNP_JOINT)
    if os.environ.get("UNP_JOINT"):
        tk = set()
        with open(os.environ["UNP_JOINT"]) as f:
            for line in f:
                if line.startswith("# unp_piece=") and line.rstrip().endswith("taken=1"):
                    m = line.split(" first=", 1)[1].split()[0]
                    if m in grp and grp[m] in differ:
                        tk.add(grp[m])
        rules.append(("joint", tk))
    for name, take in rules:
        e = exact_set(labels(take))
        lost, gained = len(e0 - e), len(e - e0)
        fall = lost - gained > 2 * math.sqrt(lost + gained) if lost + gained else False
        print("rule=%s intact=%d exact=%d lost=%d gained=%d fall=%d pieces_taken=%d of=%d msgs_taken=%.3f"
              % (name, len(intact), len(e), lost, gained, int(fall), len(take), len(differ),
                 sum(size[g] for g in take) / len(ids)))
    # the merged output itself (env UNP_MERGED: infer's result with
    # -s unpaired=1 -s unp_pieces=1, scored as it is, not re-assembled)
    if os.environ.get("UNP_MERGED"):
        M = {r["id"]: r["instance"] for r in table(os.environ["UNP_MERGED"], True)}
        e = exact_set({m: "M:" + M.get(m, "") for m in ids})
        lost, gained = len(e0 - e), len(e - e0)
        fall = lost - gained > 2 * math.sqrt(lost + gained) if lost + gained else False
        # the same partition of the messages as the first result outside
        # the pieces joint took and the second inside (UNP_JOINT's)
        same = -1
        if os.environ.get("UNP_JOINT"):
            lab = labels(tk)
            fw, bw = {}, {}
            same = 1
            for m in ids:
                a, b = lab[m], "M:" + M.get(m, "")
                if fw.setdefault(a, b) != b or bw.setdefault(b, a) != a:
                    same = 0
        print("rule=merged intact=%d exact=%d lost=%d gained=%d fall=%d same_partition=%d"
              % (len(intact), len(e), lost, gained, int(fall), same))


if __name__ == "__main__":
    main()

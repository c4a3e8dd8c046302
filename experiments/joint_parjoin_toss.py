#!/usr/bin/env python3
"""joint_parjoin_toss.py - evaluation only (the truth decides nothing in
infer): where joint's and fcfs's black-box answers differ on a trace with
truth, which requests each gets right alone, and per link which parent
(a call's caller-side call, a return's call) each assigns rightly.
docs/joint/audits.md, "The parjoin rows, twenty-second wave (h185)".

  python3 joint_parjoin_toss.py TRACE JOINT_RESULT FCFS_RESULT
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import joint_ebpf_toss as t  # noqa: E402


def groups(inst):
    g = defaultdict(list)
    for k, v in inst.items():
        g[v].append(k)
    return g


def parents(by, ix, inst):
    """message id -> its parent in the pairing: a call the call into its
    source within the request, a return the call on the reversed link
    (one call per link per request, as in parjoin)"""
    par = {}
    for s in groups(inst).values():
        calls = [m for m in s if by[m][ix['type']] == 'call']
        into = {by[m][ix['dst']]: m for m in calls}
        link = {(by[m][ix['src']], by[m][ix['dst']]): m for m in calls}
        for m in s:
            x = by[m]
            if x[ix['type']] == 'call':
                par[m] = into.get(x[ix['src']])
            else:
                par[m] = link.get((x[ix['dst']], x[ix['src']]))
    return par


def main():
    trace, rj, rf = sys.argv[1:4]
    _, ix, msgs = t.load(trace)
    by = {x[0]: x for x in msgs}
    truth = {x[0]: x[ix['path']] for x in msgs}
    ji, fi = t.result_instances(rj), t.result_instances(rf)
    T = {frozenset(s) for s in groups(truth).values()}
    J = {frozenset(s) for s in groups(ji).values()}
    F = {frozenset(s) for s in groups(fi).values()}
    differ = sum(1 for s in T if s not in J or s not in F) - len(T - J - F)
    print('requests=%d exact joint=%d fcfs=%d joint_only=%d fcfs_only=%d'
          ' differ_one_right=%d' % (len(T), len(T & J), len(T & F),
                                    len((T & J) - F), len((T & F) - J),
                                    differ))
    pt, pj, pf = (parents(by, ix, i) for i in (truth, ji, fi))
    st = defaultdict(lambda: [0, 0, 0, 0])
    for m, p in pt.items():
        x = by[m]
        a = st[(x[ix['src']] + '>' + x[ix['dst']], x[ix['type']])]
        a[0] += 1
        a[1] += pj.get(m) == p
        a[2] += pf.get(m) == p
        a[3] += pj.get(m) != pf.get(m)
    for k in sorted(st):
        if st[k][3]:
            print('link=%s %s n=%d parent_right joint=%d fcfs=%d differ=%d'
                  % ((k[0], k[1]) + tuple(st[k])))


if __name__ == '__main__':
    main()

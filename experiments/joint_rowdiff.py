#!/usr/bin/env python3
"""joint_rowdiff.py - evaluation only (the truth decides nothing in infer):
one audit row looked at request by request.  On a trace with truth (the
`path` column) and two results (joint's and another method's): the
requests exact under each, under each alone, and for the requests right
under one method alone, where the other went wrong: the first message of
the true request (in time) that the wrong method put in another instance,
counted by link (src>dst) and type.  Used for the held-out rows where
joint is below the best other method (docs/joint/shapes_late.md,
"Held-out seeds 55-56 of apps and models3, every method (h265)").

  python3 joint_rowdiff.py TRACE JOINT_RESULT OTHER_RESULT [NAME]
"""
import os
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import joint_ebpf_toss as t  # noqa: E402


def groups(inst):
    g = defaultdict(set)
    for k, v in inst.items():
        g[v].add(k)
    return g


def first_wrong(req, inst, pos, by, ix):
    """the first message (by send stamp, then id) of the true request req
    that inst puts outside the instance holding most of req"""
    own = Counter(inst.get(m) for m in req).most_common(1)[0][0]
    bad = [m for m in req if inst.get(m) != own]
    if not bad:  # all together, but with foreign messages in the instance
        extra = [m for m in pos[own] if m not in req]
        x = by[min(extra, key=lambda m: (float(by[m][ix['ts']]), int(m)))]
        return 'extra %s>%s %s' % (x[ix['src']], x[ix['dst']], x[ix['type']])
    x = by[min(bad, key=lambda m: (float(by[m][ix['ts']]), int(m)))]
    return 'split %s>%s %s' % (x[ix['src']], x[ix['dst']], x[ix['type']])


def main():
    if len(sys.argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    trace, rj, ro = sys.argv[1:4]
    other = sys.argv[4] if len(sys.argv) > 4 else 'other'
    _, ix, msgs = t.load(trace)
    by = {x[0]: x for x in msgs}
    truth = groups({x[0]: x[ix['path']] for x in msgs})
    ji, oi = t.result_instances(rj), t.result_instances(ro)
    jg, og = groups(ji), groups(oi)
    J = {frozenset(s) for s in jg.values()}
    O = {frozenset(s) for s in og.values()}
    T = {frozenset(s) for s in truth.values()}
    jo, oo = (T & J) - O, (T & O) - J
    print('requests=%d exact joint=%d %s=%d joint_only=%d %s_only=%d'
          % (len(T), len(T & J), other, len(T & O), len(jo), other, len(oo)))
    for name, only, inst, g in (('joint wrong where %s right' % other, oo, ji, jg),
                                ('%s wrong where joint right' % other, jo, oi, og)):
        c = Counter(first_wrong(r, inst, g, by, ix) for r in only)
        for k, n in c.most_common(6):
            print('  %s: %s x%d' % (name, k, n))
    return 0


if __name__ == '__main__':
    sys.exit(main())

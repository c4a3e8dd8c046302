#!/usr/bin/env python3
"""joint_margins.py - every row of the held-out audits where another method
beats joint, at any margin, and the rows joint wins by the least.

  python3 experiments/joint_margins.py [--top N] CSV...

CSV: the audits' own tables, run with every method (the default of
experiments/joint_{models,models2,models3,apps,stress,systems}.sh; a row
key with joint alone is skipped).  A row is every column before `algo`
(config or set, seed, variant, mode); joint's exact accuracy is compared
with the best other method's, the margin given in points and in requests
(rounded: margin x requests).  Prints, per CSV, the rows compared, those
below (joint under the best other by at least one request), equal and
above; then per class (config or set, and mode) the least and the summed
margin in requests; then the N rows (default 30) of least margin over
all CSVs, below first.  The audits' own .md marks "LOSS" only past 0.5
points and 2 requests; this lists every request.
(docs/joint/shapes_late.md, "Held-out shapes against every method".)
"""
import collections
import csv
import sys


def load(path):
    groups = collections.OrderedDict()
    with open(path) as f:
        r = csv.reader(f)
        h = next(r)
        k, a, n = h.index('exact_accuracy'), h.index('algo'), h.index('requests')
        for row in r:
            if not row or not row[k]:
                continue
            groups.setdefault(tuple(row[:a]), {})[row[a]] = (float(row[k]), int(row[n] or 0))
    return groups


def main(argv):
    top = 30
    if len(argv) >= 2 and argv[0] == '--top':
        top = int(argv[1])
        argv = argv[2:]
    if not argv:
        sys.stderr.write(__doc__)
        return 2
    allrows = []
    for path in argv:
        name = path.rsplit('/', 1)[-1].split('.')[0]
        below = equal = above = 0
        cls = collections.OrderedDict()
        for key, m in load(path).items():
            if 'joint' not in m or len(m) < 2:
                continue
            j, req = m['joint']
            bv, bn = max((v[0], al) for al, v in m.items() if al != 'joint')
            ties = '='.join(sorted(al for al, v in m.items() if al != 'joint' and v[0] == bv))
            d = round((j - bv) * req)
            if d < 0:
                below += 1
            elif d == 0:
                equal += 1
            else:
                above += 1
            cls.setdefault((key[0], key[-1]), []).append(d)
            allrows.append((d, j - bv, name, key, j, ties, bv, req))
        print('%s: %d rows; joint below the best other %d, equal %d, above %d'
              % (name, below + equal + above, below, equal, above))
        for (c, mode), ds in cls.items():
            print('  %-45s %-8s rows %3d  least %+6d  sum %+7d  below %d'
                  % (c, mode, len(ds), min(ds), sum(ds), sum(1 for x in ds if x < 0)))
    print('')
    print('least margins (requests, points):')
    for d, dp, name, key, j, bn, bv, req in sorted(allrows, key=lambda x: (x[0], x[1]))[:top]:
        print('%s %-14s %-50s joint %6.2f  %s %6.2f  %+5d of %d (%+.2f)'
              % ('BELOW' if d < 0 else '     ', name, ','.join(key), 100 * j, bn, 100 * bv,
                 d, req, 100 * dp))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

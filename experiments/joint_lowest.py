#!/usr/bin/env python3
"""joint_lowest.py - the rows of the held-out audits where joint's exact
accuracy is lowest in absolute terms, with every method's exact % there
(docs/joint/shapes_late.md, "Held-out seeds 55-56 of apps and models3,
every method (h265)").  Evaluation only.

  python3 experiments/joint_lowest.py [--top N] CSV...

CSV: the audits' own tables (experiments/joint_{models,models2,models3,
apps}.sh with every method).  A row is every column before `algo`.
Prints the N rows (default 15) of lowest joint exact %, each with every
method's exact % on it.
"""
import csv
import sys
from collections import OrderedDict


def main(argv):
    top = 15
    if len(argv) >= 2 and argv[0] == '--top':
        top, argv = int(argv[1]), argv[2:]
    if not argv:
        sys.stderr.write(__doc__)
        return 2
    rows = OrderedDict()
    algos = []
    for path in argv:
        with open(path) as f:
            r = csv.reader(f)
            h = next(r)
            k, a, n = h.index('exact_accuracy'), h.index('algo'), h.index('requests')
            for x in r:
                if not x or not x[k]:
                    continue
                key = (path.rsplit('/', 1)[-1].split('.')[0],) + tuple(x[:a])
                rows.setdefault(key, {})[x[a]] = (100 * float(x[k]), int(x[n] or 0))
                if x[a] not in algos:
                    algos.append(x[a])
    keyed = [(m['joint'][0], key, m) for key, m in rows.items() if 'joint' in m]
    keyed.sort(key=lambda z: (z[0], z[1]))
    print('%-14s %-40s %6s  %s' % ('audit', 'row', 'reqs', '  '.join('%7s' % a for a in algos)))
    for j, key, m in keyed[:top]:
        print('%-14s %-40s %6d  %s' % (key[0], ','.join(key[1:]), m['joint'][1],
              '  '.join('%7s' % ('%.2f' % m[a][0] if a in m else '-') for a in algos)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

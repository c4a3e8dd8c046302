#!/usr/bin/env python3
"""joint_heldout_drop.py - evaluation only: is joint worse on fresh seeds
than on the seeds it was developed on?  For each row of a fresh audit
(config, variant, mode; any seed) joint's exact % is set against the range
of joint's exact % on the same config, variant and mode in a baseline run
of the same audit at its default seeds (1-3).  Prints every fresh row
below the baseline's lowest seed by more than --points (default 5) and
the count of fresh rows below, inside and above the baseline's range
(docs/joint/shapes_late.md, "Held-out seeds 57-58 of all four generated
audits, every method (h273)").

  python3 experiments/joint_heldout_drop.py [--points P] BASE.csv FRESH.csv

Both CSVs are the audits' own (experiments/joint_{apps,models,models2,
models3}.sh); only joint's rows are read.

  python3 experiments/joint_heldout_drop.py --best FRESH.csv...

sets joint against the best other method on each row of each fresh CSV
(run with every method: the audits' default) and prints every row where
joint is below it by at least one request (margin x requests, rounded),
then per CSV the rows compared, below, equal and above, and the rows
where joint is under 10 % of the best other's exact (a collapse)
(docs/joint/audits_late.md, "Thirty-third wave", seeds 59-60).
"""
import csv
import sys
from collections import defaultdict


def load(path):
    out = defaultdict(dict)
    with open(path) as f:
        r = csv.reader(f)
        h = next(r)
        c, s, v, m, a, k, n = (h.index(x) for x in (
            'config', 'seed', 'variant', 'mode', 'algo', 'exact_accuracy', 'requests'))
        for row in r:
            if not row or row[a] != 'joint' or not row[k]:
                continue
            out[(row[c], row[v], row[m])][row[s]] = (100.0 * float(row[k]), int(row[n] or 0))
    return out


def best(paths):
    for path in paths:
        groups = {}
        with open(path) as f:
            r = csv.reader(f)
            h = next(r)
            a, k, n = h.index('algo'), h.index('exact_accuracy'), h.index('requests')
            for row in r:
                if not row or not row[k]:
                    continue
                groups.setdefault(tuple(row[:a]), {})[row[a]] = (float(row[k]), int(row[n] or 0))
        name = path.rsplit('/', 1)[-1].split('.')[0]
        below, equal, above, collapse = [], 0, 0, []
        for key, m in groups.items():
            if 'joint' not in m or len(m) < 2:
                continue
            j, req = m['joint']
            bv = max(v[0] for al, v in m.items() if al != 'joint')
            who = '='.join(sorted(al for al, v in m.items() if al != 'joint' and v[0] == bv))
            d = round((j - bv) * req)
            if d < 0:
                below.append((d, key, j, who, bv, req))
            elif d == 0:
                equal += 1
            else:
                above += 1
            if bv > 0 and j < 0.1 * bv:
                collapse.append(key)
        print('%s: %d rows; joint below the best other %d, equal %d, above %d; collapsed %d'
              % (name, len(below) + equal + above, len(below), equal, above, len(collapse)))
        for d, key, j, who, bv, req in sorted(below):
            print('  BELOW %-55s joint %6.2f  %s %6.2f  %+d of %d (%+.2f)'
                  % (','.join(key), 100 * j, who, 100 * bv, d, req, 100 * (j - bv)))
        for key in collapse:
            print('  COLLAPSE %s' % ','.join(key))
    return 0


def main(argv):
    if argv and argv[0] == '--best':
        if len(argv) < 2:
            sys.stderr.write(__doc__)
            return 2
        return best(argv[1:])
    pts = 5.0
    if len(argv) >= 2 and argv[0] == '--points':
        pts, argv = float(argv[1]), argv[2:]
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    base, fresh = load(argv[0]), load(argv[1])
    below = inside = above = missing = 0
    drops = []
    for key in fresh:
        if key not in base:
            missing += len(fresh[key])
            continue
        vals = [v[0] for v in base[key].values()]
        lo, hi = min(vals), max(vals)
        for seed, (x, n) in sorted(fresh[key].items()):
            if x < lo:
                below += 1
                if lo - x > pts:
                    drops.append((x - lo, key, seed, x, n, lo, hi))
            elif x > hi:
                above += 1
            else:
                inside += 1
    print("fresh joint rows: %d below the baseline seeds' range, %d inside, %d above, %d with no baseline row"
          % (below, inside, above, missing))
    print("rows more than %g points below the baseline's lowest seed: %d" % (pts, len(drops)))
    for d, key, seed, x, n, lo, hi in sorted(drops):
        print("  %-12s s%-3s %-8s %-9s joint %6.2f of %5d   baseline seeds %6.2f .. %6.2f   (%+.2f)"
              % (key[0], seed, key[1], key[2], x, n, lo, hi, d))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

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


def main(argv):
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

#!/usr/bin/env python3
"""joint_tickshare.py - evaluation only (the truth decides nothing in
infer): of the calls whose parent (the first call into the caller within
the same instance) differs from a start pairing's, the share whose new
parent's call is stamped within one tick of the start parent's.  For the
truth (`path` column) and for each result given: is "most moves stay
within a tick" a sign of moves the stamps cannot support, or the trace's
own base rate?  (docs/joint/shapes_late.md, "Held-out seeds 55-56 of apps
and models3, every method (h265)"; joint's tie test, joint_quant.c, counts
its moves its own way, so its shares differ from these.)

  python3 joint_tickshare.py [--tick SECONDS] TRACE START_RESULT [RESULT...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import joint_ebpf_toss as t  # noqa: E402


def parents(ix, msgs, inst):
    into = {}
    for x in msgs:
        if x[ix['type']] == 'call':
            into.setdefault((inst.get(x[0]), x[ix['dst']]), x)
    par = {}
    for x in msgs:
        if x[ix['type']] == 'call':
            p = into.get((inst.get(x[0]), x[ix['src']]))
            if p is not None and p[0] != x[0]:
                par[x[0]] = p
    return par


def main(argv):
    tick = 0.001
    if len(argv) >= 2 and argv[0] == '--tick':
        tick, argv = float(argv[1]), argv[2:]
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    trace, start, others = argv[0], argv[1], argv[2:]
    _, ix, msgs = t.load(trace)
    ps = parents(ix, msgs, t.result_instances(start))
    cands = [('truth', {x[0]: x[ix['path']] for x in msgs})]
    cands += [(o, t.result_instances(o)) for o in others]
    for name, inst in cands:
        po = parents(ix, msgs, inst)
        moved = [m for m in po if m in ps and po[m][0] != ps[m][0]]
        within = sum(1 for m in moved
                     if abs(float(po[m][ix['ts']]) - float(ps[m][ix['ts']])) <= tick * (1 + 1e-9))
        print('%s: moved=%d within_tick=%d share=%.3f'
              % (name, len(moved), within, within / max(1, len(moved))))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

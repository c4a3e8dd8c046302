#!/usr/bin/env python3
"""joint_bb_split.py TRUTH RESULT [SERVICE]: where a black-box result's errors
are, counted against the truth (evaluation only; docs/joint/accuracy_w36.md,
"OnlineBoutique without call ids: where the errors are (h304)").

TRUTH is an imported trace with its truth columns (path, cause); RESULT
infer's output (its id,instance,rank,parent,confidence table).  A message is
wrong when its inferred parent is not its true cause.  Prints:
  requests   the requests holding a wrong message
  returns    wrong pairings of a return with a call; of them "burst": the
             true and the inferred call reached the callee within 0.2 ms
  triggers   calls ascribed to a wrong trigger; of them "near": the
             inferred trigger reached the service within 0.1 ms of the true
  responses  responses to the client with a wrong parent
  stacked    inputs of SERVICE (default frontend) the result gives two or
             more calls (the truth's count in brackets)
  by link    wrong messages per link and type
  order      pairs of calls both at the callee at once (by callee receive
             stamps: "burst" within 0.2 ms, else "spread"), answered first
             in first out or not; pairs of SERVICE's inputs whose next calls
             were both in question, the earlier input's call sent first
             (fifo) or not -- for the truth and for the result
"""
import collections
import csv
import sys


def rows(path):
    lines = [l for l in open(path) if not l.startswith('#')]
    return lines


def main():
    tr, res = sys.argv[1], sys.argv[2]
    svc = sys.argv[3] if len(sys.argv) > 3 else 'frontend'
    T = list(csv.DictReader(rows(tr)))
    by = {t['id']: t for t in T}
    L = rows(res)
    i = [k for k, l in enumerate(L) if l.startswith('id,instance')][0]
    R = {r['id']: r for r in csv.DictReader(L[i:])}
    par = {t['id']: R[t['id']]['parent'] for t in T}
    bad, link = set(), collections.Counter()
    ret = burst = trig = near = resp = 0
    near_ts = lambda a, b, d: a in by and b in by and abs(float(by[a]['recv_ts']) - float(by[b]['recv_ts'])) < d
    for t in T:
        ip = par[t['id']]
        if ip == t['cause']:
            continue
        bad.add(t['path'])
        link[t['src'] + '>' + t['dst'] + ' ' + t['type']] += 1
        if t['dst'] == 'client':
            resp += 1
        elif t['type'] == 'return':
            ret += 1
            burst += near_ts(ip, t['cause'], 2e-4)
        else:
            trig += 1
            near += near_ts(ip, t['cause'], 1e-4)
    nreq = len(set(t['path'] for t in T))
    print(f"requests {len(bad)} of {nreq} hold a wrong message")
    print(f"returns {ret} (burst {burst}); triggers {trig} (near {near}); responses {resp}")

    def stacked(p):
        c = collections.Counter(p(t) for t in T if t['type'] == 'call' and p(t) in by
                                and by[p(t)]['dst'] == svc)
        return sum(1 for v in c.values() if v > 1)
    print(f"stacked inputs of {svc}: {stacked(lambda t: par[t['id']])} "
          f"(truth {stacked(lambda t: t['cause'])})")
    print("by link: " + ', '.join(f"{k} {v}" for k, v in link.most_common(6)))
    for name, p in (('truth', lambda t: t['cause']), ('result', lambda t: par[t['id']])):
        ret_of = {p(t): t for t in T if t['type'] == 'return' and p(t)}
        st = collections.Counter()
        bl = collections.defaultdict(list)
        for t in T:
            if t['type'] == 'call' and t['id'] in ret_of and t['dst'] != svc:
                bl[t['src'] + '>' + t['dst']].append((float(t['recv_ts']), float(ret_of[t['id']]['ts'])))
        for cs in bl.values():
            cs.sort()
            for a in range(len(cs)):
                for b in range(a + 1, len(cs)):
                    x, y = cs[a], cs[b]
                    if y[0] >= min(x[1], y[1]):
                        break
                    st[('burst' if y[0] - x[0] < 2e-4 else 'spread') + (' fifo' if x[1] < y[1] else ' lifo')] += 1
        kids = collections.defaultdict(list)
        for t in T:
            if t['type'] == 'call' and p(t) in by and by[p(t)]['dst'] == svc:
                kids[p(t)].append(float(t['ts']))
        ev = sorted((float(by[k]['recv_ts']), min(v)) for k, v in kids.items())
        for a in range(len(ev)):
            for b in range(a + 1, len(ev)):
                if ev[b][0] >= ev[a][1]:
                    break
                st['dispatch ' + ('fifo' if ev[a][1] < ev[b][1] else 'lifo')] += 1
        print(f"order ({name}): " + ', '.join(f"{k} {v}" for k, v in sorted(st.items())))


if __name__ == '__main__':
    main()

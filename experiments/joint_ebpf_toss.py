#!/usr/bin/env python3
"""joint_ebpf_toss.py - evaluation only (the truth decides nothing in infer).

Two tools behind docs/joint/systems.md, "The eBPF capture as a black box,
twenty-second wave (h181)":

  python3 joint_ebpf_toss.py ids TRACE [RESULT]
      TRACE with its callid column set from a pairing: RESULT's (each
      return paired with the call of its own instance on the reversed
      link), or without RESULT the truth's (the `path` and `cause`
      columns), to stdout.  joint run on it with call ids scores that
      whole pairing under its model (the `# log_likelihood=` line).

  python3 joint_ebpf_toss.py order TRACE [RESULT...]
      per link, the adjacent inversions of a pairing (the truth's, then
      each RESULT's): returns against the calls' send order (first come,
      first served's rule) and against their read order (the order the
      durations prefer).

  python3 joint_ebpf_toss.py exchange TRACE
      the front service's requests taken in their read order, two
      adjacent ones whose chains could be exchanged (the later request
      read before the earlier request's first call was sent): a Gaussian
      of the log delays and log duration at the front service, fitted on
      the truth itself (an oracle: more than any model of the trace can
      know), with and without correlations, scores the truth's pairing
      against the exchanged one; counts which it prefers, split by
      whether the truth served the two in read order.  Then the same for
      the responses (two adjacent requests by their last return's read).

  python3 joint_ebpf_toss.py crossings TRACE
      each call crossing (two calls of one link adjacent by send stamp,
      read by the callee in the other order): which order the callee
      answered them in (truth), and how many nats read order is likelier
      than send order under the link's durations fitted on the truth's
      own pairs (an oracle fit: a log-normal, and a Gaussian kernel
      density of the log durations, Silverman's bandwidth).

  python3 joint_ebpf_toss.py threads TRACE
      per link, on the truth's pairs, the mutual information (nats) of
      the thread that read a call and the thread that read its answer,
      against its mean over 50 seeded shuffles of the answers' threads
      (no more than the shuffles: the two threads say nothing of which
      answer is whose).

The front service is the callee of the calls that have no cause; each
request must be a chain front <- caller, front -> X, X -> front, ...,
front -> caller (the capture's and experiments/joint_goread.conf's
shape: one call per link per request).
"""
import collections
import csv
import math
import random
import statistics
import sys


def rows(path):
    with open(path) as f:
        return list(csv.reader(l for l in f if not l.startswith('#')))


def header(path):
    with open(path) as f:
        return [l for l in f if l.startswith('#')]


def result_instances(path):
    """id -> instance of a result's assignment table"""
    out, on = {}, False
    for x in rows(path):
        if x[:2] == ['id', 'instance']:
            on = True
        elif on and len(x) >= 2:
            out[x[0]] = x[1]
    return out


def load(path):
    r = rows(path)
    ix = {k: i for i, k in enumerate(r[0])}
    return r[0], ix, r[1:]


def pairing(ix, msgs, inst):
    """id -> pair key: a call its own id, a return the call of its
    instance on the reversed link"""
    calls = {}
    for x in msgs:
        if x[ix['type']] == 'call':
            calls[(inst[x[0]], x[ix['src']], x[ix['dst']])] = x[0]
    out = {}
    for x in msgs:
        if x[ix['type']] == 'call':
            out[x[0]] = x[0]
        else:
            out[x[0]] = calls.get((inst[x[0]], x[ix['dst']], x[ix['src']]), 'u' + x[0])
    return out


def cmd_ids(trace, result):
    head, ix, msgs = load(trace)
    inst = (result_instances(result) if result else
            {x[0]: x[ix['path']] for x in msgs})
    key = pairing(ix, msgs, inst)
    out = csv.writer(sys.stdout, lineterminator='\n')
    sys.stdout.write(''.join(header(trace)))
    cols = head if 'callid' in ix else head + ['callid']
    out.writerow(cols)
    for x in msgs:
        y = x + [''] * (len(cols) - len(x))
        y[cols.index('callid')] = 'k' + key[x[0]]
        out.writerow(y)


def stamps(ix, x):
    s = float(x[ix['ts']])
    r = float(x[ix['recv_ts']]) if x[ix['recv_ts']] else s
    return s, r


def cmd_order(trace, results):
    head, ix, msgs = load(trace)
    byid = {x[0]: x for x in msgs}
    sols = [('truth', {x[0]: x[ix['path']] for x in msgs})]
    sols += [(p, result_instances(p)) for p in results]
    for name, inst in sols:
        key = pairing(ix, msgs, inst)
        links = collections.defaultdict(list)
        for x in msgs:
            if x[ix['type']] == 'return' and key[x[0]] in byid:
                c = byid[key[x[0]]]
                cs, cr = stamps(ix, c)
                links[c[ix['src']] + '>' + c[ix['dst']]].append(
                    (cs, cr, stamps(ix, x)[0]))
        for lk in sorted(links):
            v = links[lk]
            inv = []
            for k in (0, 1):
                w = sorted(v, key=lambda t: t[k])
                inv.append(sum(1 for a, b in zip(w, w[1:]) if b[2] < a[2]))
            print('%s link=%s pairs=%d inverted_vs_send=%d inverted_vs_read=%d'
                  % (name, lk, len(v), inv[0], inv[1]))


def chains(ix, msgs):
    """request -> [front read of the root call, then the front's sends and
    reads in time order, last the response's send]"""
    req = collections.defaultdict(list)
    roots = {x[ix['path']]: x for x in msgs if not x[ix['cause']]}
    for x in msgs:
        req[x[ix['path']]].append(x)
    out = {}
    for p, ms in req.items():
        front = roots[p][ix['dst']]
        ev = []
        for x in ms:
            s, r = stamps(ix, x)
            if x[ix['dst']] == front:
                ev.append(r)       # read at the front
            elif x[ix['src']] == front:
                ev.append(s)       # sent by the front
        out[p] = sorted(ev)
    return out


def feats(c):
    """log delays at the front (read -> next send) and log duration"""
    d = [c[i + 1] - c[i] for i in range(0, len(c) - 1, 2)]
    return [math.log(max(v, 1e-9)) for v in d] + [math.log(max(c[-1] - c[0], 1e-9))]


def inverse(m):
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(a[r][i]))
        a[i], a[p] = a[p], a[i]
        pv = a[i][i]
        a[i] = [v / pv for v in a[i]]
        for r in range(n):
            if r != i:
                f = a[r][i]
                a[r] = [v - f * w for v, w in zip(a[r], a[i])]
    return [row[n:] for row in a]


def cmd_exchange(trace):
    head, ix, msgs = load(trace)
    ch = chains(ix, msgs)
    cs = [c for c in ch.values() if len(c) >= 4 and len(c) % 2 == 0]
    x = [feats(c) for c in cs]
    k = len(x[0])
    x = [f for f in x if len(f) == k]
    mu = [statistics.mean(c) for c in zip(*x)]
    cov = [[sum((f[i] - mu[i]) * (f[j] - mu[j]) for f in x) / len(x)
            for j in range(k)] for i in range(k)]
    full = inverse(cov)
    diag = [[(1.0 / cov[i][i] if i == j else 0.0) for j in range(k)] for i in range(k)]

    def ll(f, si):
        d = [f[i] - mu[i] for i in range(k)]
        return -0.5 * sum(d[p] * si[p][q] * d[q] for p in range(k) for q in range(k))

    print('oracle k=%d requests=%d corr(first delay, duration)=%.2f' % (
        k, len(x), cov[0][k - 1] / math.sqrt(cov[0][0] * cov[k - 1][k - 1])))
    cs = [c for c in cs if len(feats(c)) == k]
    for what, srt, swap in (
            ('first_call', lambda c: c[0],
             lambda p, q: ([p[0]] + q[1:], [q[0]] + p[1:])),
            ('response', lambda c: c[-2],
             lambda p, q: (p[:-1] + [q[-1]], q[:-1] + [p[-1]]))):
        w = sorted(cs, key=srt)
        n = collections.Counter()
        for p, q in zip(w, w[1:]):
            if what == 'first_call':
                if q[0] >= min(p[1], q[1]):
                    continue
                served_in_order = p[1] < q[1]
            else:
                if q[-2] >= min(p[-1], q[-1]):
                    continue
                served_in_order = p[-1] < q[-1]
            a, b = swap(p, q)
            if min(a[1] - a[0], b[1] - b[0], a[-1] - a[-2], b[-1] - b[-2]) <= 0:
                n[(served_in_order, 'any', 'truth_only_possible')] += 1
                continue
            for name, si in (('independent', diag), ('correlated', full)):
                t = ll(feats(p), si) + ll(feats(q), si)
                e = ll(feats(a), si) + ll(feats(b), si)
                n[(served_in_order, name, 'truth' if t > e else 'exchanged')] += 1
        for key in sorted(n):
            print('%s served_in_read_order=%s model=%s prefers=%s %d'
                  % ((what,) + key + (n[key],)))


def cmd_crossings(trace):
    head, ix, msgs = load(trace)
    byid = {x[0]: x for x in msgs}
    key = pairing(ix, msgs, {x[0]: x[ix['path']] for x in msgs})
    ans = {key[x[0]]: x for x in msgs if x[ix['type']] == 'return' and key[x[0]] in byid}
    dur = collections.defaultdict(list)
    calls = collections.defaultdict(list)
    for c, r in ans.items():
        x = byid[c]
        lk = x[ix['src']] + '>' + x[ix['dst']]
        d = stamps(ix, r)[0] - stamps(ix, x)[1]
        if d > 0 and x[ix['recv_ts']]:
            dur[lk].append(math.log(d))
            calls[lk].append(x)
    fit = {}
    for lk, v in dur.items():
        sd = statistics.pstdev(v)
        fit[lk] = (statistics.mean(v), sd, 1.06 * sd * len(v) ** -0.2)

    def lognormal(lk, d):
        m, sd, _ = fit[lk]
        return -0.5 * ((math.log(d) - m) / sd) ** 2 - math.log(d * sd)

    def kde(lk, d):
        bw = fit[lk][2]
        v = dur[lk]
        return math.log(sum(math.exp(-0.5 * ((math.log(d) - y) / bw) ** 2) for y in v)
                        / (len(v) * bw * math.sqrt(2 * math.pi))) - math.log(d)

    for lk in sorted(calls):
        w = sorted(calls[lk], key=lambda x: stamps(ix, x)[0])
        for p, q in zip(w, w[1:]):
            if stamps(ix, q)[1] >= stamps(ix, p)[1]:
                continue
            first, second = q, p          # q read first
            a1, a2 = sorted(stamps(ix, ans[x[0]])[0] for x in (p, q))
            order = 'read' if stamps(ix, ans[first[0]])[0] < stamps(ix, ans[second[0]])[0] else 'send'
            out = []
            for f in (lognormal, kde):
                r_o = f(lk, a1 - stamps(ix, first)[1]) + f(lk, a2 - stamps(ix, second)[1])
                s_o = f(lk, a1 - stamps(ix, second)[1]) + f(lk, a2 - stamps(ix, first)[1])
                out.append(r_o - s_o)
            print('crossing link=%s calls=%s/%s answered_in=%s_order read_minus_send_nats '
                  'lognormal=%.2f kde=%.2f' % (lk, p[0], q[0], order, out[0], out[1]))


def mutual_info(ps):
    n = len(ps)
    j = collections.Counter(ps)
    a = collections.Counter(x for x, _ in ps)
    b = collections.Counter(y for _, y in ps)
    return sum(v / n * math.log(v * n / (a[x] * b[y])) for (x, y), v in j.items())


def cmd_threads(trace):
    head, ix, msgs = load(trace)
    byid = {x[0]: x for x in msgs}
    key = pairing(ix, msgs, {x[0]: x[ix['path']] for x in msgs})
    links = collections.defaultdict(list)
    for x in msgs:
        c = byid.get(key[x[0]])
        if x[ix['type']] == 'return' and c and c[ix['thread']] and x[ix['thread']]:
            links[c[ix['src']] + '>' + c[ix['dst']]].append((c[ix['thread']], x[ix['thread']]))
    for lk in sorted(links):
        ps = links[lk]
        sh = []
        for seed in range(50):
            ys = [y for _, y in ps]
            random.Random(seed).shuffle(ys)
            sh.append(mutual_info(list(zip((x for x, _ in ps), ys))))
        print('threads link=%s pairs=%d mi=%.3f mi_shuffled=%.3f'
              % (lk, len(ps), mutual_info(ps), sum(sh) / len(sh)))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if sys.argv[1] == 'ids':
        cmd_ids(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    elif sys.argv[1] == 'order':
        cmd_order(sys.argv[2], sys.argv[3:])
    elif sys.argv[1] == 'crossings':
        cmd_crossings(sys.argv[2])
    elif sys.argv[1] == 'threads':
        cmd_threads(sys.argv[2])
    elif sys.argv[1] == 'exchange':
        cmd_exchange(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()

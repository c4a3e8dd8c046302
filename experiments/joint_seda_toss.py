#!/usr/bin/env python3
"""joint_seda_toss.py - evaluation only (the truth decides nothing in infer).

Where joint and fcfs give a message different parents, which one the
truth backs, per service that sent the message, and whether the
receiving thread could tell the two apart: a service that reads one
message per thread at a time sends a message before the next read on
the thread that read its trigger (its `cause`).  Prints counts
`svc right=joint|fcfs|neither joint_ok=.. fcfs_ok=..` (ok: the send
comes before that thread's next read) and `truth_ok svc True|False`.
docs/joint/ticks.md, "Seda x1 at 1 us: the staged front's tosses".
  python3 joint_seda_toss.py TRUTH JOINT_RESULT FCFS_RESULT
"""
import bisect
import collections
import csv
import sys


def rows(path):
    with open(path) as f:
        return list(csv.reader(l for l in f if not l.startswith('#')))


def parents(path):
    """id -> parent id of a result's assignment table"""
    out, on = {}, False
    for x in rows(path):
        if x[:2] == ['id', 'instance']:
            on = True
        elif on and len(x) >= 4:
            out[x[0]] = x[3]
    return out


def main():
    r = rows(sys.argv[1])
    ix = {k: i for i, k in enumerate(r[0])}
    msg = {x[ix['id']]: x for x in r[1:]}
    joint, fcfs = parents(sys.argv[2]), parents(sys.argv[3])
    reads = collections.defaultdict(list)
    for x in msg.values():
        reads[x[ix['thread']]].append(float(x[ix['recv_ts']]))
    for v in reads.values():
        v.sort()

    def before_next_read(m, p):
        if not p:
            return None
        lst = reads[msg[p][ix['thread']]]
        k = bisect.bisect_right(lst, float(msg[p][ix['recv_ts']]))
        return k == len(lst) or float(msg[m][ix['ts']]) <= lst[k]

    n = collections.Counter()
    for i, x in msg.items():
        cause, svc = x[ix['cause']], x[ix['src']]
        if not cause:
            continue
        n['truth_ok %s %s' % (svc, before_next_read(i, cause))] += 1
        if joint.get(i) != fcfs.get(i):
            who = ('joint' if joint.get(i) == cause else
                   'fcfs' if fcfs.get(i) == cause else 'neither')
            n['%s right=%s joint_ok=%s fcfs_ok=%s' % (
                svc, who, before_next_read(i, joint.get(i)),
                before_next_read(i, fcfs.get(i)))] += 1
    for k in sorted(n):
        print(k, n[k])


if __name__ == '__main__':
    main()

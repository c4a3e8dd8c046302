#!/usr/bin/env python3
"""FCFS, the TraceWeaver artifact's first-come-first-serve baseline, as an
external pathbench algorithm (Python standard library only).

    bin/infer --algo exec:'python3 examples/fcfs.py' trace.csv > result.csv

Reads the trace (CSV, no truth columns) on stdin and writes a result file
(docs/formats.md) on stdout.  At every node, the i-th incoming request (by
start, then end) gets the i-th call (by start, then end) to each callee;
calls pair with returns by (caller, callee, callid) first in, first out.
Parameters arrive in the environment: PB_PARAM_callids (default 1).  It
gives the same instances as `infer --algo fcfs` (tests/sh/test_exec.sh).
"""
import collections, csv, os, sys

def ns(text):  # decimal seconds -> integer nanoseconds
    whole, _, frac = text.partition(".")
    return int(whole or "0") * 10**9 + int((frac + "000000000")[:9])

def esc(name):
    return "".join("\\" + c if c in ">[],\\" else c for c in name)

rows = csv.DictReader(line for line in sys.stdin if not line.startswith("#"))
use_cid = os.environ.get("PB_PARAM_callids", "1") not in ("0", "no", "false", "off")
rpcs, open_calls, early = [], collections.defaultdict(collections.deque), collections.defaultdict(collections.deque)
for i, m in enumerate(rows):
    m["i"] = i
    ts = ns(m["ts"]); rts = ns(m["recv_ts"]) if m.get("recv_ts") else ts
    cid = m.get("callid", "") if use_cid else ""
    if m.get("type") == "call":
        r = dict(call=m, ret=None, src=m["src"], dst=m["dst"], ins=rts, ine=rts, outs=ts, oute=ts)
        rpcs.append(r)
        key = (m["src"], m["dst"], cid)
        if early[key]:
            ret = early[key].popleft()
        else:
            open_calls[key].append(r); continue
    elif m.get("type") == "return":
        key = (m["dst"], m["src"], cid)
        if not open_calls[key]:
            early[key].append((m, ts, rts)); continue
        r, ret = open_calls[key].popleft(), (m, ts, rts)
    else:
        continue
    r["ret"], r["ine"], r["oute"] = ret[0], ret[1], ret[2]

incoming, outgoing = collections.defaultdict(list), collections.defaultdict(lambda: collections.defaultdict(list))
for k, r in enumerate(rpcs):
    incoming[r["dst"]].append(k); outgoing[r["src"]][r["dst"]].append(k)
parent = [None] * len(rpcs)
for node, eps in outgoing.items():
    ins = sorted(incoming[node], key=lambda k: (rpcs[k]["ins"], rpcs[k]["ine"], rpcs[k]["call"]["i"]))
    for calls in eps.values():
        calls.sort(key=lambda k: (rpcs[k]["outs"], rpcs[k]["oute"], rpcs[k]["call"]["i"]))
        for req, call in zip(ins, calls):
            parent[call] = req
state = [0] * len(rpcs)  # cut parent cycles where found
for k in range(len(rpcs)):
    walk, j = [], k
    while j is not None and state[j] == 0:
        state[j] = 1; walk.append(j); j = parent[j]
    if j is not None and state[j] == 1:
        parent[j] = None
    for j in walk:
        state[j] = 2
children = collections.defaultdict(list)
for k, p in enumerate(parent):
    if p is not None:
        children[p].append(k)

def text(k):  # canonical text of the subtree entered by RPC k
    kids = sorted((text(c) for c in children[k]), key=lambda s: s.encode())
    return esc(rpcs[k]["dst"]) + ("[" + ",".join(kids) + "]" if kids else "")

def members(k):
    yield k
    for c in children[k]:
        yield from members(c)

count, assign, inst = collections.Counter(), [], 0
for k in range(len(rpcs)):
    if parent[k] is None:  # every call without a parent roots an instance
        pat = esc(rpcs[k]["src"]) + ">" + text(k)
        count[pat] += 1
        for j in members(k):
            for m in (rpcs[j]["call"], rpcs[j]["ret"]):
                if m is not None:
                    assign.append((m.get("id") or str(m["i"] + 1), inst, pat))
        inst += 1
ranked = sorted(count, key=lambda p: (-count[p], p.encode()))
rank = {p: i + 1 for i, p in enumerate(ranked)}
out = csv.writer(sys.stdout, lineterminator="\n")
print("# pathbench-result 1\n# algo=fcfs.py view=call\n# table=patterns")
out.writerow(["rank", "pattern", "count", "score", "max_prob", "total_latency",
              "mean_latency", "node_latency", "edge_delay"])
for p in ranked:
    out.writerow([rank[p], p, count[p], count[p], 1, "", "", "", ""])
print("# table=assignment")
out.writerow(["id", "instance", "rank"])
for mid, inst, p in assign:
    out.writerow([mid, inst, rank[p]])
print("# end patterns=%d assignments=%d" % (len(ranked), len(assign)))

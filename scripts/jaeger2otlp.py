#!/usr/bin/env python3
"""jaeger2otlp - convert Jaeger JSON (the query API's {"data": [...]}, or a
single trace object) into OpenTelemetry OTLP/JSON, as the Collector's file
exporter writes it: one ExportTraceServiceRequest object per line, one line
per Jaeger trace.

    python3 scripts/jaeger2otlp.py [--single] PATH... > traces.otlp.json

PATH is a Jaeger JSON file or a folder (its *.json files, recursively, in
name order).  --single writes one document holding every trace instead of
one line per trace.  Standard library only; independent of pathbench's own
parser, so importing a Jaeger folder and its conversion checks the OTLP
reader (tests/sh/test_importtrace_shapes.sh; docs/importer.md).

Mapping: process serviceName -> resource attribute service.name (one
resourceSpans per process), span.kind tag -> kind (server 2, client 3,
producer 4, consumer 5, internal 1, none 0), startTime/duration
(microseconds) -> startTimeUnixNano/endTimeUnixNano (nanosecond strings),
the first CHILD_OF reference (else FOLLOWS_FROM, else parentSpanID) ->
parentSpanId, other tags -> attributes.  16-digit hex trace ids are padded
to 32 digits (OTLP's width; the importer shortens them back), other ids are
kept as they are.
"""
import json
import os
import sys

KINDS = {"server": 2, "client": 3, "producer": 4, "consumer": 5,
         "internal": 1}


def files_of(path):
    if not os.path.isdir(path):
        yield path
        return
    for name in sorted(os.listdir(path)):
        full = os.path.join(path, name)
        if os.path.isdir(full):
            yield from files_of(full)
        elif name.endswith(".json"):
            yield full


def attr(key, value):
    if isinstance(value, bool):
        v = {"boolValue": value}
    elif isinstance(value, int):
        v = {"intValue": str(value)}
    elif isinstance(value, float):
        v = {"doubleValue": value}
    else:
        v = {"stringValue": str(value)}
    return {"key": key, "value": v}


def hexid(s, width):
    ok = s and all(c in "0123456789abcdefABCDEF" for c in s)
    if ok and width == 32 and len(s) == 16:
        return s.lower().rjust(32, "0")
    return s.lower() if ok else s


def parent_of(span):
    refs = span.get("references") or []
    for r in refs:
        if r.get("refType", "CHILD_OF") != "FOLLOWS_FROM":
            return r["spanID"]
    if refs:
        return refs[0]["spanID"]
    p = span.get("parentSpanID")
    return p if p and p != "0" else ""


def convert(trace):
    procs = trace.get("processes") or {}
    by_proc = {}
    for span in trace["spans"]:
        pid = span.get("processID")
        proc = procs[pid] if pid is not None else span["process"]
        key = pid if pid is not None else json.dumps(proc, sort_keys=True)
        entry = by_proc.setdefault(key, (proc, []))
        kind = 0
        attrs = []
        for t in span.get("tags") or []:
            if t["key"] == "span.kind":
                kind = KINDS.get(str(t["value"]).lower(), 1)
            else:
                attrs.append(attr(t["key"], t.get("value")))
        start = int(span["startTime"])
        dur = span.get("duration")
        o = {
            "traceId": hexid(span.get("traceID", trace.get("traceID")), 32),
            "spanId": hexid(span["spanID"], 16),
            "parentSpanId": hexid(parent_of(span), 16),
            "name": span.get("operationName", ""),
            "kind": kind,
            "startTimeUnixNano": str(start * 1000),
            "attributes": attrs,
        }
        if dur is not None:
            o["endTimeUnixNano"] = str((start + int(dur)) * 1000)
        entry[1].append(o)
    out = []
    for proc, spans in by_proc.values():
        rattrs = [attr("service.name", proc["serviceName"])]
        rattrs += [attr(t["key"], t.get("value"))
                   for t in proc.get("tags") or []]
        out.append({"resource": {"attributes": rattrs},
                    "scopeSpans": [{"scope": {"name": "jaeger2otlp"},
                                    "spans": spans}]})
    return out


def main(argv):
    single = "--single" in argv
    paths = [a for a in argv if a != "--single"]
    if not paths:
        sys.stderr.write(__doc__)
        return 2
    everything = []
    for p in paths:
        for f in files_of(p):
            with open(f) as fh:
                doc = json.load(fh)
            traces = doc["data"] if "data" in doc else [doc]
            for t in traces:
                rs = convert(t)
                if single:
                    everything += rs
                else:
                    sys.stdout.write(json.dumps({"resourceSpans": rs}) + "\n")
    if single:
        json.dump({"resourceSpans": everything}, sys.stdout)
        sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/bin/sh
# Hostile input, third round (issue 28's generalisation audit): names
# and values from inputs nobody here has seen.  One block per class; each
# tries several cases of it.
set -u
for p in infer score importtrace; do
    [ -x "$PB_BIN/$p" ] || exit 77
done
B="$PB_BIN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1

# --- 1. names with line breaks, quotes, commas and non-ASCII survive a
# round trip: every metadata line that carries a name stays one line
# (the span-table importer's pod map once wrote a pod name's line break
# raw, and infer refused the trace at the line after it)
hdr=TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano,Duration
for name in '"web
x-579b9bff58-t2dbm"' '"a,""b
c-579b9bff58-t2dbm"' '"svc ü y-579b9bff58-t2dbm"' '"cr
z-579b9bff58-t2dbm"'; do
    {
        echo "$hdr"
        echo "t1,a,root,$name,op,1000,9000,8"
        echo "t1,b,a,$name,op,2000,8000,6"
        echo "t1,c,b,api-579b9bff58-abcde,op,3000,7000,4"
    } > n.csv
    "$B/importtrace" -q -o n.tr n.csv || fail "names: importtrace ($name)"
    # no line of the file but a metadata line, the header or a row
    "$B/infer" --algo truth -o n.r n.tr 2> err || { cat err; fail "names: infer refused the imported trace ($name)"; }
    "$B/score" --truth n.tr n.r > s.csv || fail "names: score ($name)"
    awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{exit !($(c["true_instances"])==1 && $(c["instance_fp"])==0)}' s.csv ||
        { cat s.csv; fail "names: scored wrong ($name)"; }
    grep -q '^# importtrace_pods' n.tr || fail "names: no pod map line"
done

echo "test_hostile3: ok"

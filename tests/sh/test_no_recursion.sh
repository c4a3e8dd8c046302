#!/bin/sh
# No recursion on input-controlled depth anywhere in the library (issue
# 16.1): GCC's -fcallgraph-info gives every call edge of every library
# file; any function that can reach itself must be in the list below, with
# the bound that keeps its depth small whatever the input.  A new recursive
# function fails this test: make it iterative (an explicit stack), or bound
# its depth with a clear error and add it here with that bound.
set -u
cd "$PB_ROOT" || exit 1
command -v gcc > /dev/null 2>&1 || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
echo 'int x;' > "$tmp/probe.c"
gcc -fcallgraph-info -c "$tmp/probe.c" -o "$tmp/probe.o" -dumpdir "$tmp/" 2> /dev/null || exit 77

# function (as -fcallgraph-info names it: FILE:NAME when static) and bound
allowed='
algorithms/convolution/conv_paths.c:process_node   paths stop at CONV_HARD_DEPTH (256) edges
algorithms/convolution/convolution.c:sort_by_ts     merge sort: depth log2(messages)
algorithms/linking/linking.c:explore            one level per try-both decision: at most k <= 24
importer/imp_archive.c:walk_dir         folders nested at most MAX_DEPTH deep (an error past it)
importer/imp_archive.c:read_nested      archives inside archives at most NEST_MAX (8) deep (refused past it)
importer/imp_archive.c:read_opened      as read_nested
importer/imp_archive.c:read_tar         as read_nested
importer/imp_json.c:nul_find         one level per JSON nesting of a span element that jansson parsed: at most its JSON_PARSER_MAX_DEPTH (2048; deeper is a parse error)
maketrace/mt_config.c:parse_stmt        tracelet blocks nest at most 200 deep (parse_stmt checks)
maketrace/mt_config.c:parse_block       as parse_stmt
maketrace/mt_config.c:root_walk         the parsed tree: at most 200 deep
maketrace/mt_config.c:fill_delays       the parsed tree: at most 200 deep
maketrace/mt_gen.c:run                  the parsed tree: at most 200 deep
maketrace/mt_config.c:join_number       the parsed tree: at most 200 deep
maketrace/mt_config.c:join_check        the parsed tree: at most 200 deep
maketrace/mt_services.c:hold_walk       the parsed tree: at most 200 deep
maketrace/mt_sim.c:run                  one level per nested par: at most 200 deep
metrics/pq_eval.c:join                  one level per query variable: at most PQ_MAXVARS (8)
joint_init                              thread_soft_pick>=2 runs joint_init twice with thread_soft_pick=1, which does not recurse: depth 2
joint_thrpick_init                      as joint_init: depth 2
joint_thrwarm_init                      thread_soft_pick=5 runs joint_init once with thread_soft_pick=-1, which does not recurse: depth 2
joint_thrse_end                         thread_soft_starts_end runs joint_init once with thread_soft_pick=1, which does not recurse: depth 2
'
algodirs=$(sed -n 's/^ALGODIRS *:= *//p' Makefile)
dirs=$(sed -n 's/^LIBDIRS *:= *//p' Makefile | sed "s#\$(ALGODIRS)#$algodirs#")
[ -n "$dirs" ] || { echo "FAIL: no LIBDIRS in the Makefile"; exit 1; }
incs=""
for d in $dirs; do incs="$incs -I$d"; done
n=0
for d in $dirs; do
    for f in "$d"/*.c; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        # shellcheck disable=SC2086
        gcc -std=c11 -O0 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $incs \
            -fcallgraph-info -c "$f" -o "$tmp/$n.o" -dumpdir "$tmp/$n." 2> "$tmp/err" ||
            { cat "$tmp/err"; echo "FAIL: cannot compile $f"; exit 1; }
    done
done
[ "$n" -gt 10 ] || { echo "FAIL: only $n library files"; exit 1; }
cat "$tmp"/*.ci > "$tmp/all"
grep -c 'edge:' "$tmp/all" | awk '$1 < 500 { print "FAIL: only " $1 " call edges"; exit 1 }' || exit 1

# every function that reaches itself through the call graph
found=$(awk '
    /^edge:/ {
        s = $0; sub(/.*sourcename: "/, "", s); sub(/".*/, "", s)
        t = $0; sub(/.*targetname: "/, "", t); sub(/".*/, "", t)
        if (!((s, t) in seen)) { seen[s, t] = 1; out[s] = out[s] " " t }
        nodes[s] = 1
    }
    END {
        for (f in nodes) {
            # breadth-first from the callees of f
            delete vis; q = 0; h = 0
            k = split(out[f], a, " ")
            for (i = 1; i <= k; i++) if (!(a[i] in vis)) { vis[a[i]] = 1; Q[++q] = a[i] }
            hit = 0
            while (h < q && !hit) {
                v = Q[++h]
                if (v == f) { hit = 1; break }
                k = split(out[v], a, " ")
                for (i = 1; i <= k; i++) if (!(a[i] in vis)) { vis[a[i]] = 1; Q[++q] = a[i] }
            }
            if (hit) print f
        }
    }' "$tmp/all" | sort)
status=0
for f in $found; do
    if ! printf '%s\n' "$allowed" | awk -v f="$f" '$1 == f { ok = 1 } END { exit !ok }'; then
        echo "FAIL: $f is recursive: make it iterative, or bound its depth and list it here"
        status=1
    fi
done
# the list stays honest: every entry is still recursive
for f in $(printf '%s\n' "$allowed" | awk 'NF { print $1 }'); do
    printf '%s\n' "$found" | grep -qx "$f" || { echo "FAIL: $f is listed but no longer recursive"; status=1; }
done
exit $status

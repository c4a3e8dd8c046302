#!/bin/sh
# Every shell example of README.md, docs/*.md and docs/*/*.md runs as written
# (docs/DEVELOPING.md, "Examples in the documentation"):
#   - a fenced block whose info string is "sh" is an example; "sh no-run"
#     marks one that must not run here (make targets, clusters, long runs);
#     any other fence (text, untagged) is not run;
#   - the blocks of one document run in order, with bash -e -o pipefail, in
#     one scratch folder that looks like the repository (bin/, configs,
#     scripts) with ../shared beside it;
#   - each must exit 0, and every "#> TEXT" line in it must appear in what
#     the block printed (stdout and stderr).
# DOCS=FILE... limits the run to those documents.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
command -v bash >/dev/null 2>&1 || { echo "no bash"; exit 77; }
R="$PB_ROOT"
SHARED="$R/../shared"
docs=${DOCS:-"$R/README.md $R/docs/*.md $R/docs/*/*.md"}

# split every document into blocks: $tmp/blocks/DOC.N.sh (+ .skip)
mkdir "$tmp/blocks"
for d in $docs; do
    [ -f "$d" ] || continue
    # docs/joint/model.md -> docs_joint_model: one name per document
    name=$(printf '%s' "${d#"$R"/}" | sed 's/\.md$//; s#/#_#g')
    awk -v out="$tmp/blocks/$name" -v doc="$d" '
        /^```/ {
            if (inb) { inb = 0; close(f); next }
            info = substr($0, 4); gsub(/^ +| +$/, "", info)
            split(info, w, " ")
            if (w[1] == "sh") {
                n++; inb = 1; f = sprintf("%s.%02d.sh", out, n)
                printf "# %s:%d\n", doc, NR > f
                if (info ~ /(^| )no-run( |$)/) printf "" > (f ".skip")
                next
            }
            inother = !inother
            next
        }
        inb { print > f }' "$d"
done

ran=0; skipped=0
for b in "$tmp"/blocks/*.sh; do
    [ -f "$b" ] || continue
    where=$(head -1 "$b" | sed 's/^# //')
    if [ -f "$b.skip" ]; then skipped=$((skipped + 1)); continue; fi
    doc=$(basename "$b" | sed 's/\.[0-9]*\.sh$//')
    w="$tmp/run/$doc/pathbench"
    if [ ! -d "$w" ]; then
        mkdir -p "$w"
        for e in "$R"/*; do
            case "$(basename "$e")" in bin|build|out) continue ;; esac
            ln -s "$e" "$w/$(basename "$e")"
        done
        ln -s "$PB_BIN" "$w/bin"
        [ -d "$SHARED" ] && ln -s "$(cd "$SHARED" && pwd)" "$tmp/run/$doc/shared"
    fi
    if grep -q '\.\./shared' "$b" && [ ! -d "$SHARED" ]; then
        echo "SKIP $where: needs ../shared"; skipped=$((skipped + 1)); continue
    fi
    (cd "$w" && timeout "${PB_DOC_TIMEOUT:-600}" bash -e -o pipefail "$b") >"$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] || { sed 's/^/    /' "$tmp/out" | tail -20; fail "$where: exit $rc"; }
    grep '^ *#> ' "$b" | sed 's/^ *#> //' | while IFS= read -r want; do
        grep -qF -- "$want" "$tmp/out" || { sed 's/^/    /' "$tmp/out" | tail -20
            echo "FAIL: $where: does not print \"$want\""; exit 1; }
    done || exit 1
    ran=$((ran + 1))
done
# the examples leave the top of the repository as they found it: what they
# make goes under out/ (git ignores it) or is removed by the example
dirty=0
for w in "$tmp"/run/*/pathbench; do
    [ -d "$w" ] || continue
    left=$(cd "$w" && for e in * .[!.]*; do
        [ -e "$e" ] || [ -L "$e" ] || continue
        [ -L "$e" ] || [ "$e" = out ] || printf '%s ' "$e"; done)
    [ -z "$left" ] || { dirty=1
        echo "FAIL: $(basename "$(dirname "$w")") examples leave in the repository root: $left(write under out/ or remove them)"; }
done
[ $dirty -eq 0 ] || exit 1
echo "ran $ran example blocks, skipped $skipped"
[ "$ran" -gt 0 ] || fail "no example block found"
exit 0

#!/bin/sh
# data/: every file is listed in data/README.md's sha256 block with the
# right sum, and every file listed is there (the corpus is what its README
# says it is, byte for byte).
set -u
D="$PB_ROOT/data"
[ -f "$D/README.md" ] || { echo "FAIL: no data/README.md"; exit 1; }
command -v sha256sum > /dev/null || { echo "no sha256sum"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
awk '/^## sha256/ { s = 1; next } s && /^```/ { if (b) exit; b = 1; next } s && b' \
    "$D/README.md" > "$T/list"
[ -s "$T/list" ] || fail "no sha256 block in data/README.md"
(cd "$D" && sha256sum -c --quiet "$T/list") || fail "a sum in data/README.md does not match"
awk '{ print $2 }' "$T/list" | sort > "$T/listed"
(cd "$D" && find . -type f ! -name README.md | sed 's|^\./||' | sort) > "$T/present"
cmp -s "$T/listed" "$T/present" || { diff "$T/listed" "$T/present"; fail "files in data/ and the sha256 list differ"; }
echo "data sha256 ok ($(wc -l < "$T/list") files)"

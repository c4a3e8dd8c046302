# The set-up the end-to-end tests repeated verbatim (duplicates named it in
# a dozen tests/sh/test_*.sh); a test reads it and calls scaffold:
#   . "$PB_ROOT/tests/sh/lib_scaffold.sh"
#   scaffold importtrace infer score
# (not a test itself: tests/run.sh runs only tests/sh/test_*.sh).  Needs
# PB_BIN and PB_ROOT (tests/run.sh sets both).
set -u

# fail MESSAGE: say FAIL and stop the test
fail() { echo "FAIL: $*"; exit 1; }

# scaffold PROG...: exit 77 (skip) when one of the programs is missing from
# PB_BIN; set B (the programs) and R (the checkout); make a scratch folder
# tmp, removed on exit, and move into it
scaffold() {
    for p in "$@"; do
        [ -x "$PB_BIN/$p" ] || exit 77
    done
    B="$PB_BIN"; R="$PB_ROOT"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT INT TERM
    cd "$tmp" || exit 1
}

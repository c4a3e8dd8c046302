#!/bin/sh
# Install the Debian packages pathbench needs when they are missing.
# Usage: deps.sh [fuzz]   ("fuzz" adds clang and its libFuzzer runtime)
#
# - A package counts as present if dpkg says it is installed, or if the
#   command it is needed for is already on PATH (any gnuplot will do, not
#   only gnuplot-nox).
# - Installing needs root (or sudo); otherwise the script says exactly what
#   to install and fails.
# - apt-get waits for the dpkg lock (held by unattended upgrades on a fresh
#   machine) up to PB_APT_LOCK_TIMEOUT seconds (default 600) instead of
#   failing at once, and when it fails, its last error lines are shown.
# - Without dpkg-query (not Debian), nothing is checked: the build says what
#   is missing.
set -u
PKGS="gcc make libc6-dev libgsl-dev libfftw3-dev libcsv-dev libjansson-dev libarchive-dev zlib1g-dev libglpk-dev libpcap-dev libnghttp2-dev gnuplot-nox gawk xz-utils tar time parallel pandoc python3 gzip zstd bzip2"
[ "${1:-}" = fuzz ] && PKGS="$PKGS clang libclang-rt-14-dev"
[ "${1:-}" = capture ] && PKGS="$PKGS tcpdump"
LOCK_TIMEOUT="${PB_APT_LOCK_TIMEOUT:-600}"

# the command that makes a package unnecessary when it is on PATH
command_for() {
    case "$1" in
    gnuplot-nox) echo gnuplot ;;
    gawk) echo gawk ;;
    parallel) echo parallel ;;
    pandoc) echo pandoc ;;
    *) echo "" ;;
    esac
}

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "pathbench: no dpkg-query here (not Debian?); not checking packages:" \
         "the build needs the equivalents of: $PKGS" >&2
    exit 0
fi
missing=""
for p in $PKGS; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        continue
    fi
    c=$(command_for "$p")
    if [ -n "$c" ] && command -v "$c" >/dev/null 2>&1; then
        continue
    fi
    missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "pathbench: missing Debian packages:$missing" >&2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "pathbench: no apt-get here; install the equivalents of:$missing" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "pathbench: not root and no sudo; run as root: apt-get install$missing" >&2
        exit 1
    fi
fi
echo "pathbench: installing:$missing (waiting up to ${LOCK_TIMEOUT}s for the dpkg lock)" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp "${TMPDIR:-/tmp}/pathbench-apt.XXXXXX") || exit 1
trap 'rm -f "$log"' EXIT INT TERM
apt() { $SUDO apt-get -o DPkg::Lock::Timeout="$LOCK_TIMEOUT" "$@" >>"$log" 2>&1; }
# shellcheck disable=SC2086
if ! { apt update -qq && apt install -y -qq --no-install-recommends $missing; }; then
    echo "pathbench: apt-get could not install:$missing; its last lines:" >&2
    # the error lines first (E:, W:), then the end of the output
    { grep -E '^(E|W|Err):' "$log" | tail -n 5; tail -n 5 "$log"; } |
        awk '!seen[$0]++ { print "    " $0 }' >&2
    echo "pathbench: fix that, or install them by hand: apt-get install$missing" >&2
    exit 1
fi
echo "pathbench: packages installed" >&2

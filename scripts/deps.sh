#!/bin/sh
# Install the Debian packages pathbench needs when they are missing.
# Run as root (or with sudo available); otherwise say exactly what to install.
set -u
# Usage: deps.sh [fuzz]   ("fuzz" adds clang and its libFuzzer runtime)
PKGS="gcc make libc6-dev libgsl-dev libfftw3-dev libcsv-dev libjansson-dev libarchive-dev libglpk-dev gnuplot-nox gawk xz-utils tar time parallel pandoc"
[ "${1:-}" = fuzz ] && PKGS="$PKGS clang libclang-rt-14-dev"
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
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
echo "pathbench: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends $missing; } >/dev/null 2>&1; then
    echo "pathbench: apt-get could not install:$missing" >&2
    echo "pathbench: install them by hand: apt-get install$missing" >&2
    exit 1
fi
echo "pathbench: packages installed" >&2

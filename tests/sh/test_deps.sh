#!/bin/sh
# scripts/deps.sh, every branch, with fake dpkg-query / apt-get / id / sudo
# on a PATH that holds nothing else from this machine (so a real gnuplot or
# apt-get here changes nothing).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
DEPS="$PB_ROOT/scripts/deps.sh"

# the few real tools the script uses, and nothing else
mkdir "$tmp/sys"
for t in sh grep awk tail mktemp rm cat; do
    p=$(command -v "$t") || { echo "no $t"; exit 77; }
    ln -s "$p" "$tmp/sys/$t"
done

# fake: $FAKE/installed lists installed packages; apt-get logs its calls and
# fails with $FAKE/apt_fail's text when that file exists; id -u prints $FAKE/uid
setup() {
    rm -rf "$tmp/fake"; mkdir "$tmp/fake"
    F="$tmp/fake"
    cat > "$F/dpkg-query" <<EOS
#!/bin/sh
for a in "\$@"; do p=\$a; done
grep -qx "\$p" "$F/installed" && printf 'install ok installed' && exit 0
echo "dpkg-query: no packages found matching \$p" >&2; exit 1
EOS
    cat > "$F/apt-get" <<EOS
#!/bin/sh
echo "apt-get \$*" >> "$F/calls"
if [ -f "$F/apt_fail" ]; then echo "Reading package lists..."; cat "$F/apt_fail"; exit 100; fi
exit 0
EOS
    cat > "$F/id" <<EOS
#!/bin/sh
cat "$F/uid"
EOS
    echo 0 > "$F/uid"
    chmod +x "$F"/*
    : > "$F/installed"
}
pkgs=$(sed -n 's/^PKGS="\(.*\)"$/\1/p' "$DEPS")
[ -n "$pkgs" ] || fail "no PKGS line in deps.sh"
run() { PATH="$F:$tmp/sys" PB_APT_LOCK_TIMEOUT=7 "$tmp/sys/sh" "$DEPS" >"$tmp/out" 2>"$tmp/err"; }

# 1. everything installed: exit 0, apt-get never called
setup; for p in $pkgs; do echo "$p" >> "$F/installed"; done
run || fail "all installed: exit $? $(cat "$tmp/err")"
[ -f "$F/calls" ] && fail "all installed: apt-get called"

# 2. gnuplot-nox missing but a gnuplot on PATH: accepted, even as non-root
setup; for p in $pkgs; do [ "$p" = gnuplot-nox ] || echo "$p" >> "$F/installed"; done
echo 1000 > "$F/uid"
printf '#!/bin/sh\nexit 0\n' > "$F/gnuplot"; chmod +x "$F/gnuplot"
run || fail "gnuplot on PATH: exit $? $(cat "$tmp/err")"
[ -f "$F/calls" ] && fail "gnuplot on PATH: apt-get called"

# 3. gnuplot missing, non-root, no sudo: exit 1 naming what to install
rm "$F/gnuplot"
run && fail "non-root without sudo: exit 0"
grep -q 'apt-get install gnuplot-nox' "$tmp/err" || fail "non-root message: $(cat "$tmp/err")"
[ -f "$F/calls" ] && fail "non-root without sudo: apt-get called"

# 4. root: apt-get waits for the lock and installs exactly the missing one
echo 0 > "$F/uid"
run || fail "root install: exit $? $(cat "$tmp/err")"
grep -q 'DPkg::Lock::Timeout=7 update' "$F/calls" || fail "update without the lock timeout: $(cat "$F/calls")"
grep -q 'DPkg::Lock::Timeout=7 install .*gnuplot-nox$' "$F/calls" || fail "install call: $(cat "$F/calls")"
grep -q 'install .*gawk' "$F/calls" && fail "installs a package that is present"

# 5. non-root with sudo: apt-get through sudo
rm -f "$F/calls"; echo 1000 > "$F/uid"
printf '#!/bin/sh\necho sudo >> "%s/calls"\nexec "$@"\n' "$F" > "$F/sudo"; chmod +x "$F/sudo"
run || fail "sudo install: exit $? $(cat "$tmp/err")"
grep -q '^sudo$' "$F/calls" || fail "sudo not used: $(cat "$F/calls")"
rm "$F/sudo"; echo 0 > "$F/uid"

# 6. apt-get fails (the lock stays held): exit 1 and apt's error is shown
rm -f "$F/calls"
printf 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)\nE: Unable to acquire the dpkg frontend lock\n' > "$F/apt_fail"
run && fail "apt failure: exit 0"
grep -q 'held by process 4242' "$tmp/err" || fail "apt's error not shown: $(cat "$tmp/err")"
grep -q 'could not install: gnuplot-nox' "$tmp/err" || fail "apt failure message: $(cat "$tmp/err")"
rm "$F/apt_fail"

# 7. no apt-get: exit 1 naming the packages
rm "$F/apt-get"
run && fail "no apt-get: exit 0"
grep -q 'no apt-get here.*gnuplot-nox' "$tmp/err" || fail "no apt-get message: $(cat "$tmp/err")"

# 8. no dpkg-query (not Debian): nothing checked, exit 0
rm "$F/dpkg-query"
run || fail "no dpkg-query: exit $?"
grep -q 'not checking packages' "$tmp/err" || fail "no dpkg-query message: $(cat "$tmp/err")"
exit 0

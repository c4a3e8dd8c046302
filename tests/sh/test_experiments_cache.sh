#!/bin/sh
# The experiments' trace cache (experiments/lib.sh cache_file, memo), the
# one-awk collection of points (experiments/concat_points.awk) and the
# driver's costliest-first pool (experiments/job_cost.awk):
#  - points of one trace generate it once; their rows are the same as with
#    an empty cache; the cached trace is maketrace's output byte for byte
#  - a rebuilt program (another modification time) makes a new entry
#  - the cache is beside the point's output folder, also without PB_OUT
#  - a failing generator leaves no entry and no temporary file, and the
#    point fails
#  - the .dat of hand-written point files is exactly the expected text
#    (commits, parameters, rows; a point with another header skipped)
#  - the pool holds every pending job once, costliest first
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
for p in maketrace infer score sniffer; do
    [ -x "$PB_BIN/$p" ] || { echo "SKIP: $PB_BIN/$p missing"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# programs: the real ones, maketrace behind a wrapper that counts its runs
mkdir -p "$tmp/bin"
for p in infer score sniffer skewer; do ln -s "$PB_BIN/$p" "$tmp/bin/$p"; done
cat >"$tmp/bin/maketrace" <<EOF
#!/bin/sh
echo run >>"$tmp/mt_runs"
exec "$PB_BIN/maketrace" "\$@"
EOF
chmod +x "$tmp/bin/maketrace"
runs() { [ -f "$tmp/mt_runs" ] && wc -l <"$tmp/mt_runs" | tr -d ' ' || echo 0; }
point() { # OUT FILE ALGO RATE
    PB_BIN="$tmp/bin" PB_OUT="$1" PB_COMMIT=test sh experiments/fig21.sh point "$2" \
        cfg=multitier algo="$3" ratex="$4" seed=1 len=3000
}

# 1. three points of one trace: maketrace runs once
o="$tmp/a"
point "$o" "$tmp/a1.row" nesting 0.7 || fail "point 1 failed"
point "$o" "$tmp/a2.row" linking 0.7 || fail "point 2 failed"
point "$o" "$tmp/a3.row" nesting 10 || fail "point 3 failed"
[ "$(runs)" -eq 1 ] || fail "maketrace ran $(runs) times for three points of one trace"
n=$(ls "$o/cache/traces" | grep -c '\.csv$')
[ "$n" -eq 1 ] || fail "expected one cached trace, got $n"
ls -a "$o/cache/traces" | grep -q '^\.tmp' && fail "temporary file left in the cache"
# the cached trace is maketrace's output
"$PB_BIN/maketrace" --seed 1 -D duration=0 -D messages=3000 maketrace/configs/multitier.conf >"$tmp/fresh.csv" ||
    fail "maketrace failed"
cmp -s "$tmp/fresh.csv" "$o/cache/traces/"*.csv || fail "cached trace differs from maketrace's output"
# ... and its length is kept beside it, right
len=$(awk -f experiments/trace_len.awk "$tmp/fresh.csv")
[ "$(cat "$o/cache/traces/"*.csv.len)" = "$len" ] || fail "memo of the trace length is not trace_len.awk's"

# 2. the same points with an empty cache: the same rows
o2="$tmp/b"
for i in 1 2 3; do
    set -- nesting 0.7; [ $i = 2 ] && set -- linking 0.7; [ $i = 3 ] && set -- nesting 10
    point "$o2" "$tmp/b$i.row" "$@" || fail "point $i (empty cache) failed"
    cmp -s "$tmp/a$i.row" "$tmp/b$i.row" || { diff "$tmp/a$i.row" "$tmp/b$i.row"; fail "point $i differs with an empty cache"; }
done
[ "$(runs)" -eq 2 ] || fail "expected one more maketrace run for the empty cache, got $(($(runs) - 1))"

# 3. a rebuilt program makes a new entry
touch -d '2001-01-01' "$tmp/bin/maketrace"
point "$o" "$tmp/a4.row" linking 10 || fail "point after the rebuild failed"
[ "$(runs)" -eq 3 ] || fail "a rebuilt maketrace did not make a new cache entry"
[ "$(ls "$o/cache/traces" | grep -c '\.csv$')" -eq 2 ] || fail "expected two cache entries after the rebuild"

# 3b. a job line run without PB_OUT (as GNU parallel or a Slurm array run
# them): the cache is beside the point's folder, not in the default output
o5="$tmp/e"
(unset PB_OUT; PB_BIN="$tmp/bin" PB_COMMIT=test sh experiments/fig21.sh point "$o5/points/fig21/x.row" \
    cfg=multitier algo=nesting ratex=0.7 seed=1 len=3000) || fail "point without PB_OUT failed"
[ -s "$o5/points/fig21/x.row" ] || fail "point without PB_OUT made no row file"
ls "$o5/cache/traces" 2>/dev/null | grep -q '\.csv$' || fail "the trace of a point in $o5/points is not cached in $o5/cache"

# 4. a failing generator: no entry, no temporary file, the point fails
printf '#!/bin/sh\necho broken >&2\nexit 3\n' >"$tmp/bin/maketrace"
o3="$tmp/c"
point "$o3" "$tmp/c1.row" nesting 0.7 2>/dev/null && fail "a point whose maketrace fails succeeded"
[ -e "$tmp/c1.row" ] && fail "a failed point wrote its row file"
[ -e "$tmp/c1.row.fail" ] || fail "a failed point left no .fail file"
[ -z "$(ls -A "$o3/cache/traces" 2>/dev/null)" ] || fail "a failed generation left files in the cache: $(ls -A "$o3/cache/traces")"

# 5. collection: commits, parameters and rows as the old per-file loop made them
c="$tmp/concat"; mkdir -p "$c"
printf '# commit=bbb point=fx a=1 b=x\nh1,h2\n1,2\n3,4\n' >"$c/p1.row"
printf '# commit=aaa point=fx a=2 b=x\n# another comment\nh1,h2\n5,6\n' >"$c/p2.row"
printf '# commit=aaa point=fx a=3 b=y\nz1,z2\n7,8\n' >"$c/p3.row"
printf '%s\n' "$c/p1.row" "$c/missing.row" "$c/p2.row" "$c/p3.row" >"$c/list"
awk -v what=commits -f experiments/concat_points.awk "$c/list" | sort -u | tr '\n' ' ' >"$c/commits"
[ "$(cat "$c/commits")" = "aaa bbb " ] || fail "commits: got '$(cat "$c/commits")'"
awk -v what=rows -v fig=fx -f experiments/concat_points.awk "$c/list" >"$c/rows" 2>"$c/err"
printf '# parameters: a=1,2,3 b=x,y\nh1,h2\n1,2\n3,4\n5,6\n' >"$c/want"
cmp -s "$c/rows" "$c/want" || { diff "$c/want" "$c/rows"; fail "collected rows differ from the expected text"; }
grep -q "fx: $c/p3.row: header differs" "$c/err" || fail "no message for the point with another header"

# 6. the driver's pool: every pending job once, costliest first
o4="$tmp/d"
PB_OUT="$o4" sh experiments/run_all.sh --tiny --only conv_mail,fig21 --list-jobs >"$tmp/jobs" || fail "--list-jobs failed"
printf 'x\tPB_BIN=bin sh experiments/fig21.sh point f algo=nesting len=3000\n' >"$tmp/one.tsv"
awk -F'\t' -f experiments/job_cost.awk "$tmp/one.tsv" | grep -q '^0\.112	1	x	' ||
    fail "job_cost.awk: a 3,000-message point should cost 0.112, got $(awk -F'\t' -f experiments/job_cost.awk "$tmp/one.tsv" | cut -f1)"
PB_OUT="$o4" sh experiments/run_all.sh --tiny --only conv_mail,fig21 --list-tsv >"$tmp/jobs.tsv" || fail "--list-tsv failed"
awk -F'\t' -f experiments/job_cost.awk "$tmp/jobs.tsv" | sort -t '	' -k1,1gr -k2,2n | cut -f4- >"$tmp/want_order"
# a pool that fails at once (no programs): only the order is looked at
PB_BIN="$tmp/nobin" PB_OUT="$o4" sh experiments/run_all.sh --tiny --only conv_mail,fig21 -j 2 --no-plots --no-report >/dev/null 2>&1
sed "s|PB_BIN=[^ ]* ||" "$o4/run/pool.txt" >"$tmp/pool"
sed "s|PB_BIN=[^ ]* ||" "$tmp/want_order" | sed "s|point [^ ]*/points/|point $o4/points/|" >"$tmp/want"
[ "$(wc -l <"$tmp/pool")" -eq "$(wc -l <"$tmp/jobs")" ] || fail "the pool has $(wc -l <"$tmp/pool") jobs, the list $(wc -l <"$tmp/jobs")"
cmp -s "$tmp/pool" "$tmp/want" || { diff "$tmp/want" "$tmp/pool" | head; fail "the pool is not the job list, costliest first"; }
head -n 1 "$tmp/pool" | grep -q 'conv_mail.sh point .*comp=paper mu=30 ' ||
    fail "the costliest job (conv_mail, the paper's computation at the smallest mu) is not first: $(head -n 1 "$tmp/pool")"
echo "PASS"

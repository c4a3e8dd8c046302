#!/bin/sh
# The library never prints and never exits (the zstd model, README "Style"):
# a warning of the library's goes with the result (pb_result_warn) or in
# an error it returns, and the program reports it.  Every .c of the
# library's folders (LIBDIRS in the Makefile) is searched for a print to
# stdout/stderr or an exit; core/pb_cli.c, the programs' shared option
# parser, is the one file allowed (it is linked into the programs' usage
# errors only).  Fails on a tree where joint's rules printed their own
# warnings (tick_fifo, tie_sets=3, unp_pieces before the eighteenth wave's
# merge).
set -u
cd "$PB_ROOT" || exit 1
algodirs=$(sed -n 's/^ALGODIRS *:= *//p' Makefile)
dirs=$(sed -n 's/^LIBDIRS *:= *//p' Makefile | sed "s#\$(ALGODIRS)#$algodirs#")
[ -n "$dirs" ] || { echo "FAIL: no LIBDIRS in the Makefile"; exit 1; }
allowed='core/pb_cli.c'
bad=0
for d in $dirs; do
    for f in "$d"/*.c; do
        [ -f "$f" ] || continue
        case " $allowed " in *" $f "*) continue ;; esac
        # comments are not code: strip /* ... */ on one line and // tails
        hits=$(sed -e 's#/\*.*\*/##g' -e 's#//.*$##' "$f" |
            grep -nE '(^|[^a-z_])(fprintf\(std(err|out)|puts\(|putchar\(|perror\(|exit\(|abort\()|(^|[^a-z_s])printf\(' || true)
        if [ -n "$hits" ]; then
            echo "FAIL: $f prints or exits (the library returns errors and warnings; the program reports them):"
            echo "$hits" | head -5
            bad=1
        fi
    done
done
[ $bad = 0 ] || exit 1
echo "library: no print, no exit"

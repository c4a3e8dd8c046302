#!/bin/sh
# man.sh PROGRAM VERSION: a man page (roff, section 1) made from the
# program's own --help, which its option tables print (pb_cli_opt flags,
# pb_option parameters): the page cannot drift from the program.
#   NAME      the program and the first line of its description
#   SYNOPSIS  the usage line(s)
#   DESCRIPTION the rest of --help, as printed (flags, parameters, notes)
#   SEE ALSO  the other programs and the installed docs
# Used by `make man` / `make install` (docs/install.md); no network, no
# help2man needed.
set -eu
prog=$1
version=$2
name=$(basename "$prog")
help=$(mktemp)
trap 'rm -f "$help"' EXIT INT TERM
"$prog" --help >"$help"
# flags of the table that --help leaves out: old spellings kept as aliases
old=$("$prog" --list-options | awk '$1 == "flag" && $3 != "--list-options" { print $3 }' |
    while read -r f; do grep -q -e "$f\([ ,=]\|\$\)" "$help" || printf '%s ' "$f"; done)
all="maketrace skewer sniffer importtrace infer score"
# the page of docs/ that documents the program (installed in
# PREFIX/share/doc/pathbench)
case "$name" in
maketrace) docs="maketrace.md" ;;
skewer|sniffer) docs="perturb.md" ;;
importtrace) docs="importer.md" ;;
infer) docs="nesting.md, convolution.md, linking.md, joint.md, baselines.md" ;;
score) docs="metrics.md" ;;
*) docs="" ;;
esac
see=""
for p in $all; do
    [ "$p" = "$name" ] && continue
    see="$see${see:+, }\\\\fB$p\\\\fR(1)"
done
awk -v name="$name" -v version="$version" -v see="$see" -v old="$old" -v docs="$docs" '
function esc(s) {
    gsub(/\\/, "\\e", s)
    gsub(/-/, "\\-", s)
    sub(/^[.\047]/, "\\\\\\&&", s)
    return s
}
BEGIN {
    printf ".TH %s 1 \"\" \"pathbench %s\" \"pathbench manual\"\n", toupper(name), version
}
NR == 1 && /^usage: / { sub(/^usage: /, ""); usage = $0; next }
usage != "" && !named && /^[ \t]+[^ \t]/ && !started { usage = usage "\n" $0; next }
!named && NF { named = 1; desc = $0
    printf ".SH NAME\n%s \\- %s\n", name, esc(desc)
    print ".SH SYNOPSIS"
    print ".nf"
    n = split(usage, u, "\n")
    for (i = 1; i <= n; i++) print esc(u[i])
    print ".fi"
    print ".SH DESCRIPTION"
    print ".nf"
    print esc($0)
    started = 1
    next }
started { print esc($0) }
END {
    print ".fi"
    if (old != "") {
        print ".SH OLD SPELLINGS"
        print "Still read, kept for one release (docs/DEVELOPING.md): " esc(old)
    }
    print ".SH FILES"
    print "Configs: \\fIPREFIX/share/pathbench/configs/\\fR (maketrace finds them by bare name)."
    print "Documentation: \\fIPREFIX/share/doc/pathbench/\\fR" (docs != "" ? " (" docs "; README.md)" : "") "."
    print ".SH SEE ALSO"
    print see
}' "$help"

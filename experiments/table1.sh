#!/bin/sh
# Table 1 (seed 000, 7.6) and Table 5 (seed 001, 6.5): execution costs.
# For each workload of the paper's Table 1 that we can generate: trace
# length, duration, mean per-node parallelism, and each algorithm's peak
# memory (max RSS, /usr/bin/time) and user CPU seconds.  Any algorithm list
# (PB_ALGOS, --algos; exec: commands included: their CPU is the whole run's
# user time) reaches table1_ALGO.dat, the scaling plot table1_scaling.png
# and the "other algorithms" table of table1.md.  The paper's
# numbers are printed beside ours (table1.md); they were measured on a
# 1.7 GHz Pentium 4 (nesting) and a 667 MHz Alpha (convolution), so compare
# shapes (linear in length, growing with parallelism), not values.
FIG=table1
FIG_TITLE="execution costs per algorithm and workload"
FIG_HOW="maketrace CONF -D messages=LEN -D instances=I > t.csv; /usr/bin/time -f '%M %U' infer --algo ALGO t.csv (CPU: infer's cpu_read_s + cpu_infer_s)"
. "$(dirname "$0")/lib.sh"

# workload config messages instances (paper: Table 1 row).  multitier.conf
# runs 22 instances by default; 2, 30 and 330 give about the paper's
# per-node parallelism of its low / medium / high rows (1.1, 5.1, 45).
workloads() {
    mode_pick "mt-short multitier 20000 22
mt-normal multitier 200000 22
mt-delay multitier-delay 200000 22
mt-long multitier 2000000 22
par-low multitier 770000 2
par-medium multitier 770000 30
par-high multitier 770000 330" "mt-short multitier 20000 22
mt-normal multitier 100000 22
mt-delay multitier-delay 100000 22
par-low multitier 100000 2
par-medium multitier 100000 30
par-high multitier 100000 330" "mt-short multitier 3000 22
par-high multitier 3000 330"
}

fig_points() {
    workloads | while read -r w cfg len inst; do
        for algo in $(algo_list "nesting linking convolution"); do
            # convolution where the paper ran it; linking's memory grows
            # with the trace (about 1 KB a message), so not on the longest
            case "$algo-$w" in
            convolution-mt-short|convolution-mt-normal|convolution-mt-delay) ;;
            convolution-*|linking-mt-long) continue ;;
            esac
            point "$w-$algo" workload=$w cfg=$cfg len=$len inst=$inst algo=$algo seed=1
        done
    done
}

fig_run() {
    gen_to t.csv "$P_cfg" -D messages="$P_len" -D instances="$P_inst" || return 1
    mu=
    if [ "$P_algo" = convolution ]; then
        mu=10ms
        timed r.csv "$PB_BIN/infer" --algo convolution -s mu=$mu --no-assign t.csv || return 1
    else
        # any item of the algorithm list (PB_ALGOS), exec: included
        _ia=$(algo_args "$P_algo") || return 1
        _o=$IFS; IFS='
'
        set -- $_ia
        IFS=$_o
        # an exec: command writes its own result (infer refuses
        # --no-assign for it): its time is the whole run's, command included
        case "$P_algo" in
        exec-*) timed r.csv "$PB_BIN/infer" "$@" t.csv || return 1 ;;
        *) timed r.csv "$PB_BIN/infer" "$@" --no-assign t.csv || return 1 ;;
        esac
    fi
    set -- $(trace_len t.csv)
    if [ "$P_algo" = nesting ]; then par=$(meta_get r.csv mean_parallelism); else par=$(memo par nest_par t.csv); fi
    # CPU seconds from infer's own nanosecond CPU clock (reading + inference;
    # /usr/bin/time counts in 10 ms ticks, which round tiny runs to 0)
    rd=$(meta_get r.csv cpu_read_s) inf=$(meta_get r.csv cpu_infer_s)
    cpu=$(awk -v a="$rd" -v b="$inf" 'BEGIN { if (a != "" && b != "") printf "%.6f", a + b }')
    # no CPU clock of infer's in the result (an exec: command's): the user
    # CPU seconds of the whole run (/usr/bin/time, infer and the command)
    [ -n "$cpu" ] || cpu=${T_USER_S:-}
    echo "workload,algo,config,messages,duration,parallelism,mu,cpu_s,cpu_infer_s,time_user_s,maxrss_mb,instances"
    echo "$P_workload,$P_algo,$P_cfg,$1,$2,$par,$mu,$cpu,$inf,$T_USER_S,$(awk -v k="$T_MAXRSS_KB" 'BEGIN { if (k != "") printf "%.1f", k / 1024 }'),$P_inst"
}

# the paper's Table 1 (seed 000) and Table 5 (seed 001), as printed
paper_rows() {
    cat <<'P'
mt-short|Multi-tier (short)|20,164|50|1.793|1.5|0.23|||
mt-normal|Multi-tier "normal"|202,520|500|1.641|13.8|2.27|0.01|0.2|6684
mt-delay|Multi-tier "added-delay"|196,438|500|1.744|13.4|2.31|0.01|0.2|6709
mt-long|Multi-tier (long)|2,026,658|5000|1.612|136.8|23.97|||
par-low|Multi-tier, parallelism-low|769,638|5,000|1.146|54.0|7.54|||
par-medium|Multi-tier, parallelism-medium|770,344|500|5.116|54.2|11.15|||
par-high|Multi-tier, parallelism-high|775,254|50|45.057|132.1|233.61|||
P
}

fig_collect() {
    dat="$OUT/$FIG.dat"
    # per algorithm: messages cpu_s maxrss_mb parallelism (for the scaling plot)
    for a in $(algo_list "nesting linking convolution"); do
        awk -F, -v a="$a" '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print "# messages cpu_s maxrss_mb parallelism workload"; next }
            $(c["algo"]) == a { printf "%s %s %s %s %s\n", $(c["messages"]), ($(c["cpu_s"]) != "" ? $(c["cpu_s"]) : $(c["cpu_infer_s"])), ($(c["maxrss_mb"]) != "" ? $(c["maxrss_mb"]) : "NaN"), $(c["parallelism"]), $(c["workload"]) }' \
            "$dat" | sort -g >"$OUT/${FIG}_$a.dat"
    done
    paper_rows >"$OUT/run/table1_paper.txt"
    # the bar chart's data: one line per workload of the paper's table (in
    # its order; workloads this mode did not run are NaN, which the plot
    # marks "not run"), ours beside the paper's
    awk -F, -v paper="$OUT/run/table1_paper.txt" '
        BEGIN { while ((getline l < paper) > 0) { split(l, f, "|"); pw[++np] = f[1]; pn_mb[f[1]] = f[6]; pn_cpu[f[1]] = f[7]; pc_mb[f[1]] = f[9]; pc_cpu[f[1]] = f[10] } }
        /^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { w = $(c["workload"]); a = $(c["algo"])
          if (!(w in seen)) { seen[w] = 1; extra[++ne] = w; len[w] = $(c["messages"]); par[w] = $(c["parallelism"]) }
          cpu[w, a] = ($(c["cpu_s"]) != "" ? $(c["cpu_s"]) : $(c["cpu_infer_s"])); mb[w, a] = $(c["maxrss_mb"]) }
        function v(x) { return (x == "" ? "NaN" : x) }
        function row(w) {
            printf "%s %s %s %s %s %s %s %s %s %s %s %s %s\n", w, v(cpu[w, "nesting"]), v(cpu[w, "linking"]), v(cpu[w, "convolution"]),
                v(mb[w, "nesting"]), v(mb[w, "linking"]), v(mb[w, "convolution"]), v(len[w]), v(par[w]),
                v(pn_cpu[w]), v(pn_mb[w]), v(pc_cpu[w]), v(pc_mb[w]) }
        END { print "# workload nesting_cpu_s linking_cpu_s convolution_cpu_s nesting_mb linking_mb convolution_mb messages parallelism paper_nesting_cpu_s paper_nesting_mb paper_convolution_cpu_s paper_convolution_mb (NaN: not run / not in the paper; 0: too small for the clock)"
              for (i = 1; i <= np; i++) { row(pw[i]); done[pw[i]] = 1 }
              for (i = 1; i <= ne; i++) if (!(extra[i] in done)) row(extra[i]) }' \
        "$dat" >"$OUT/${FIG}_bars.dat"
    # the side-by-side markdown table
    awk -F, -v paper="$OUT/run/table1_paper.txt" '
        BEGIN { while ((getline l < paper) > 0) { split(l, f, "|"); P[f[1]] = l; pw[++np] = f[1] } }
        /^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { w = $(c["workload"]); a = $(c["algo"])
          if (!(w in seen)) { seen[w] = 1; ord[++n] = w }
          len[w] = $(c["messages"]); dur[w] = $(c["duration"]); par[w] = $(c["parallelism"])
          # the generator setting beside the measured parallelism
          if ("instances" in c && $(c["instances"]) != "") par[w] = par[w] " (" $(c["instances"]) " instances)"
          cpu[w, a] = ($(c["cpu_s"]) != "" ? $(c["cpu_s"]) : $(c["cpu_infer_s"])); mb[w, a] = $(c["maxrss_mb"])
          if ($(c["mu"]) != "") mu[w] = $(c["mu"]) }
        function v(x) { return x == "" ? "*not run*" : x }
        function g(x) { return x == "" ? "*not run*" : sprintf("%.3g", x) }
        function pp(w, k,    f) { if (!(w in P)) return "-"; split(P[w], f, "|"); return f[k] == "" ? "-" : f[k] }
        END {
            print "| workload | length (ours / paper) | duration s (ours / paper) | parallelism (ours / paper) | nesting MB (ours / paper) | nesting CPU s (ours / paper) | convolution mu s | convolution MB (ours / paper) | convolution CPU s (ours / paper) | linking MB | linking CPU s |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
            # the paper'"'"'s rows first, in its order (not run here: said so), then any others
            for (i = 1; i <= np; i++) { w = pw[i]; if (!(w in seen)) { seen[w] = 1; ord2[++m] = w; nr[w] = 1 } else ord2[++m] = w }
            for (i = 1; i <= n; i++) { w = ord[i]; if (!(w in P)) ord2[++m] = w }
            for (i = 1; i <= m; i++) { w = ord2[i]
                if (nr[w]) { printf "| %s (%s) | *not run* / %s | *not run* / %s | *not run* / %s | *not run* / %s | *not run* / %s | %s | *not run* / %s | *not run* / %s | *not run* | *not run* |\n",
                    w, pp(w, 2), pp(w, 3), pp(w, 4), pp(w, 5), pp(w, 6), pp(w, 7), pp(w, 8), pp(w, 9), pp(w, 10); continue }
                printf "| %s (%s) | %s / %s | %.1f / %s | %s / %s | %s / %s | %s / %s | %s | %s / %s | %s / %s | %s | %s |\n",
                    w, pp(w, 2), len[w], pp(w, 3), dur[w], pp(w, 4), par[w], pp(w, 5),
                    v(mb[w, "nesting"]), pp(w, 6), g(cpu[w, "nesting"]), pp(w, 7),
                    (mu[w] == "" ? "-" : mu[w]), v(mb[w, "convolution"]), pp(w, 9), g(cpu[w, "convolution"]), pp(w, 10),
                    v(mb[w, "linking"]), g(cpu[w, "linking"]) }
            print ""
            print "Parallelism: the mean per-node parallelism, Table 1'"'"'s measure as nesting computes it (ours, with the generator'"'"'s instances setting in parentheses / the paper'"'"'s). CPU seconds are infer'"'"'s own CPU clock (reading + inference); *not run*: this mode (or this algorithm on this workload) was not run; -: not in the paper."
            print ""
            print "WAP5 Table 5 (seed 001; message linking on PlanetLab traces, not reproducible here): CoDeeN 4,702,865 messages, 1 hour: linking 730 CPU s, 1354 MB (155 us and 288 bytes per message); Coral 4,246,882 messages: 517 CPU s, 1148 MB (122 us, 270 bytes per message)."
            printf "Ours, per message, on the largest workload with a linking run:"
            best = ""; for (i = 1; i <= n; i++) { w = ord[i]; if (cpu[w, "linking"] != "" && (best == "" || len[w] + 0 > len[best] + 0)) best = w }
            if (best != "") printf " %s: %.2f us and %s bytes per message.\n", best, 1e6 * cpu[best, "linking"] / len[best], (mb[best, "linking"] != "" ? sprintf("%.0f", mb[best, "linking"] * 1048576 / len[best]) : "?")
            else print " none."
        }' "$dat" >"$OUT/${FIG}.md"
    # the algorithms of the list other than the papers' three (PB_ALGOS,
    # --algos): their own table, every workload they ran
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { a = $(c["algo"]) } a == "nesting" || a == "linking" || a == "convolution" { next }
        { if (!n++) { print ""; print "Other algorithms of the list (--algos / PB_ALGOS; exec: commands: CPU = user time of the whole run, the command included; one run per workload, seed 1):"; print ""
                      print "| workload | algorithm | length | parallelism | CPU s | MB |"; print "|---|---|---:|---:|---:|---:|" }
          printf "| %s | %s | %s | %s | %s | %s |\n", $(c["workload"]), a, $(c["messages"]), $(c["parallelism"]), ($(c["cpu_s"]) == "" ? "-" : sprintf("%.3g", $(c["cpu_s"]))), ($(c["maxrss_mb"]) == "" ? "-" : $(c["maxrss_mb"])) }' \
        "$dat" >>"$OUT/${FIG}.md"
    # what each exec- label runs
    if [ -n "${PB_ALGOS:-}" ]; then
        printf '%s\n' "$PB_ALGOS" | tr ',' '\n' | sed -e 's/^ *//' -e 's/ *$//' | while IFS= read -r _it; do
            case "$_it" in exec:*) printf '\n%s = `%s`\n' "$(algo_label "$_it")" "$_it" ;; esac
        done >>"$OUT/${FIG}.md"
    fi
}

pb_main "$@"

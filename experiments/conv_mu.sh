#!/bin/sh
# Convolution accuracy against the time quantum mu (seed 000, 7.5.7) and
# its run time against mu with the S log S fit (Figure 23; S = trace
# duration / mu).  The paper used a two-month e-mail trace (Received
# headers) we do not have; we use the multi-tier trace, whose delays are
# tens of milliseconds, so the quanta are scaled down accordingly (the RPC
# run; conv_mail.sh is the e-mail experiment, on a mail relay trace).
# Convolution runs in its "exact" mode (one FFT over the whole signal,
# O(S log S), the algorithm the paper timed); the default "blocked" mode
# is O(S log L) and would not show Figure 23's shape.  CPU time is the
# inference time infer reports (cpu_infer_s, trace reading excluded).
FIG=conv_mu
FIG_TITLE="convolution: accuracy and CPU time vs time quantum mu"
FIG_HOW="maketrace multitier.conf --seed SEED -D messages=LEN | infer --algo convolution -s mode=exact -s mu=MU (CPU: cpu_infer_s) | score [-m 100]"
. "$(dirname "$0")/lib.sh"

fig_points() {
    len=$(mode_pick 200000 50000 6000)
    mus=$(mode_pick "0.0005 0.001 0.002 0.005 0.01 0.02 0.05 0.1 0.2" "0.0005 0.002 0.01 0.05" "0.005 0.05")
    for mu in $mus; do
        for seed in $(seeds "$(mode_pick 2 1 1)"); do
            point "mu$mu-$seed" mu=$mu seed=$seed len=$len
        done
    done
}

fig_run() {
    gen_to t.csv multitier -D messages="$P_len" || return 1
    set -- $(trace_len t.csv)
    dur=$2
    timed r.csv "$PB_BIN/infer" --algo convolution -s mode=exact -s mu="${P_mu}s" t.csv || return 1
    cpu=$(meta_get r.csv cpu_infer_s)
    cpu=${cpu:-$T_USER_S}
    S=$(awk -v d="$dur" -v m="$P_mu" 'BEGIN { printf "%.1f", d / m }')
    score t.csv r.csv >s.csv || return 1
    # the paper's "ignore paths reported with fewer than 100 messages"
    if score t.csv r.csv --min-instances 100 >s100.csv; then
        fp100=$(csv_get s100.csv pattern_fp) inf100=$(csv_get s100.csv inferred_patterns)
    else
        fp100= inf100=
    fi
    prefix_rows "mu,seed,trace_messages,duration,S,cpu_s,maxrss_kb,pattern_fp_min100,inferred_patterns_min100" \
        "$P_mu,$P_seed,$1,$dur,$S,$cpu,${T_MAXRSS_KB:-},$fp100,$inf100" <s.csv
}

fig_collect() {
    # accuracy per mu, mean over seeds: pattern FP rate (all, and ignoring
    # patterns under 100 instances), pattern FN rate, instance FN rate
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        function add(k, v) { if (v != "") { s[k] += v; n[k]++ } }
        { m = $(c["mu"]); if (!(m in seen)) { seen[m] = 1; ord[++nm] = m }
          ip = $(c["inferred_patterns"]); tp = $(c["true_patterns"]); i1 = $(c["inferred_patterns_min100"])
          add(m SUBSEP 1, ip > 0 ? $(c["pattern_fp"]) / ip : "")
          add(m SUBSEP 2, (i1 != "" && i1 > 0) ? $(c["pattern_fp_min100"]) / i1 : "")
          add(m SUBSEP 3, tp > 0 ? $(c["pattern_fn"]) / tp : "")
          add(m SUBSEP 4, $(c["instance_fn_rate"])) }
        function mean(k) { return n[k] ? sprintf("%.6g", s[k] / n[k]) : "NaN" }
        END { print "# mu pattern_fp_rate pattern_fp_rate_min100 pattern_fn_rate instance_fn_rate (means over seeds; NaN: no pattern left)"
              for (i = 1; i <= nm; i++) { m = ord[i]
                  printf "%s %s %s %s %s\n", m, mean(m SUBSEP 1), mean(m SUBSEP 2), mean(m SUBSEP 3), mean(m SUBSEP 4) } }' \
        "$OUT/$FIG.dat" | sort -g >"$OUT/${FIG}_accuracy.dat"
    # run time against S, and the least-squares fit cpu = c0 + a * S ln S
    # (c0: the costs that do not depend on S, e.g. reading the messages)
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        $(c["cpu_s"]) != "" && $(c["S"]) > 1 { n++; S[n] = $(c["S"]); y[n] = $(c["cpu_s"]); m[n] = $(c["mu"])
          f = S[n] * log(S[n]); sf += f; sy += y[n]; sff += f * f; sfy += f * y[n] }
        END { d = n * sff - sf * sf
              if (n >= 2 && d != 0) { a = (n * sfy - sf * sy) / d; c0 = (sy - a * sf) / n } else { a = (sff > 0 ? sfy / sff : 0); c0 = 0 }
              print "# S cpu_s mu (every point); fit: cpu = c0 + a S ln S with c0 = " c0 " a = " a
              for (i = 1; i <= n; i++) printf "%s %s %s\n", S[i], y[i], m[i]
              printf "\n\n# index 1: the fitted curve S c0+a*S*ln(S)\n"
              lo = 1e300; hi = 0
              for (i = 1; i <= n; i++) { if (S[i] < lo) lo = S[i]; if (S[i] > hi) hi = S[i] }
              if (n > 0) for (k = 0; k <= 40; k++) { s = lo * exp(log(hi / lo) * k / 40); printf "%.6g %.6g\n", s, c0 + a * s * log(s) }
        }' "$OUT/$FIG.dat" >"$OUT/${FIG}_time.dat"
}

pb_main "$@"

# trace_len.awk - "messages duration_s" of a pathbench trace (CSV with
# header), cheaply (no per-message tables, unlike trace_stats.awk)
BEGIN { FS = "," }
/^#/ { next }
!hdr { for (i = 1; i <= NF; i++) if ($i == "ts") c = i; hdr = 1; next }
{ n++; if (n == 1) t0 = $c; t1 = $c }
END { printf "%d %.9f\n", n, (n ? t1 - t0 : 0) }

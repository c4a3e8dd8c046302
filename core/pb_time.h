/*
 * pb_time.h - timestamps as integer nanoseconds, and their text forms.
 *
 * Files carry decimal seconds; inside pathbench every time is an int64
 * count of nanoseconds (pb_ns), so sums and differences never drift.
 */
#ifndef PB_TIME_H
#define PB_TIME_H

#include <stddef.h>
#include <stdint.h>

typedef int64_t pb_ns;

#define PB_TS_NONE INT64_MIN /* "not observed" (empty recv_ts) */
#define PB_NS_PER_SEC 1000000000LL
/* The largest timestamp a trace file holds: 9223372035.999999999 s, the
 * most pb_seconds_parse reads back (every writer of timestamps -- the
 * importer above all -- refuses larger ones rather than write a file that
 * no reader takes). */
#define PB_TS_MAX ((pb_ns)(INT64_MAX / PB_NS_PER_SEC) * PB_NS_PER_SEC - 1)

/* Parse decimal seconds "[-]D+[.D*]" or "[-].D+" (len bytes, no
 * surrounding space) into nanoseconds.  Digits past the ninth decimal are
 * rounded half away from zero.
 * Returns PB_OK; PB_EPARSE if the text is not such a number (including
 * "inf", "nan" and exponents); PB_ERANGE if it does not fit in int64 ns. */
int pb_seconds_parse(const char *s, size_t len, pb_ns *out);

/* Whether decimal seconds s[0..len) have a digit past the ninth decimal
 * that is not 0 (a precision pb_seconds_parse rounds away): 1, else 0. */
int pb_seconds_past_ns(const char *s, size_t len);

/* Write t as decimal seconds with exactly nine decimals ("12.000000500",
 * "-0.030000000") into buf (at least PB_SECONDS_BUF bytes).  Returns the
 * number of characters written, not counting the NUL. */
#define PB_SECONDS_BUF 32
int pb_seconds_format(pb_ns t, char *buf);

/* The units a duration takes, for messages ("expected a duration with a
 * unit (" PB_DURATION_UNITS ")"). */
#define PB_DURATION_UNITS "ns, us, ms, s, min or m, h"

/* Parse a duration with an optional sign and a unit: "30ms", "+30ms",
 * "-1.5s", "250us", "100ns", "2min", "2m", "1h".  A bare number is
 * refused (is "30" seconds or milliseconds?), except zero ("0", "0.0"),
 * which is zero in every unit.  A duration is a whole number of
 * nanoseconds (rounded half away from zero); one that is not zero but
 * rounds to 0 ns ("0.4ns", "1e-10s" written out) is PB_ERANGE, never 0.
 * Returns PB_OK, PB_EPARSE (malformed, no unit or unknown unit) or
 * PB_ERANGE. */
int pb_duration_parse(const char *s, pb_ns *out);

/* Why pb_duration_parse refused s, for the end of a message: "" when it
 * reads; else a parenthesised note that starts with a blank -- the number
 * has an exponent (1e3ms, 2.5e-6s: what %g writes; durations are digits
 * and a point), has no unit (30: seconds or milliseconds?), rounds to
 * 0 ns or is past 64-bit nanoseconds -- or "" when none of these fits.
 * One note for every place a duration is read (the option table,
 * maketrace configs, skewer specs, infer's flags), so that no message
 * refuses 1e3ms without naming the exponent.  A static string. */
const char *pb_duration_hint(const char *s);

/* Write t in its shortest exact unit form into buf (at least
 * PB_DURATION_BUF bytes): "30ms", "1.5s", "250us", "7ns", "-2s", "0s";
 * pb_duration_parse reads it back to the same nanosecond.  Returns buf. */
#define PB_DURATION_BUF 40
char *pb_duration_format(pb_ns t, char *buf);

/* Nanoseconds to double seconds (for statistics and output). */
static inline double pb_ns_to_sec(pb_ns t) { return (double)t * 1e-9; }

/* Double seconds to nanoseconds, rounded to nearest. */
pb_ns pb_sec_to_ns(double s);

#endif

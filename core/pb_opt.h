/*
 * pb_opt.h - one option table drives defaults, parsing, validation, --help
 * and the metadata line that records what a run used (fio-style).
 *
 * A table is an array of pb_option ending with an entry whose name is NULL.
 * Each option names a field of a caller's params struct by offset:
 *   PB_OPT_INT      -> int
 *   PB_OPT_DOUBLE   -> double
 *   PB_OPT_DURATION -> pb_ns  (text "30ms", "2s", "0.5")
 *   PB_OPT_BOOL     -> int    (text 1/0, yes/no, true/false, on/off)
 *   PB_OPT_STRING   -> const char * (points at the text given, or at the
 *                      default literal: the caller keeps it alive)
 *   PB_OPT_ALIAS    an old name kept for one release: `name` is the old
 *                   name, `def` the parameter it now names; no field.  A
 *                   name means one thing across all algorithms, so a name
 *                   that collided was renamed and kept this way
 *                   (docs/DEVELOPING.md).  Setting it sets `def`; programs
 *                   say on stderr that it is deprecated (pb_opt_find_old).
 *                   Defaults, --list-options and "# params:" skip it.
 */
#ifndef PB_OPT_H
#define PB_OPT_H

#include <stddef.h>
#include <stdio.h>

#include "pb_error.h"
#include "pb_strbuf.h"

typedef enum pb_opt_type {
    PB_OPT_INT,
    PB_OPT_DOUBLE,
    PB_OPT_DURATION,
    PB_OPT_BOOL,
    PB_OPT_STRING,
    PB_OPT_ALIAS
} pb_opt_type;

typedef struct pb_option {
    const char *name;   /* NULL ends the table */
    pb_opt_type type;
    size_t offset;      /* offsetof(params struct, field) */
    const char *def;    /* default, as text; NULL = leave the field alone */
    double min, max;    /* allowed range for numbers (seconds for
                           durations); ignored when min > max */
    const char *help;   /* one line; cite the paper's name for it */
} pb_option;

#define PB_OPT_NORANGE 1.0, 0.0

/* Set every field to its default.  Returns PB_OK, or PB_EINVAL if a
 * default does not parse (a bug in the table; err says which). */
int pb_opt_defaults(const pb_option *table, void *params, pb_error *err);

/* Set one option by name from text.  Returns PB_OK, PB_ENOENT (no such
 * option: err lists the names), PB_EINVAL (bad value or out of range: err
 * names the option and what was expected). */
int pb_opt_set(const pb_option *table, void *params, const char *name,
               const char *value, pb_error *err);

/* Set from "name=value".  Returns as pb_opt_set, or PB_EINVAL without '='. */
int pb_opt_set_kv(const pb_option *table, void *params, const char *kv,
                  pb_error *err);

/* Find an option by name, or by an old name (PB_OPT_ALIAS: the option it
 * now names is returned), or NULL. */
const pb_option *pb_opt_find(const pb_option *table, const char *name);

/* When `name` is an old name (a PB_OPT_ALIAS row), the option it now
 * names; else NULL.  Programs print a deprecation note with it. */
const pb_option *pb_opt_find_old(const pb_option *table, const char *name);

/* The word --help and --list use for an option type ("integer", "number",
 * "duration", "boolean", "string").  Returns a static string; never NULL. */
const char *pb_opt_type_name(pb_opt_type t);

/* Print one line per option: name, type, default, range, help. */
void pb_opt_help(FILE *fp, const pb_option *table, const char *indent);

/* Append "name=value name=value ..." with the current values to out. */
int pb_opt_describe(const pb_option *table, const void *params, pb_strbuf *out);

/* 1 when s[0..n) is a number written in decimal, as every number of
 * pathbench is read (trace fields, options): digits with an optional sign,
 * point and exponent ("12", "-0.5", "1e-3"); 0 for what strtod would
 * also take -- hex ("0x10"), "inf", "nan", leading blanks -- so that one
 * text means one number in every program. */
int pb_opt_decimal(const char *s, size_t n);

/* The number s[0..n) as every program reads a number outside a trace:
 * PB_OK and *out when it is finite and written in decimal
 * (pb_opt_decimal); an underflow (1e-400, a denormal) is the number
 * strtod rounds it to, toward 0, and -0 is 0.  PB_ERANGE when it is
 * decimal but past the largest double (1e400); PB_EINVAL for anything
 * else (empty, hex, inf, nan, blanks, text after it).  One rule for the
 * option table's numbers and for the numbers programs read on their own
 * (score's tolerances, sniffer --target-drop, maketrace weights, query
 * literals), so that "0x10" is never 16 in one and refused in another. */
int pb_number_parse(const char *s, size_t n, double *out);

/* 1 when s is an integer as every program reads one: decimal digits with
 * an optional sign, nothing before or after (strtol alone also took
 * " 5", leading blanks, where a number option refuses them). */
int pb_opt_integer(const char *s);

/* Why s is no integer, for the end of a message: "" when it is one or
 * when nothing more is to be said; else a note that starts with a blank
 * -- a number with an exponent (1e6: what %g and JSON writers give) or a
 * fraction (2.0, 1.5).  One note for the option table's integers and the
 * integers programs read on their own (score's, importtrace's and
 * pbcapture's flags, maketrace counts). */
const char *pb_integer_hint(const char *s);

#endif

#include "pb_opt.h"
#include "pb_time.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* name equals the table's name, '-' read as '_' (the old spellings) */
static int same_name(const char *table_name, const char *name)
{
    for (; *table_name && *name; table_name++, name++)
        if (*table_name != *name && !(*table_name == '_' && *name == '-'))
            return 0;
    return *table_name == *name;
}

const pb_option *pb_opt_find(const pb_option *table, const char *name)
{
    for (const pb_option *o = table; o && o->name; o++)
        if (o->type != PB_OPT_ALIAS && !strcmp(o->name, name))
            return o;
    for (const pb_option *o = table; o && o->name; o++)
        if (o->type != PB_OPT_ALIAS && same_name(o->name, name))
            return o;
    return pb_opt_find_old(table, name);
}

const pb_option *pb_opt_find_old(const pb_option *table, const char *name)
{
    for (const pb_option *o = table; o && o->name; o++)
        if (o->type == PB_OPT_ALIAS && o->def && same_name(o->name, name))
            for (const pb_option *t = table; t->name; t++)
                if (t->type != PB_OPT_ALIAS && !strcmp(t->name, o->def))
                    return t;
    return NULL;
}

/* "[MIN..MAX]" in the option's own units, shortest exact numbers. */
static char *range_text(const pb_option *o, char *buf, size_t n)
{
    char a[PB_DURATION_BUF], b[PB_DURATION_BUF];
    /* an option without a range (min > max) is bounded by its type only:
     * its range said as "[1s..0s]" was no range at all (skewer --ref) */
    if (o->min > o->max) {
        snprintf(buf, n, "%s", o->type == PB_OPT_DURATION
                                   ? "[-9223372035.999999999s..9223372035.999999999s]"
                                   : "a finite number");
        return buf;
    }
    if (o->type == PB_OPT_DURATION) {
        pb_duration_format(pb_sec_to_ns(o->min), a);
        pb_duration_format(pb_sec_to_ns(o->max), b);
    } else {
        pb_num_format(o->min, a);
        pb_num_format(o->max, b);
    }
    snprintf(buf, n, "[%s..%s]", a, b);
    return buf;
}

const char *pb_opt_type_name(pb_opt_type t)
{
    switch (t) {
    case PB_OPT_INT: return "integer";
    case PB_OPT_DOUBLE: return "number";
    case PB_OPT_DURATION: return "duration";
    case PB_OPT_BOOL: return "boolean";
    case PB_OPT_ALIAS: return "alias";
    default: return "string";
    }
}

int pb_opt_decimal(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        digits++;
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            digits++;
    if (!digits)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t ed = 0;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            ed++;
        if (!ed)
            return 0;
    }
    return i == n;
}

int pb_number_parse(const char *s, size_t n, double *out)
{
    char small[128];
    if (!s || !n || !pb_opt_decimal(s, n))
        return PB_EINVAL;
    char *buf = n < sizeof small ? small : malloc(n + 1);
    if (!buf)
        return PB_ENOMEM;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    int whole = !*end, e = errno;
    if (buf != small)
        free(buf);
    errno = e;
    if (!whole)
        return PB_EINVAL;
    /* underflow is a finite number rounded toward 0; overflow is not */
    if ((errno == ERANGE && fabs(v) > DBL_MIN) || !isfinite(v))
        return PB_ERANGE;
    *out = v == 0 ? 0.0 : v; /* -0 (and -1e-400) is 0 */
    return PB_OK;
}

int pb_opt_integer(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (!(*s >= '0' && *s <= '9'))
        return 0;
    while (*s >= '0' && *s <= '9')
        s++;
    return !*s;
}

const char *pb_integer_hint(const char *s)
{
    if (!s || pb_opt_integer(s))
        return "";
    size_t n = strlen(s);
    if (!pb_opt_decimal(s, n))
        return "";
    if (memchr(s, 'e', n) || memchr(s, 'E', n))
        return " (it has an exponent, which integers are written without: "
               "digits only, e.g. 1000000 for 1e6)";
    return " (it has a fraction; expected a whole number, digits only)";
}

static int out_of_range(const pb_option *o, double v)
{
    return o->min <= o->max && (v < o->min || v > o->max);
}

static int set_value(const pb_option *o, void *params, const char *value,
                     pb_error *err)
{
    char *field = (char *)params + o->offset;
    char *end;
    char rb[2 * PB_DURATION_BUF + 8];
    switch (o->type) {
    case PB_OPT_INT: {
        errno = 0;
        long v = strtol(value, &end, 10);
        if (*value && !*end && (errno == ERANGE || v < INT32_MIN || v > INT32_MAX))
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option %s: %s is out of range; expected %s",
                                o->name, value, o->min <= o->max
                                ? range_text(o, rb, sizeof rb)
                                : "a 32-bit integer");
        if (!*value || *end || errno || !pb_opt_integer(value))
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option %s: expected an integer, got \"%s\"%s",
                                o->name, value, pb_integer_hint(value));
        if (out_of_range(o, (double)v))
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option %s: %ld is out of range; expected %s",
                                o->name, v, range_text(o, rb, sizeof rb));
        *(int *)field = (int)v;
        return PB_OK;
    }
    case PB_OPT_DOUBLE: {
        errno = 0;
        double v = strtod(value, &end);
        /* underflow (1e-400, a denormal 4.9e-324) is a finite number
         * strtod rounds toward 0, not an error; overflow is */
        if (errno == ERANGE && fabs(v) <= DBL_MIN)
            errno = 0;
        /* decimal only: strtod also reads hex ("0x10" = 16), which no
         * trace field takes (pb_opt_decimal) */
        if (!*value || *end || errno || !isfinite(v))
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option %s: expected a finite number, got \"%s\"",
                                o->name, value);
        if (!pb_opt_decimal(value, strlen(value)))
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option %s: expected a finite number written in "
                                "decimal (as in a trace), got \"%s\"", o->name, value);
        if (out_of_range(o, v))
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option %s: %s is out of range; expected %s",
                                o->name, value, range_text(o, rb, sizeof rb));
        *(double *)field = v == 0 ? 0.0 : v; /* -0 (and -1e-400) is 0 */
        return PB_OK;
    }
    case PB_OPT_DURATION: {
        pb_ns v;
        int prc = pb_duration_parse(value, &v);
        /* why it was refused, as every duration reader says it
         * (pb_duration_hint: an exponent, no unit, under 1 ns, too large) */
        if (prc == PB_ERANGE)
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option %s: %s is out of range; expected %s%s",
                                o->name, value, range_text(o, rb, sizeof rb),
                                pb_duration_hint(value));
        if (prc != PB_OK)
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option %s: expected a duration with a unit (%s) "
                                "such as 30ms or 2s, got \"%s\"%s", o->name,
                                PB_DURATION_UNITS, value, pb_duration_hint(value));
        /* the range in whole nanoseconds, as range_text shows it: a
         * double comparison would refuse the documented maximum */
        if (o->min <= o->max && (v < pb_sec_to_ns(o->min) || v > pb_sec_to_ns(o->max)))
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option %s: %s is out of range; expected %s",
                                o->name, value, range_text(o, rb, sizeof rb));
        *(pb_ns *)field = v;
        return PB_OK;
    }
    case PB_OPT_BOOL: {
        int v;
        if (!strcasecmp(value, "1") || !strcasecmp(value, "yes") ||
            !strcasecmp(value, "true") || !strcasecmp(value, "on"))
            v = 1;
        else if (!strcasecmp(value, "0") || !strcasecmp(value, "no") ||
                 !strcasecmp(value, "false") || !strcasecmp(value, "off"))
            v = 0;
        else
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                "option %s: expected yes/no (1/0, true/false, "
                                "on/off), got \"%s\"", o->name, value);
        *(int *)field = v;
        return PB_OK;
    }
    case PB_OPT_STRING:
        *(const char **)field = value;
        return PB_OK;
    case PB_OPT_ALIAS:
        break;
    }
    return PB_EINVAL;
}

int pb_opt_defaults(const pb_option *table, void *params, pb_error *err)
{
    for (const pb_option *o = table; o && o->name; o++) {
        if (!o->def || o->type == PB_OPT_ALIAS)
            continue;
        int rc = set_value(o, params, o->def, err);
        if (rc != PB_OK)
            return rc;
    }
    return PB_OK;
}

int pb_opt_set(const pb_option *table, void *params, const char *name,
               const char *value, pb_error *err)
{
    const pb_option *o = pb_opt_find(table, name);
    if (!o) {
        pb_strbuf names = {0};
        for (const pb_option *p = table; p && p->name; p++) {
            if (p->type == PB_OPT_ALIAS)
                continue;
            if (names.len)
                pb_strbuf_puts(&names, ", ");
            pb_strbuf_puts(&names, p->name);
        }
        pb_error_set(err, PB_ENOENT, NULL, 0, 0,
                     "unknown option \"%s\"; expected one of: %s", name,
                     pb_strbuf_str(&names));
        pb_strbuf_free(&names);
        return PB_ENOENT;
    }
    return set_value(o, params, value, err);
}

int pb_opt_set_kv(const pb_option *table, void *params, const char *kv,
                  pb_error *err)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv)
        return pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                            "expected name=value, got \"%s\"", kv);
    char name[128];
    size_t l = (size_t)(eq - kv);
    if (l >= sizeof name)
        l = sizeof name - 1;
    memcpy(name, kv, l);
    name[l] = '\0';
    return pb_opt_set(table, params, name, eq + 1, err);
}

void pb_opt_help(FILE *fp, const pb_option *table, const char *indent)
{
    for (const pb_option *o = table; o && o->name; o++) {
        char rb[2 * PB_DURATION_BUF + 8];
        if (o->type == PB_OPT_ALIAS) {
            fprintf(fp, "%s%-18s old name of %s, read until the next release\n",
                    indent ? indent : "", o->name, o->def ? o->def : "?");
            continue;
        }
        fprintf(fp, "%s%-18s %-8s default %-8s %s", indent ? indent : "",
                o->name, pb_opt_type_name(o->type), o->def ? o->def : "-",
                o->help ? o->help : "");
        if (o->min <= o->max)
            fprintf(fp, " %s", range_text(o, rb, sizeof rb));
        fputc('\n', fp);
    }
}

int pb_opt_describe(const pb_option *table, const void *params, pb_strbuf *out)
{
    int rc = PB_OK;
    for (const pb_option *o = table; o && o->name; o++) {
        if (o->type == PB_OPT_ALIAS)
            continue;
        const char *field = (const char *)params + o->offset;
        if (o != table)
            rc |= pb_strbuf_putc(out, ' ');
        switch (o->type) {
        case PB_OPT_ALIAS:
            break;
        case PB_OPT_INT:
        case PB_OPT_BOOL:
            rc |= pb_strbuf_printf(out, "%s=%d", o->name, *(const int *)field);
            break;
        case PB_OPT_DOUBLE: {
            char b[PB_NUM_BUF];
            rc |= pb_strbuf_printf(out, "%s=%s", o->name,
                                   pb_num_format(*(const double *)field, b));
            break;
        }
        case PB_OPT_DURATION: {
            char b[PB_DURATION_BUF];
            pb_duration_format(*(const pb_ns *)field, b);
            rc |= pb_strbuf_printf(out, "%s=%s", o->name, b);
            break;
        }
        case PB_OPT_STRING: {
            const char *s = *(const char *const *)field;
            rc |= pb_strbuf_printf(out, "%s=%s", o->name, s ? s : "");
            break;
        }
        }
    }
    return rc ? PB_ENOMEM : PB_OK;
}

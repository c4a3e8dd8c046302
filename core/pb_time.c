#include "pb_time.h"
#include "pb_error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int pb_seconds_parse(const char *s, size_t len, pb_ns *out)
{
    size_t i = 0;
    int neg = 0;
    if (len == 0)
        return PB_EPARSE;
    if (s[0] == '-' || s[0] == '+') {
        neg = s[0] == '-';
        i = 1;
    }
    uint64_t whole = 0;
    size_t nwhole = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9') {
        if (whole > (uint64_t)(INT64_MAX / PB_NS_PER_SEC))
            return PB_ERANGE;
        whole = whole * 10 + (uint64_t)(s[i] - '0');
        i++;
        nwhole++;
    }
    uint64_t frac = 0;
    size_t nfrac = 0;
    int round_up = 0;
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            if (nfrac < 9)
                frac = frac * 10 + (uint64_t)(s[i] - '0');
            else if (nfrac == 9)
                round_up = s[i] >= '5';
            nfrac++;
            i++;
        }
    }
    if (i != len || (nwhole == 0 && nfrac == 0))
        return PB_EPARSE;
    for (size_t k = nfrac; k < 9; k++)
        frac *= 10;
    if (whole > (uint64_t)(INT64_MAX / PB_NS_PER_SEC) - 1)
        return PB_ERANGE;
    int64_t v = (int64_t)whole * PB_NS_PER_SEC + (int64_t)frac + round_up;
    *out = neg ? -v : v;
    return PB_OK;
}

int pb_seconds_past_ns(const char *s, size_t len)
{
    const char *dot = memchr(s, '.', len);
    if (!dot)
        return 0;
    size_t i = (size_t)(dot - s) + 1, nd = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
        if (++nd > 9 && s[i] != '0')
            return 1;
    return 0;
}

int pb_seconds_format(pb_ns t, char *buf)
{
    char tmp[PB_SECONDS_BUF];
    int n = 0;
    uint64_t u;
    int neg = t < 0;
    u = neg ? (uint64_t)0 - (uint64_t)t : (uint64_t)t;
    uint64_t whole = u / PB_NS_PER_SEC, frac = u % PB_NS_PER_SEC;
    /* build backwards: 9 fraction digits, '.', whole digits */
    for (int k = 0; k < 9; k++) {
        tmp[n++] = (char)('0' + frac % 10);
        frac /= 10;
    }
    tmp[n++] = '.';
    do {
        tmp[n++] = (char)('0' + whole % 10);
        whole /= 10;
    } while (whole);
    if (neg)
        tmp[n++] = '-';
    for (int k = 0; k < n; k++)
        buf[k] = tmp[n - 1 - k];
    buf[n] = '\0';
    return n;
}

pb_ns pb_sec_to_ns(double s)
{
    return (pb_ns)llround(s * 1e9);
}

int pb_duration_parse(const char *s, pb_ns *out)
{
    if (!s)
        return PB_EPARSE;
    size_t len = strlen(s);
    size_t num = 0;
    while (num < len && (s[num] == '+' || s[num] == '-' || s[num] == '.' ||
                         (s[num] >= '0' && s[num] <= '9')))
        num++;
    const char *unit = s + num;
    /* multiplier as numerator/denominator on seconds */
    int64_t mul = 1, div = 1;
    if (!*unit) {
        /* a bare number: only zero means the same in every unit */
        pb_ns z;
        if (pb_seconds_parse(s, num, &z) == PB_OK && z == 0 && num > 0) {
            *out = 0;
            return PB_OK;
        }
        return PB_EPARSE;
    }
    if (!strcmp(unit, "s"))
        ;
    else if (!strcmp(unit, "ms"))
        div = 1000;
    else if (!strcmp(unit, "us"))
        div = 1000000;
    else if (!strcmp(unit, "ns"))
        div = 1000000000;
    else if (!strcmp(unit, "m") || !strcmp(unit, "min"))
        mul = 60;
    else if (!strcmp(unit, "h"))
        mul = 3600;
    else
        return PB_EPARSE;
    pb_ns v;
    int rc = pb_seconds_parse(s, num, &v);
    if (rc == PB_OK && v == 0)
        for (size_t i = 0; i < num; i++)
            if (s[i] >= '1' && s[i] <= '9')
                return PB_ERANGE; /* below 1 ns */
    if (rc != PB_OK)
        return rc;
    if (mul != 1) {
        if (v > INT64_MAX / mul || v < INT64_MIN / mul)
            return PB_ERANGE;
        v *= mul;
    }
    /* digits past the nanosecond ("1.5ns", "0.0000000015s"): rounded
     * without a word before; refused below, once 0 is ruled out */
    int lost = pb_seconds_past_ns(s, num);
    if (div != 1) {
        /* round half away from zero */
        pb_ns q = v / div, r = v % div;
        lost |= r != 0;
        if (r * 2 >= div)
            q++;
        else if (r * 2 <= -div)
            q--;
        v = q;
    }
    /* a duration that is not zero but rounds to 0 ns would read as 0,
     * which means "off" for most options: refused */
    if (v == 0)
        for (size_t i = 0; i < num; i++)
            if (s[i] >= '1' && s[i] <= '9')
                return PB_ERANGE;
    if (lost)
        return PB_EPARSE;
    *out = v;
    return PB_OK;
}

const char *pb_duration_hint(const char *s)
{
    pb_ns v;
    if (!s)
        return "";
    int rc = pb_duration_parse(s, &v);
    if (rc == PB_OK)
        return "";
    size_t len = strlen(s), nl = len;
    while (nl > 0 && ((s[nl - 1] >= 'a' && s[nl - 1] <= 'z') ||
                      (s[nl - 1] >= 'A' && s[nl - 1] <= 'Z')))
        nl--;
    /* the number before the unit: sign, digits, point, an exponent */
    size_t i = 0, digits = 0, edigits = 0;
    int expo = 0;
    if (i < nl && (s[i] == '+' || s[i] == '-'))
        i++;
    for (; i < nl && s[i] >= '0' && s[i] <= '9'; i++)
        digits++;
    if (i < nl && s[i] == '.')
        for (i++; i < nl && s[i] >= '0' && s[i] <= '9'; i++)
            digits++;
    if (digits && i < nl && (s[i] == 'e' || s[i] == 'E')) {
        expo = 1;
        i++;
        if (i < nl && (s[i] == '+' || s[i] == '-'))
            i++;
        for (; i < nl && s[i] >= '0' && s[i] <= '9'; i++)
            edigits++;
    }
    if (expo && edigits && i == nl)
        return " (it has an exponent, which durations are written without: "
               "digits and a point, with the unit that fits, e.g. 1000ms for 1e3ms)";
    if (rc == PB_EPARSE && digits && !expo && i == nl && nl < len) {
        /* a number and a unit, refused: a unit not known, or digits past
         * the nanosecond (pb_duration_parse) */
        pb_ns w;
        const char *u = s + nl;
        if ((!strcmp(u, "s") || !strcmp(u, "ms") || !strcmp(u, "us") ||
             !strcmp(u, "ns") || !strcmp(u, "m") || !strcmp(u, "min") ||
             !strcmp(u, "h")) &&
            pb_seconds_parse(s, nl, &w) == PB_OK)
            return " (a duration is whole nanoseconds: it has digits past "
                   "the nanosecond, which would be rounded away)";
    }
    if (rc == PB_ERANGE) {
        /* which end: past the top has a nonzero whole part, under 1 ns none */
        for (size_t k = 0; k < nl && s[k] != '.'; k++)
            if (s[k] >= '1' && s[k] <= '9')
                return " (past the largest duration, about 292 years)";
        return " (a duration is whole nanoseconds: below 1ns it would round to 0)";
    }
    if (digits && i == nl && nl == len)
        return " (a number needs a unit: " PB_DURATION_UNITS "; only 0 goes without)";
    return "";
}

char *pb_duration_format(pb_ns t, char *buf)
{
    static const struct {
        int64_t ns;
        const char *unit;
    } units[] = {{1000000000LL, "s"}, {1000000LL, "ms"}, {1000LL, "us"}, {1, "ns"}};
    uint64_t a = t < 0 ? (uint64_t)0 - (uint64_t)t : (uint64_t)t;
    if (a == 0) {
        strcpy(buf, "0s");
        return buf;
    }
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof *units && a < (uint64_t)units[u].ns)
        u++;
    uint64_t d = (uint64_t)units[u].ns, whole = a / d, frac = a % d;
    int n = sprintf(buf, "%s%llu", t < 0 ? "-" : "", (unsigned long long)whole);
    if (frac) {
        /* frac < d <= 1e9: at most nine digits, zero-padded */
        char f[12];
        int digits = 0;
        for (uint64_t x = d; x > 1 && digits < 9; x /= 10)
            f[digits++] = '0';
        f[digits] = '\0';
        for (int k = digits - 1; k >= 0; k--, frac /= 10)
            f[k] = (char)('0' + frac % 10);
        for (int k = digits - 1; k > 0 && f[k] == '0'; k--)
            f[k] = '\0';
        n += sprintf(buf + n, ".%s", f);
    }
    strcpy(buf + n, units[u].unit);
    return buf;
}

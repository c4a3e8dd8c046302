/* pb_result_spool_meta (core/pb_result.h; docs/joint/scale.md, "The
 * metadata text to a temporary file (h262)"): the metadata text kept in a
 * temporary file writes the same result file, byte for byte, as the text
 * kept in memory -- whenever the spool begins (before the first line,
 * midway, after the last), with empty lines, lines ending in '\n', text of
 * several lines in one call and lines longer than pb_result_meta's buffer;
 * the result's `meta` then holds exactly the "warning: " lines of the
 * text; and without a temporary directory the spool is refused and the
 * text stays in memory (the same file). */
#include "pbtest.h"
#include "pb_result.h"

#include <stdint.h>
#include <stdlib.h>

static char *write_result(pb_result *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    const char *head[] = {"algo=test view=call"};
    pb_error err;
    if (!fp)
        return NULL;
    if (pb_result_write(fp, r, head, 1, 1, &err) != PB_OK) {
        fclose(fp);
        free(buf);
        return NULL;
    }
    fclose(fp);
    return buf;
}

/* a deterministic generator (no libc rand: the same lines everywhere) */
static uint64_t next_u(uint64_t *x)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return *x >> 33;
}

/* line k of case c: a key=value line, an empty line, a line ending in
 * '\n', two lines in one, a warning (alone or after a '\n'), a long line */
static void add_line(pb_result *r, uint64_t *x, int k)
{
    switch (next_u(x) % 9) {
    case 0:
        pb_result_meta(r, "%s", "");
        break;
    case 1:
        pb_result_meta(r, "key%d=%llu\n", k, (unsigned long long)next_u(x));
        break;
    case 2:
        pb_result_meta(r, "a%d=1\nb%d=2", k, k);
        break;
    case 3:
        pb_result_warn(r, "%d things capped", k);
        break;
    case 4:
        pb_result_meta(r, "x%d=1\nwarning: test: inner %d", k, k);
        break;
    case 5: {
        char big[3000];
        memset(big, 'v', sizeof big - 1);
        big[sizeof big - 1] = 0;
        pb_result_meta(r, "long%d=%s", k, big);
        break;
    }
    case 6:
        pb_result_meta(r, "warning:not-a-warning%d=1", k); /* no space: not one */
        break;
    default:
        pb_result_meta(r, "signal_service=s%d callers=%d", k, k % 7);
        break;
    }
}

/* the "warning: " lines of text joined by '\n' (what infer shows) */
static char *warnings_of(const char *text)
{
    size_t n = strlen(text), o = 0;
    char *w = calloc(n + 1, 1);
    for (size_t i = 0; w && i < n;) {
        const char *nl = strchr(text + i, '\n');
        size_t l = nl ? (size_t)(nl - (text + i)) : n - i;
        if (l >= 9 && !memcmp(text + i, "warning: ", 9)) {
            if (o)
                w[o++] = '\n';
            memcpy(w + o, text + i, l);
            o += l;
        }
        i += l + 1;
    }
    return w;
}

TEST(spooled_meta_writes_the_same_file)
{
    int cases = 0, same = 0, warn_same = 0, spooled = 0, nwarn = 0;
    for (int c = 0; c < 40; c++) {
        int nl = (int)(c % 10) * 3 + (c / 10); /* 0 .. 30 lines */
        pb_result mem, sp;
        CHECK_INT(pb_result_init(&mem, "test", "call"), PB_OK);
        CHECK_INT(pb_result_init(&sp, "test", "call"), PB_OK);
        int at = c % 4 == 0 ? 0 : c % 4 == 1 ? nl : (int)(c * 7 % (nl + 1)); /* spool from */
        uint64_t x1 = 1000 + (uint64_t)c, x2 = x1;
        for (int k = 0; k < nl; k++) {
            if (k == at)
                spooled += pb_result_spool_meta(&sp) == PB_OK;
            add_line(&mem, &x1, k);
            add_line(&sp, &x2, k);
        }
        if (at >= nl) /* after the last line (or no line at all) */
            spooled += pb_result_spool_meta(&sp) == PB_OK;
        CHECK(sp.meta_spool != NULL);
        char *w = warnings_of(pb_strbuf_str(&mem.meta));
        nwarn += w && *w;
        warn_same += w && !strcmp(w, pb_strbuf_str(&sp.meta));
        char *a = write_result(&mem), *b = write_result(&sp);
        cases++;
        same += a && b && !strcmp(a, b);
        if (a && b && strcmp(a, b))
            printf("# case %d (%d lines, spool from %d): files differ\n", c, nl, at);
        free(w);
        free(a);
        free(b);
        pb_result_free(&mem);
        pb_result_free(&sp);
    }
    printf("# %d cases: %d same files, %d same warnings (%d with warnings), %d spooled\n",
           cases, same, warn_same, nwarn, spooled);
    CHECK_INT(same, cases);
    CHECK_INT(warn_same, cases);
    CHECK_INT(spooled, cases);
    CHECK(nwarn > 10);
}

/* no temporary directory: the spool is refused, the text stays */
TEST(no_tmpdir_keeps_meta_in_memory)
{
    const char *old = getenv("TMPDIR");
    char *keep = old ? strdup(old) : NULL;
    setenv("TMPDIR", "no-such-directory-for-pathbench-tests/x", 1);
    pb_result r;
    CHECK_INT(pb_result_init(&r, "test", "call"), PB_OK);
    pb_result_meta(&r, "a=1");
    CHECK_INT(pb_result_spool_meta(&r), PB_EIO);
    CHECK(r.meta_spool == NULL);
    pb_result_meta(&r, "b=2");
    CHECK_STR(pb_strbuf_str(&r.meta), "a=1\nb=2");
    char *f = write_result(&r);
    CHECK(f && strstr(f, "# a=1\n# b=2\n# table=patterns\n") != NULL);
    free(f);
    pb_result_free(&r);
    if (keep) {
        setenv("TMPDIR", keep, 1);
        free(keep);
    } else
        unsetenv("TMPDIR");
}

int main(void)
{
    RUN(spooled_meta_writes_the_same_file);
    RUN(no_tmpdir_keeps_meta_in_memory);
    return pbtest_failures != 0;
}

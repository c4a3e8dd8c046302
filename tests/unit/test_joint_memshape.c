/* The shape of joint's memory on a trace whose metadata grows with it
 * (docs/joint/scale.md, "The metadata text to a temporary file (h262)"):
 * N pairs of nodes that share nothing (n_i calls m_i, which answers
 * 0.5 ms later; no call ids) give a `signal_service` and a `fifo_link`
 * line per pair.  When joint returns, the metadata text the result holds
 * in memory must not grow with N (it is the result file's, written by
 * pb_result_write: a temporary file); the file still has every line.
 * Counted in bytes of the result's text, not resident memory: on main the
 * text held grows by about 500 bytes a pair (the test fails there). */
#include "pbtest.h"
#include "joint_test.h"
#include "pb_algo.h"

#include <stdlib.h>

static pb_trace *pairs_trace(int n)
{
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return NULL;
    next_id = 1;
    char a[32], b[32];
    for (int i = 1; i <= n; i++) {
        pb_ns ts = (pb_ns)i * 1000000;
        snprintf(a, sizeof a, "n%d", i);
        snprintf(b, sizeof b, "m%d", i);
        msg(t, ts, a, b, PB_TYPE_CALL, PB_ID_NONE);
        msg(t, ts + 500000, b, a, PB_TYPE_RETURN, PB_ID_NONE);
    }
    pb_trace_sort(t);
    return t;
}

/* lines of text beginning with prefix */
static size_t count_lines(const char *text, const char *prefix)
{
    size_t n = 0, l = strlen(prefix);
    for (const char *p = text; p && *p;) {
        if (!strncmp(p, prefix, l))
            n++;
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return n;
}

/* run joint on N pairs: the bytes of metadata text held in memory when it
 * returns, and the signal_service lines of the file written */
static int run_pairs(int n, size_t *held, size_t *lines)
{
    pb_trace *t = pairs_trace(n);
    if (!t)
        return PB_ENOMEM;
    joint_params p = defaults();
    pb_result res;
    pb_error err;
    pb_trace_view v = pb_trace_view_of(t);
    int rc = pb_result_init(&res, "joint", "call");
    if (rc == PB_OK)
        rc = pb_algo_joint.run(&v, &p, &res, &err);
    *held = res.meta.len;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = rc == PB_OK ? open_memstream(&buf, &len) : NULL;
    const char *head[] = {"algo=joint view=call"};
    if (fp && pb_result_write(fp, &res, head, 1, 1, &err) != PB_OK)
        rc = PB_EIO;
    if (fp)
        fclose(fp);
    *lines = buf ? count_lines(buf, "# signal_service=") : 0;
    free(buf);
    pb_result_free(&res);
    pb_trace_close(t);
    return rc;
}

TEST(meta_text_held_flat_in_pairs)
{
    size_t h1 = 0, l1 = 0, h4 = 0, l4 = 0;
    CHECK_INT(run_pairs(250, &h1, &l1), PB_OK);
    CHECK_INT(run_pairs(1000, &h4, &l4), PB_OK);
    printf("# 250 pairs: %zu bytes of metadata held, %zu signal_service lines written; "
           "1000 pairs: %zu bytes, %zu lines\n", h1, l1, h4, l4);
    CHECK_INT(l1, 250);
    CHECK_INT(l4, 1000);
    /* flat: what 750 more pairs add is under one of their lines each */
    CHECK(h4 <= h1 + 750);
    CHECK(h4 < 4096);
}

int main(void)
{
    RUN(meta_text_held_flat_in_pairs);
    return pbtest_failures != 0;
}

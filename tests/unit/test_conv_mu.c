/* The convolution algorithm's automatic mu (algorithms/convolution/conv_mu.c), worked
 * by hand. */
#include "pbtest.h"
#include "conv_mu.h"

#define MS 1000000LL

static pb_trace *chain(pb_ns hop, int n, pb_ns start_step)
{
    /* n requests A->B->C, B sends hop after receiving */
    pb_trace *t;
    pb_trace_new(&t);
    uint64_t id = 1;
    for (int i = 0; i < n; i++) {
        pb_ns s = (pb_ns)i * start_step;
        pb_trace_add(t, id++, s, PB_TS_NONE, "A", "B", PB_TYPE_MSG, PB_ID_NONE,
                     PB_ID_NONE, PB_ID_NONE);
        pb_trace_add(t, id++, s + hop, PB_TS_NONE, "B", "C", PB_TYPE_MSG,
                     PB_ID_NONE, PB_ID_NONE, PB_ID_NONE);
    }
    return t;
}

TEST(auto_mu_by_hand)
{
    pb_strbuf why = {0};
    pb_ns mu = 0;
    /* hop 0.3 ms: 8 hops = 2.4 ms -> 2 ms */
    pb_trace *t = chain(300000, 50, 10 * MS);
    pb_trace_view v = pb_trace_view_of(t);
    CHECK_INT(conv_auto_mu(&v, &mu, &why), PB_OK);
    CHECK_INT(mu, 2 * MS);
    CHECK(strstr(pb_strbuf_str(&why), "0.000300000 s over 50 sends") != NULL);
    pb_trace_close(t);
    pb_strbuf_free(&why);
    /* hop 30 ms: 240 ms -> capped at 10 ms */
    t = chain(30 * MS, 50, 100 * MS);
    v = pb_trace_view_of(t);
    CHECK_INT(conv_auto_mu(&v, &mu, &why), PB_OK);
    CHECK_INT(mu, 10 * MS);
    CHECK(strstr(pb_strbuf_str(&why), "capped at the paper's 10 ms") != NULL);
    pb_trace_close(t);
    pb_strbuf_free(&why);
    /* hop 0 at a 1 ms tick: raised to the tick */
    t = chain(0, 50, 11 * MS);
    v = pb_trace_view_of(t);
    CHECK_INT(conv_auto_mu(&v, &mu, &why), PB_OK);
    CHECK_INT(mu, 1 * MS);
    CHECK(strstr(pb_strbuf_str(&why), "raised to the trace's tick 1ms") != NULL);
    pb_trace_close(t);
    pb_strbuf_free(&why);
    /* no node both receives and sends: the paper's 10 ms */
    pb_trace_new(&t);
    pb_trace_add(t, 1, 0, PB_TS_NONE, "A", "B", PB_TYPE_MSG, PB_ID_NONE, PB_ID_NONE, PB_ID_NONE);
    pb_trace_add(t, 2, 5, PB_TS_NONE, "C", "D", PB_TYPE_MSG, PB_ID_NONE, PB_ID_NONE, PB_ID_NONE);
    v = pb_trace_view_of(t);
    CHECK_INT(conv_auto_mu(&v, &mu, &why), PB_OK);
    CHECK_INT(mu, 10 * MS);
    CHECK(strstr(pb_strbuf_str(&why), "no node both receives and sends") != NULL);
    pb_trace_close(t);
    pb_strbuf_free(&why);
    /* a long trace at fine hops: at most 2^24 quanta */
    t = chain(1000, 3, 1000 * PB_NS_PER_SEC); /* 2000 s, hop 1 us -> 5 us */
    v = pb_trace_view_of(t);
    CHECK_INT(conv_auto_mu(&v, &mu, &why), PB_OK);
    CHECK(2000 * PB_NS_PER_SEC / mu <= (1 << 24));
    CHECK(mu >= 100000 && mu <= 500000);
    pb_trace_close(t);
    pb_strbuf_free(&why);
}

int main(void)
{
    RUN(auto_mu_by_hand);
    return pbtest_exit();
}

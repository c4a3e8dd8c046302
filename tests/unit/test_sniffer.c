/* Unit tests of the sniffer library: the capture queue against a burst
 * worked by hand, unbounded capture, random and Gilbert-Elliott loss,
 * coverage by several boxes, the rate search and the spool. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pbtest.h"
#include "pb_strtab.h"
#include "sniff.h"

static void mk(pb_names *nm, pb_msg *m, uint64_t id, pb_ns ts, const char *src,
               const char *dst)
{
    memset(m, 0, sizeof *m);
    m->id = id;
    m->ts = ts;
    m->recv_ts = PB_TS_NONE;
    m->callid = PB_ID_NONE;
    pb_strtab_intern(nm->nodes, src, strlen(src), &m->src);
    pb_strtab_intern(nm->nodes, dst, strlen(dst), &m->dst);
}

static sniff_params defaults(void)
{
    sniff_params p;
    pb_error err;
    pb_opt_defaults(sniff_options, &p, &err);
    return p;
}

/* The burst of tests/data/perturb/burst.csv: rate 1000/s (1 ms a capture),
 * queue 2.  t=0: four arrive, two fit (done at 1 and 2 ms), two dropped;
 * 0.5 ms: full, dropped; 1 ms: the first leaves as it arrives, so it fits
 * (done at 3 ms); 1.5 ms: full, dropped; 2 ms: fits (4 ms); 5 ms: empty. */
static const pb_ns burst_ts[9] = {0, 0, 0, 0, 500000, 1000000, 1500000,
                                  2000000, 5000000};
static const int burst_keep[9] = {1, 1, 0, 0, 0, 1, 0, 1, 1};

TEST(test_sniffer_burst_by_hand)
{
    pb_names *nm;
    pb_names_init(&nm);
    sniff_model *m;
    sniff_init(&m, nm);
    sniff_params p = defaults();
    p.rate = 1000;
    p.queue = 2;
    pb_error err;
    CHECK_INT(sniff_add(m, NULL, &p, "t", &err), PB_OK);
    pb_msg msg;
    for (int round = 0; round < 2; round++) { /* reset gives the same again */
        for (int i = 0; i < 9; i++) {
            mk(nm, &msg, (uint64_t)i + 1, 1000000000LL + burst_ts[i], "A", "B");
            CHECK_INT(sniff_decide(m, &msg), burst_keep[i]);
        }
        sniff_stats st;
        sniff_stats_get(m, &st);
        CHECK_INT(st.messages, 9);
        CHECK_INT(st.kept, 5);
        CHECK_INT(st.dropped, 4);
        CHECK_INT(st.queue, 4);
        CHECK_NEAR(sniff_drop_rate(&st), 4.0 / 9, 1e-12);
        sniff_reset(m);
    }
    /* unbounded: nothing dropped however bursty */
    sniff_set_rate(m, 0);
    for (int i = 0; i < 1000; i++) {
        mk(nm, &msg, (uint64_t)i + 1, 5, "A", "B");
        CHECK_INT(sniff_decide(m, &msg), 1);
    }
    sniff_close(m);
    pb_names_close(nm);
}

TEST(test_sniffer_bad_params)
{
    pb_names *nm;
    pb_names_init(&nm);
    sniff_model *m;
    sniff_init(&m, nm);
    sniff_params p = defaults();
    pb_error err;
    p.queue = 0;
    CHECK_INT(sniff_add(m, NULL, &p, "--queue", &err), PB_EINVAL);
    CHECK(strstr(err.msg, "queue") != NULL);
    p = defaults();
    p.rate = -1;
    CHECK_INT(sniff_add(m, NULL, &p, "--rate", &err), PB_EINVAL);
    CHECK(strstr(err.msg, "rate") != NULL);
    p = defaults();
    p.loss = 1.5;
    CHECK_INT(sniff_add(m, NULL, &p, "--loss", &err), PB_EINVAL);
    p = defaults();
    CHECK_INT(sniff_add(m, "A,,B", &p, "--sniffer", &err), PB_EINVAL);
    CHECK(strstr(err.msg, "empty node name") != NULL);
    /* the option table rejects the same on parsing, naming the option */
    CHECK_INT(pb_opt_set(sniff_options, &p, "queue", "0", &err), PB_EINVAL);
    CHECK(strstr(err.msg, "queue") != NULL);
    CHECK_INT(pb_opt_set(sniff_options, &p, "rate", "-5", &err), PB_EINVAL);
    CHECK(strstr(err.msg, "rate") != NULL);
    sniff_close(m);
    pb_names_close(nm);
}

TEST(test_sniffer_random_loss)
{
    pb_names *nm;
    pb_names_init(&nm);
    sniff_model *m;
    sniff_init(&m, nm);
    sniff_params p = defaults();
    p.loss = 0.3;
    p.seed = 9;
    pb_error err;
    sniff_add(m, NULL, &p, "t", &err);
    pb_msg msg;
    static unsigned char first[100000];
    int n = 100000, same = 1;
    for (int i = 0; i < n; i++) {
        mk(nm, &msg, (uint64_t)i, (pb_ns)i * 1000, "A", "B");
        first[i] = (unsigned char)sniff_decide(m, &msg);
    }
    sniff_stats st;
    sniff_stats_get(m, &st);
    CHECK_NEAR(sniff_drop_rate(&st), 0.3, 0.01);
    CHECK_INT(st.random, st.dropped);
    sniff_reset(m);
    for (int i = 0; i < n; i++) {
        mk(nm, &msg, (uint64_t)i, (pb_ns)i * 1000, "A", "B");
        if (sniff_decide(m, &msg) != first[i])
            same = 0;
    }
    CHECK(same);
    sniff_close(m);
    pb_names_close(nm);
}

/* Gilbert-Elliott with loss 1 in bad, 0 in good: drop rate near the
 * stationary p/(p+r), and drops come in runs of mean length 1/r */
TEST(test_sniffer_gilbert_elliott)
{
    pb_names *nm;
    pb_names_init(&nm);
    sniff_model *m;
    sniff_init(&m, nm);
    sniff_params p = defaults();
    p.ge_p = 0.01;
    p.ge_r = 0.1;
    pb_error err;
    sniff_add(m, NULL, &p, "t", &err);
    pb_msg msg;
    long runs = 0, dropped = 0;
    int prev = 1;
    for (int i = 0; i < 200000; i++) {
        mk(nm, &msg, (uint64_t)i, (pb_ns)i * 1000, "A", "B");
        int k = sniff_decide(m, &msg);
        if (!k) {
            dropped++;
            if (prev)
                runs++;
        }
        prev = k;
    }
    sniff_stats st;
    sniff_stats_get(m, &st);
    CHECK_INT(st.burst, dropped);
    CHECK_NEAR(sniff_drop_rate(&st), 0.01 / 0.11, 0.01);
    CHECK(runs > 0);
    CHECK_NEAR((double)dropped / (double)runs, 10.0, 1.0);
    sniff_close(m);
    pb_names_close(nm);
}

/* Two boxes: one sees A, one sees C (with a queue of 1 and a slow rate).
 * A message is kept if any box that sees it keeps it; B->D is uncovered. */
TEST(test_sniffer_coverage)
{
    pb_names *nm;
    pb_names_init(&nm);
    sniff_model *m;
    sniff_init(&m, nm);
    sniff_params p = defaults();
    pb_error err;
    CHECK_INT(sniff_add(m, "A", &p, "--sniffer", &err), PB_OK);
    p.rate = 1; /* one message a second */
    p.queue = 1;
    CHECK_INT(sniff_add(m, "C,Z", &p, "--sniffer", &err), PB_OK);
    CHECK_INT(sniff_count(m), 2);
    pb_msg msg;
    mk(nm, &msg, 1, 0, "C", "E");   /* box 2 takes it */
    CHECK_INT(sniff_decide(m, &msg), 1);
    mk(nm, &msg, 2, 10, "E", "C");  /* box 2 busy: dropped */
    CHECK_INT(sniff_decide(m, &msg), 0);
    mk(nm, &msg, 3, 20, "A", "C");  /* box 2 busy, box 1 keeps it */
    CHECK_INT(sniff_decide(m, &msg), 1);
    mk(nm, &msg, 4, 30, "B", "D");  /* nobody sees it */
    CHECK_INT(sniff_decide(m, &msg), 0);
    sniff_stats st;
    sniff_stats_get(m, &st);
    CHECK_INT(st.kept, 2);
    CHECK_INT(st.queue, 1);
    CHECK_INT(st.uncovered, 1);
    CHECK_STR(sniff_unseen(m, 0), "Z");
    CHECK(sniff_unseen(m, 1) == NULL);
    sniff_close(m);
    pb_names_close(nm);
}

/* the rate search finds the knee of the burst: queue 4 needs exactly one
 * capture per 0.5 ms (2000/s) to lose nothing */
TEST(test_sniffer_target_rate)
{
    pb_names *nm;
    pb_names_init(&nm);
    sniff_model *m;
    sniff_init(&m, nm);
    sniff_params p = defaults();
    p.queue = 4;
    pb_error err;
    sniff_add(m, NULL, &p, "t", &err);
    sniff_spool *sp;
    CHECK_INT(sniff_spool_open(&sp, &err), PB_OK);
    pb_msg msg;
    pb_truth tr = {7, PB_ID_NONE};
    for (int i = 0; i < 9; i++) {
        mk(nm, &msg, (uint64_t)i + 1, 1000000000LL + burst_ts[i], "A", "B");
        CHECK_INT(sniff_spool_add(sp, &msg, NULL, &tr), PB_OK);
    }
    CHECK_INT(sniff_spool_size(sp), 9);
    double rate = 0, rate2 = 0;
    CHECK_INT(sniff_target_rate(m, sp, 0, &rate, &err), PB_OK);
    CHECK(rate >= 2000 && rate <= 2000 * (1 + 2e-6));
    sniff_stats st;
    CHECK_INT(sniff_replay(m, sp, &st), PB_OK);
    CHECK_INT(st.dropped, 0);
    sniff_set_rate(m, rate * 0.999);
    CHECK_INT(sniff_replay(m, sp, &st), PB_OK);
    CHECK(st.dropped > 0);
    CHECK_INT(sniff_target_rate(m, sp, 0, &rate2, &err), PB_OK);
    CHECK(rate == rate2);
    CHECK_INT(sniff_target_rate(m, sp, 1.5, &rate2, &err), PB_EINVAL);
    /* the spool gives back what went in */
    CHECK_INT(sniff_spool_rewind(sp), PB_OK);
    pb_truth t2;
    CHECK_INT(sniff_spool_next(sp, &msg, NULL, &t2), 1);
    CHECK_INT(msg.id, 1);
    CHECK_INT(t2.path, 7);
    sniff_spool_close(sp);
    sniff_close(m);

    /* unreachable target: random loss alone exceeds it */
    sniff_init(&m, nm);
    p.loss = 0.5;
    sniff_add(m, NULL, &p, "t", &err);
    sniff_spool_open(&sp, &err);
    for (int i = 0; i < 100; i++) {
        mk(nm, &msg, (uint64_t)i + 1, (pb_ns)i * 1000000, "A", "B");
        sniff_spool_add(sp, &msg, NULL, NULL);
    }
    CHECK_INT(sniff_target_rate(m, sp, 0.01, &rate, &err), PB_EINVAL);
    CHECK(strstr(err.msg, "out of reach") != NULL);
    sniff_spool_close(sp);
    sniff_close(m);
    pb_names_close(nm);
}

int main(void)
{
    RUN(test_sniffer_burst_by_hand);
    RUN(test_sniffer_bad_params);
    RUN(test_sniffer_random_loss);
    RUN(test_sniffer_gilbert_elliott);
    RUN(test_sniffer_coverage);
    RUN(test_sniffer_target_rate);
    return pbtest_exit();
}

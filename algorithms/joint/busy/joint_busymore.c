/*
 * joint_busymore.c - joint without call ids: the busy test's copies, more
 * of them where its verdict depends on their own spread (`busy_more`,
 * docs/joint/search.md, "The busy test").
 *
 * The busy test compares B busy landings of a service's N calls with the
 * share pi = MB / M that copies of the free solution predict, by z = (B -
 * N pi) / sqrt(N pi (1 - pi) (1 + N / M)): the last factor is pi's own
 * spread.  The first JOINT_PICK_SIMS copies hold a share of the trace
 * (conf_sim_share, at least conf_sim_pairs pairs), so on a long trace M is
 * about N and that factor about 2: a service can fail the test only
 * because the copies were few.  When a service is tested (N at least
 * JOINT_PICK_MIN), does not pass (z >= -JOINT_PICK_Z), would pass were pi
 * exact (the same z without the factor is below -JOINT_PICK_Z), and M is
 * below JOINT_PICK_MORE N, one more copy is drawn (the next seed), and so
 * on until no service is in that state or JOINT_PICK_MAXSIMS copies are
 * drawn.  Where the first copies decide (every real set's service but
 * where the factor matters), nothing more is drawn and the output is the
 * one before, byte for byte.
 */
#include "joint_int.h"

#include <math.h>

int joint_pick_want_more(double n, double b, double m, double mb)
{
    if (n < JOINT_PICK_MIN || m <= 0 || m >= JOINT_PICK_MORE * n)
        return 0;
    double pi = mb / m;
    if (!(pi > 0 && pi < 1))
        return 0;
    if (joint_pick_z(n, b, m, mb) < -JOINT_PICK_Z)
        return 0; /* passes already */
    return (b - n * pi) / sqrt(n * pi * (1 - pi)) < -JOINT_PICK_Z;
}

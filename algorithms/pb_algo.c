#include "pb_algo.h"

#include <string.h>

static const pb_algo *const registry[] = {
    &pb_algo_nesting, &pb_algo_convolution, &pb_algo_linking, &pb_algo_truth,
    &pb_algo_joint,
    &pb_algo_fcfs, &pb_algo_arrival, &pb_algo_vpath, &pb_algo_wap5tw,
    &pb_algo_borderpatrol,
    NULL};

const pb_algo *const *pb_algo_list(void) { return registry; }

const pb_algo *pb_algo_find(const char *name)
{
    for (size_t i = 0; registry[i]; i++)
        if (!strcmp(registry[i]->name, name))
            return registry[i];
    return NULL;
}

/*
 * fuzz_nesting - libFuzzer target for the nesting algorithm: the bytes are
 * a trace of RPC messages on five nodes (4 bytes a message: time step,
 * sender/receiver, type, call id) after a 4-byte header choosing the
 * parameters (skew window, smoothing, call ids, penalties).  Any trace must
 * run to a result or a clean error; crashes, leaks, hangs and undefined
 * behaviour are not allowed.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nesting.h"
#include "pb_algo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *nodes[] = {"A", "B", "C", "D", "E"};
    if (size < 4)
        return 0;
    nesting_params p;
    pb_error err;
    memset(&p, 0, sizeof p);
    if (pb_opt_defaults(nesting_options, &p, &err) != PB_OK)
        return 0;
    p.skew_window = (pb_ns)(data[0] & 0x0f) * 3000000;   /* 0..45 ms */
    p.smooth = (data[0] >> 4) & 1;
    p.callids = !((data[0] >> 5) & 1);
    p.x = data[1] % 4;
    p.y = (data[1] >> 2) % 3;
    p.z = (data[1] >> 4) % 3;
    p.bins = 1 + data[2] % 400;
    p.top = data[3] % 5;
    pb_trace *t;
    if (pb_trace_new(&t) != PB_OK)
        return 0;
    pb_ns ts = 0;
    uint64_t id = 1;
    for (size_t i = 4; i + 4 <= size && id < 4096; i += 4) {
        ts += (pb_ns)data[i] * 1000000;
        const char *src = nodes[(data[i + 1] & 0x0f) % 5];
        const char *dst = nodes[(data[i + 1] >> 4) % 5];
        pb_msg_type type = (pb_msg_type)(data[i + 2] % 3);
        uint64_t cid = data[i + 3] == 255 ? PB_ID_NONE : data[i + 3] % 16;
        pb_trace_add(t, id++, ts, PB_TS_NONE, src, dst, type, cid, PB_ID_NONE,
                     PB_ID_NONE);
    }
    pb_trace_view v = pb_trace_view_of(t);
    pb_result res;
    if (pb_result_init(&res, "nesting", "call") == PB_OK) {
        pb_algo_nesting.run(&v, &p, &res, &err);
        pb_result_free(&res);
    }
    pb_trace_close(t);
    return 0;
}

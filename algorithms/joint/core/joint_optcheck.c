/*
 * joint_optcheck.c - joint's string options checked against the words each
 * takes, all at once: by infer before it reads the trace (a bad word is a
 * usage error, exit 2, and --parse-only reports it), and by joint_run
 * before any work.  The option table (joint_options.c) types these options
 * as strings and bounds numbers only; each rule still reads its own word
 * as before, this only refuses a word no rule reads (found by the option
 * fuzzer, tests/fuzz/joint_optfuzz.sh; docs/joint/search_late.md).
 */
#include "joint.h"

#include <stddef.h>
#include <string.h>

static const struct {
    const char *name;  /* the option, as the table names it */
    size_t off;        /* its field */
    const char *words; /* the words it takes, blank-separated */
    const char *said;  /* the same, as the error message says them */
} joint_words[] = {
    {"matching", offsetof(joint_params, matching), "greedy flow", "greedy or flow"},
    {"start", offsetof(joint_params, start), "rank local earliest", "rank, local or earliest"},
    {"service_order", offsetof(joint_params, order), "auto on off 0 1", "auto, on or off"},
    {"pair_order", offsetof(joint_params, pair_order), "auto on off", "auto, on or off"},
    {"callers", offsetof(joint_params, callers), "auto keyed pooled", "auto, keyed or pooled"},
    {"out_sets", offsetof(joint_params, out_sets), "auto on off", "auto, on or off"},
    {"tick_ivl", offsetof(joint_params, tick_ivl), "auto on off", "auto, on or off"},
    {"subtick", offsetof(joint_params, subtick), "auto on off", "auto, on or off"},
};

/* 1 when v is one of the blank-separated words */
static int one_of(const char *v, const char *words)
{
    size_t n = strlen(v);
    for (const char *w = words; *w;) {
        size_t k = strcspn(w, " ");
        if (k == n && n && !strncmp(w, v, n))
            return 1;
        w += k;
        while (*w == ' ')
            w++;
    }
    return 0;
}

int joint_params_check(const joint_params *p, pb_error *err)
{
    for (size_t i = 0; i < sizeof joint_words / sizeof joint_words[0]; i++) {
        const char *v = *(const char *const *)((const char *)p + joint_words[i].off);
        if (v && !one_of(v, joint_words[i].words))
            return pb_error_set(err, PB_EINVAL, NULL, 0, 0, "option %s: \"%s\"; expected %s",
                                joint_words[i].name, v, joint_words[i].said);
    }
    return PB_OK;
}

/*
 * fuzz_maketrace_config - libFuzzer target for the maketrace config parser
 * (lexer, let expansion and its caps, tracelet blocks, settings) and the
 * start of generation: any bytes are parsed as a config and, when
 * accepted, up to 200 messages are generated.  Errors are fine; crashes,
 * leaks, hangs, undefined behaviour and unbounded memory are not.
 */
#include <stddef.h>
#include <stdint.h>

#include "mt.h"
#include "pb_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mt_config *c = NULL;
    pb_error err;
    if (mt_config_parse((const char *)data, size, "fuzz.conf", NULL, 0, &c, &err) != PB_OK)
        return 0;
    pb_names *names = NULL;
    mt_gen *g = NULL;
    if (pb_names_init(&names) == PB_OK && mt_gen_init(&g, c, names, &err) == PB_OK) {
        pb_msg m;
        pb_truth t;
        for (int i = 0; i < 200 && mt_gen_next(g, &m, &t) == 1; i++)
            ;
    }
    mt_gen_close(g);
    pb_names_close(names);
    mt_config_close(c);
    return 0;
}

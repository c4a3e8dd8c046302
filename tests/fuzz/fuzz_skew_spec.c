/*
 * fuzz_skew_spec - libFuzzer target for the skewer's clock spec lines
 * ("NODE=OFFSET[,DRIFT]", as --node and spec files give them): every line
 * of the input is added to one spec.  Errors are fine; crashes, leaks and
 * undefined behaviour are not.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skew.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    skew_spec *s = NULL;
    if (skew_spec_init(&s) == PB_OK) {
        pb_error err;
        long line = 1;
        for (char *l = text; l && *l; line++) {
            char *nl = strchr(l, '\n');
            if (nl)
                *nl = '\0';
            skew_spec_add(s, l, "fuzz", line, &err);
            l = nl ? nl + 1 : NULL;
        }
    }
    skew_spec_close(s);
    free(text);
    return 0;
}

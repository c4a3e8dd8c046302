#include "pb_serve.h"

#include <stdlib.h>
#include <string.h>

#include "pb_strbuf.h"
#include "pb_version.h"

extern char **environ; /* POSIX */

#define PARAM_PREFIX "PB_PARAM_"

/* Parameters from the environment: every PB_PARAM_NAME must name one of
 * the table's parameters (a misspelled name is an error, not a silent
 * default). */
static int params_from_env(const pb_algo *algo, void *params, pb_error *err)
{
    const size_t pl = strlen(PARAM_PREFIX);
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, PARAM_PREFIX, pl) != 0)
            continue;
        const char *kv = *e + pl;
        const char *eq = strchr(kv, '=');
        if (!eq)
            continue;
        char name[64];
        size_t l = (size_t)(eq - kv);
        if (l >= sizeof name)
            l = sizeof name - 1;
        memcpy(name, kv, l);
        name[l] = '\0';
        if (!pb_opt_find(algo->options, name)) {
            pb_strbuf b = {0};
            for (const pb_option *o = algo->options; o && o->name; o++)
                if (o->type != PB_OPT_ALIAS)
                    pb_strbuf_printf(&b, "%s%s", b.len ? ", " : "", o->name);
            int rc = pb_error_set(err, PB_EINVAL, NULL, 0, 0,
                                  "%s: -s %s: no parameter of that name; expected "
                                  "one of: %s", algo->name, name,
                                  b.len ? pb_strbuf_str(&b) : "(none)");
            pb_strbuf_free(&b);
            return rc;
        }
        int rc = pb_opt_set(algo->options, params, name, eq + 1, err);
        if (rc != PB_OK)
            return rc;
    }
    return PB_OK;
}

int pb_algo_serve(const pb_algo *algo, const char *in_path, FILE *out,
                  pb_error *err)
{
    void *params = calloc(1, algo->params_size ? algo->params_size : 1);
    if (!params)
        return pb_error_set(err, PB_ENOMEM, NULL, 0, 0, "out of memory");
    pb_trace *trace = NULL;
    pb_result res;
    int res_ok = 0;
    pb_strbuf h1 = {0}, h2 = {0}, h3 = {0};
    int rc = pb_opt_defaults(algo->options, params, err);
    if (rc == PB_OK)
        rc = params_from_env(algo, params, err);
    pb_reader_opts ropts;
    pb_reader_opts_default(&ropts);
    if (rc == PB_OK)
        rc = pb_trace_load(in_path ? in_path : "-", &ropts, 0, &trace, err);
    if (rc == PB_OK) {
        rc = pb_result_init(&res, algo->name, algo->view);
        if (rc == PB_OK)
            res_ok = 1;
        else
            pb_error_set(err, rc, NULL, 0, 0, "out of memory");
    }
    if (rc == PB_OK) {
        pb_trace_view view = pb_trace_view_of(trace);
        rc = algo->run(&view, params, &res, err);
    }
    if (rc == PB_OK) {
        pb_strbuf_printf(&h1, "algo=%s view=%s", algo->name, res.view);
        pb_strbuf_puts(&h2, "params: ");
        pb_opt_describe(algo->options, params, &h2);
        pb_strbuf_printf(&h3, "exec_program=%s exec_version=%s exec_commit=%s", algo->name,
                         pb_version(),
                         pb_version_commit()[0] ? pb_version_commit() : "none");
        const char *head[3] = {pb_strbuf_str(&h1), pb_strbuf_str(&h2),
                               pb_strbuf_str(&h3)};
        rc = pb_result_write(out, &res, head, 3, 1, err);
        if (rc == PB_OK && (fflush(out) != 0 || ferror(out)))
            rc = pb_error_set(err, PB_EIO, NULL, 0, 0, "write error on the result");
    }
    pb_strbuf_free(&h1);
    pb_strbuf_free(&h2);
    pb_strbuf_free(&h3);
    if (res_ok)
        pb_result_free(&res);
    pb_trace_close(trace);
    free(params);
    return rc;
}

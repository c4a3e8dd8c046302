/*
 * joint_callgraph.c - joint: the call-graph file a user may give (the
 * `callgraph` option: lines "CALLER SERVICE CALLEE..."), read into the
 * links joint may use; split from joint.c.
 */
#include "joint_int.h"
#include "pb_files.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE JOINT_NONE

/* call graph file: lines "CALLER SERVICE CALLEE..." */

/* A name of the call-graph file: its node, or NONE (counted, the first
 * one kept for the warning). */
static uint32_t cg_node(joint *s, const char *name, long ln)
{
    uint32_t a;
    if (pb_strtab_find(s->v.nodes, name, strlen(name), &a))
        return a;
    if (!s->cg_unknown++) {
        snprintf(s->cg_first, sizeof s->cg_first, "%s", name);
        s->cg_first_line = ln;
    }
    return NONE;
}

#define CG_LINE_MAX (1 << 20)

int joint_read_callgraph(joint *s, pb_error *err)
{
    const char *path = s->p.callgraph;
    FILE *f = pb_files_open(path, err);
    if (!f)
        return err->code;
    size_t ncells = s->cnt_off[s->nlinks] / (JOINT_KMAX + 1);
    s->allowed = calloc(ncells + 1, 1);
    if (!s->allowed) {
        if (f != stdin)
            fclose(f);
        return PB_ENOMEM;
    }
    char *line = NULL;
    size_t cap = 0, len = 0;
    long ln = 0;
    int rc = PB_OK, got;
    s->cg_unknown = s->cg_nolink = s->cg_allowed = 0;
    /* a bounded reader: endless or binary input (/dev/zero) is refused at
     * its first NUL or past 1 MiB, never read into memory whole */
    while (rc == PB_OK &&
           (got = pb_files_getline(f, &line, &cap, CG_LINE_MAX, &len)) != 0) {
        ln++;
        if (got == PB_EIO || got == PB_ENOMEM) {
            rc = got == PB_EIO
                     ? pb_error_set(err, PB_EIO, path, ln, 0,
                                    "cannot read: %s", strerror(errno))
                     : PB_ENOMEM;
            break;
        }
        const char *nul = got == 1 ? memchr(line, '\0', len) : NULL;
        if (got == PB_ERANGE || nul) {
            rc = pb_error_set(err, PB_EPARSE, path, ln,
                              nul ? (int)(nul - line) + 1 : 0,
                              "%s; expected lines 'CALLER SERVICE CALLEE...' "
                              "of text", nul ? "a NUL byte (a binary file?)"
                                             : "a line longer than 1 MiB");
            break;
        }
        char *h = strchr(line, '#');
        if (h)
            *h = 0;
        char *save = NULL;
        char *t0 = strtok_r(line, " \t\r\n", &save);
        if (!t0)
            continue;
        char *t1 = strtok_r(NULL, " \t\r\n", &save);
        if (!t1) {
            rc = pb_error_set(err, PB_EPARSE, path, ln, 1,
                              "one name \"%s\"; expected a line 'CALLER SERVICE "
                              "CALLEE...' (at least caller and service)", t0);
            break;
        }
        uint32_t a = cg_node(s, t0, ln), b = cg_node(s, t1, ln);
        uint32_t e = a == NONE || b == NONE
                         ? NONE
                         : joint_hmap_get(&s->linkmap, ((uint64_t)a << 32) | b);
        if (a != NONE && b != NONE && e == NONE)
            s->cg_nolink++;
        /* every callee is looked at (and an unknown one counted), however
         * many a line names */
        for (char *t = strtok_r(NULL, " \t\r\n", &save); t;
             t = strtok_r(NULL, " \t\r\n", &save)) {
            uint32_t c = cg_node(s, t, ln);
            if (c == NONE || e == NONE)
                continue;
            uint32_t l = joint_hmap_get(&s->linkmap, ((uint64_t)b << 32) | c);
            if (l == NONE)
                continue;
            s->allowed[s->cnt_off[e] / (JOINT_KMAX + 1) + s->link_local[l]] = 1;
            s->cg_allowed++;
        }
    }
    if (rc == PB_OK && ferror(f))
        rc = pb_error_set(err, PB_EIO, path, ln, 0, "read error");
    if (rc == PB_OK && !s->cg_allowed)
        rc = pb_error_set(err, PB_EINVAL, path, 0, 0,
                          "allows no call of the trace (%zu names that are no "
                          "node of it%s%s%s); expected lines 'CALLER SERVICE "
                          "CALLEE...' naming the trace's services",
                          s->cg_unknown, s->cg_unknown ? ", the first \"" : "",
                          s->cg_unknown ? s->cg_first : "", s->cg_unknown ? "\"" : "");
    free(line);
    if (f != stdin)
        fclose(f);
    return rc;
}

/*
 * mt_label.h - `label` lines of a maketrace config: the attr and size an
 * observer sees on a link (mt_label.c; docs/maketrace.md "Labels").
 */
#ifndef MT_LABEL_H
#define MT_LABEL_H

#include <gsl/gsl_rng.h>

#include "mt_internal.h"
#include "pb_trace.h"

struct parser;

/* Parse one `label` line at the parser's position (its first token is
 * "label") into p->c.  Returns PB_OK or PB_EPARSE / PB_ENOMEM with the
 * error naming line and column. */
int mt_parse_label(struct parser *p);

/* The columns the labels of c fill: PB_COL_ATTR, PB_COL_SIZE or 0. */
unsigned mt_label_columns(const mt_config *c);

/* Set o->attr and o->size from the first label line matching m (src, dst
 * and type by name in names); none: attr 0, size PB_SIZE_NONE.  Sizes are
 * drawn from rng.  Returns PB_OK or PB_ENOMEM. */
int mt_label_apply(const mt_config *c, gsl_rng *rng, pb_names *names, const pb_msg *m,
                   pb_obs *o);

#endif

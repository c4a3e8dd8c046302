#include "pb_version.h"

/* PB_VERSION_STRING and PB_GIT_COMMIT: written by the Makefile into
 * $(BUILD)/gen/pb_version_gen.h (rewritten only when they change, so that
 * a new commit recompiles this file alone). */
#include "pb_version_gen.h"

#ifndef PB_VERSION_STRING
#define PB_VERSION_STRING "0.9.0"
#endif
#ifndef PB_GIT_COMMIT
#define PB_GIT_COMMIT ""
#endif

const char *pb_version(void) { return PB_VERSION_STRING; }

const char *pb_version_commit(void) { return PB_GIT_COMMIT; }

const char *pb_version_full(void)
{
    return PB_GIT_COMMIT[0] ? PB_VERSION_STRING " (git " PB_GIT_COMMIT ")"
                            : PB_VERSION_STRING;
}

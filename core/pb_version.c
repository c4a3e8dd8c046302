#include "pb_version.h"

/* PB_VERSION_STRING and PB_GIT_COMMIT: written by the Makefile into
 * $(BUILD)/gen/pb_version_gen.h (rewritten only when they change, so that
 * a new commit recompiles this file alone).  A compile outside the
 * Makefile (tests/sh/test_no_recursion.sh) gets the fallbacks below. */
#if defined(__has_include)
#if __has_include("pb_version_gen.h")
#include "pb_version_gen.h"
#endif
#endif

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

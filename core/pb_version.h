/*
 * pb_version.h - which pathbench this is: the release version and, when it
 * was built from a git checkout, the commit (baked in at build time by the
 * Makefile's generated pb_version_gen.h; docs/install.md).
 */
#ifndef PB_VERSION_H
#define PB_VERSION_H

/* The release version, e.g. "0.9.0".  A static string. */
const char *pb_version(void);

/* The git commit the library was built from (abbreviated, "-dirty" when
 * the work tree had changes), or "" when it was not built in a git
 * checkout.  A static string. */
const char *pb_version_commit(void);

/* "0.9.0 (git 3cbcfce)", or "0.9.0" without a commit.  A static string. */
const char *pb_version_full(void);

#endif

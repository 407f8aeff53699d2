// The one thing the build tells the program: which commit it was built from. A C macro, because
// `swift build -Xcc -D…` can hand a C file a string and a clean checkout needs no generated file:
// without the macro the commit is "" and `swiftdash --version` says it is a development build.
#include "DashBuildInfo.h"

#ifndef SWIFTDASH_COMMIT
#define SWIFTDASH_COMMIT ""
#endif

const char *swiftdash_build_commit(void) { return SWIFTDASH_COMMIT; }

#ifndef DASH_BUILD_INFO_H
#define DASH_BUILD_INFO_H

/// The git commit swiftdash was built from, as `make` passes it
/// (`-Xcc -DSWIFTDASH_COMMIT='"abc1234"'`); "" for a plain `swift build`.
const char *swiftdash_build_commit(void);

#endif

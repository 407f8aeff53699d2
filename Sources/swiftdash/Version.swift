import DashBuildInfo

/// swiftdash's version: written here and nowhere else. The Makefile reads it from this line (the
/// package's name and control file, the man pages), and CHANGELOG.md says what each version brought.
let swiftdashVersion = "0.5.0"

/// The commit the binary was built from: `make` passes it (`git describe`), a plain `swift build`
/// has none.
let buildCommit: String? = {
    let commit = String(cString: swiftdash_build_commit())
    return commit.isEmpty ? nil : commit
}()

/// What `swiftdash --version` prints: `swiftdash 0.5.0 (commit 1a2b3c4, extension protocol 1)`.
let versionText =
    "swiftdash \(swiftdashVersion) (\(buildCommit.map { "commit \($0)" } ?? "development build, commit unknown"), "
    + "extension protocol 1)"

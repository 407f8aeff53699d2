#!/usr/bin/env bash
# `make install-files` and `make uninstall` without a release build: stand-in programs, man pages
# and completions are staged in a scratch folder (BIN= and STAGE= point there). Run by
# SwiftdashCLITests.InstallManifestTests (the README's test command) and by hand:
#
#   bash Tests/package/install-uninstall.sh
#
# What it shows (issue 37, point 5): install writes a manifest of every file it wrote; uninstall
# removes exactly those (and the folders install made, when empty), nothing else of the same
# name pattern (a swiftdash.notes.1 of the user's stays); a PREFIX or DESTDIR with spaces or
# glob characters works and touches no other prefix; a relative PREFIX or one with a newline or
# a $ is refused with a message, and so is an uninstall with no manifest.
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=$(mktemp -d -t 'swiftdash install.XXXXXX')
trap 'rm -rf "$scratch"' EXIT
passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAILED: $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }

# The stand-ins of a build.
bin=$scratch/built/bin stage=$scratch/built/stage
mkdir -p "$bin" "$stage/man" "$stage/completions"
for p in swiftdash swiftdash-fetch; do printf '#!/bin/sh\necho %s\n' "$p" > "$bin/$p"; chmod 755 "$bin/$p"; done
for m in swiftdash.1 swiftdash.render.1 swiftdash-fetch.1; do echo ".Dd $m" > "$stage/man/$m"; done
printf '#!/bin/bash\ncomplete -F _swiftdash swiftdash\n' > "$stage/completions/swiftdash.bash"
echo '#compdef swiftdash' > "$stage/completions/_swiftdash"
echo 'complete -c swiftdash' > "$stage/completions/swiftdash.fish"
mk() { make --no-print-directory "$@" BIN="$bin" STAGE="$stage"; }

installed="bin/swiftdash bin/swiftdash-fetch share/man/man1/swiftdash.1 share/man/man1/swiftdash.render.1
share/man/man1/swiftdash-fetch.1 share/bash-completion/completions/swiftdash share/zsh/site-functions/_swiftdash
share/fish/vendor_completions.d/swiftdash.fish share/swiftdash/themes/dark.yaml share/swiftdash/install-manifest.txt
share/swiftdash/sdk/Package.swift share/swiftdash/sdk/Sources/SwiftdashKit/Widget.swift
share/swiftdash/sdk/Sources/DashWidgets/Trust/$(basename "$(ls Sources/DashWidgets/Trust/*.swift | head -1)")
share/swiftdash/sdk/Sources/DashUnixSocket/$(basename "$(ls Sources/DashUnixSocket/*.swift | head -1)")
share/swiftdash/sdk/Sources/Frameworks/WidgetKit/$(basename "$(ls Sources/Frameworks/WidgetKit/*.swift | head -1)")
share/swiftdash/sdk/Sources/Frameworks/OSLog/$(basename "$(ls Sources/Frameworks/OSLog/*.swift | head -1)")"

# 1. A PREFIX with a space and glob characters, under a DESTDIR with a space; beside it, files of
#    the user's that share names or patterns with swiftdash's, and another prefix's binary.
dest="$scratch/dest dir"
prefix='/opt/My Tools/o*[a]?'
mkdir -p "$dest/opt/My Tools/other/bin" "$dest/opt/My/bin" "$scratch/Tools/bin" "$dest$prefix/share/man/man1"
echo mine > "$dest$prefix/share/man/man1/swiftdash.notes.1"
echo other > "$dest/opt/My Tools/other/bin/swiftdash"
echo my > "$dest/opt/My/bin/swiftdash"
echo relative > "$scratch/Tools/bin/swiftdash"
mk install-files DESTDIR="$dest" PREFIX="$prefix" > "$scratch/install.log"
for f in $installed; do check "install wrote $f under '$prefix'" test -s "$dest$prefix/$f"; done
check "the bash completion lost its #! line" test "$(head -c 2 "$dest$prefix/share/bash-completion/completions/swiftdash")" != '#!'
manifest="$dest$prefix/share/swiftdash/install-manifest.txt"
check "the manifest names the binary without DESTDIR" grep -qxF "$prefix/bin/swiftdash" "$manifest"
check "the manifest does not name the user's swiftdash.notes.1" bash -c '! grep -q notes "$1"' _ "$manifest"
check "the manifest names the folders install made" grep -qxF "$prefix/share/swiftdash/themes/" "$manifest"
sdkfiles=$(find Sources/SwiftdashKit Sources/DashWidgets Sources/DashUnixSocket Sources/DashCore Sources/DashFiles \
  Sources/DashActivities Sources/DashActivityFiles Sources/Frameworks Sources/PreviewMacros -type f | wc -l)
check "the manifest names every SDK source ($sdkfiles) and its Package.swift" \
  test "$(grep -F "$prefix/share/swiftdash/sdk/" "$manifest" | grep -vc '/$')" = $((sdkfiles + 1))
check "the manifest names the SDK's folders" grep -qxF "$prefix/share/swiftdash/sdk/Sources/DashWidgets/Trust/" "$manifest"
check "the SDK's Package.swift is Sources/Install/sdk-Package.swift" cmp -s Sources/Install/sdk-Package.swift "$dest$prefix/share/swiftdash/sdk/Package.swift"
check "the manifest does not name a folder that was there" bash -c '! grep -qxF "$1/share/man/man1/" "$2"' _ "$prefix" "$manifest"
# Installed twice: still one line each. An SDK source an earlier install wrote and this one does
# not (a file renamed since) is gone, or every widget would compile it.
echo 'let stale = 1' > "$dest$prefix/share/swiftdash/sdk/Sources/SwiftdashKit/Stale.swift"
echo "$prefix/share/swiftdash/sdk/Sources/SwiftdashKit/Stale.swift" >> "$manifest"
mk install-files DESTDIR="$dest" PREFIX="$prefix" > /dev/null
check "a second install removed an SDK file the first wrote and it does not" \
  test ! -e "$dest$prefix/share/swiftdash/sdk/Sources/SwiftdashKit/Stale.swift"
check "a second install keeps one line per file" test "$(grep -cxF "$prefix/bin/swiftdash" "$manifest")" = 1
check "a second install keeps the folders the first made" grep -qxF "$prefix/share/swiftdash/" "$manifest"
(cd "$scratch" && make --no-print-directory -C "$OLDPWD" uninstall DESTDIR="$dest" PREFIX="$prefix" \
  BIN="$bin" STAGE="$stage") > "$scratch/uninstall.log"
for f in $installed; do check "uninstall removed $f" test ! -e "$dest$prefix/$f"; done
check "uninstall kept the user's swiftdash.notes.1" test -s "$dest$prefix/share/man/man1/swiftdash.notes.1"
check "uninstall kept the man1 folder that was there" test -d "$dest$prefix/share/man/man1"
check "uninstall removed the folders install made" test ! -e "$dest$prefix/bin" -a ! -e "$dest$prefix/share/swiftdash"
check "uninstall kept another prefix's binary (o* is not a pattern)" test -s "$dest/opt/My Tools/other/bin/swiftdash"
check "uninstall kept /opt/My (the space split nothing)" test -s "$dest/opt/My/bin/swiftdash"
check "uninstall kept a relative Tools/bin/swiftdash" test -s "$scratch/Tools/bin/swiftdash"

# 2. Without DESTDIR, straight into a prefix of spaces.
plain="$scratch/plain prefix"
mk install-files PREFIX="$plain" > /dev/null
check "install without DESTDIR wrote the binary" test -x "$plain/bin/swiftdash"
touch "$plain/share/swiftdash/themes/mine.yaml"
mk uninstall PREFIX="$plain" > "$scratch/uninstall2.log"
check "uninstall without DESTDIR removed the binary" test ! -e "$plain/bin/swiftdash"
check "a file the user put in the themes folder stays, and its folder" test -f "$plain/share/swiftdash/themes/mine.yaml"
check "uninstall said it kept the folder" grep -q "kept .*themes/: not empty" "$scratch/uninstall2.log"
check "the prefix made by install is kept while not empty" test -d "$plain"

# 3. Refusals, each with a message and nothing written or removed.
refused() { # refused WHAT MESSAGE ARGS...
  local what=$1 message=$2; shift 2
  if mk "$@" > "$scratch/out" 2>&1; then fail "$what: accepted"; return; fi
  if grep -qF "$message" "$scratch/out"; then ok "$what: refused ($(grep -F "$message" "$scratch/out" | head -1))"
  else fail "$what: said $(cat "$scratch/out")"; fi
}
refused "a relative PREFIX" "is not an absolute path" install-files PREFIX="Tools"
refused "a relative PREFIX at uninstall" "is not an absolute path" uninstall PREFIX="My Tools"
check "nothing was written for a relative PREFIX" test ! -e "My Tools" -a ! -e "Tools"
refused "a PREFIX with a newline" "contains a newline" install-files DESTDIR="$dest" PREFIX="/opt/a
b"
refused "a PREFIX with a \$" "cannot hold a \$" install-files DESTDIR="$dest" PREFIX='/opt/$HOME'
refused "a PREFIX with .." "has a . or .." install-files DESTDIR="$dest" PREFIX=/opt/../etc
refused "an uninstall with no manifest" "no install manifest" uninstall DESTDIR="$dest" PREFIX=/opt/none
check "another prefix's binary is still there" test -s "$dest/opt/My Tools/other/bin/swiftdash"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

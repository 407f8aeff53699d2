#!/usr/bin/env bash
# Checks the Debian package `make deb` built, and `make install` / `make uninstall`, as a user
# would meet them (run by `make check-package` and .ci/run; needs the release build in .build).
#
#   bash Tests/package/check.sh .build/deb/swiftdash_VERSION_ARCH.deb COMMIT
#
# 1. lintian reports no errors (when lintian is installed);
# 2. the package unpacked into a scratch root (dpkg-deb -x): the control file's version is the
#    one of Version.swift and Depends names the C and ncurses libraries; the installed
#    `swiftdash --version` names the version and the commit; `render` draws the home screen;
#    Installed-Size is at most 30 MB (issue 35) and swiftdash-fetch is a link to swiftdash that
#    answers a request as the helper (libcurl opened on demand, Depends naming it);
#    it finds the themes in /usr/share/swiftdash/themes when started through PATH; `man -l`
#    shows its page; the completion files parse in their shells (those installed);
# 3. `make install PREFIX=… DESTDIR=…` puts every file in its place and `make uninstall` takes
#    them all away again.
set -euo pipefail
cd "$(dirname "$0")/../.."
deb=${1:?usage: check.sh DEB COMMIT}
commit=${2:?usage: check.sh DEB COMMIT}
version=$(sed -n 's/^let swiftdashVersion = "\(.*\)"$/\1/p' Sources/swiftdash/Version.swift)
scratch=$(mktemp -d -t swiftdash-package.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAILED: $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }

# 1. lintian
if command -v lintian > /dev/null; then
  if lintian --fail-on error "$deb" > "$scratch/lintian" 2>&1; then
    ok "lintian: no errors ($(grep -c '^W:' "$scratch/lintian" || true) warnings)"
  else
    fail "lintian:"; cat "$scratch/lintian"
  fi
else
  echo "skipped: lintian is not installed"
fi

# 2. The package in a scratch root.
root=$scratch/root
dpkg-deb -x "$deb" "$root"
control=$(dpkg-deb -f "$deb")
check "the package's version is $version" grep -qx "Version: $version" <<< "$control"
check "Depends names libc6 and the ncurses libraries" \
  grep -Eq '^Depends: .*libc6.*' <<< "$control"
grep -Eq '^Depends: .*libncursesw6' <<< "$control" && grep -Eq '^Depends: .*libtinfo6' <<< "$control" \
  && ok "Depends names libncursesw6 and libtinfo6" || fail "Depends: $(grep '^Depends' <<< "$control")"
check "Depends names libcurl (opened on demand, not in the binary's header)" grep -Eq '^Depends: .*libcurl4' <<< "$control"
size=$(sed -n 's/^Installed-Size: //p' <<< "$control")
check "Installed-Size is $size kB, at most 30,000 (30 MB; issue 35)" test "$size" -le 30000
check "/usr/bin/swiftdash-fetch is a link to swiftdash (one program)" \
  test "$(readlink "$root/usr/bin/swiftdash-fetch")" = swiftdash
check "the copyright file is there" test -s "$root/usr/share/doc/swiftdash/copyright"
for f in usr/bin/swiftdash usr/bin/swiftdash-fetch usr/share/swiftdash/themes/dark.yaml \
  usr/share/swiftdash/themes/light.yaml usr/share/man/man1/swiftdash.1.gz usr/share/man/man1/swiftdash.render.1.gz \
  usr/share/bash-completion/completions/swiftdash usr/share/zsh/vendor-completions/_swiftdash \
  usr/share/fish/vendor_completions.d/swiftdash.fish; do
  check "/$f is installed" test -s "$root/$f"
done

home=$scratch/home
mkdir -p "$home"
run() { env -i HOME="$home" TZ=UTC LANG=C.UTF-8 PATH="$root/usr/bin:/usr/bin:/bin" "$@"; }
v=$(run swiftdash --version)
check "swiftdash --version says '$v'" test "$v" = "swiftdash $version (commit $commit, extension protocol 1)"
# Started by the link's name it is the helper: a request to a closed port on this machine comes back
# as JSON saying so, which takes libcurl loaded and working (nothing leaves the machine).
request='{"version":1,"request":{"method":"GET","url":"http://127.0.0.1:1/","headers":{},"secretHeaders":[],"secrets":[]},"connectTimeout":5,"totalTimeout":10,"maxBytes":1000}'
answer=$(run swiftdash-fetch <<< "$request" 2>&1 || true)
check "swiftdash-fetch answers as the helper ($answer)" grep -q '"kind":"unreachable"' <<< "$answer"
screen=$(run swiftdash render --size 80x24 --at 2026-11-23T09:30:00Z)
check "the installed swiftdash renders the home screen" grep -q "09:30" <<< "$screen"
# The themes folder of the package is found from the binary's place, started through PATH:
# a theme only that folder has is used, and one nobody has is refused.
sed 's/^name: .*/name: packaged/' themes/light.yaml > "$root/usr/share/swiftdash/themes/packaged.yaml"
check "a theme in /usr/share/swiftdash/themes is found" run sh -c "swiftdash render --theme packaged > /dev/null"
if run swiftdash render --theme nowhere > /dev/null 2>&1; then fail "an unknown theme was accepted"; else ok "an unknown theme is refused"; fi
if command -v man > /dev/null; then
  page=$(MANWIDTH=80 MANPAGER=cat man -l "$root/usr/share/man/man1/swiftdash.1.gz" 2> "$scratch/man.err")
  check "man -l shows swiftdash(1) with its subcommands" grep -q "render" <<< "$page"
  check "the manual carries the version" grep -q "swiftdash $version" <<< "$page"
  check "man -l says nothing on standard error" test ! -s "$scratch/man.err"
else
  echo "skipped: man is not installed"
fi
[ -x /usr/bin/bash ] && check "bash -n on the bash completions" bash -n "$root/usr/share/bash-completion/completions/swiftdash"
command -v zsh > /dev/null && check "zsh -n on the zsh completions" zsh -n "$root/usr/share/zsh/vendor-completions/_swiftdash"
command -v fish > /dev/null && check "fish --no-execute on the fish completions" \
  fish --no-execute "$root/usr/share/fish/vendor_completions.d/swiftdash.fish"

# 3. make install / make uninstall into a folder, without root.
dest=$scratch/dest
make --no-print-directory install-files DESTDIR="$dest" PREFIX=/opt/sd > "$scratch/install.log"
expected="bin/swiftdash bin/swiftdash-fetch share/bash-completion/completions/swiftdash
share/fish/vendor_completions.d/swiftdash.fish share/man/man1/swiftdash.1 share/swiftdash/themes/dark.yaml
share/swiftdash/themes/light.yaml share/zsh/site-functions/_swiftdash"
for f in $expected; do check "make install put $f in place" test -s "$dest/opt/sd/$f"; done
check "make install put one man page per subcommand" test "$(ls "$dest/opt/sd/share/man/man1" | wc -l)" -ge 10
check "the installed binary finds its themes under PREFIX/share" \
  env -i HOME="$home" PATH="$dest/opt/sd/bin:/usr/bin:/bin" sh -c \
  "cp '$root/usr/share/swiftdash/themes/packaged.yaml' '$dest/opt/sd/share/swiftdash/themes/' && swiftdash render --theme packaged > /dev/null"
rm -f "$dest/opt/sd/share/swiftdash/themes/packaged.yaml"
make --no-print-directory uninstall DESTDIR="$dest" PREFIX=/opt/sd > "$scratch/uninstall.log"
left=$(find "$dest" -type f)
check "make uninstall took every file away${left:+ (left: $left)}" test -z "$left"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

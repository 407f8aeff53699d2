#!/bin/sh
# `make install-files` and `make uninstall` (the Makefile sets the variables below):
#
#   sh Sources/Install/install.sh install     copies the built files into place and writes a manifest,
#                                       DATADIR/swiftdash/install-manifest.txt, naming every file
#                                       it wrote and every folder it made (those end in /)
#   sh Sources/Install/install.sh uninstall   removes exactly the manifest's files, then the folders it
#                                       names that are empty, then the manifest; nothing else
#
# Paths travel in the environment, never through a shell word, so a PREFIX or DESTDIR with
# spaces or glob characters (`My Tools`, `o*`) is used as it is; one with a newline is refused.
# The manifest lists paths without DESTDIR: uninstall with the same DESTDIR finds them.
#
#   SD_DESTDIR, SD_BINDIR, SD_DATADIR, SD_MANDIR, SD_BASHCOMPDIR, SD_ZSHCOMPDIR, SD_FISHCOMPDIR
#   SD_BIN (the built programs), SD_STAGE (man pages and completions), SD_INSTALL (install(1)),
#   SD_MANIFEST (no: write none, for the Debian package, which dpkg keeps track of)
set -eu

mode=${1:?usage: install.sh install|uninstall}
dest=${SD_DESTDIR-}
themedir=$SD_DATADIR/swiftdash/themes
# The SDK a widget package of `swiftdash new-widget` builds against: SwiftdashKit and the modules
# it needs, as a Swift package (Sources/Install/sdk-Package.swift is its Package.swift).
sdk=$SD_DATADIR/swiftdash/sdk
sdkmodules="SwiftdashKit DashWidgets DashUnixSocket DashCore DashFiles DashActivities DashActivityFiles Frameworks PreviewMacros"
manifest=$SD_DATADIR/swiftdash/install-manifest.txt
nl='
'

fail() {
  echo "swiftdash: $*" >&2
  exit 1
}

# Every folder is an absolute path in one line: a relative PREFIX would land wherever make runs
# (and uninstall would remove files there), a newline would split a manifest line in two.
for pair in "BINDIR=$SD_BINDIR" "DATADIR=$SD_DATADIR" "MANDIR=$SD_MANDIR" "BASHCOMPDIR=$SD_BASHCOMPDIR" \
  "ZSHCOMPDIR=$SD_ZSHCOMPDIR" "FISHCOMPDIR=$SD_FISHCOMPDIR"; do
  name=${pair%%=*}
  value=${pair#*=}
  case $value in
    *"$nl"*) fail "$name contains a newline: choose a PREFIX without one" ;;
    /*) ;;
    *) fail "$name='$value' is not an absolute path: PREFIX (and $name) must start with /" ;;
  esac
  case /$value/ in
    */../* | */./*) fail "$name='$value' has a . or .. in it: give the folder plainly" ;;
  esac
done
case $dest in *"$nl"*) fail "DESTDIR contains a newline: choose one without" ;; esac

# The folders a path needs, outermost first, that do not exist yet under DESTDIR: made one by
# one and noted, so uninstall removes the ones it made and no others.
made=""
make_dir() {
  target=$1
  rest=${target#/}
  path=""
  while [ -n "$rest" ]; do
    part=${rest%%/*}
    if [ "$part" = "$rest" ]; then rest=""; else rest=${rest#*/}; fi
    [ -n "$part" ] || continue
    path=$path/$part
    if [ ! -d "$dest$path" ]; then
      "$SD_INSTALL" -d -m 755 "$dest$path"
      made=$made$path/$nl
    fi
  done
}

written=""
put() { # put MODE SOURCE FOLDER [NAME]
  name=${4:-$(basename "$2")}
  make_dir "$3"
  "$SD_INSTALL" -m "$1" "$2" "$dest$3/$name"
  written=$written$3/$name$nl
}

case $mode in
install)
  put 755 "$SD_BIN/swiftdash" "$SD_BINDIR"
  # swiftdash-fetch is swiftdash started by that name (one program, decision 62): a link beside
  # it, not a second copy of the same 29 MB.
  rm -f "$dest$SD_BINDIR/swiftdash-fetch"
  ln -s swiftdash "$dest$SD_BINDIR/swiftdash-fetch"
  written=$written$SD_BINDIR/swiftdash-fetch$nl
  for theme in themes/*.yaml; do put 644 "$theme" "$themedir"; done
  # A source file an earlier install put in the SDK and this version no longer has would be
  # compiled into every widget: the files an earlier install wrote there go first.
  if [ -f "$dest$manifest" ]; then
    while IFS= read -r line; do
      case $line in */) ;; "$sdk"/*) rm -f "$dest$line" ;; esac
    done < "$dest$manifest"
  fi
  put 644 Sources/Install/sdk-Package.swift "$sdk" Package.swift
  for module in $sdkmodules; do
    for f in Sources/"$module"/* Sources/"$module"/*/* Sources/"$module"/*/*/*; do
      if [ -f "$f" ]; then put 644 "$f" "$sdk/${f%/*}"; fi
    done
  done
  [ -f "$dest$sdk/Sources/SwiftdashKit/Widget.swift" ] || fail "the SDK was not installed: no Sources/SwiftdashKit"
  for page in "$SD_STAGE"/man/*.1; do
    [ -f "$page" ] || fail "no man pages in $SD_STAGE/man: run make first"
    put 644 "$page" "$SD_MANDIR"
  done
  # bash-completion sources the file: the script's #! line goes.
  sed '1{/^#!/d}' "$SD_STAGE/completions/swiftdash.bash" > "$SD_STAGE/completions/swiftdash.sourced"
  put 644 "$SD_STAGE/completions/swiftdash.sourced" "$SD_BASHCOMPDIR" swiftdash
  put 644 "$SD_STAGE/completions/_swiftdash" "$SD_ZSHCOMPDIR"
  put 644 "$SD_STAGE/completions/swiftdash.fish" "$SD_FISHCOMPDIR"
  [ "${SD_MANIFEST:-yes}" = no ] && exit 0
  make_dir "$SD_DATADIR/swiftdash"
  # An earlier install's lines stay (a file this version no longer writes, a folder made then):
  # uninstall removes what any install there wrote.
  old=""
  if [ -f "$dest$manifest" ]; then old=$(grep -v '^#' "$dest$manifest" || true)$nl; fi
  {
    echo "# Written by \`make install\` of swiftdash: every file it wrote, and every folder it made (ending in /)."
    echo "# \`make uninstall\` with the same PREFIX and DESTDIR removes exactly these."
    printf '%s' "$old$written$manifest$nl$made" | awk 'NF && !seen[$0]++'
  } > "$dest$manifest.new"
  chmod 644 "$dest$manifest.new"
  mv -f "$dest$manifest.new" "$dest$manifest"
  echo "installed; the list of what was written: $dest$manifest"
  ;;
uninstall)
  if [ ! -f "$dest$manifest" ]; then
    echo "swiftdash: no install manifest at $dest$manifest: nothing removed." >&2
    echo "  Give make uninstall the PREFIX (and DESTDIR) make install had. A swiftdash installed before" >&2
    echo "  the manifest is removed by hand; of its files these are there:" >&2
    for f in "$SD_BINDIR/swiftdash" "$SD_BINDIR/swiftdash-fetch" "$themedir" "$sdk" "$SD_MANDIR/swiftdash.1" \
      "$SD_BASHCOMPDIR/swiftdash" "$SD_ZSHCOMPDIR/_swiftdash" "$SD_FISHCOMPDIR/swiftdash.fish"; do
      [ -e "$dest$f" ] && echo "    $dest$f" >&2
    done
    exit 1
  fi
  # Every line is checked before anything goes: an absolute path, no . or .. in it.
  while IFS= read -r line; do
    case $line in '' | '#'*) continue ;; esac
    case $line in
      /*) ;;
      *) fail "$dest$manifest: '$line' is not an absolute path; nothing removed" ;;
    esac
    case /$line/ in */../* | */./* | //) fail "$dest$manifest: '$line' has a . or ..; nothing removed" ;; esac
  done < "$dest$manifest"
  # Files first (the manifest itself last), then the folders made, innermost first, when empty.
  while IFS= read -r line; do
    case $line in '' | '#'* | */ | "$manifest") continue ;; esac
    if [ -f "$dest$line" ] || [ -L "$dest$line" ]; then rm -f "$dest$line" && echo "removed $dest$line"; fi
  done < "$dest$manifest"
  dirs=$(grep '/$' "$dest$manifest" | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2-)
  rm -f "$dest$manifest"
  echo "removed $dest$manifest"
  printf '%s\n' "$dirs" | while IFS= read -r dir; do
    [ -n "$dir" ] || continue
    if [ -d "$dest$dir" ]; then
      if rmdir "$dest$dir" 2> /dev/null; then echo "removed $dest$dir"; else echo "kept $dest$dir: not empty"; fi
    fi
  done
  ;;
*) fail "usage: install.sh install|uninstall" ;;
esac

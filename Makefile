# swiftdash: build, install and package.
#
#   make                      the release build, completions and man pages
#   make icu-data             rewrites the ICU data the build links (Sources/CICUData; after a toolchain update)
#   make measure              runs the footprint suite beside its peers and rewrites docs/measuring.md
#   make install              into /usr/local (PREFIX=~/.local needs no root; DESTDIR for packagers),
#                             with the SDK new-widget's packages build against (PREFIX/share/swiftdash/sdk)
#   make uninstall            removes what install wrote (its manifest; same PREFIX and DESTDIR)
#   make deb                  .build/deb/swiftdash_VERSION_ARCH.deb, checked by lintian when it is installed
#   make check-package        after make deb: lintian, the .deb in a scratch root, install/uninstall (Tests/package/check.sh)
#
# The release build is the one the project measures (docs/measuring.md): the Swift runtime linked
# statically, and Package.swift's release link flags (lld, the link order, packed relocations).
# swiftdash-fetch, the helper and provider host, is the same program started by that name (decision
# 62): `make install` and the package put a link to swiftdash there, not a second binary.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man/man1
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
THEMEDIR = $(DATADIR)/swiftdash/themes

SWIFT ?= swift
INSTALL ?= install

# The version is written once, in Sources/swiftdash/Version.swift.
VERSION := $(shell sed -n 's/^let swiftdashVersion = "\(.*\)"$$/\1/p' Sources/swiftdash/Version.swift)
# The commit `swiftdash --version` names (with -dirty when the work tree has changes); none outside git.
COMMIT ?= $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && { git diff --quiet HEAD -- 2>/dev/null || c=$$c-dirty; echo $$c; })
# Dates in the man pages and the package come from the commit, so a rebuild gives the same files.
DATE ?= $(shell git log -1 --format=%cs 2>/dev/null || date -u +%Y-%m-%d)

RELEASE = -c release --static-swift-stdlib -Xcc '-DSWIFTDASH_COMMIT="$(COMMIT)"'
BIN = .build/release
STAGE = .build/dist
SHELLS = bash zsh fish

ARCH = $(shell dpkg --print-architecture 2>/dev/null)
DEBROOT = .build/deb/root
DEB = .build/deb/swiftdash_$(VERSION)_$(ARCH).deb
# Whoever builds the package for others sets MAINTAINER (Debian wants a name and a real address).
MAINTAINER ?= swiftdash developers <swiftdash@example.org>

.PHONY: all build completions man install install-files uninstall deb check-package clean-dist icu-data measure
.DELETE_ON_ERROR:

all: build completions man

build:
	@test -n "$(VERSION)" || { echo "no version in Sources/swiftdash/Version.swift" >&2; exit 1; }
	$(SWIFT) build $(RELEASE) --product swiftdash

# The ICU data swiftdash links (3 MB of the toolchain's 34 MB; issue 35): written from the
# toolchain's own lib_FoundationICU.a, so it matches the ICU the build links.
icu-data:
	python3 Sources/CICUData/trim_icu_data.py

# docs/measuring.md from one run of the footprint suite beside its peers (Tests/perf/measure_all.py;
# the peer harness is ../shared/perf). Takes about half an hour.
measure: build
	python3 Tests/perf/measure_all.py

# The scripts ArgumentParser writes for the command tree; ids and kinds are asked of swiftdash
# as you type. Generated with an empty home so nothing of the builder's own setup gets in.
completions: build
	@mkdir -p $(STAGE)/completions $(STAGE)/home
	env HOME=$(CURDIR)/$(STAGE)/home $(BIN)/swiftdash --generate-completion-script bash > $(STAGE)/completions/swiftdash.bash
	env HOME=$(CURDIR)/$(STAGE)/home $(BIN)/swiftdash --generate-completion-script zsh > $(STAGE)/completions/_swiftdash
	env HOME=$(CURDIR)/$(STAGE)/home $(BIN)/swiftdash --generate-completion-script fish > $(STAGE)/completions/swiftdash.fish

# swiftdash.1 and one page per subcommand (swiftdash.render.1, swiftdash.config.set.1, …) from
# ArgumentParser's manual generator, the tool behind its generate-manual plugin. The plugin
# itself would rebuild the whole package without --static-swift-stdlib over this build, so the
# plugin's tool is built (that is what `--help` does) and run on the binary built above.
man: build
	@rm -rf $(STAGE)/man && mkdir -p $(STAGE)/man $(STAGE)/home
	$(SWIFT) package plugin generate-manual --help > /dev/null
	tool=$$(find .build -name generate-manual-tool -type f -perm -u+x | head -n 1); \
	test -n "$$tool" || { echo "generate-manual was not built" >&2; exit 1; }; \
	env HOME=$(CURDIR)/$(STAGE)/home "$$tool" $(BIN)/swiftdash --multi-page --date $(DATE) \
	  --authors 'swiftdash developers' --output-directory $(STAGE)/man
	# The footer names the program and its version (the generator leaves it to the system's name).
	# A blank line of a long discussion becomes the paragraph break mdoc spells .Pp (groff warns).
	sed -i 's/^\.Os$$/.Os swiftdash $(VERSION)/; s/^$$/.Pp/' $(STAGE)/man/*.1
	# The key and widget-settings reference, from the key table and the schemas (no drift).
	env HOME=$(CURDIR)/$(STAGE)/home $(BIN)/swiftdash manual-sections >> $(STAGE)/man/swiftdash.1
	rm -f $(STAGE)/man/swiftdash.manual-sections.1
	printf '%s\n' "$$FETCH_MANUAL" | sed 's/@DATE@/$(DATE)/; s/@VERSION@/$(VERSION)/' > $(STAGE)/man/swiftdash-fetch.1

install: all
	$(MAKE) --no-print-directory install-files

# The paths go to Sources/Install/install.sh in its environment, never through a shell word: a PREFIX
# or DESTDIR with spaces or glob characters is used as it is. A `$` cannot be told from a make
# variable: refused.
INSTALL_MANIFEST ?= yes
install-files uninstall: export SD_DESTDIR = $(DESTDIR)
install-files uninstall: export SD_BINDIR = $(BINDIR)
install-files uninstall: export SD_DATADIR = $(DATADIR)
install-files uninstall: export SD_MANDIR = $(MANDIR)
install-files uninstall: export SD_BASHCOMPDIR = $(BASHCOMPDIR)
install-files uninstall: export SD_ZSHCOMPDIR = $(ZSHCOMPDIR)
install-files uninstall: export SD_FISHCOMPDIR = $(FISHCOMPDIR)
install-files uninstall: export SD_BIN = $(BIN)
install-files uninstall: export SD_STAGE = $(STAGE)
install-files uninstall: export SD_INSTALL = $(INSTALL)
install-files uninstall: export SD_MANIFEST = $(INSTALL_MANIFEST)
DOLLAR_IN_PATHS = $(findstring $$,$(value PREFIX)$(value DESTDIR))

install-files:
	@$(if $(DOLLAR_IN_PATHS),echo 'swiftdash: PREFIX and DESTDIR cannot hold a $$ (make reads it as a variable)' >&2; exit 1)
	@sh Sources/Install/install.sh install

# Removes exactly what install wrote there: the files its manifest
# (DATADIR/swiftdash/install-manifest.txt) lists, and the folders it made when they are empty.
uninstall:
	@$(if $(DOLLAR_IN_PATHS),echo 'swiftdash: PREFIX and DESTDIR cannot hold a $$ (make reads it as a variable)' >&2; exit 1)
	@sh Sources/Install/install.sh uninstall

# The Debian package: the files of `make install` under /usr (zsh's Debian folder), stripped
# binaries, compressed man pages, a machine-readable copyright file, a changelog, and a Depends
# line dpkg-shlibdeps works out from the libraries the binary links, and libcurl, which the helper
# opens when it makes its first request (Sources/CCurlLoader), so no ELF header names it.
deb: all
	rm -rf .build/deb && mkdir -p .build/deb/work/debian
	$(MAKE) --no-print-directory install-files DESTDIR=$(CURDIR)/$(DEBROOT) PREFIX=/usr \
	  ZSHCOMPDIR=/usr/share/zsh/vendor-completions INSTALL_MANIFEST=no
	strip --strip-unneeded --remove-section=.comment --remove-section=.note $(DEBROOT)/usr/bin/swiftdash
	gzip -9n $(DEBROOT)/usr/share/man/man1/*.1
	$(INSTALL) -d $(DEBROOT)/usr/share/doc/swiftdash
	printf '%s\n' "$$DEBIAN_COPYRIGHT" > $(DEBROOT)/usr/share/doc/swiftdash/copyright
	printf '%s\n' 'swiftdash ($(VERSION)) unstable; urgency=medium' '' \
	  '  * Release $(VERSION) (commit $(COMMIT)); see CHANGELOG.md.gz.' '' \
	  " -- $(MAINTAINER)  $$(date -u -R -d '$(DATE) 12:00')" | gzip -9n > $(DEBROOT)/usr/share/doc/swiftdash/changelog.gz
	gzip -9n < CHANGELOG.md > $(DEBROOT)/usr/share/doc/swiftdash/CHANGELOG.md.gz
	$(INSTALL) -d $(DEBROOT)/usr/share/lintian/overrides
	printf '%s\n' "$$LINTIAN_OVERRIDES" > $(DEBROOT)/usr/share/lintian/overrides/swiftdash
	printf 'Source: swiftdash\n\nPackage: swiftdash\nArchitecture: any\n' > .build/deb/work/debian/control
	cd .build/deb/work && dpkg-shlibdeps -O -e../root/usr/bin/swiftdash \
	  | sed -n 's/^shlibs:Depends=//p' > ../depends
	test -s .build/deb/depends
	# The package that has libcurl.so.4 on the machine that builds (libcurl4; libcurl4t64 on newer Debian).
	curl=$$(dpkg -S "*/libcurl.so.4" 2>/dev/null | sed -n 's/:.*//p' | grep -v -- -dev | head -n 1); \
	test -n "$$curl" || { echo "no package has libcurl.so.4 (apt-get install libcurl4-openssl-dev)" >&2; exit 1; }; \
	printf '%s, %s (>= 7.62.0)\n' "$$(cat .build/deb/depends)" "$$curl" > .build/deb/depends
	$(INSTALL) -d $(DEBROOT)/DEBIAN
	# Installed-Size as dpkg-gencontrol reckons it: each file or link its size in whole KiB plus
	# one, each folder one KiB (du's 4 KiB blocks counted the SDK's small sources four times over).
	{ echo 'Package: swiftdash'; \
	  echo 'Version: $(VERSION)'; \
	  echo 'Architecture: $(ARCH)'; \
	  echo 'Maintainer: $(MAINTAINER)'; \
	  echo "Installed-Size: $$(find $(DEBROOT) -mindepth 1 -path $(DEBROOT)/DEBIAN -prune -o \( -type f -o -type l \) -printf 'f %s\n' -o -printf 'o\n' | awk '$$1 == "f" { s += int($$2 / 1024) + 1 } $$1 == "o" { s += 1 } END { print s }')"; \
	  echo "Depends: $$(cat .build/deb/depends)"; \
	  echo 'Section: utils'; \
	  echo 'Priority: optional'; \
	  echo 'Description: home screen of widget tiles for the terminal'; \
	  echo ' swiftdash turns the terminal into a grid of glanceable widget tiles (a clock,'; \
	  echo ' your calendar, coin prices, headlines, the newest commit of a repository, the'; \
	  echo " machine's load, the weather, a to-do list) that keep themselves current, in"; \
	  echo " the model of Apple's WidgetKit: timelines of entries, reload budgets, stacks"; \
	  echo ' that rotate by relevance, deep links into detail panes.'; \
	} > $(DEBROOT)/DEBIAN/control
	cd $(DEBROOT) && find usr -type f -exec md5sum {} + | sort -k2 > DEBIAN/md5sums
	dpkg-deb --root-owner-group -Zxz --build $(DEBROOT) $(DEB)
	@if command -v lintian > /dev/null; then lintian --fail-on error $(DEB); else echo "lintian is not installed: not checked"; fi
	@echo "built $(DEB)"

# swiftdash-fetch has no commands of its own to generate a page from: a short one by hand.
define FETCH_MANUAL
.Dd @DATE@
.Dt SWIFTDASH-FETCH 1
.Os swiftdash @VERSION@
.Sh NAME
.Nm swiftdash-fetch
.Nd the helper that performs swiftdash's HTTP requests
.Sh DESCRIPTION
.Nm
is started by
.Xr swiftdash 1
for its network widgets (news, crypto, weather, commits, calendars by URL), so that
networking and TLS stay out of the home screen's process. It is swiftdash itself, started by
this name (a link to it). It is not meant to be run by hand.
swiftdash looks for it next to its own binary, or where
.Ev SWIFTDASH_FETCH
names it.
.Sh SEE ALSO
.Xr swiftdash 1
endef
export FETCH_MANUAL

# The one lintian error the package would have, and why it stays: Swift packages are linked
# statically, and Yams (home.yaml's parser) builds its own copy of libyaml into the binary.
define LINTIAN_OVERRIDES
# Yams, the YAML parser swiftdash is built with, carries its own copy of libyaml as part of the
# Swift package and links it statically, like every Swift package; there is no shared libyaml
# for it to use.
swiftdash: embedded-library libyaml [usr/bin/swiftdash]
endef
export LINTIAN_OVERRIDES

# The package's copyright file (Debian's machine-readable format). The binaries carry the Swift
# runtime and these packages linked in statically; README.md names them too.
define DEBIAN_COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: swiftdash
Comment: swiftdash is Apache-2.0 (LICENSE in its source). Linked into the binaries
 statically: the Swift standard library, Foundation and Dispatch (Apache-2.0 with
 the Runtime Library Exception), swift-argument-parser and swift-log (Apache-2.0),
 Yams and the libyaml it carries (MIT), and Foundation's ICU data (Unicode-3.0).

Files: *
Copyright: 2026 swiftdash developers
License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this software except in compliance with the License.
 .
 On Debian systems, the complete text of the Apache License, Version 2.0, can
 be found in "/usr/share/common-licenses/Apache-2.0".
endef
export DEBIAN_COPYRIGHT

# After `make deb` (it does not build again).
check-package:
	@test -f $(DEB) || { echo "no $(DEB): run make deb first" >&2; exit 1; }
	bash Tests/package/check.sh $(DEB) $(COMMIT)

clean-dist:
	rm -rf $(STAGE) .build/deb

#!/usr/bin/env bash
# Runs one libFuzzer target over the parsers of outside input (docs/fuzzing.md).
#
#   Tests/fuzz/run.sh feeds                 # until stopped (Ctrl-C) or a finding
#   Tests/fuzz/run.sh home -max_total_time=300
#   Tests/fuzz/run.sh feeds crash-1234abcd  # replay one input
#   Tests/fuzz/run.sh --build               # only build both fuzz binaries
#
# Targets of .build/fuzz/swiftdash-fuzz (DashWidgets, DashBuiltinWidgets):
#   feeds newsapi coingecko coinmarketcap commits ics todo
# Targets of .build/fuzz/swiftdash-fuzz-app (DashApp with Yams, swift-log and the Dash modules):
#   home theme control
# Any further arguments go to libFuzzer. Builds with `swiftc -sanitize=fuzzer,address` (CYaml
# with clang -fsanitize=fuzzer-no-link,address) into .build/fuzz/, module by module, rebuilding
# what changed, under the global build lock when one exists (do not run this script inside
# `flock` on that lock yourself). The seeds (fixtures, Tests/fuzz/seeds/TARGET, themes/) are
# read, never written; new inputs go to .build/fuzz/corpus/TARGET, findings to
# .build/fuzz/findings/TARGET.
set -euo pipefail

cd "$(dirname "$0")/../.."
widget_targets="feeds newsapi coingecko coinmarketcap commits ics todo"
app_targets="home theme control"
usage() {
    echo "usage: Tests/fuzz/run.sh TARGET [libFuzzer options] [inputs to replay]"
    echo "       Tests/fuzz/run.sh --build"
    echo "targets: ${widget_targets// /|}|${app_targets// /|}"
}
target="${1:-}"
case " $widget_targets $app_targets --build " in
    *" $target "*) [ -n "$target" ] && shift ;;
    *) target="" ;;
esac
if [ -z "$target" ]; then
    case "${1:-}" in
        -h|--help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
fi

out=.build/fuzz
mods="$out/modules"
objs="$out/obj"
checkouts=.build/checkouts
mkdir -p "$mods" "$objs"
flags=(-O -g -sanitize=fuzzer,address -parse-as-library -wmo -I "$mods")
link=(-sanitize=fuzzer,address)
# The toolchain's lld links in half a second without gold's 141 warnings about ASan symbols.
command -v ld.lld >/dev/null && link+=(-use-ld=lld)

# True when $1 is missing or anything among the rest is newer than it.
stale() {
    local file=$1
    shift
    [ ! -e "$file" ] || [ -n "$(find "$@" -newer "$file" 2>/dev/null | head -1)" ]
}

# swift_module NAME [-n] DEPS -- SOURCES... [-- FLAGS...]: compiles a module into
# $objs/NAME.o (and, without -n, $mods/NAME.swiftmodule) when a source or a dependency's
# object changed. -n: no module interface (the module holds a libFuzzer entry point).
swift_module() {
    local name=$1
    shift
    local emit=1
    if [ "$1" = -n ]; then emit=0; shift; fi
    local deps=() sources=() extra=()
    while [ "$1" != -- ]; do deps+=("$objs/$1.o"); shift; done
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do sources+=("$1"); shift; done
    [ $# -gt 0 ] && shift && extra=("$@")
    stale "$objs/$name.o" "${sources[@]}" "${deps[@]}" || return 0
    needed=1
    [ $dry = 1 ] && return 0
    echo "  $name" >&2
    local emitting=()
    [ $emit = 1 ] && emitting=(-emit-module -emit-module-path "$mods/$name.swiftmodule")
    local module_name=$name
    case $name in *-fuzz) module_name=${name%-fuzz} ;; esac
    swiftc "${flags[@]}" "${extra[@]}" -module-name "$module_name" "${emitting[@]}" -c "${sources[@]}" \
        -o "$objs/$name.o"
}

build_widgets() {
    swift_module DashWidgets -- $(find Sources/DashWidgets -name '*.swift') -- -swift-version 6
    # FuzzHarness and FuzzMain compiled into DashBuiltinWidgets (they use its internals).
    swift_module DashBuiltinWidgets-fuzz -n DashWidgets -- $(find Sources/DashBuiltinWidgets -name '*.swift') \
        Tests/DashBuiltinWidgetsTests/FuzzHarness.swift Tests/fuzz/FuzzMain.swift -- -swift-version 6 -D FUZZING
    if stale "$out/swiftdash-fuzz" "$objs/DashWidgets.o" "$objs/DashBuiltinWidgets-fuzz.o"; then
        needed=1
        [ $dry = 1 ] && return 0
        swiftc "${link[@]}" "$objs/DashWidgets.o" "$objs/DashBuiltinWidgets-fuzz.o" \
            -o "$out/swiftdash-fuzz"
    fi
}

build_app() {
    local yams="$checkouts/Yams/Sources" log="$checkouts/swift-log/Sources/Logging"
    if [ ! -d "$yams" ] || [ ! -d "$log" ]; then
        needed=1
        [ $dry = 1 ] && return 0
        echo "  resolving packages (Yams, swift-log)" >&2
        swift package resolve >&2
    fi
    local cyaml_inc="$yams/CYaml/include"
    mkdir -p "$objs/CYaml"
    local c cyaml=()
    for c in "$yams"/CYaml/src/*.c; do
        local o="$objs/CYaml/$(basename "$c" .c).o"
        cyaml+=("$o")
        stale "$o" "$c" "$yams/CYaml/src/yaml_private.h" "$cyaml_inc" || continue
        needed=1
        [ $dry = 1 ] && continue
        echo "  CYaml $(basename "$c")" >&2
        clang -O1 -g -fsanitize=fuzzer-no-link,address -DYAML_DECLARE_STATIC -I "$cyaml_inc" -c "$c" -o "$o"
    done
    local cy=(-I "$cyaml_inc" -Xcc -DYAML_DECLARE_STATIC)
    # Yams is Swift 5 (tools-version 5.7); swift-log and swiftdash are Swift 6.
    swift_module Yams -- "$yams"/Yams/*.swift -- -swift-version 5 -D SWIFT_PACKAGE "${cy[@]}"
    swift_module Logging -- $(find "$log" -name '*.swift') -- -swift-version 6 -package-name swift_log
    swift_module DashCore -- $(find Sources/DashCore -name '*.swift') -- -swift-version 6
    swift_module DashWidgets -- $(find Sources/DashWidgets -name '*.swift') -- -swift-version 6
    swift_module DashScheduler DashWidgets -- $(find Sources/DashScheduler -name '*.swift') -- -swift-version 6
    swift_module DashRender DashCore DashWidgets -- $(find Sources/DashRender -name '*.swift') -- -swift-version 6
    swift_module DashBuiltinWidgets DashWidgets -- $(find Sources/DashBuiltinWidgets -name '*.swift') -- -swift-version 6
    # AppFuzzHarness and AppFuzzMain compiled into DashApp (they use its internals); the
    # harness's seeds and checks need the built-in widgets, which DashApp itself does not import.
    # DashHome (home.yaml, themes) is a module of its own, built for testing so the harness reaches
    # its internals; DashApp and DashRuntime are compiled into one module with the harness.
    swift_module DashHome Yams DashCore DashWidgets DashScheduler -- $(find Sources/DashHome -name '*.swift') \
        -- -swift-version 6 -enable-testing -package-name swiftdash "${cy[@]}"
    swift_module DashApp-fuzz -n Yams Logging DashCore DashWidgets DashScheduler DashRender DashBuiltinWidgets DashHome \
        -- $(find Sources/DashApp Sources/DashRuntime -name '*.swift') Tests/DashAppTests/AppFuzzHarness.swift \
        Tests/fuzz/AppFuzzMain.swift -- -swift-version 6 -D FUZZING -package-name swiftdash "${cy[@]}"
    local app_objs=("$objs"/{Yams,Logging,DashCore,DashWidgets,DashScheduler,DashRender,DashBuiltinWidgets,DashHome}.o
        "$objs/DashApp-fuzz.o" "${cyaml[@]}")
    if stale "$out/swiftdash-fuzz-app" "${app_objs[@]}"; then
        needed=1
        [ $dry = 1 ] && return 0
        swiftc "${link[@]}" "${app_objs[@]}" -o "$out/swiftdash-fuzz-app"
    fi
}

# build: compiles what changed; with dry=1 only sets needed=1 if anything would be.
build() {
    case "$target" in
        home|theme|control) build_app ;;
        --build) build_widgets; build_app ;;
        *) build_widgets ;;
    esac
}

dry=1 needed=0
build
if [ $needed = 1 ]; then
    echo "building the fuzz binaries in $out (what changed):" >&2
    dry=0
    if [ -e /tmp/swiftdash-build.lock ]; then
        exec 9>/tmp/swiftdash-build.lock
        flock 9
        build
        flock -u 9
        exec 9>&-
    else
        build
    fi
fi
[ "$target" = --build ] && exit 0

bin="$out/swiftdash-fuzz"
fixtures=Tests/DashBuiltinWidgetsTests/Fixtures
seeds=()
case "$target" in
    feeds) seeds=("$fixtures/feeds") ;;
    home|control) bin="$out/swiftdash-fuzz-app"; seeds=("Tests/fuzz/seeds/$target") ;;
    theme) bin="$out/swiftdash-fuzz-app"; seeds=(Tests/fuzz/seeds/theme themes) ;;
    *) seeds=("$out/seeds/$target")
       mkdir -p "${seeds[0]}"
       case "$target" in
           newsapi) cp "$fixtures"/newsapi_*.json "${seeds[0]}/" ;;
           coingecko) cp "$fixtures"/coingecko_*.json "${seeds[0]}/" ;;
           coinmarketcap) cp "$fixtures"/cmc_*.json "${seeds[0]}/" ;;
           commits) cp "$fixtures"/github_*.json "${seeds[0]}/" ;;
           ics) cp "$fixtures"/ics/*.ics "${seeds[0]}/" ;;
           todo) cp "$fixtures"/todo/* "${seeds[0]}/" ;;
       esac ;;
esac
mkdir -p "$out/corpus/$target" "$out/findings/$target"

# Replaying files given as arguments: no corpus directories then.
for a in "$@"; do
    if [ -f "$a" ]; then
        SWIFTDASH_FUZZ_TARGET="$target" exec "$bin" "$@"
    fi
done

dict=()
[ -f "Tests/fuzz/$target.dict" ] && dict=(-dict="Tests/fuzz/$target.dict")
SWIFTDASH_FUZZ_TARGET="$target" ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" exec "$bin" \
    -artifact_prefix="$out/findings/$target/" -max_len=65536 -timeout=10 -rss_limit_mb=4096 "${dict[@]}" "$@" \
    "$out/corpus/$target" "${seeds[@]}"

#!/usr/bin/env bash
# Runs one libFuzzer target over the parsers of outside input (docs/fuzzing.md).
#
#   Tests/fuzz/run.sh feeds                 # until stopped (Ctrl-C) or a finding
#   Tests/fuzz/run.sh commits -max_total_time=300
#   Tests/fuzz/run.sh feeds crash-1234abcd  # replay one input
#
# Targets: feeds newsapi coingecko coinmarketcap commits ics todo. Any further arguments go to
# libFuzzer. Builds with `swiftc -sanitize=fuzzer,address` into .build/fuzz/ (under the
# global build lock when one exists); the fixtures seed the corpus, new inputs go to
# .build/fuzz/corpus/TARGET, findings to .build/fuzz/findings/TARGET.
set -euo pipefail

cd "$(dirname "$0")/../.."
target="${1:-}"
case "$target" in
    feeds|newsapi|coingecko|coinmarketcap|commits|ics|todo) shift ;;
    *) echo "usage: Tests/fuzz/run.sh feeds|newsapi|coingecko|coinmarketcap|commits|ics|todo [libFuzzer options] [inputs]" >&2
       exit 2 ;;
esac

out=.build/fuzz
bin="$out/swiftdash-fuzz"
mkdir -p "$out/modules" "$out/corpus/$target" "$out/findings/$target"

sources_newer() { [ -n "$(find Sources/DashWidgets Sources/DashBuiltinWidgets Tests/fuzz \
    Tests/DashBuiltinWidgetsTests/FuzzHarness.swift -newer "$bin" -name '*.swift' 2>/dev/null | head -1)" ]; }

build() {
    echo "building $bin" >&2
    local flags=(-O -g -sanitize=fuzzer,address -parse-as-library -wmo -swift-version 6)
    swiftc "${flags[@]}" -module-name DashWidgets -emit-module -emit-module-path "$out/modules/DashWidgets.swiftmodule" \
        -c Sources/DashWidgets/*.swift -o "$out/DashWidgets.o"
    swiftc "${flags[@]}" -module-name DashBuiltinWidgets -D FUZZING -I "$out/modules" \
        -c Sources/DashBuiltinWidgets/*.swift Tests/DashBuiltinWidgetsTests/FuzzHarness.swift Tests/fuzz/FuzzMain.swift \
        -o "$out/DashBuiltinWidgets.o"
    swiftc -sanitize=fuzzer,address "$out/DashWidgets.o" "$out/DashBuiltinWidgets.o" -o "$bin"
}

if [ ! -x "$bin" ] || sources_newer; then
    if [ -e /tmp/swiftdash-build.lock ]; then
        exec 9>/tmp/swiftdash-build.lock
        flock 9
        build
        flock -u 9
    else
        build
    fi
fi

fixtures=Tests/DashBuiltinWidgetsTests/Fixtures
seeds=()
case "$target" in
    feeds) seeds=("$fixtures/feeds") ;;
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

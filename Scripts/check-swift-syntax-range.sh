#!/usr/bin/env bash
# Builds the macros and runs their tests against the lowest swift-syntax the package
# accepts (600.0.x), in a scratch folder of its own, so the regular build (which
# resolves the highest, 603.0.x) is left alone. CI runs the regular build; this checks
# the other end of the range.
#
#   Scripts/check-swift-syntax-range.sh [version]    # default 600.0.1
set -euo pipefail
version="${1:-600.0.1}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$repo/.build-swift-syntax-$version"
cd "$repo"
swift package --scratch-path "$scratch" resolve
swift package --scratch-path "$scratch" resolve swift-syntax --version "$version"
swift build --scratch-path "$scratch" --build-tests --target TrackingMacrosTests
swift test --scratch-path "$scratch" --skip-build --filter TrackingMacrosTests
echo "swift-syntax $version: the macros build and their tests pass"

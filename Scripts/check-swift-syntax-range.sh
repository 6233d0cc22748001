#!/usr/bin/env bash
# Builds the macros and runs their tests against the lowest swift-syntax the package
# accepts (600.0.x), in a copy of the package (pinning a version writes
# Package.resolved, which must not touch the checkout's own build, which resolves the
# highest, 603.0.x). CI runs the regular build; this checks the other end of the range.
#
#   Scripts/check-swift-syntax-range.sh [version]    # default 600.0.1
set -euo pipefail
version="${1:-600.0.1}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
copy="$(mktemp -d)/swift-tracking"
trap 'rm -rf "$(dirname "$copy")"' EXIT
mkdir -p "$copy"
tar -C "$repo" --exclude='./.build*' --exclude='./Benchmarks/.build' -cf - . | tar -C "$copy" -xf -
cd "$copy"
swift package resolve  # a dependency can only be pinned once the graph is resolved
swift package resolve swift-syntax --version "$version"
grep -A8 '"identity" : "swift-syntax"' Package.resolved | grep '"version"' || true  # what the build uses
swift build --build-tests
swift test --skip-build --filter TrackingMacrosTests
echo "swift-syntax $version: the macros build and their tests pass"

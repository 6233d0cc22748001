#!/usr/bin/env bash
# Measures what a new user pays: a throwaway five-line app that depends only on the
# `Tracking` product (and uses the macro) is resolved and built from scratch. Prints
# the packages it fetched and the time of its first debug build.
#
#   Scripts/measure-adoption.sh            # uses this checkout
#
# Goal (issue "Easy to adopt"): at most 2 packages fetched (this one and swift-syntax),
# first build within 60 s on 2 cores. The machine should be otherwise idle.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/Adopter/Sources/App"
cat > "$work/Adopter/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "Adopter",
  dependencies: [.package(path: "$repo")],
  targets: [.executableTarget(name: "App", dependencies: [.product(name: "Tracking", package: "$(basename "$repo")")])]
)
MANIFEST
cat > "$work/Adopter/Sources/App/main.swift" <<'SOURCE'
import Tracking
@Trackable final class Model { var count = 0 }
let model = Model()
let token = observe { print("count:", model.count) }
model.count = 1
SOURCE

cd "$work/Adopter"
swift package resolve >/dev/null
fetched=$(ls .build/checkouts 2>/dev/null | sort)
echo "packages fetched besides this one: $(echo "$fetched" | grep -c . || true)"
echo "$fetched" | sed 's/^/  /'
start=$(date +%s.%N)
swift build >/dev/null
end=$(date +%s.%N)
printf 'first debug build: %.0f s\n' "$(echo "$end - $start" | bc)"
.build/debug/App

#!/usr/bin/env bash
# Instructions per write of the ceiling study (Sources/ceiling), with valgrind's
# callgrind: each graph run at two write counts, the difference divided by the
# difference of the counts (start-up and set-up cancel out).
#
#   Benchmarks/Scripts/ceiling.sh [N1 N2]      defaults 2000 12000
#
# Needs a release build: swift build -c release --package-path Benchmarks --product ceiling
set -euo pipefail
n1=${1:-2000} n2=${2:-12000}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# valgrind cannot read the DWARF that swiftc emits: profile a copy without debug info.
objcopy --strip-debug "$here/.build/release/ceiling" "$out/ceiling"
count() {
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$out/ceiling" "$1" "$2" >/dev/null 2>"$out/log"
  grep -o 'Collected : [0-9]*' "$out/log" | grep -o '[0-9]*'
}
for graph in diamond chain; do
  a=$(count "$graph" "$n1")
  b=$(count "$graph" "$n2")
  echo "$graph: $(((b - a) / (n2 - n1))) instructions per write"
done

#!/usr/bin/env bash
# Instructions per iteration of each Kairo case of the reactivity suite, with
# valgrind's callgrind: the inclusive count of the case's timed closure (the one its
# build returns) over the 16 iterations of `reactivity --quick` (3 checked, 3 warm-up,
# 10 timed), divided by 16.
#
#   Benchmarks/Scripts/kairo.sh [CASE ...]     default: all nine
#
# Needs a release build: swift build -c release --package-path Benchmarks --product reactivity
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# valgrind cannot read the DWARF that swiftc emits: profile a copy without debug info.
objcopy --strip-debug "$here/.build/release/reactivity" "$out/reactivity"
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  cases=(avoidablePropagation broadPropagation deepPropagation diamond mux repeatedObservers triangle unstable molBench)
fi
for name in "${cases[@]}"; do
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$out/reactivity" --quick --filter "$name" >/dev/null 2>"$out/log"
  total=$(callgrind_annotate --inclusive=yes --threshold=99.99 "$out/cg" 2>/dev/null | swift demangle --simplified \
    | grep -E "\?\?\?:closure #[0-9]+ in closure #1 in variable initialization expression of static KairoCase\.$name \[" \
    | sed -E 's/^ *([0-9,]+).*/\1/' | tr -d , | sort -n | tail -n 1)
  echo "$name: $((total / 16)) instructions per iteration"
done

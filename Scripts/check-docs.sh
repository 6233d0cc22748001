#!/usr/bin/env bash
# Builds the documentation of every library product with the toolchain's `docc`, and
# fails on any warning (a broken symbol link, an undocumented parameter, a missing
# article). Reuses the debug build: run it after `swift build` / `swift test`.
#
#     Scripts/check-docs.sh [output-directory]
#
# Needs no package plugin: symbol graphs come from `swift package dump-symbol-graph`.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-$(mktemp -d /tmp/tracking-docs.XXXXXX)}
mkdir -p "$out"

swift package dump-symbol-graph --enable-all-traits --minimum-access-level public >"$out/symbol-graph.log" 2>&1 ||
  { cat "$out/symbol-graph.log"; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$out/symbol-graph.log")

status=0
for module in Tracking TrackingTesting TrackingCombine TrackingPersistence; do
  dir="$out/graphs/$module"
  mkdir -p "$dir"
  cp "$graphs/$module.symbols.json" "$dir/"
  cp "$graphs/$module"@*.symbols.json "$dir/" 2>/dev/null || true
  catalog=()
  [ -d "Sources/$module/$module.docc" ] && catalog=("Sources/$module/$module.docc")
  echo "docs: $module"
  if ! docc convert "${catalog[@]}" --additional-symbol-graph-dir "$dir" \
    --output-dir "$out/$module.doccarchive" --fallback-display-name "$module" \
    --fallback-bundle-identifier "swift-tracking.$module" --warnings-as-errors >"$out/$module.log" 2>&1; then
    cat "$out/$module.log"
    status=1
  fi
done
[ "$status" = 0 ] && echo "docs: no warnings (archives in $out)"
exit "$status"

#!/usr/bin/env bash
# Measures tracking-migrate on the real apps of Scripts/migration-corpus.tsv: for each
# app and target, the sites converted, kept and reported, and the type errors the
# migration adds (those on no reported line are silent breakage: the goal is none). Not
# part of CI: the apps' sources are fetched, never committed.
#
#     Scripts/measure-migration-corpus.sh CORPUS [APP,...]
#
# CORPUS holds one folder per app, named as in the list, with the app's files at the
# commit listed, for instance from a clone or a bare copy of its repository:
#
#     git --git-dir=APP.git archive COMMIT | tar -x -C CORPUS/APP
#
# Views are checked against Tests/TrackingMigrationTests/Fixtures/TypeCheck/SwiftUIStandIns.swift,
# or against stub modules of the Apple surface when TRACKING_APPLE_STUBS names their
# folders (colon-separated, searched first: SwiftUI.swiftmodule, Combine.swiftmodule…,
# and this package's modules built against them). TRACKING_MIGRATE_TARGETS=tracking (or
# apple) measures one target. Writes CORPUS/summary.md
# (one table row per app and target) and CORPUS/APP-TARGET-errors.txt, then prints the table.
set -euo pipefail
corpus=$(cd "${1:?usage: $0 CORPUS [APP,...]}" && pwd)
cd "$(dirname "$0")/.."
rm -f "$corpus/summary.md"
swift build --build-tests --enable-all-traits
status=0
TRACKING_MIGRATE_CORPUS="$corpus" TRACKING_MIGRATE_APPS="${2:-}" \
  swift test --skip-build --enable-all-traits --filter CorpusTypeCheckTests || status=$?
echo
echo "| app | target | commit | Swift files | sites | converted | kept | reported | unhandled | warnings | files changed | errors before | new errors in unchecked statements | new errors, reported | new errors, unreported | time |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
cat "$corpus/summary.md"
exit $status

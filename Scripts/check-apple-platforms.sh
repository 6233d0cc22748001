#!/usr/bin/env bash
# Compiles, on Linux, the code this package has only for other platforms: every
# SwiftUI, Combine and Darwin branch, against stub modules of those Apple frameworks
# (TestSupport/AppleStubs), and the musl, Android, Windows and no-libc branches,
# against stubs of those C libraries (TestSupport/PlatformStubs); the C layer's
# __APPLE__, _WIN32 and generic branches with clang against stub headers. Swift 6
# language mode, warnings are errors. Ends with the inventory of every platform
# branch in Sources and what checks it (README's "Not verified by CI" has the same
# table); a platform `#if` in Sources that the inventory does not list fails the run.
#
# It reuses the debug build of README's test command (`swift test
# --enable-all-traits`, or `swift build --build-tests --enable-all-traits`): the
# compiler arguments SwiftPM used for each target (from .build/debug.yaml), its
# modules, and the macro plugin. It builds nothing of the package's own; what it
# emits goes to .build/apple-platforms.
#
# Usage:
#   Scripts/check-apple-platforms.sh                 every check (what .ci/run runs)
#   Scripts/check-apple-platforms.sh --inventory     print the inventory only
#   Scripts/check-apple-platforms.sh --files F...    type-check the Swift files F… as
#       one module against the stub SDK (SwiftUI, Combine, Darwin) and this package's
#       modules as an Apple system sees them (Tracking, TrackingCombine,
#       TrackingPersistence, TrackingTesting). Made for code that imports SwiftUI,
#       such as views rewritten by tracking-migrate. Extra compiler flags go in
#       TRACKING_CHECK_FLAGS (for example "-module-name MyApp"); the package's
#       modules are built for the stubs on first use and rebuilt when Sources change.
# The stubs declare only what this package and its examples use; a file that uses
# more of SwiftUI needs those declarations added to TestSupport/AppleStubs (see the
# README there).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
manifest=$root/.build/debug.yaml
out=$root/.build/apple-platforms
stubs=$root/TestSupport/AppleStubs
others=$root/TestSupport/PlatformStubs

mode=all
case "${1:-}" in
  --inventory) mode=inventory ;;
  --inventory-markdown) mode=markdown ;;
  --files) mode=files; shift ;;
  "") ;;
  *) echo "usage: $0 [--inventory | --inventory-markdown | --files FILE...]" >&2; exit 2 ;;
esac

# MARK: The branch inventory
#
# One line per platform condition in Sources: file @ condition as written @ its branches
# and what compiles each. "Linux build" is README's test command; the configurations
# (apple, bare, no-traits, musl, android, windows, clang …) are the steps below.
inventory() {
  cat <<'EOF'
Tracking/Registrar/TrackingRegistrar.swift @ canImport(SwiftUI) @ SwiftUI: apple · without: Linux build
Tracking/Interop/TrackingInterop.swift @ canImport(Observation) @ Observation: Linux build · without: bare
Tracking/Interop/TrackingInterop.swift @ canImport(SwiftUI) @ SwiftUI: apple · without: Linux build
Tracking/Interop/AppleObservable.swift @ canImport(Observation) @ Observation: Linux build · without (placeholder protocol): bare
Tracking/Interop/AppleRelayKeyPaths.swift @ canImport(Observation) @ Observation: Linux build · without (file empty): bare
Tracking/Bindings/SwiftUIBinding.swift @ canImport(SwiftUI) @ SwiftUI: apple · without (file empty): Linux build
Tracking/SwiftUI/TrackedView.swift @ canImport(SwiftUI) @ SwiftUI: apple · without (file empty): Linux build
Tracking/SwiftUI/BindableModel.swift @ canImport(SwiftUI) && canImport(Combine) @ SwiftUI and Combine: apple · without (file empty): Linux build
Tracking/Diagnostics/StandardError.swift @ canImport(Darwin) @ Darwin: apple · Glibc: Linux build · Musl: musl
Tracking/Diagnostics/StandardError.swift @ canImport(Glibc) @ (the ladder above)
Tracking/Diagnostics/StandardError.swift @ canImport(Musl) @ (the ladder above)
Tracking/Diagnostics/StandardError.swift @ canImport(Darwin) || canImport(Glibc) || canImport(Musl) @ `write(2)`: apple, Linux build, musl · `print` (no C library): bare
TrackingCombine/TrackingPublisher.swift @ canImport(Combine) || OpenCombine @ Combine: apple · OpenCombine: Linux build · neither (file empty): bare
TrackingCombine/TrackingPublisher.swift @ canImport(Combine) @ `import Combine`: apple · `import OpenCombine`: Linux build
TrackingCombine/ObservableObjectTracking.swift @ canImport(Combine) || OpenCombine @ Combine: apple · OpenCombine: Linux build · neither (file empty): bare
TrackingCombine/ObservableObjectTracking.swift @ canImport(Combine) @ `import Combine`: apple · `import OpenCombine`: Linux build
TrackingCombine/TrackingSubscription.swift @ canImport(Combine) || OpenCombine @ Combine: apple · OpenCombine: Linux build · neither (file empty): bare
TrackingCombine/TrackingSubscription.swift @ canImport(Combine) @ `import Combine`: apple · `import OpenCombine`: Linux build
TrackingCombine/ChangeBeacon.swift @ canImport(Combine) || OpenCombine @ Combine: apple · OpenCombine: Linux build · neither (file empty): bare
TrackingCombine/ChangeBeacon.swift @ canImport(Combine) @ `import Combine`: apple · `import OpenCombine`: Linux build
TrackingTour/RenderLoopChapter.swift @ canImport(Combine) @ `import Combine`: apple · `import OpenCombine`: Linux build · neither: no-traits
TrackingTour/RenderLoopChapter.swift @ canImport(Combine) || OpenCombine @ Combine: apple · OpenCombine: Linux build · neither (the skipped chapter): no-traits
TrackingPersistence/FileChangeMonitor.swift @ canImport(Darwin) @ dispatch sources: apple · inotify: Linux build · neither (polling only): no code
TrackingPersistence/FileChangeMonitor.swift @ os(Linux) @ (the ladder above)
TrackingPersistence/DispatchSourceFileMonitor.swift @ canImport(Darwin) @ Darwin: apple · elsewhere (file empty): Linux build
TrackingPersistence/InotifyFileMonitor.swift @ os(Linux) @ Linux: Linux build · elsewhere (file empty): apple
TrackingPersistence/FileSystemCalls.swift @ canImport(Darwin) @ Darwin: apple · Glibc: Linux build · Musl: musl · Android: android · CRT: windows
TrackingPersistence/FileSystemCalls.swift @ canImport(Glibc) @ (the ladder above)
TrackingPersistence/FileSystemCalls.swift @ canImport(Musl) @ (the ladder above)
TrackingPersistence/FileSystemCalls.swift @ canImport(Android) @ (the ladder above)
TrackingPersistence/FileSystemCalls.swift @ canImport(CRT) @ (the ladder above)
TrackingPersistence/FileSystemCalls.swift @ canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android) @ `flock`, reading and durable save: apple, Linux build, musl, android · without (no lock, Foundation's reading and atomic write): windows
CTrackingSupport/include/CTrackingSupport.h @ defined(__APPLE__) @ `__APPLE__` (`os_unfair_lock`, `pthread_main_np`): clang apple · `_WIN32` (SRW lock): clang windows · `__linux__` (futex): Linux build · else (pthread mutex): clang posix
CTrackingSupport/include/CTrackingSupport.h @ defined(_WIN32) @ (the ladder above)
CTrackingSupport/include/CTrackingSupport.h @ defined(__linux__) @ (the ladder above)
CTrackingSupport/include/CTrackingSupport.h @ !defined(_WIN32) @ `<pthread.h>`: clang apple, Linux build, clang posix · without: clang windows
CTrackingSupport/include/CTrackingSupport.h @ !defined(__APPLE__) && !defined(_WIN32) && !defined(__linux__) @ `pthread_mutex_destroy`: clang posix · else: clang apple, clang windows, Linux build
CTrackingSupport/include/CTrackingSupport.h @ defined(__linux__) && defined(__has_builtin) @ the thread pointer as the thread's identifier (`__builtin_thread_pointer`, where the compiler has it): Linux build · `GetCurrentThreadId`: clang windows · `pthread_self`: clang apple, clang posix
CTrackingSupport/CTrackingSupport.c @ defined(__APPLE__) || defined(_WIN32) || defined(__linux__) @ the graph lock's static initializer: Linux build, clang apple, windows · elsewhere (a pthread mutex): clang posix
CTrackingSupport/CTrackingSupport.c @ defined(__linux__) @ futex wait/wake: Linux build · elsewhere (no code): clang apple, windows, posix
EOF
}

# Conditions that are not about the platform, for the record (not part of the check):
other_conditions() {
  cat <<'EOF'
Tracking/Diagnostics/WithTrackingRequired.swift @ DEBUG @ debug: Linux build · release: the benchmark stage's release build
TrackingPersistence/SQLiteStorage.swift @ SQLite @ trait on: Linux build · off (file empty)
TrackingPersistence/PostgreSQLStorage.swift, PostgreSQLConnection.swift @ PostgreSQL @ trait on: Linux build · off (files empty)
TrackingMacroExpansions/TrackableMacro.swift @ compiler(>=6.2) && canImport(SwiftSyntax602) @ swift-syntax 602 and later: Linux build · earlier: Scripts/check-swift-syntax-range.sh (not run by .ci/run)
CTrackingSupport/include/CTrackingSupport.h @ __cplusplus @ C: every run above · C++ (extern "C"): not compiled (no C++ file includes it)
EOF
}

print_inventory() {
  echo "Platform branches in Sources, and what compiles each:"
  inventory | grep -v ' @ (the ladder' | awk -F' @ ' '{ printf "  %-52s #if %s\n      %s\n", $1, $2, $3 }'
  echo "Other conditions:"
  other_conditions | awk -F' @ ' '{ printf "  %-52s #if %s\n      %s\n", $1, $2, $3 }'
}

# The inventory as README's table: a ladder's later rungs join its first row.
inventory_markdown() {
  echo "| File (in \`Sources\`) | Condition | Each branch: what compiles it |"
  echo "|---|---|---|"
  inventory | awk -F' @ ' '
    function cell(text) { gsub(/\|/, "\\|", text); return text }
    function flush() { if (file != "") printf "| `%s` | %s | %s |\n", file, cell(cond), cell(what) }
    $3 == "(the ladder above)" { cond = cond " / `" $2 "`"; next }
    { flush(); file = $1; cond = "`" $2 "`"; what = $3 }
    END { flush() }'
}

readme_inventory() {
  sed -n '/<!-- branch-inventory:start -->/,/<!-- branch-inventory:end -->/p' README.md | sed '1d;$d'
}

# Every `#if`/`#elseif` (Swift) and `#if`/`#elif` (C) whose condition names a
# platform, as "file @ condition", relative to Sources/.
platform_conditions_in_sources() {
  (cd Sources && grep -rnE --include='*.swift' --include='*.c' --include='*.h' \
    '^[[:space:]]*#[[:space:]]*(if|elseif|elif)[[:space:]]' . ) \
    | grep -E 'canImport\(|os\(|arch\(|targetEnvironment\(|__APPLE__|_WIN32|__linux__' \
    | grep -v 'TrackingMacroExpansions/IfConfigPresence.swift' \
    | grep -vE 'canImport\(SwiftSyntax' \
    | sed -E 's#^\./##; s#^([^:]*):[0-9]+:[[:space:]]*\#[[:space:]]*(if|elseif|elif)[[:space:]]+#\1 @ #; s#[[:space:]]*(//.*)?$##' \
    | sort -u
}

check_inventory() {
  local listed found missing stale
  listed=$(inventory | awk -F' @ ' '{ print $1 " @ " $2 }' | sort -u)
  found=$(platform_conditions_in_sources)
  missing=$(comm -13 <(echo "$listed") <(echo "$found"))
  stale=$(comm -23 <(echo "$listed") <(echo "$found"))
  if [ -n "$missing" ] || [ -n "$stale" ]; then
    echo "The branch inventory in $0 does not match Sources:"
    [ -z "$missing" ] || { echo " in Sources, not in the inventory:"; echo "$missing" | sed 's/^/   /'; }
    [ -z "$stale" ] || { echo " in the inventory, not in Sources:"; echo "$stale" | sed 's/^/   /'; }
    echo "Add each new branch with what compiles it (and to README's table), or make a step compile it."
    return 1
  fi
}

if [ "$mode" = inventory ]; then
  print_inventory
  exit 0
fi
if [ "$mode" = markdown ]; then
  inventory_markdown
  exit 0
fi

# MARK: Reusing the debug build

[ -f "$manifest" ] || {
  echo "No debug build: run \`swift build --build-tests --enable-all-traits\` (or README's test command) first." >&2
  exit 1
}

# The arguments SwiftPM passed to swiftc for `target`, one per line, without those
# that make objects, dependencies, indexes or outputs of SwiftPM's own; the sources
# stay as SwiftPM's response file (@…/sources).
swiftpm_args() {
  local target=$1 lines line
  lines=$(grep -E '^ +args: \["[^"]*swiftc","-module-name","'"$target"'",' "$manifest") || true
  # A module built for the target system (Modules/), else for the host (Modules-tool/:
  # test targets are built only there).
  line=$(echo "$lines" | grep -F "/Modules/$target.swiftmodule" | head -n 1) || true
  [ -n "$line" ] || line=$(echo "$lines" | grep -F "/Modules-tool/$target.swiftmodule" | head -n 1) || true
  [ -n "$line" ] || { echo "SwiftPM's arguments for $target are not in $manifest: rebuild." >&2; return 1; }
  echo "$line" | sed -E 's/^ +args: \["//; s/"\]$//' | sed 's/","/\n/g' | tail -n +2 | awk '
    skip { skip = 0; next }
    /^(-emit-module-path|-output-file-map|-index-store-path|-emit-objc-header-path)$/ { skip = 1; next }
    /^(-c|-incremental|-emit-dependencies|-enable-batch-mode|-serialize-diagnostics|-parseable-output|-emit-objc-header)$/ { next }
    /^-j[0-9]+$/ { next }
    { print }'
}

# The macro plugin SwiftPM built, as SwiftPM passes it (path#module).
listed=$(swiftpm_args Tracking)
plugin=$(echo "$listed" | grep -F 'TrackingMacros-tool#' | head -n 1)
[ -x "${plugin%%#*}" ] || { echo "The macro plugin (${plugin%%#*}) is not built: rebuild." >&2; exit 1; }

mkdir -p "$out"
step() { step_started=$SECONDS; printf "%-72s " "$1"; }
done_step() { echo "ok ($((SECONDS - step_started)) s)"; }

# Compiles `target` with SwiftPM's arguments for it plus `flags` (search paths go
# first, so the stubs and the modules emitted here win), as one whole module: the
# mandatory SIL passes run, and Swift 6's region checks report there, not in
# -typecheck. Emits the .swiftmodule into `dir`, for the targets that import it.
emit_target() {
  local target=$1 dir=$2; shift 2
  mkdir -p "$dir"
  local listed args=()
  listed=$(swiftpm_args "$target")
  mapfile -t args <<<"$listed"
  swiftc "$@" "${args[@]}" -wmo -warnings-as-errors -emit-module-path "$dir/$target.swiftmodule"
}

# Emits a module of its own from `files`, with `flags`.
emit_files() {
  local name=$1 dir=$2; shift 2
  mkdir -p "$dir"
  # (A package name, as SwiftPM gives every target: the files may declare `package` symbols.)
  swiftc -emit-module -wmo -parse-as-library -swift-version 6 -warnings-as-errors \
    -module-name "$name" -package-name swift_tracking -module-cache-path "$out/ModuleCache" \
    -emit-module-path "$dir/$name.swiftmodule" "$@"
}

# A file whose only content fails to compile unless `condition` holds: every
# configuration carries one, so that a configuration that silently took another
# branch (a stub not found, a module not hidden) fails instead of passing.
probe() {
  local name=$1 condition=$2
  mkdir -p "$out/probes"
  printf '#if !(%s)\n  #error("configuration %s: expected %s")\n#endif\n' "$condition" "$name" "$condition" \
    >"$out/probes/$name.swift"
  echo "$out/probes/$name.swift"
}

# MARK: The stub modules

build_stubs() {
  step "stubs: Combine, SwiftUI, Darwin (Apple); Musl, Android, CRT"
  emit_files Combine "$out/stubs/apple" "$stubs"/Combine/*.swift
  emit_files SwiftUI "$out/stubs/apple" -I "$out/stubs/apple" "$stubs"/SwiftUI/*.swift
  emit_files Darwin "$out/stubs/apple" "$stubs"/Darwin/*.swift
  for lib in Musl Android CRT; do
    emit_files "$lib" "$out/stubs/$lib" "$others/$lib/$lib.swift"
  done
  done_step
}

# The package's modules as an Apple system sees them: SwiftUI, Combine and Darwin
# importable (the stubs), every trait on as in the Linux build.
apple_flags=(-I "$out/stubs/apple" -I "$out/apple")
build_apple_modules() {
  local check
  check=$(probe apple 'canImport(SwiftUI) && canImport(Combine) && canImport(Darwin)')
  step "apple: Tracking"
  emit_target Tracking "$out/apple" "${apple_flags[@]}" "$check"
  done_step
  step "apple: TrackingCombine (over the Combine stub)"
  emit_target TrackingCombine "$out/apple" "${apple_flags[@]}" "$check"
  done_step
  step "apple: TrackingPersistence (Darwin file events, file calls)"
  emit_target TrackingPersistence "$out/apple" "${apple_flags[@]}" "$check"
  done_step
}

apple_modules_current() {
  [ -f "$out/apple/Tracking.swiftmodule" ] && [ -f "$out/apple/TrackingTesting.swiftmodule" ] \
    && [ -z "$(find Sources TestSupport "$manifest" -newer "$out/apple/TrackingTesting.swiftmodule" -print -quit)" ]
}

if [ "$mode" = files ]; then
  [ "$#" -gt 0 ] || { echo "usage: $0 --files FILE..." >&2; exit 2; }
  if ! apple_modules_current; then
    build_stubs
    build_apple_modules
    step "apple: TrackingTesting"
    emit_target TrackingTesting "$out/apple" "${apple_flags[@]}" "$out/probes/apple.swift"
    done_step
  fi
  step "apple: the given files"
  # TrackingPersistence's arguments reach every module of the package and of its
  # dependencies (module maps, the macro plugin, the traits); its name and sources
  # give way to the files'.
  listed=$(swiftpm_args TrackingPersistence)
  mapfile -t base < <(echo "$listed" | awk 'skip { skip = 0; next }
    /^-module-name$/ { skip = 1; next } /^@/ { next } { print }')
  # shellcheck disable=SC2086
  swiftc "${apple_flags[@]}" "${base[@]}" -module-name "${TRACKING_CHECK_MODULE:-CheckedFiles}" \
    -wmo -warnings-as-errors -emit-module-path "$out/files/${TRACKING_CHECK_MODULE:-CheckedFiles}.swiftmodule" \
    ${TRACKING_CHECK_FLAGS:-} "$@"
  done_step
  exit 0
fi

# MARK: Every check

started=$SECONDS
step "inventory: every platform #if in Sources is listed, README agrees"
check_inventory
if [ "$(readme_inventory)" != "$(inventory_markdown)" ]; then
  echo "README's branch inventory differs from the script's; replace the table between its"
  echo "branch-inventory markers with the output of \`$0 --inventory-markdown\`."
  exit 1
fi
done_step

build_stubs

# C layer: each branch of CTrackingSupport compiled by clang for a target that takes
# it, against clang's own headers (stdatomic.h, stdint.h, stddef.h) and the stubs.
step "clang: CTrackingSupport __APPLE__, _WIN32 and generic POSIX branches"
resource=$(clang -print-resource-dir)/include
c_check() {
  local triple=$1 headers=$2
  clang -target "$triple" -fsyntax-only -std=gnu11 -Wall -Wextra -Werror -nostdinc \
    -isystem "$resource" -isystem "$headers" -I Sources/CTrackingSupport/include \
    Sources/CTrackingSupport/CTrackingSupport.c
}
for triple in arm64-apple-macos10.15 x86_64-apple-macos10.15 arm64-apple-ios13.0 arm64-apple-ios13.0-simulator \
  arm64-apple-tvos13.0 arm64_32-apple-watchos6.0 arm64-apple-ios13.1-macabi; do
  c_check "$triple" "$stubs/CHeaders"
done
for triple in x86_64-pc-windows-msvc aarch64-pc-windows-msvc; do
  c_check "$triple" "$others/CHeaders/windows"
done
for triple in x86_64-unknown-freebsd14 aarch64-unknown-openbsd7; do
  c_check "$triple" "$others/CHeaders/posix"
done
done_step

build_apple_modules

step "apple: TrackingTour (its Combine chapter)"
emit_target TrackingTour "$out/apple" "${apple_flags[@]}" "$(probe apple-tour 'canImport(Combine)')"
done_step
step "apple: DocumentationExamples (README's and DocC's SwiftUI examples)"
emit_target DocumentationExamples "$out/apple" "${apple_flags[@]}" "$(probe apple-examples 'canImport(SwiftUI)')"
done_step

# No Apple Observation and no C library module: the fallbacks. Tracking needs neither
# Foundation nor a C library module, so both can be hidden (a module alias to a name
# no module has); TrackingCombine without the OpenCombine trait is what remains of it.
bare_flags=(-module-alias Observation=TrackingCheckHidesObservation -module-alias Glibc=TrackingCheckHidesGlibc -I "$out/bare")
step "bare (no Observation, no C library): Tracking, TrackingCombine"
emit_target Tracking "$out/bare" "${bare_flags[@]}" \
  "$(probe bare '!canImport(Observation) && !canImport(Glibc) && !canImport(Darwin) && !canImport(Musl)')"
listed=$(swiftpm_args TrackingCombine)
mapfile -t combine_args < <(echo "$listed" | grep -vx -- '-DOpenCombine')
swiftc "${bare_flags[@]}" "${combine_args[@]}" -wmo -warnings-as-errors \
  -emit-module-path "$out/bare/TrackingCombine.swiftmodule" "$(probe bare-combine '!canImport(Combine) && !OpenCombine')"
done_step

step "no-traits (no Combine, no OpenCombine): TrackingTour"
listed=$(swiftpm_args TrackingTour)
mapfile -t tour_args < <(echo "$listed" | grep -vx -- '-DOpenCombine')
swiftc "${tour_args[@]}" -wmo -warnings-as-errors -emit-module-path "$out/no-traits/TrackingTour.swiftmodule" \
  "$(probe no-traits '!canImport(Combine) && !OpenCombine')"
done_step

# The files that call the C library without Foundation, each on its own against
# another system's C library (Glibc hidden, that library's stub visible).
hide_glibc=(-module-alias Glibc=TrackingCheckHidesGlibc)
step "musl: StandardError.swift, FileSystemCalls.swift"
emit_files Tracking "$out/musl" "${hide_glibc[@]}" -I "$out/stubs/Musl" \
  Sources/Tracking/Diagnostics/StandardError.swift "$(probe musl 'canImport(Musl) && !canImport(Glibc)')"
emit_files TrackingPersistence "$out/musl" "${hide_glibc[@]}" -I "$out/stubs/Musl" \
  Sources/TrackingPersistence/FileSystemCalls.swift "$out/probes/musl.swift"
done_step
step "android: FileSystemCalls.swift"
emit_files TrackingPersistence "$out/android" "${hide_glibc[@]}" -I "$out/stubs/Android" \
  Sources/TrackingPersistence/FileSystemCalls.swift "$(probe android 'canImport(Android) && !canImport(Glibc)')"
done_step
step "windows (CRT): FileSystemCalls.swift"
emit_files TrackingPersistence "$out/windows" "${hide_glibc[@]}" -I "$out/stubs/CRT" \
  Sources/TrackingPersistence/FileSystemCalls.swift "$(probe windows 'canImport(CRT) && !canImport(Glibc)')"
done_step

echo
print_inventory
echo
echo "Every branch above compiled ($((SECONDS - started)) s)."

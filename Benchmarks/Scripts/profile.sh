#!/usr/bin/env bash
# Instruction counts per operation, and where they go, with valgrind's callgrind.
#
#   Benchmarks/Scripts/profile.sh ROW FLAVOUR [N1 N2] [TOP]
#   e.g. Benchmarks/Scripts/profile.sh cycle.1 ours
#
# Runs `compare --filter ROW --flavor FLAVOUR --rounds 1` under callgrind twice, with
# N1 and N2 repetitions (defaults 2000 and 12000), and prints
#   instructions per repetition = (Ir(N2) - Ir(N1)) / (N2 - N1)
# which cancels start-up and per-sample setup that does not grow with N (for rows that
# make one object per repetition, such as read.tracked.*, object creation is included;
# with TIMED=1 only the timed part is counted, see below).
# Then the top functions by self instructions per repetition (same difference).
# Needs a release build: swift build -c release --package-path Benchmarks
set -euo pipefail
row=$1 flavor=$2 n1=${3:-2000} n2=${4:-12000} top=${5:-12}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${COMPARE_BIN:-$here/.build/release/compare}
out=$(mktemp -d)
# valgrind cannot read the DWARF that swiftc emits ("possibly corrupted debuginfo"):
# profile a copy without debug info (the symbol table, hence function names, stays).
objcopy --strip-debug "$bin" "$out/compare"
bin=$out/compare
# TIMED=1 counts only what the row times: callgrind zeroes its counters when the
# stopwatch starts and dumps them when it stops (a second file, `.1`), so making and
# freeing objects outside the timed loop is left out.
timed=()
if [ "${TIMED:-0}" = 1 ]; then
  timed=(--zero-before='$s16BenchmarkSupport9StopwatchV5startyyF*' --dump-before='$s16BenchmarkSupport9StopwatchV4stopyyF*')
fi
run() {
  local n=$1
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.$n" "${timed[@]}" \
    "$bin" --filter "$row" --flavor "$flavor" --rounds 1 --iterations "$n" >/dev/null 2>"$out/log.$n"
  if [ ${#timed[@]} -gt 0 ]; then
    mv "$out/cg.$n.1" "$out/cg.$n"
    grep '^summary' "$out/cg.$n" | grep -o '[0-9]*'
  else
    grep -o 'Collected : [0-9]*' "$out/log.$n" | grep -o '[0-9]*'
  fi
}
ir1=$(run "$n1")
ir2=$(run "$n2")
echo "row=$row flavor=$flavor Ir($n1)=$ir1 Ir($n2)=$ir2 instructions/op=$(( (ir2 - ir1) / (n2 - n1) ))"
# Per function: self instructions per repetition, (self(N2) - self(N1)) / (N2 - N1), so
# start-up (dynamic linking, metadata) cancels out.
for n in "$n1" "$n2"; do
  callgrind_annotate --threshold=100 "$out/cg.$n" 2>/dev/null | sed -n '/^Ir  *file:function/,$p' >"$out/fn.$n"
done
# In a timed dump, the frames still on the stack when it is taken (main, the row's
# closure) show the whole count as their own: those are left out.
python3 - "$out/fn.$n1" "$out/fn.$n2" "$n1" "$n2" "$top" "$(( (ir2 - ir1) / (n2 - n1) ))" "${TIMED:-0}" >"$out/top" <<'PY'
import re, sys
def load(path):
    costs = {}
    for line in open(path):
        m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(.*)$", line)
        if m:
            name = re.sub(r" \[[^\]]*\]$", "", m.group(2)).split(":", 1)[-1]
            costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs
a, b = load(sys.argv[1]), load(sys.argv[2])
span = int(sys.argv[4]) - int(sys.argv[3])
rows = sorted(((b.get(k, 0) - a.get(k, 0)) / span, k) for k in set(a) | set(b))
total, timed = int(sys.argv[6]), sys.argv[7] == "1"
rows = [r for r in rows[::-1] if r[0] > 0.5 and not (timed and r[0] >= total)][: int(sys.argv[5])]
for per_op, name in rows:
    print(f"  {per_op:8.1f}  {name[:150]}")
PY
if command -v swift >/dev/null; then swift demangle --simplified <"$out/top"; else cat "$out/top"; fi
rm -rf "$out"

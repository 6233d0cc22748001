#!/usr/bin/env python3
"""Self instructions per machine instruction of the functions whose mangled name
contains PATTERN, from a callgrind profile taken with --dump-instr=yes, printed beside
objdump's disassembly of the binary (valgrind cannot read the DWARF swiftc emits, so
callgrind_annotate shows no lines; this shows where a function's own instructions go).

  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=OUT BINARY ARGS...
  Benchmarks/Scripts/annotate.py OUT BINARY PATTERN [MIN]

BINARY is the file profiled (a copy stripped with `objcopy --strip-debug`, as
kairo.sh and profile.sh use). Each line: the instruction's self count over the run,
its address, its disassembly; with MIN, only lines counted at least MIN times, and
calls. The cost of a call instruction (the callee's inclusive cost) is left out.
"""
import collections
import re
import subprocess
import sys

if len(sys.argv) not in (4, 5):
    sys.exit(__doc__)
profile, binary, pattern = sys.argv[1:4]
minimum = int(sys.argv[4]) if len(sys.argv) == 5 else 0

names = {}  # callgrind compresses repeated names to "(id)"


def name(text):
    match = re.match(r"\((\d+)\)(?: (.*))?", text)
    if not match:
        return text
    if match.group(2) is not None:
        names[match.group(1)] = match.group(2)
    return names.get(match.group(1), match.group(1))


costs = collections.defaultdict(collections.Counter)
function = None
address = 0
after_call = False
with open(profile) as lines:
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("fn="):
            function = name(line[3:])
            continue
        if line.startswith("cfn="):
            name(line[4:])
            continue
        if line.startswith("calls="):
            after_call = True
            continue
        if not line or line[0] not in "0123456789+-*":
            continue
        fields = line.split()
        position = fields[0]
        if position.startswith("+"):
            address += int(position[1:], 0)
        elif position.startswith("-"):
            address -= int(position[1:], 0)
        elif position != "*":
            address = int(position, 0)
        if after_call:  # the call's inclusive cost, not the instruction's own
            after_call = False
            continue
        if len(fields) >= 3 and function and pattern in function:
            costs[function][address] += int(fields[-1])

for function, counts in costs.items():
    print(f"### {function}  self={sum(counts.values())}")
    low, high = min(counts), max(counts)
    disassembly = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", f"--start-address={low}", f"--stop-address={high + 16}", binary],
        capture_output=True, text=True, check=True).stdout
    for text in disassembly.splitlines():
        match = re.match(r"\s*([0-9a-f]+):\s*(.*)", text)
        if not match:
            continue
        count = counts.get(int(match.group(1), 16), 0)
        if count >= minimum or "call" in match.group(2):
            print(f"{count:>12}  {match.group(1)}  {match.group(2)}")

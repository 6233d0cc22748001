// The ceiling study (issue 33): how cheap a thread-safe push-pull engine can be in
// Swift, on the two graphs of the `derived.*` rows. See README.md beside this file.
//
//   ceiling diamond N      N writes to the diamond b = 2a, c = 3a, d = b + c, one effect on d
//   ceiling chain N        N writes to a chain of 10 computations, one effect on its end
//   ceiling stress N       three threads: two write, one makes and drops nodes (N rounds)
//   ceiling check          all three, small, with their checks (CI)
//
// Instructions per write: run a case under callgrind at two N and divide the difference
// (Benchmarks/Scripts/ceiling.sh). Exits with status 1 if a check fails.
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@inline(never) func consume(_ value: Int) { sink.value &+= value }
final class Box: @unchecked Sendable { var value = 0 }
let sink = Box()

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition {
    print("FAILED: \(message())")
    exitCode = 1
  }
}
nonisolated(unsafe) var exitCode: Int32 = 0

func diamond(writes: Int) {
  let a = Signal(0)
  let computations = Box()
  let b = Computed {
    computations.value += 1
    return a.value &* 2
  }
  let c = Computed { a.value &* 3 }
  let d = Computed { b.value &+ c.value }
  let runs = Box()
  let seen = Box()
  let effect = Effect {
    seen.value &+= d.value
    runs.value += 1
  }
  for i in 0..<writes { a.value = i &+ 1 }
  check(runs.value == writes + 1, "diamond: the effect ran \(runs.value) times, not \(writes + 1)")
  check(computations.value == writes + 1, "diamond: b computed \(computations.value) times, not \(writes + 1)")
  check(seen.value == (0...writes).reduce(0) { $0 &+ 5 &* $1 }, "diamond: the effect saw wrong values")
  effect.cancel()
  a.value = -1
  check(runs.value == writes + 1, "diamond: a cancelled effect ran")
}

func chain(writes: Int) {
  let a = Signal(0)
  var last = Computed { a.value &+ 1 }
  for _ in 1..<10 {
    let previous = last
    last = Computed { previous.value &+ 1 }
  }
  let end = last
  let runs = Box()
  let seen = Box()
  let effect = Effect {
    seen.value = end.value
    runs.value += 1
  }
  for i in 0..<writes { a.value = i &+ 1 }
  check(runs.value == writes + 1, "chain: the effect ran \(runs.value) times, not \(writes + 1)")
  check(seen.value == writes &+ 10, "chain: the effect saw \(seen.value), not \(writes + 10)")
  effect.cancel()
}

/// Two threads write two signals of one graph while a third makes and drops
/// computations and effects that read it; at the end every value and the last run of
/// every effect agree with the signals. Under ThreadSanitizer this is the race check.
func stress(rounds: Int) {
  let a = Signal(0)
  let x = Signal(0)
  let b = Computed { a.value &* 2 }
  let c = Computed { x.value &* 3 }
  let d = Computed { b.value &+ c.value }
  // Reads a conditionally: its dependencies change from run to run.
  let e = Computed { d.value % 2 == 0 ? d.value &+ a.value : d.value }
  let lastSeen = Locked()
  let effect = Effect { lastSeen.set(e.value) }
  DispatchQueue.concurrentPerform(iterations: 3) { worker in
    switch worker {
    case 0: for i in 1...rounds { a.value = i }
    case 1: for i in 1...rounds { Graph.batch {
          x.value = -i
          x.value = i
        } }
    default:
      for i in 0..<rounds / 10 {
        let f = Computed { e.value &+ i }
        let seen = Box()
        let g = Effect { seen.value = f.value }
        _ = f.value
        g.cancel()
      }
    }
  }
  let expectedD = rounds &* 2 &+ rounds &* 3
  check(d.value == expectedD, "stress: d is \(d.value), not \(expectedD)")
  let expectedE = expectedD % 2 == 0 ? expectedD &+ rounds : expectedD
  check(e.value == expectedE, "stress: e is \(e.value), not \(expectedE)")
  check(lastSeen.get() == expectedE, "stress: the effect last saw \(lastSeen.get()), not \(expectedE)")
  effect.cancel()
}

/// An Int behind a lock of its own (the effect of the stress case runs on both writing
/// threads).
final class Locked: @unchecked Sendable {
  private var value = 0
  private let lock = DispatchSemaphore(value: 1)
  func set(_ new: Int) {
    lock.wait()
    value = new
    lock.signal()
  }
  func get() -> Int {
    lock.wait()
    defer { lock.signal() }
    return value
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let count = arguments.count > 1 ? Int(arguments[1]) ?? 1000 : 1000
switch arguments.first {
case "diamond": diamond(writes: count)
case "chain": chain(writes: count)
case "stress": stress(rounds: count)
case "check":
  diamond(writes: 1000)
  chain(writes: 1000)
  stress(rounds: 2000)
  if exitCode == 0 { print("ceiling: every check passed") }
default:
  print("usage: ceiling diamond|chain|stress [N] | ceiling check")
  exitCode = 2
}
exit(exitCode)

import CTestHeapStats
import Foundation
import Testing
@_spi(Testing) @testable import Tracking

/// A million cycles of the two patterns an app repeats all day — start an observation
/// and cancel it; install a one-shot tracking and fire it — on one object, with memory
/// flat: the object's installed observers and the process heap are measured at
/// checkpoints (measured, not timed: nothing here depends on speed).
///
/// The full soak (10⁶ cycles each, heap checked) runs when `TRACKING_SOAK=1`, in its own
/// process so that no other test allocates meanwhile:
///
///     TRACKING_SOAK=1 swift test --enable-all-traits --filter Soak
///
/// Without it (as part of the whole suite, where other tests share the heap), each
/// test runs 20 000 cycles and checks everything but the heap.
@Suite("Soak", .serialized)
struct SoakTests {
  static let isFull = ProcessInfo.processInfo.environment["TRACKING_SOAK"] == "1"
  static let cycles = isFull ? 1_000_000 : 20_000
  /// Cycles run before the heap's baseline is taken (caches, arrays at their capacity).
  static let warmUp = cycles / 100
  static let checkpoints = 10
  /// The most the heap may grow past its baseline. A leak of one byte per cycle would
  /// be four times this; a leaked observer (≥ 48 bytes) per cycle, two hundred times.
  static let heapBound = 256 * 1024

  /// Counts callbacks; touched only by the test's thread (callbacks run synchronously
  /// on the mutating thread), hence unchecked.
  final class Tally: @unchecked Sendable {
    var count = 0
  }

  /// What a soak measured.
  struct Readings {
    var baseline = 0
    var heap: [Int] = []
    var entries: [Int] = []
    var growth: Int { (heap.max() ?? baseline) - baseline }
  }

  /// Runs `cycle` `cycles` times after the warm-up, reading the heap and the object's
  /// installed observers at each checkpoint.
  static func soak(_ object: AnyObject, _ cycle: () -> Void) -> Readings {
    for _ in 0..<warmUp { cycle() }
    var readings = Readings(baseline: tracking_test_heap_bytes_in_use())
    let stride = cycles / checkpoints
    for _ in 0..<checkpoints {
      for _ in 0..<stride { cycle() }
      readings.heap.append(tracking_test_heap_bytes_in_use())
      readings.entries.append(ObservedMaskTests.entryCount(of: object))
    }
    return readings
  }

  static func expectFlat(_ readings: Readings, _ name: String) {
    #expect(readings.entries.allSatisfy { $0 == 0 }, "\(name): observers left installed \(readings.entries)")
    guard isFull, readings.baseline > 0 else { return }
    print("soak \(name): \(cycles) cycles, heap baseline \(readings.baseline) B, largest growth \(readings.growth) B")
    #expect(
      readings.growth <= heapBound,
      "\(name): heap grew by \(readings.growth) B over \(cycles) cycles (baseline \(readings.baseline) B, readings \(readings.heap))")
  }

  @Test func observeThenCancelLeavesMemoryFlat() {
    let counter = Counter()
    let runs = Tally()
    let readings = Self.soak(counter) {
      let token = observe { _ = counter.count; runs.count += 1 }
      token.cancel()
    }
    #expect(runs.count == Self.warmUp + Self.cycles)
    Self.expectFlat(readings, "observe → cancel")
  }

  @Test func trackThenFireLeavesMemoryFlat() {
    let counter = Counter()
    let fired = Tally()
    let readings = Self.soak(counter) {
      withTracking { _ = counter.count } onChange: { fired.count += 1 }
      counter.count &+= 1
    }
    #expect(fired.count == Self.warmUp + Self.cycles)
    Self.expectFlat(readings, "track → fire")
  }
}

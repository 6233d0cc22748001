import Testing
@testable import Tracking

/// A scope that reads many objects (a list over row models) keeps a hash index of the
/// objects it read once there are more than a few; these tests go past the points
/// where the index is built and where it grows, and check that every object is
/// recorded once, with every property read, whichever object changes.
@Suite("A scope over many objects")
struct ScopeOverManyObjectsTests {
  @Test(arguments: [3, 9, 17, 40, 500])
  func aChangeOfAnyObjectFiresTheScopeOnce(count: Int) {
    let rows = (0..<count).map { _ in Counter() }
    for changed in [0, count / 2, count - 1] {
      let fired = Tally()
      withTracking {
        for row in rows { _ = row.count }
        for row in rows.reversed() { _ = row.label }  // every object again, another property
      } onChange: { fired.increment() }
      rows[changed].label += "!"
      rows[changed].count += 1
      #expect(fired.value == 1, "row \(changed) of \(count)")
    }
  }

  @Test func eachObjectIsRecordedOnceWithEveryPropertyItsScopeRead() {
    let rows = (0..<100).map { _ in Counter() }
    let (_, reads) = AccessList.collect {
      for row in rows { _ = row.count }
      for (position, row) in rows.enumerated() where position.isMultiple(of: 2) { _ = row.label }
    }
    var objects = 0
    reads.forEach { entry in
      objects += 1
      #expect(entry.properties.contains(0))
    }
    #expect(objects == 100)
  }
}

/// Counts calls from any thread.
private final class Tally: @unchecked Sendable {
  // `@unchecked Sendable`: `count` is only touched under `lock`.
  private let lock = Locked(0)
  func increment() { lock.withLock { $0 += 1 } }
  var value: Int { lock.withLock { $0 } }
}

import Observation
import Tracking

/// How a tracking scope scales in the number of objects it reads: one scope reading
/// one property of each of N objects (a list over N row models), for N = 10 … 10 000.
/// A scope that looked up each object it read in a list of the objects read so far
/// would cost O(N²); ours keeps a hash index past a few objects, so these rows grow
/// linearly (compare each row's ours/N with the previous row's).
extension Operation {
  static func readAcrossObjects(_ count: Int) -> Operation {
    Operation(
      "read.objects.\(count)",
      "one tracking scope reading 1 property of each of \(count) objects (scope + reads + install), per scope",
      iterations: max(4, 20_000 / count), quick: 2,
      .time([
        .apple: { n, w in
          rowsLoop(n, w, count, Apple4.init) { rows in
            consume(withObservationTracking { sumOfFirst(rows) } onChange: { fire() })
          }
        },
        .ours: { n, w in
          rowsLoop(n, w, count, Ours4.init) { rows in consume(withTracking { sumOfFirst(rows) } onChange: { fire() }) }
        },
      ]))
  }

  static let scaleInObjects = [10, 100, 1_000, 10_000].map(readAcrossObjects)
}

@inline(__always)
private func sumOfFirst(_ rows: [Apple4]) -> Int { rows.reduce(0) { $0 &+ $1.p0 } }

@inline(__always)
private func sumOfFirst(_ rows: [Ours4]) -> Int { rows.reduce(0) { $0 &+ $1.p0 } }

/// `n` scopes, each over its own `count` fresh objects (made before the timer starts,
/// so that no scope finds observers left by another).
@inline(__always)
private func rowsLoop<M>(_ n: Int, _ watch: Stopwatch, _ count: Int, _ make: () -> M, _ scope: ([M]) -> Void) {
  let lists = (0..<opaque(n)).map { _ in (0..<opaque(count)).map { _ in opaque(make()) } }
  watch.start()
  for rows in lists { scope(rows) }
  watch.stop()
  consume(lists)
}

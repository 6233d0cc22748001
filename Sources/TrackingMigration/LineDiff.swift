/// A minimal line diff using Myers' O(ND) algorithm.
///
/// Produces a shortest edit script between two sequences; ``UnifiedDiff``
/// formats it. Kept free of any syntax knowledge so it can be tested alone.
public enum LineDiff {
  /// One step of an edit script. Indices refer to the old (`a`) and new (`b`) sequences.
  public enum Operation: Equatable, Sendable {
    case equal(old: Int, new: Int)
    case delete(old: Int)
    case insert(new: Int)
  }

  /// A shortest edit script turning `a` into `b`.
  public static func operations<Element: Equatable>(from a: [Element], to b: [Element]) -> [Operation] {
    let n = a.count
    let m = b.count
    let maxD = n + m
    let offset = maxD + 1
    var v = [Int](repeating: 0, count: 2 * maxD + 3)
    var trace: [[Int]] = []

    search: for d in 0...maxD {
      trace.append(v)
      for k in stride(from: -d, through: d, by: 2) {
        var x: Int
        if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
          x = v[offset + k + 1]  // move down: insertion
        } else {
          x = v[offset + k - 1] + 1  // move right: deletion
        }
        var y = x - k
        while x < n, y < m, a[x] == b[y] {
          x += 1
          y += 1
        }
        v[offset + k] = x
        if x >= n, y >= m { break search }
      }
    }

    // Walk the trace backwards to recover the path.
    var operations: [Operation] = []
    var x = n
    var y = m
    for d in stride(from: trace.count - 1, through: 0, by: -1) {
      let v = trace[d]
      let k = x - y
      let previousK = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1
      let previousX = d == 0 ? 0 : v[offset + previousK]
      let previousY = d == 0 ? 0 : previousX - previousK
      while x > previousX, y > previousY {
        x -= 1
        y -= 1
        operations.append(.equal(old: x, new: y))
      }
      if d > 0 {
        if x == previousX {
          operations.append(.insert(new: y - 1))
        } else {
          operations.append(.delete(old: x - 1))
        }
      }
      x = previousX
      y = previousY
    }
    return operations.reversed()
  }
}

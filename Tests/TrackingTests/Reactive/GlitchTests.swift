import Testing
import Tracking

/// No computation ever reads a mix of old and new inputs: every value a derived
/// closure reads during a write is recorded, and each recorded set of inputs must come
/// from one consistent state of the graph (all from before the write, or all from
/// after it).
@Suite("Glitch-free derived values")
struct GlitchTests {
  @Trackable final class Source: @unchecked Sendable {
    var value: Int
    init(_ value: Int) { self.value = value }
  }

  /// What the closures read, in order.
  final class Recorder: @unchecked Sendable {
    var reads: [[Int]] = []
  }

  @Test func diamond() {
    let a = Source(1)
    let recorder = Recorder()
    let b = Derived { a.value * 2 }
    let c = Derived { a.value * 3 }
    let d = Derived {
      let inputs = [b.value, c.value]
      recorder.reads.append(inputs)
      return inputs[0] + inputs[1]
    }
    let seen = Recorder()
    let token = observe { seen.reads.append([d.value]) }
    for value in 2...20 { a.value = value }
    withTransaction {
      a.value = 30
      a.value = 31
    }
    for inputs in recorder.reads {
      #expect(inputs[0] / 2 == inputs[1] / 3, "d read b = \(inputs[0]) and c = \(inputs[1])")
    }
    #expect(recorder.reads.count == 21)
    #expect(seen.reads.map { $0[0] } == [5] + (2...20).map { $0 * 5 } + [155])
    token.cancel()
  }

  @Test func triangle() {
    let head = Source(0)
    var links: [Derived<Int>] = []
    var previous: () -> Int = { head.value }
    for _ in 0..<10 {
      let read = previous
      let link = Derived { read() + 1 }
      links.append(link)
      previous = { link.value }
    }
    let recorder = Recorder()
    let chain = links
    let sum = Derived {
      let inputs = [head.value] + chain.dropLast().map(\.value)
      recorder.reads.append(inputs)
      return inputs.reduce(0, +)
    }
    let token = observe { _ = sum.value }
    for value in 1...30 { head.value = value }
    for inputs in recorder.reads {
      #expect(inputs == (0..<10).map { inputs[0] + $0 }, "sum read \(inputs)")
    }
    // Once per write, and the first computation.
    #expect(recorder.reads.count == 31)
    token.cancel()
  }

  @Test func cellx() {
    let layers = 40
    let start = (Source(1), Source(2), Source(3), Source(4))
    let recorder = Recorder()
    var layer: [() -> Int] = [{ start.0.value }, { start.1.value }, { start.2.value }, { start.3.value }]
    var all: [Derived<Int>] = []
    var tokens: [TrackingToken] = []
    for index in 0..<layers {
      let m = layer
      func computed(_ inputs: [Int], _ combine: @escaping ([Int]) -> Int) -> Derived<Int> {
        Derived {
          let values = inputs.map { m[$0]() }
          recorder.reads.append([index] + inputs + values)
          return combine(values)
        }
      }
      let props = [
        computed([1]) { $0[0] },
        computed([0, 2]) { $0[0] - $0[1] },
        computed([1, 3]) { $0[0] + $0[1] },
        computed([2]) { $0[0] },
      ]
      for prop in props { tokens.append(observe { _ = prop.value }) }
      all += props
      layer = props.map { prop in { prop.value } }
    }
    // The layers' values before and after the update, by hand.
    func states(_ start: [Int]) -> [[Int]] {
      var result = [start]
      for _ in 0..<layers {
        let m = result[result.count - 1]
        result.append([m[1], m[0] - m[2], m[1] + m[3], m[2]])
      }
      return result
    }
    let before = states([1, 2, 3, 4])
    let after = states([4, 3, 2, 1])
    recorder.reads = []
    withTransaction {
      start.0.value = 4
      start.1.value = 3
      start.2.value = 2
      start.3.value = 1
    }
    #expect(!recorder.reads.isEmpty)
    for read in recorder.reads {
      let index = read[0]
      let count = (read.count - 1) / 2
      let inputs = Array(read[1...count])
      let values = Array(read[(1 + count)...])
      let old = inputs.map { before[index][$0] }
      let new = inputs.map { after[index][$0] }
      #expect(values == old || values == new, "layer \(index) read \(values) (old \(old), new \(new))")
      #expect(values == new, "layer \(index) recomputed from \(values), not the new \(new)")
    }
    #expect(recorder.reads.count <= 4 * layers)
    #expect(all.last!.value == after[layers][3])
    for token in tokens { token.cancel() }
  }
}

import Tracking

/// Derived graphs, per write of their input: each derived value on a path recomputes
/// once and the one observer at the end runs once (the benchmark checks the count),
/// beside the same computation written by hand (the *plain* column: the write, then
/// the values recomputed and "rendered" directly, with no tracking at all).
extension Operation {
  static let derivedDiamond = Operation(
    "derived.diamond",
    "diamond b = 2a, c = 3a, d = b + c, one observe of d: write a; d recomputes once, the observer runs once (plain: by hand)",
    iterations: 50_000, quick: 20,
    .time([
      .plain: { n, w in
        let input = Plain4()
        w.start()
        for i in 0..<n {
          input.p0 = i &+ 1
          let a = opaque(input.p0)
          consume((a &* 2) &+ (a &* 3))
          fire()
        }
        w.stop()
      },
      .ours: { n, w in
        let input = Ours4()
        let b = Derived { input.p0 &* 2 }
        let c = Derived { input.p0 &* 3 }
        let d = Derived { b.value &+ c.value }
        let token = observe {
          consume(d.value)
          fire()
        }
        fires = 0
        w.start()
        for i in 0..<n { input.p0 = i &+ 1 }
        w.stop()
        precondition(fires == n, "expected the observer of the diamond to run once per write")
        consume(token)
      },
    ]))

  static let derivedChain = Operation(
    "derived.chain.10",
    "chain of 10 derived values, each the previous + 1, one observe of the last: write the input (plain: by hand)",
    iterations: 50_000, quick: 20,
    .time([
      .plain: { n, w in
        let input = Plain4()
        w.start()
        for i in 0..<n {
          input.p0 = i &+ 1
          var value = opaque(input.p0)
          for _ in 0..<10 { value = opaque(value &+ 1) }
          consume(value)
          fire()
        }
        w.stop()
      },
      .ours: { n, w in
        let input = Ours4()
        var links = [Derived { input.p0 &+ 1 }]
        for _ in 1..<10 {
          let previous = links[links.count - 1]
          links.append(Derived { previous.value &+ 1 })
        }
        let last = links[links.count - 1]
        let token = observe {
          consume(last.value)
          fire()
        }
        fires = 0
        w.start()
        for i in 0..<n { input.p0 = i &+ 1 }
        w.stop()
        precondition(fires == n, "expected the observer of the chain to run once per write")
        consume(token)
        consume(links)
      },
    ]))

  static let derivedGraphs = [derivedDiamond, derivedChain]
}

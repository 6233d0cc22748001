import Observation
import OpenCombine
import Tracking

// The render-graph workload: 100 views over one model, re-evaluated frame by frame
// (the `graph.frame` rows). Written once and instantiated per flavour, like the loops
// in Operations.swift.

/// Views whose callbacks fired since the last frame. Touched only by the thread
/// running the benchmark; `@unchecked Sendable` so `@Sendable` callbacks can append.
final class DirtyViews: @unchecked Sendable {
  var ids: [Int] = []
  init() { ids.reserveCapacity(100) }
}

let viewCount = 100

/// A graph of 100 views; view `v` reads property `v % 10` of one model. A frame
/// changes one property and re-evaluates every view that was invalidated.
/// Returns (re-evaluations, frames).
@inline(__always)
func renderGraph<M>(
  _ frames: Int, _ watch: Stopwatch?, _ make: () -> M,
  subscribe: (M, DirtyViews) -> [AnyObject],
  evaluate: (M, Int, DirtyViews) -> Void,
  bump: (M, Int) -> Void
) -> Int {
  let frames = opaque(frames)
  let model = opaque(make())
  let dirty = DirtyViews()
  let subscriptions = subscribe(model, dirty)
  for view in 0..<viewCount { evaluate(model, view, dirty) }
  var invalidated: [Int] = []
  invalidated.reserveCapacity(viewCount)
  var evaluations = 0
  watch?.start()
  for frame in 0..<frames {
    bump(model, frame % 10)
    swap(&invalidated, &dirty.ids)
    for view in invalidated { evaluate(model, view, dirty) }
    evaluations &+= invalidated.count
    invalidated.removeAll(keepingCapacity: true)
  }
  watch?.stop()
  consume(subscriptions)
  return evaluations
}

@inline(__always)
func graphOurs(_ frames: Int, _ watch: Stopwatch?) -> Int {
  renderGraph(frames, watch, Ours10.init, subscribe: { _, _ in [] }) { model, view, dirty in
    consume(withTracking { model.read(view % 10) } onChange: { dirty.ids.append(view) })
  } bump: { $0.bump($1) }
}

@inline(__always)
func graphApple(_ frames: Int, _ watch: Stopwatch?) -> Int {
  renderGraph(frames, watch, Apple10.init, subscribe: { _, _ in [] }) { model, view, dirty in
    consume(withObservationTracking { model.read(view % 10) } onChange: { dirty.ids.append(view) })
  } bump: { $0.bump($1) }
}

/// OpenCombine: each view subscribes to the object-wide `objectWillChange`, so every
/// change invalidates all 100 views; a re-evaluation is just the read.
@inline(__always)
func graphCombine(_ frames: Int, _ watch: Stopwatch?) -> Int {
  renderGraph(frames, watch, Combine10.init) { model, dirty in
    (0..<viewCount).map { view in model.objectWillChange.sink { dirty.ids.append(view) } }
  } evaluate: { model, view, _ in
    consume(model.read(view % 10))
  } bump: { $0.bump($1) }
}

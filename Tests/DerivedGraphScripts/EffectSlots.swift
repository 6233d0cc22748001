import Foundation

/// The effects of a world whose threads start, cancel and restart them at once
/// (`ThreadedDerivedGraphWorld`, `ScheduledDerivedGraphWorld`, `PublisherGraphWorld`):
/// for each effect, the handle that keeps it live (`nil` once cancelled), whether a new
/// one is being made, how many were made (its *generation*), and what its latest run
/// did.
///
/// A run records what it did only if its observation is still the latest: one that was
/// cancelled may still end a run on another thread, after its effect was started again.
/// Everything is under one lock.
public final class EffectSlots<Handle, Run>: @unchecked Sendable {
  private let lock = NSLock()
  private var handles: [Handle?]
  private var starting: [Bool]
  private var generations: [Int]
  private var runs: [Run]

  /// Slots for `count` effects, none live, each with `noRun` for its latest run.
  public init(count: Int, noRun: Run) {
    handles = Array(repeating: nil, count: count)
    starting = Array(repeating: false, count: count)
    generations = Array(repeating: 0, count: count)
    runs = Array(repeating: noRun, count: count)
  }

  /// Claims effect `index` for a new observation, unless it is live or being started:
  /// returns the new observation's generation.
  public func beginStart(_ index: Int) -> Int? {
    lock.withLock {
      guard handles[index] == nil, !starting[index] else { return nil }
      starting[index] = true
      generations[index] += 1
      return generations[index]
    }
  }

  /// Keeps `handle` for effect `index`, made under the lock (so that what it starts
  /// finds it kept); with `finished`, its start is over (else ``finishStart(_:_:)``
  /// ends it).
  public func keep(_ handle: @autoclosure () -> Handle, for index: Int, finished: Bool = true) {
    lock.withLock {
      handles[index] = handle()
      if finished { starting[index] = false }
    }
  }

  /// Ends the start of effect `index`, giving `update` its handle to change (`nil` if
  /// it was cancelled meanwhile).
  public func finishStart(_ index: Int, _ update: (inout Handle?) -> Void) {
    lock.withLock {
      update(&handles[index])
      starting[index] = false
    }
  }

  /// Takes effect `index`'s handle, for its cancellation.
  public func take(_ index: Int) -> Handle? {
    lock.withLock {
      defer { handles[index] = nil }
      return handles[index]
    }
  }

  /// Records what a run of effect `index`'s observation number `generation` did, if
  /// that observation is the latest.
  public func record(_ run: Run, of index: Int, generation: Int) {
    lock.withLock { if generations[index] == generation { runs[index] = run } }
  }

  /// The handles, the latest runs, and whether an effect is being started.
  public func snapshot() -> (handles: [Handle?], runs: [Run], starting: Bool) {
    lock.withLock { (handles, runs, starting.contains(true)) }
  }
}

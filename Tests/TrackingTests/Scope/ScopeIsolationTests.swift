import Testing
@_spi(Testing) @testable import Tracking

/// Work that runs on the mutating thread (a continuous callback's re-run, a derived
/// value's recomputation, a test helper's re-read) must not leak its reads into a
/// tracking scope that happens to be active there.
@Suite("Callbacks do not record into unrelated scopes")
struct ScopeIsolationTests {
  /// The bug: `observe` re-ran inside the did-set of a write made in another scope's
  /// `apply`, and its reads were merged into that scope, which then fired on changes it
  /// never read.
  @Test func anObserveRunInsideAnotherScopeDoesNotLeakItsReads() {
    let trigger = Counter()
    let watched = Counter()
    let log = EventLog()
    let token = observe {
      _ = trigger.count
      _ = watched.label  // read by the observation only
    }
    withTracking {
      trigger.count = 1  // re-runs the observation here, inside this scope
    } onChange: {
      log("the unrelated scope fired")
    }
    watched.label = "changed"
    #expect(log.events.isEmpty)
    token.cancel()
  }

  /// A one-shot tracking's `onChange`, fired by a write that a continuous observation's
  /// run makes, reads something the run never reads: the observation must not re-run
  /// when that changes. (Found by the random derived graphs: the effect ran again on a
  /// write that could not reach it.)
  @Test func aOneShotCallbackFiredInsideAnObservationsRunDoesNotLeakItsReads() {
    let written = Counter()
    let readByCallback = Counter()
    let callbackRuns = Locked(0)
    withTracking(options: .didSet, { _ = written.count }) { _ in
      callbackRuns.withLock { $0 += 1 }
      _ = readByCallback.count
    }
    let runs = Locked(0)
    let token = observe {
      runs.withLock { $0 += 1 }
      if runs.withLock({ $0 }) == 1 { written.count = 1 }  // fires the callback, in this run
    }
    #expect(callbackRuns.withLock { $0 } == 1)
    readByCallback.count = 1
    #expect(runs.withLock { $0 } == 1)
    token.cancel()
  }

  /// The same for a will-set callback fired by a write inside another tracking's
  /// `apply`: what the callback reads is not that scope's.
  @Test func aOneShotCallbackFiredInsideAnApplyDoesNotLeakItsReads() {
    let written = Counter()
    let readByCallback = Counter()
    withTracking { _ = written.count } onChange: { _ = readByCallback.count }
    let log = EventLog()
    withTracking {
      written.count = 1  // fires the first tracking's callback here, inside this scope
    } onChange: {
      log("the outer scope fired")
    }
    readByCallback.count = 1
    #expect(log.events.isEmpty)
  }

  /// An `observed` hook runs inside the first observer's run: what it reads is not
  /// that run's.
  @Test func anObservedHookDoesNotLeakItsReadsIntoTheRunThatObserved() {
    let hooked = Counter()
    let readByHook = Counter()
    let hooks = hooked.onObservation(of: \.count) { _ = readByHook.count } unobserved: {}
    let runs = Locked(0)
    let token = observe {
      runs.withLock { $0 += 1 }
      _ = hooked.count
    }
    readByHook.count = 1
    #expect(runs.withLock { $0 } == 1)
    token.cancel()
    hooks.cancel()
  }

  /// A cleanup runs where its owner ends, which may be inside another tracking's
  /// `apply`: what the cleanup reads is not that scope's, whether the owner ends by a
  /// cancellation made there or by a re-run that a write made there causes.
  @Test(arguments: [false, true])
  func aCleanupDoesNotLeakItsReadsIntoTheScopeWhereItsOwnerEnds(endsByRerun: Bool) {
    let trigger = Counter()
    let readByCleanup = Counter()
    let token = observe {
      _ = trigger.count
      onCleanup { _ = readByCleanup.count }
    }
    let log = EventLog()
    withTracking {
      if endsByRerun { trigger.count = 1 } else { token.cancel() }
    } onChange: {
      log("the unrelated scope fired")
    }
    readByCleanup.count = 1
    #expect(log.events.isEmpty)
    token.cancel()
  }
}

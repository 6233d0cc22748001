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
}

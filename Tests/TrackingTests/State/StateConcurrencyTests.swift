import Dispatch
import Testing
@_spi(Testing) import Tracking

/// Copies of state mutated on other threads and in tasks while a store is mutated.
/// Threads meet through semaphores with bounded waits; nothing sleeps.
@Suite("Struct state across threads")
struct StateConcurrencyTests {
  /// How long a handshake may take before the test gives up (it takes microseconds).
  static let handshake = DispatchTimeInterval.seconds(20)

  /// A copy is mutated on another thread in the middle of a store mutation (the store's
  /// `mutate` waits for it): the store's readers hear nothing from the copy, and hear
  /// the store's own change once, when it is stored.
  @Test(.timeLimit(.minutes(1)))
  func aCopyMutatedOnAnotherThreadDuringAStoreMutationNotifiesNoOne() {
    let store = StateStore(Feature())
    let box = UncheckedBox(store)
    let events = Events()
    withTracking { _ = store.count } onChange: { events("count") }
    withTracking { _ = store.child.value } onChange: { events("child.value \(box.value.child.value)") }
    withTracking { _ = store.child.value } didSet: { _ in events("did child.value \(box.value.child.value)") }
    let copy = store.state
    let start = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let result = Locked<Feature?>(nil)
    DispatchQueue.global().async {
      guard start.wait(timeout: .now() + Self.handshake) == .success else { return }
      var mine = copy
      mine.count = 42
      mine.child.value = 42
      mine.items.append(Item(id: 9))
      result.withLock { $0 = mine }
      done.signal()
    }
    var finished = false
    store.mutate { state in
      state.title = "mutating"
      start.signal()
      finished = done.wait(timeout: .now() + Self.handshake) == .success
      #expect(events.all.isEmpty)  // the other thread's writes notified no one
      state.child.value = 1
    }
    #expect(finished)
    #expect(events.all == ["child.value 0", "did child.value 1"])
    #expect(store.count == 0 && store.child.value == 1 && store.items.isEmpty)
    let mine = result.withLock { $0 }
    #expect(mine?.count == 42 && mine?.child.value == 42 && mine?.items.count == 1)
  }

  /// Contention: a thread mutates its copy as fast as it can while this one mutates the
  /// store, 1 000 times each. A continuous observation of the store runs exactly once
  /// per store mutation (plus its first run), and only ever sees the store's values.
  @Test(.timeLimit(.minutes(1)))
  func storeMutationsRacingCopyMutationsNotifyOncePerStoreMutation() {
    let rounds = 1_000
    let store = StateStore(Feature())
    let box = UncheckedBox(store)
    let seen = Locked<[Int]>([])
    let token = observe { seen.withLock { $0.append(box.value.child.value) } }
    let copy = store.state
    let start = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      defer { done.signal() }
      guard start.wait(timeout: .now() + Self.handshake) == .success else { return }
      var mine = copy
      for round in 1...rounds {
        mine.child.value = -round
        mine.count = round
      }
    }
    start.signal()
    for round in 1...rounds {
      store.mutate { $0.child.value = round }
    }
    #expect(done.wait(timeout: .now() + Self.handshake) == .success)
    withExtendedLifetime(token) {}
    #expect(seen.withLock { $0 } == Array(0...rounds))
  }

  /// A task started inside a mutation inherits the caller's task-local values. No
  /// notification state may travel that way: here the task mutates a copy after the
  /// mutation has returned, then mutates the store. (When the store kept its pending
  /// did-set notifications in a task-local, the copy's write ran the store's willSet
  /// callbacks and its did-set went to a list already delivered, and was lost.)
  @Test(.timeLimit(.minutes(1)))
  func aTaskStartedInsideAMutationCarriesNoPendingNotifications() async {
    let store = StateStore(Feature())
    let box = UncheckedBox(store)
    let events = Events()
    withTracking { _ = store.child.value } willSet: { _ in events("will \(box.value.child.value)") }
    withTracking { _ = store.child.value } didSet: { _ in events("did \(box.value.child.value)") }
    let gate = DispatchSemaphore(value: 0)
    var task: Task<Void, Never>?
    store.mutate { state in
      state.title = "started a task"
      let copy = state.child
      task = Task {
        guard gate.wait(timeout: .now() + Self.handshake) == .success else { return }
        var mine = copy
        mine.value = 5
        events("copy mutated")
        box.value.mutate { $0.child.value = 7 }
      }
    }
    gate.signal()
    await task?.value
    #expect(events.all == ["copy mutated", "will 0", "did 7"])
  }
}

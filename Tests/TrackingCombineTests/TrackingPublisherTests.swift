#if canImport(Combine) || OpenCombine
import DerivedGraphScripts
import Foundation
import Testing
@_spi(Testing) import Tracking
import TrackingCombine

#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif

/// A subscriber that requests only what a test tells it to.
final class DemandSubscriber<Input>: Subscriber, @unchecked Sendable {
  typealias Failure = Never
  let combineIdentifier = CombineIdentifier()
  private(set) var subscription: (any Subscription)?
  private(set) var values: [Input] = []
  /// Extra demand returned from each `receive(_:)`.
  var demandPerValue = Subscribers.Demand.none

  func receive(subscription: any Subscription) { self.subscription = subscription }
  func receive(_ input: Input) -> Subscribers.Demand {
    values.append(input)
    return demandPerValue
  }
  func receive(completion: Subscribers.Completion<Never>) {}
}

@Suite("Tracking publisher")
struct TrackingPublisherTests {
  @Test func didSetEmitsTheNewValueAfterEachChange() {
    let scene = Scene()
    let seen = Received<Int>()
    let cancellable = scene.publisher(for: \.count).sink { seen.append($0) }
    scene.count = 1
    scene.title = "unrelated"
    scene.count = 2
    scene.count = 2  // equal value: no change
    #expect(seen.values == [1, 2])
    cancellable.cancel()
  }

  @Test func didSetRunsAfterTheValueIsStored() {
    let scene = Scene()
    let seen = Received<Int>()
    let cancellable = scene.publisher(for: \.count).sink { _ in seen.append(scene.count) }
    scene.count = 5
    #expect(seen.values == [5])
    cancellable.cancel()
  }

  /// A value delivered by a write made inside a tracking's `apply`: what the
  /// subscriber reads is not recorded there.
  @Test func aSubscriberDoesNotLeakItsReadsIntoTheScopeOfTheWrite() {
    let scene = Scene()
    let cancellable = scene.publisher(for: \.count).sink { _ in _ = scene.title }
    let fired = Received<String>()
    withTracking { scene.count = 1 } onChange: { fired.append("the writer's scope fired") }
    scene.title = "read by the subscriber only"
    #expect(fired.values.isEmpty)
    cancellable.cancel()
  }

  @Test func willSetEmitsTheValueAboutToBeReplaced() {
    let scene = Scene()
    let seen = Received<String>()
    let cancellable = scene.publisher(for: \.count, timing: .willSet)
      .sink { old in seen.append("\(old) while the object holds \(scene.count)") }
    scene.count = 1
    scene.count = 2
    #expect(seen.values == ["0 while the object holds 0", "1 while the object holds 1"])
    cancellable.cancel()
  }

  @Test func keyPathChainsAreReTrackedAfterEachChange() {
    let scene = Scene()
    let first = Node(name: "first")
    let second = Node(name: "second")
    scene.child = first
    let seen = Received<String?>()
    let cancellable = scene.publisher(for: \.child?.name).sink { seen.append($0) }
    first.name = "first, renamed"
    scene.child = second
    first.name = "no longer read"
    second.name = "second, renamed"
    #expect(seen.values == ["first, renamed", "second", "second, renamed"])
    cancellable.cancel()
  }

  @Test func closurePublisherFollowsConditionalReads() {
    let scene = Scene()
    let seen = Received<String>()
    let cancellable = TrackingPublisher { scene.showsDetail ? scene.detail : "-" }
      .sink { seen.append($0) }
    scene.detail = "ignored"
    scene.showsDetail = true
    scene.detail = "read"
    #expect(seen.values == ["ignored", "read"])
    cancellable.cancel()
  }

  @Test func cancellingStopsValuesAndReleasesTheSubscriber() {
    let scene = Scene()
    let seen = Received<Int>()
    weak var weakWitness: Witness?
    var cancellable: AnyCancellable?
    do {
      let witness = Witness()
      weakWitness = witness
      cancellable = scene.publisher(for: \.count).sink { _ = witness; seen.append($0) }
    }
    scene.count = 1
    #expect(weakWitness != nil)
    cancellable?.cancel()
    #expect(weakWitness == nil)
    scene.count = 2
    #expect(seen.values == [1])
    cancellable = nil
  }

  @Test func droppingTheCancellableStopsValues() {
    let scene = Scene()
    let seen = Received<Int>()
    var cancellable: AnyCancellable? = scene.publisher(for: \.count).sink { seen.append($0) }
    scene.count = 1
    cancellable = nil
    scene.count = 2
    #expect(seen.values == [1])
    _ = cancellable
  }

  @Test func aSubscriptionDoesNotKeepTheObjectAlive() {
    weak var weakScene: Scene?
    let seen = Received<Int>()
    var cancellable: AnyCancellable?
    do {
      let scene = Scene()
      weakScene = scene
      cancellable = scene.publisher(for: \.count).sink { seen.append($0) }
      scene.count = 1
    }
    #expect(weakScene == nil)
    #expect(seen.values == [1])
    cancellable?.cancel()
  }

  @Test func valuesWaitForDemandInAOneElementBuffer() {
    let scene = Scene()
    let subscriber = DemandSubscriber<Int>()
    scene.publisher(for: \.count).subscribe(subscriber)
    scene.count = 1
    scene.count = 2  // replaces 1 in the buffer
    #expect(subscriber.values.isEmpty)
    subscriber.subscription?.request(.max(2))
    #expect(subscriber.values == [2])
    scene.count = 3  // one demand left
    scene.count = 4  // buffered
    #expect(subscriber.values == [2, 3])
    subscriber.subscription?.request(.max(1))
    #expect(subscriber.values == [2, 3, 4])
    subscriber.subscription?.cancel()
  }

  @Test func demandReturnedFromReceiveIsHonoured() {
    let scene = Scene()
    let subscriber = DemandSubscriber<Int>()
    subscriber.demandPerValue = .max(1)
    scene.publisher(for: \.count).subscribe(subscriber)
    subscriber.subscription?.request(.max(1))
    for value in 1...4 { scene.count = value }
    #expect(subscriber.values == [1, 2, 3, 4])
    subscriber.subscription?.cancel()
    scene.count = 5
    #expect(subscriber.values == [1, 2, 3, 4])
  }

  @Test func aSubscriberThatWritesTheObservedPropertyGetsTheFollowUpValue() {
    let scene = Scene()
    let seen = Received<Int>()
    let cancellable = scene.publisher(for: \.count).sink { value in
      seen.append(value)
      if value < 3 { scene.count = value + 1 }
    }
    scene.count = 1
    #expect(seen.values == [1, 2, 3])
    cancellable.cancel()
  }

  @Test func operatorsCompose() {
    let scene = Scene()
    let seen = Received<String>()
    let cancellable = scene.publisher(for: \.count)
      .filter { $0.isMultiple(of: 2) }
      .map { "even \($0)" }
      .prepend("start")
      .sink { seen.append($0) }
    for value in 1...4 { scene.count = value }
    #expect(seen.values == ["start", "even 2", "even 4"])
    cancellable.cancel()
  }

  @Test func readsInsideAnEnclosingScopeAreNotRecordedByIt() {
    let scene = Scene()
    let cancellable = scene.publisher(for: \.title).sink { _ in }
    let fired = Received<Bool>()
    // The mutation of `count` happens inside a scope; the publisher's re-tracking of
    // `title` must not become a dependency of that scope.
    withTracking { _ = scene.count; scene.title = "changed inside apply" } onChange: {
      fired.append(true)
    }
    scene.title = "again"
    #expect(fired.values.isEmpty)
    cancellable.cancel()
  }

  /// The publisher's closure writes an input of a derived value it read: the write
  /// emits nothing, and each later change of the other input still emits (the run's end
  /// brings the derived value up to date, as for `observe`).
  @Test func aClosureThatWritesAnInputOfADerivedValueItReadEmitsForLaterChanges() {
    let scene = Scene()
    let detailed = Derived { scene.showsDetail ? scene.count : -scene.count }
    let seen = Received<Int>()
    let cancellable = TrackingPublisher { () -> Int in
      let value = detailed.value
      scene.count = 5
      return value
    }.sink { seen.append($0) }
    #expect(seen.values == [])
    scene.showsDetail = true
    scene.showsDetail = false
    #expect(seen.values == [5, -5])
    cancellable.cancel()
  }

  /// A change from another thread arrives while a run is under way: the run's end runs
  /// the closure again at once, inside the first run's delivery, and that second run's
  /// value (the newer) is offered first. The first run's value, offered after it, is
  /// older and must not reach the subscriber: the last value it gets is the latest.
  /// (Before runs were numbered, the subscriber got 2, then 1.)
  @Test func aValueReadBeforeAChangeFromAnotherThreadIsNotDeliveredAfterTheNewerOne() {
    let cell = LockedCell()
    let seen = Received<Int>()
    let calls = Locked(0)
    let cancellable = TrackingPublisher { () -> Int in
      let value = cell.value
      // The run after the first change: another thread writes while it is under way.
      if calls.withLock({ calls in
        calls += 1
        return calls == 2
      }) {
        let written = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
          cell.value = 2
          written.signal()
        }
        written.wait()
      }
      return value
    }.sink { seen.append($0) }
    cell.value = 1
    #expect(seen.values == [2])
    #expect(cell.untrackedValue == 2)
    cancellable.cancel()
  }
}
#endif

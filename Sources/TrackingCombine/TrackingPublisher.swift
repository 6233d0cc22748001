#if canImport(Combine) || OpenCombine
#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif
import Tracking

/// A publisher of the values of a closure over tracked state, emitted on every change
/// of what the closure read: Combine's (or OpenCombine's) view of a tracking.
///
/// The closure is `@Sendable`, so it captures `Sendable` models (here `cart`); for
/// any other model, use the key-path form, `model.publisher(for: \.count)`.
///
/// ```swift
/// let cancellable = TrackingPublisher { (cart.items.count, cart.coupon) }
///   .sink { count, coupon in render(count, coupon) }
/// cart.coupon = "TEA"        // emits (0, "TEA") synchronously, on this thread
/// ```
///
/// - **What is emitted.** With ``TrackedChangeTiming/didSet`` (the default), the
///   closure's value after each change — the new value. With
///   ``TrackedChangeTiming/willSet``, the closure's value just before each change — the
///   value about to be replaced. (Combine's `@Published` publisher emits the *new*
///   value during `willSet`; our runtime does not know the new value at that point.)
/// - **No initial value.** Only changes are emitted; prepend the current value
///   (`.prepend(model.count)`) if you need it.
/// - **When.** Synchronously, on the thread that makes the change, one value per
///   change (no transactions: three assignments emit three values). Each emission
///   re-runs the closure tracked, so reads behind conditions are followed.
/// - **Changes on several threads at once.** The closure's runs happen one at a time,
///   and a `.didSet` subscriber gets their values in the order of the runs: a value
///   that a run read before another run's newer one was delivered is dropped, so the
///   last value the subscriber gets is always what the closure returns once the
///   changes are over.
/// - **Demand.** Values are delivered only against demand. While the subscriber has
///   no demand, the latest value is kept in a one-element buffer (older ones are
///   dropped) and delivered when demand arrives.
/// - **Lifetime.** The subscription's tracking is cancelled, and everything it holds
///   released, when the subscription is cancelled. Pending trackings never keep the
///   observed objects alive; the key-path form does not keep its object alive either.
/// - **Threads.** The closure runs on the mutating thread, so it must be safe to call
///   wherever the state it reads is mutated — the same rule as the state's own setters.
public struct TrackingPublisher<Output>: Publisher {
  /// A tracking never fails.
  public typealias Failure = Never

  /// When this publisher emits.
  public let timing: TrackedChangeTiming

  /// Reads the current value, or returns `nil` when the source is gone (the object
  /// of a key-path publisher was released): nothing more is emitted or tracked.
  let read: @Sendable () -> Output?

  /// A publisher of the values of `value`, emitted after (or just before) each change
  /// of the tracked properties it read.
  public init(timing: TrackedChangeTiming = .didSet, _ value: @escaping @Sendable () -> Output) {
    self.timing = timing
    self.read = { value() }
  }

  init(timing: TrackedChangeTiming, reading read: @escaping @Sendable () -> Output?) {
    self.timing = timing
    self.read = read
  }

  /// Attaches `subscriber` and starts tracking.
  public func receive<Downstream: Subscriber>(subscriber: Downstream)
  where Downstream.Input == Output, Downstream.Failure == Never {
    let subscription = TrackingSubscription(timing: timing, read: read, downstream: subscriber)
    subscriber.receive(subscription: subscription)
    subscription.start()
  }
}

extension Trackable {
  /// A publisher of the values of one property (or key-path chain) of this object,
  /// emitted on each change: Combine's `$property` for a ``Trackable()`` class.
  ///
  /// ```swift
  /// model.publisher(for: \.count)                    // the new value, after each change
  ///   .sink { print("count is now", $0) }
  /// model.publisher(for: \.count, timing: .willSet)  // the old value, before each change
  ///   .sink { print("count was", $0) }
  /// ```
  ///
  /// A chain such as `\.selection.title` is followed: replacing `selection` or changing
  /// the selected object's `title` both emit. See ``TrackingPublisher`` for demand,
  /// threading and lifetime. The publisher holds the object weakly: once the object is
  /// released, nothing more is emitted.
  public func publisher<Value>(
    for keyPath: KeyPath<Self, Value>, timing: TrackedChangeTiming = .didSet
  ) -> TrackingPublisher<Value> {
    // Applied on whatever thread mutates the object, as its own setters are.
    // A tracked collection is read as a whole: an in-place edit of one element emits.
    let read: () -> Value? = { [weak self] in
      let value = self?[keyPath: keyPath]
      WholeValueReads.record(value as Any)
      return value
    }
    let reader = UncheckedSendable(read)
    return TrackingPublisher(timing: timing) { reader.value() }
  }
}
#endif

#if canImport(Combine) || OpenCombine
#if canImport(Combine)
  import Combine
#else
  import OpenCombine
#endif
@_spi(Testing) import Tracking

/// A tracked stand-in for one `ObservableObject`: reading ``version`` inside a tracking
/// scope records a dependency through the ordinary registrar, and the object's
/// `objectWillChange` announces a change of it. Everything built on tracking
/// (`withTracking`, `observe`, `TrackedValues`, `RenderLoop`) therefore sees legacy
/// models without any change to the runtime.
///
/// Lifetime: the beacon is owned by the subscriber it attaches to `objectWillChange`,
/// which the object's publisher owns, which the object owns. The table of beacons only
/// refers to it weakly, so beacon and subscription go away with the object.
/// `@unchecked Sendable`: it holds only its registrar, which is `Sendable`.
package final class ChangeBeacon: Trackable, @unchecked Sendable {
  private let registrar = TrackingRegistrar()

  /// A tracked property with no value of its own; reading it records the dependency.
  package var version: Void {
    registrar.access(self, keyPath: \ChangeBeacon.version)
  }

  /// Notifies the trackings that read ``version``: their `willSet` and their `didSet`
  /// callbacks run now, because `objectWillChange` is the only signal a legacy object
  /// gives.
  func announce() {
    registrar.withMutation(of: self, keyPath: \ChangeBeacon.version) {}
  }

  /// The number of trackings installed on this beacon, for tests.
  package var installedObserverCount: Int { registrar.installedObserverCount }
}

/// Attaches a ``ChangeBeacon`` to an `objectWillChange` publisher.
///
/// It deliberately does not keep its subscription: the publisher keeps the subscription,
/// the subscription keeps this subscriber, and so the beacon lives exactly as long as
/// the publisher does.
final class BeaconSubscriber<Input>: Subscriber {
  typealias Failure = Never

  let combineIdentifier = CombineIdentifier()
  private let beacon: ChangeBeacon

  init(_ beacon: ChangeBeacon) {
    self.beacon = beacon
  }

  func receive(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    beacon.announce()
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {}
}

/// The process-wide table from `ObservableObject`s to their beacons. It holds objects
/// and beacons only weakly; entries whose object died are swept when the table has
/// doubled since the last sweep.
package enum ChangeBeacons {
  private struct Entry {
    weak var object: AnyObject?
    weak var beacon: ChangeBeacon?
  }

  private struct Table {
    var entries: [ObjectIdentifier: Entry] = [:]
    var sweepThreshold = 64
  }

  private static let table = Locked(Table())

  /// The beacon of `object`, attaching one to its `objectWillChange` on first use.
  ///
  /// The table's lock only guards the table: subscribing runs the object's publisher
  /// (user code, which may emit at once and so run tracking callbacks), so it happens
  /// after the lock is released. A thread that finds the beacon meanwhile uses it; the
  /// subscription follows at once.
  package static func beacon<Object: ObservableObject>(for object: Object) -> ChangeBeacon {
    let key = ObjectIdentifier(object)
    let (beacon, isNew) = table.withLock { table -> (ChangeBeacon, Bool) in
      if let entry = table.entries[key], entry.object === object, let beacon = entry.beacon {
        return (beacon, false)
      }
      let beacon = ChangeBeacon()
      if table.entries.count >= table.sweepThreshold {
        table.entries = table.entries.filter { $0.value.object != nil && $0.value.beacon != nil }
        table.sweepThreshold = Swift.max(64, table.entries.count * 2)
      }
      table.entries[key] = Entry(object: object, beacon: beacon)
      return (beacon, true)
    }
    if isNew {
      object.objectWillChange.subscribe(BeaconSubscriber<Object.ObjectWillChangePublisher.Output>(beacon))
    }
    return beacon
  }

  /// Whether `object` has a live beacon (without attaching one); for tests.
  package static func hasBeacon(for object: AnyObject) -> Bool {
    table.withLock { table in
      guard let entry = table.entries[ObjectIdentifier(object)] else { return false }
      return entry.object === object && entry.beacon != nil
    }
  }
}
#endif

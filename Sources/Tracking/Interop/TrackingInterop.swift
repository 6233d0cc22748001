import CTrackingSupport

#if canImport(Observation)
  import Observation
#endif

/// Switches for working together with Apple's `Observation` module.
///
/// Both directions cost something, so both are off by default where no UI framework
/// needs them (on Linux, for instance), and each can be turned on at any time:
///
/// - ``relaysToAppleObservation``: objects made by ``Trackable()`` also report their
///   reads and writes to an Apple `ObservationRegistrar`, so Apple's
///   `withObservationTracking`, `Observations` and SwiftUI see them. Every read then
///   pays Apple's price as well as ours. On by default where SwiftUI exists.
/// - ``observesAppleObservables``: ``withTracking(_:onChange:)`` and everything built
///   on it, continuous observations and ``Derived`` values also notice changes of Apple
///   `@Observable` objects read inside them, by running the scope inside Apple's
///   `withObservationTracking`. Every scope then pays Apple's full tracking cycle. Off
///   by default.
///
/// Where `Observation` cannot be imported (or the OS is older than Apple's module),
/// both switches read `false` and setting them does nothing.
public enum TrackingInterop {
  private static let relayBit = 1
  private static let appleScopesBit = 2
  /// Set once the app has set ``relaysToAppleObservation`` itself.
  private static let userChoseRelayingBit = 4

  /// Whether reads and writes of tracked properties are relayed to Apple's
  /// `ObservationRegistrar`.
  ///
  /// An app's own choice always wins over the platform default: setting this before
  /// any tracked object exists is not undone when the first one is made.
  public static var relaysToAppleObservation: Bool {
    get {
      _ = applyDefaults
      return isRelaying
    }
    set {
      setFlag(userChoseRelayingBit, true)
      setFlag(relayBit, newValue)
    }
  }

  /// Whether tracking scopes also observe Apple `@Observable` objects.
  ///
  /// Continuous observations and ``Derived`` values notice them too.
  ///
  /// Apple's one-shot tracking cannot be cancelled: after one of our scopes fires
  /// through one of our objects, the Apple tracking it installed stays pending until
  /// the Apple property it read changes (and then does nothing).
  /// Apple's public API reports only will-set changes, so a did-set callback fired by
  /// an Apple object runs before that object's value changes, and its
  /// ``TrackingEvent`` names no object or property. A continuous observation schedules
  /// its run on its closure's actor instead, and a derived value that read an Apple
  /// object is not cached after its change until one of its own inputs changes.
  ///
  /// With ``relaysToAppleObservation`` on as well, Apple's tracking also sees this
  /// library's objects. Their changes still arrive once, through this library's own
  /// observers. They also use up Apple's tracking, though. A tracking that also read an
  /// Apple object then stops watching it, if the change of ours fired nothing (a
  /// derived value recomputed to an equal value). It watches it again from its next run.
  public static var observesAppleObservables: Bool {
    get { tracking_interop_flags() & appleScopesBit != 0 }
    set { setFlag(appleScopesBit, newValue) }
  }

  @inlinable
  static var isRelaying: Bool {
    isRelaying(tracking_interop_flags())
  }

  /// Whether `flags`, the interop switches as a caller loaded them, relay reads and
  /// writes to Apple's registrar.
  @inlinable @inline(__always)
  static func isRelaying(_ flags: Int) -> Bool {
    flags & 1 != 0
  }

  private static func setFlag(_ bit: Int, _ on: Bool) {
    guard isAvailable else { return }
    tracking_interop_set_flag(bit, on)
  }

  /// Whether Apple's `Observation` module can be used on this system.
  public static var isAvailable: Bool {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) { return true }
    #endif
    return false
  }

  /// Applies the platform default (relaying on where SwiftUI can be imported) once,
  /// when the first registrar is made or the switch is first read.
  static let applyDefaults: Void = {
    #if canImport(SwiftUI)
      applyDefault(relaying: true)
    #endif
  }()

  /// Turns relaying to `relaying` unless the app has chosen for itself (one
  /// compare-and-swap, so a choice made at the same moment on another thread wins).
  package static func applyDefault(relaying: Bool) {
    guard isAvailable else { return }
    while true {
      let flags = tracking_interop_flags()
      guard flags & userChoseRelayingBit == 0 else { return }
      let desired = relaying ? flags | relayBit : flags & ~relayBit
      if tracking_interop_cas_flags(flags, desired) { return }
    }
  }

  /// Forgets the app's choice of relaying (tests of the default only).
  package static func forgetRelayingChoice() {
    tracking_interop_set_flag(userChoseRelayingBit, false)
  }

  // MARK: Relaying our objects to Apple

  /// Whether the calling thread is relaying a will-set of one of our objects: an Apple
  /// `onChange` running now was fired by our object, which reports its change to our
  /// own observers too (and then a did-set).
  static var isRelayingOwnChange: Bool { tracking_relaying_own_change() != 0 }

  @usableFromInline
  enum RelayEvent { case access, willSet, didSet }

  @usableFromInline
  static func relayAccess(_ storage: RegistrarStorage, _ id: Int) { relay(.access, storage, id) }

  @usableFromInline
  static func relayWillSet(_ storage: RegistrarStorage, _ id: Int) { relay(.willSet, storage, id) }

  @usableFromInline
  static func relayDidSet(_ storage: RegistrarStorage, _ id: Int) { relay(.didSet, storage, id) }

  /// Reports one event of property `id` of the object owning `storage` to Apple's
  /// registrar, through the object's ``AppleRelay``.
  private static func relay(_ event: RelayEvent, _ storage: RegistrarStorage, _ id: Int) {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        AppleRelay.of(storage)._withUnsafeGuaranteedRef { relay in
          relay.withKeyPath(id) { keyPath in
            switch event {
            case .access: relay.registrar.access(relay, keyPath: keyPath)
            case .willSet:
              // Nested relays (an `onChange` that writes) restore what they found.
              let outer = tracking_relaying_own_change()
              tracking_set_relaying_own_change(1)
              defer { tracking_set_relaying_own_change(outer) }
              relay.registrar.willSet(relay, keyPath: keyPath)
            case .didSet: relay.registrar.didSet(relay, keyPath: keyPath)
            }
          }
        }
      }
    #endif
  }

  // MARK: Apple objects inside our scopes

  /// ``track(_:observer:)`` with Apple's objects observed too.
  ///
  /// The observer is made before `apply` runs (Apple's `onChange` must be able to reach
  /// it). It is returned only if `apply` read something: one of our objects (then it is
  /// installed on them), or an Apple object — which Apple's tracking tells by evaluating
  /// its `onChange` argument only when something was read. A scope that read nothing
  /// gets no observer, as on the common path.
  @usableFromInline
  static func trackIncludingApple<T, Failure: Error>(
    _ apply: () throws(Failure) -> T,
    observer makeObserver: () -> TrackingObserver
  ) throws(Failure) -> (value: T, observer: TrackingObserver?) {
    // Unchecked: an observer is safe to share across threads (see TrackingObserver);
    // Apple's `onChange` is `@Sendable` and only calls its thread-safe notify.
    let observer = UncheckedSendable(makeObserver())
    var ((result, list), readApple) = withAppleTracking(
      {
        AccessList.collect { () -> Result<T, Failure> in
          do throws(Failure) { return .success(try apply()) } catch { return .failure(error) }
        }
      }, onChange: { observer.value.notifyExternalChange() })
    let value = try result.get()
    if !list.isEmpty {
      list.installReporting(observer.value)
    } else if !readApple {
      observer.value.cancel()
      return (value, nil)
    }
    return (value, observer.value)
  }

  /// Runs `apply` inside Apple's `withObservationTracking`: `onChange` is called once,
  /// on the mutating thread, in the will-set of the first Apple `@Observable` property
  /// that `apply` read (Apple's public API reports nothing after a change). Returns
  /// `apply`'s value and whether it read any Apple property (if not, `onChange` is never
  /// called). Where Apple's module is unavailable, only runs `apply`.
  ///
  /// Apple's tracking cannot be cancelled: until that property changes, `onChange` stays
  /// registered with the Apple object, so it should hold what it reaches weakly.
  ///
  /// With relaying on, Apple's tracking also sees our own objects (read by `apply`, or
  /// by a node run nested in it). Their changes reach our observers through our
  /// registrars, so `onChange` is not called for them. They spend Apple's tracking all
  /// the same: an Apple object read by `apply` is no longer watched if that change of
  /// ours fires nothing (a derived value recomputed to an equal value).
  static func withAppleTracking<T>(
    _ apply: () -> T, onChange: @escaping @Sendable () -> Void
  ) -> (value: T, readApple: Bool) {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        var readApple = false
        // Apple evaluates its `onChange` argument only when `apply` read something.
        func callback() -> @Sendable () -> Void {
          readApple = true
          return { if !isRelayingOwnChange { onChange() } }
        }
        let value = Observation.withObservationTracking(apply, onChange: callback())
        return (value, readApple)
      }
    #endif
    return (apply(), false)
  }
}

#if canImport(Observation)
  /// Stands in for one of our objects in Apple's registrar: property `id` of the
  /// object is `\AppleRelay.p<id>` here (`\AppleRelay[property: id]` from 64 on).
  /// One relay per object, made on first use and owned by the object's registrar
  /// storage (its published `appleRelay` word). `@unchecked Sendable`: it holds only
  /// Apple's registrar, which is `Sendable`, and the immutable key path table.
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  final class AppleRelay: Observation.Observable, @unchecked Sendable {
    let registrar = ObservationRegistrar()

    subscript(property id: Int) -> Int { id }

    /// The relay of the object owning `storage`, made on first use. Once made it is
    /// published in the storage's `appleRelay` word, which holds the relay's one
    /// reference (released when the storage goes), and read from there without the
    /// lock.
    @inline(__always)
    static func of(_ storage: RegistrarStorage) -> Unmanaged<AppleRelay> {
      let published = tracking_atomic_load_acquire(&storage.sync.pointee.appleRelay)
      if let pointer = UnsafeRawPointer(bitPattern: published) {
        return Unmanaged.fromOpaque(pointer)
      }
      return make(for: storage)
    }

    /// Makes the relay under the storage's lock, unless another thread just did.
    @inline(never)
    private static func make(for storage: RegistrarStorage) -> Unmanaged<AppleRelay> {
      storage.withLock { _ in
        let published = tracking_atomic_load_acquire(&storage.sync.pointee.appleRelay)
        if let pointer = UnsafeRawPointer(bitPattern: published) {
          return Unmanaged.fromOpaque(pointer)
        }
        let relay = Unmanaged.passRetained(AppleRelay())
        tracking_atomic_store_release(&storage.sync.pointee.appleRelay, Int(bitPattern: relay.toOpaque()))
        return relay
      }
    }

    /// Key paths of the properties the macro numbers with small identifiers (below 64;
    /// see AppleRelayKeyPaths.swift), made once and never released. Every relay holds
    /// the table, so that a relayed read finds its key path with neither a once-check
    /// nor a retain.
    nonisolated(unsafe) private static let commonTable: UnsafePointer<Unmanaged<KeyPath<AppleRelay, Int>>> = {
      let table = UnsafeMutablePointer<Unmanaged<KeyPath<AppleRelay, Int>>>.allocate(capacity: 64)
      for (id, keyPath) in AppleRelay.makeCommonKeyPaths().enumerated() {
        (table + id).initialize(to: .passRetained(keyPath))
      }
      return UnsafePointer(table)
    }()

    /// ``commonTable``, read once when the relay is made.
    private let common = AppleRelay.commonTable

    /// Key paths of other identifiers, made on first use.
    private static let otherKeyPaths = Locked<[Int: KeyPath<AppleRelay, Int>]>([:])

    /// Calls `body` with the key path of property `id`. Key paths are made once per
    /// identifier and reused, so that Apple's registrar sees equal keys for every read
    /// and write of one property.
    @inline(__always)
    func withKeyPath(_ id: Int, _ body: (KeyPath<AppleRelay, Int>) -> Void) {
      if id >= 0 && id < 64 {
        common[id]._withUnsafeGuaranteedRef(body)
      } else {
        body(Self.otherKeyPath(id))
      }
    }

    @inline(never)
    private static func otherKeyPath(_ id: Int) -> KeyPath<AppleRelay, Int> {
      otherKeyPaths.withLock { cache in
        if let keyPath = cache[id] { return keyPath }
        let keyPath = \AppleRelay[property: id]
        cache[id] = keyPath
        return keyPath
      }
    }
  }
#endif

import CTrackingSupport

/// Records reads of an object's properties and notifies the trackings that depend
/// on them when they change.
///
/// The ``Trackable()`` macro gives each class one registrar and routes its tracked
/// properties through it; you call a registrar yourself only when writing a tracked
/// type by hand.
///
/// Properties are identified by small integers that the macro assigns (0, 1, 2, …),
/// which is what keeps the hot path cheap: a read outside any tracking is one
/// thread-local load and a branch; a write with no observers is one relaxed atomic
/// load. The key-path entry points accept any key path and number it on first use.
///
/// A registrar is a reference to shared storage: copies refer to the same observers.
/// It is `Sendable`; every entry point may be called from any thread. (`@unchecked`
/// because its storage is a `ManagedBuffer`, which cannot be declared `Sendable`; the
/// storage's concurrency rules are in `RegistrarStorage`.)
public struct TrackingRegistrar: @unchecked Sendable {
  @usableFromInline
  let storage: RegistrarStorage

  /// Creates a registrar with no observers.
  public init() {
    storage = RegistrarStorage.make()
    #if canImport(SwiftUI)
      TrackingInterop.applyDefaults
    #endif
  }

  /// A registrar over existing storage: for callers that hold the storage borrowed
  /// (`StateObservation`).
  @inlinable @inline(__always)
  init(storage: RegistrarStorage) {
    self.storage = storage
  }

  // MARK: Numbered properties (the macro's entry points)

  /// Records a read of property `id` in the current tracking scope, if there is one.
  ///
  /// - Parameters:
  ///   - subject: The object being read.
  ///   - id: The property's number within this registrar.
  ///   - keyPath: The property's key path; evaluated only when interop with Apple's
  ///     `Observation` needs it.
  @inlinable @inline(__always)
  public func access<Subject: Trackable, Member>(
    _ subject: Subject, property id: Int, keyPath: @autoclosure () -> KeyPath<Subject, Member>
  ) {
    // One test on the common path: no scope on this thread and no interop (LLVM may
    // branch on each word; see RESULTS.md, "A read made again in a scope"). The interop
    // switches, loaded once for that test, also say whether to relay the read.
    let scope = CurrentScope.raw
    let interop = tracking_interop_flags()
    if _slowPath(CurrentScope.readNeedsRecording(scope, interop: interop)) {
      recordAccess(subject, property: id, scope: scope, relaying: TrackingInterop.isRelaying(interop)) {
        Self.reportUntrackedRead(subject, id, keyPath)
      }
    }
  }

  /// Reports a read of property `id` made in a region that requires tracking, outside
  /// any tracking. Out of line, so that the part of every read inlined at its call site
  /// stays small: the key path is made only here.
  @usableFromInline @inline(never)
  static func reportUntrackedRead<Subject: Trackable, Member>(
    _ subject: Subject, _ id: Int, _ keyPath: () -> KeyPath<Subject, Member>
  ) {
    RequiredTracking.reportUntrackedRead(subject, keyPath(), name: Subject.trackedPropertyName(id))
  }

  /// The part of ``access(_:property:keyPath:)`` that runs inside a tracking scope or
  /// with interop on, given the scope slot as the caller loaded it and whether reads
  /// are relayed to Apple's registrar (`relaying`, from the switches the caller
  /// loaded: loaded again here, after a call, they cost a load and a test more on
  /// every read in a scope); in a region that requires tracking (and outside any
  /// tracking), `reportUntracked` reports the read.
  /// The one place a read is recorded: state values' registrars come here too.
  /// Inlined: reads inside scopes are the common case in views, and an out-of-line
  /// call cost them about 25 instructions each (the rare paths it calls, reporting and
  /// relaying, are out of line already). A read the scope has made already (a loop, a
  /// value read in several places) costs one comparison and one bit test here, and no
  /// call.
  @inlinable @inline(__always)
  func recordAccess<Subject: Trackable>(
    _ subject: Subject, property id: Int, scope: UnsafeMutableRawPointer?, relaying: Bool,
    reportUntracked: () -> Void
  ) {
    if let scope {
      if _fastPath(scope != CurrentScope.requiredMarker) {
        if !AccessList.hasRead(in: scope, storage, id) { AccessList.record(into: scope, storage, id, type: Subject.self) }
      } else {
        reportUntracked()
      }
    }
    if _slowPath(relaying) {
      TrackingInterop.relayAccess(storage, id)
    }
  }

  /// Notifies the trackings that read property `id` that it is about to change.
  ///
  /// Runs one-shot `onChange` callbacks now, on this thread, before the new value is
  /// stored. A property never read inside a tracking scope costs one load here.
  @inlinable @inline(__always)
  public func willSet<Subject: Trackable, Member>(
    _ subject: Subject, property id: Int, keyPath: @autoclosure () -> KeyPath<Subject, Member>
  ) {
    if storage.isRead(id) {
      storage.willSet(id, subject: subject) {
        ChangeSite(objectID: ObjectIdentifier(subject), objectType: Subject.self, propertyID: id, keyPath: keyPath())
      }
    }
    if _slowPath(TrackingInterop.isRelaying) {
      TrackingInterop.relayWillSet(storage, id)
    }
  }

  /// Notifies the trackings that read property `id` that it has changed.
  @inlinable @inline(__always)
  public func didSet<Subject: Trackable, Member>(
    _ subject: Subject, property id: Int, keyPath: @autoclosure () -> KeyPath<Subject, Member>
  ) {
    if storage.isRead(id) {
      storage.didSet(id, subject: subject) {
        ChangeSite(objectID: ObjectIdentifier(subject), objectType: Subject.self, propertyID: id, keyPath: keyPath())
      }
    }
    if _slowPath(TrackingInterop.isRelaying) {
      TrackingInterop.relayDidSet(storage, id)
    }
  }

  /// Brackets `mutation` with ``willSet(_:property:keyPath:)`` and
  /// ``didSet(_:property:keyPath:)``.
  @inlinable
  public func withMutation<Subject: Trackable, Member, Result>(
    of subject: Subject, property id: Int, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    _ mutation: () throws -> Result
  ) rethrows -> Result {
    willSet(subject, property: id, keyPath: keyPath())
    defer { didSet(subject, property: id, keyPath: keyPath()) }
    return try mutation()
  }

  // MARK: Key paths

  /// The number this registrar uses for a key path that the macro did not number.
  ///
  /// The first call for a key path assigns it a number; later calls return the same
  /// one. Numbers start far above any the macro assigns.
  public func propertyID(for keyPath: AnyKeyPath) -> Int {
    storage.dynamicID(for: keyPath)
  }

  /// Records a read of the property at `keyPath`; the key-path form of
  /// ``access(_:property:keyPath:)``.
  public func access<Subject: Trackable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
    guard CurrentScope.raw != nil || TrackingInterop.isRelaying else { return }
    access(subject, property: propertyID(for: keyPath), keyPath: keyPath)
  }

  /// The key-path form of ``willSet(_:property:keyPath:)``.
  public func willSet<Subject: Trackable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
    guard storage.hasReaders || TrackingInterop.isRelaying else { return }
    willSet(subject, property: propertyID(for: keyPath), keyPath: keyPath)
  }

  /// The key-path form of ``didSet(_:property:keyPath:)``.
  public func didSet<Subject: Trackable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
    guard storage.hasReaders || TrackingInterop.isRelaying else { return }
    didSet(subject, property: propertyID(for: keyPath), keyPath: keyPath)
  }

  /// The key-path form of ``withMutation(of:property:keyPath:_:)``.
  public func withMutation<Subject: Trackable, Member, Result>(
    of subject: Subject, keyPath: KeyPath<Subject, Member>, _ mutation: () throws -> Result
  ) rethrows -> Result {
    willSet(subject, keyPath: keyPath)
    defer { didSet(subject, keyPath: keyPath) }
    return try mutation()
  }

  // MARK: Introspection

  /// The number of observers currently installed on this registrar, including
  /// finished ones that have not been swept yet. For tests and diagnostics.
  @_spi(Testing)
  public var installedObserverCount: Int { storage.entryCount }

  /// The number of nodes of the reactive graph (derived values, continuous
  /// observations, sequences) whose latest run read a property of this object: the
  /// subscribers of its properties' sources. For tests and diagnostics.
  @_spi(Testing)
  public var readerCount: Int { storage.nodeReaders().count }
}

// MARK: - Codable and Hashable

extension TrackingRegistrar: Codable {
  /// A registrar decodes as a fresh one: it holds no data of the model.
  public init(from decoder: any Decoder) throws { self.init() }
  /// A registrar encodes nothing: it holds no data of the model.
  public func encode(to encoder: any Encoder) throws {}
}

extension TrackingRegistrar: Hashable {
  /// All registrars are equal, so a registrar never affects its owner's equality.
  public static func == (lhs: Self, rhs: Self) -> Bool { true }
  /// A registrar contributes nothing to its owner's hash.
  public func hash(into hasher: inout Hasher) {}
}

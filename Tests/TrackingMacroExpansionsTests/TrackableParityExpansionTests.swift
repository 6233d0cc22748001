import MacroTesting
import Testing

/// The shapes of class that Apple's own tests of `@Observable` (swiftlang/swift,
/// test/stdlib/Observation) exercise, expanded by `@Trackable`: each must compile and
/// track the way Apple's does (the runtime side is in `TrackingTests`' parity
/// scenarios).
@Suite(.macros(classMacroOnly, record: .missing))
struct TrackableParityExpansionTests {
  /// `weak`, `unowned` and implicitly unwrapped properties are numbered like any other.
  @Test func weakUnownedAndImplicitlyUnwrappedPropertiesAreTracked() {
    assertMacro {
      """
      @Trackable
      public final class Node {
        weak var parent: Node?
        public weak var delegate: AnyObject? = nil
        unowned var table: Table
        unowned(unsafe) var cache: Cache?
        var token: String! = nil
        init(table: Table) { self.table = table }
      }
      """
    } expansion: {
      """
      public final class Node {
        @TrackedProperty(0)
        weak var parent: Node?
        @TrackedProperty(1)
        public weak var delegate: AnyObject? = nil
        @TrackedProperty(2)
        unowned var table: Table
        @TrackedProperty(3)
        unowned(unsafe) var cache: Cache?
        @TrackedProperty(4)
        var token: String! = nil
        init(table: Table) { self.table = table }

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Node, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Node, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        public nonisolated static var _$trackedPropertyNames: [String] {
          ["parent", "delegate", "table", "cache", "token"]
        }
      }

      extension Node: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Node: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  /// Declaring only one of the two methods is enough to route every property through
  /// the key-path methods (the generated one for the other); otherwise reads and
  /// writes would name a property by two different numbers.
  @Test func classWithItsOwnAccessOnly() {
    assertMacro {
      """
      @Trackable
      final class Logged {
        var field = 3
        func access<Member>(keyPath: KeyPath<Logged, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }
      }
      """
    } expansion: {
      """
      final class Logged {
        @TrackedProperty
        var field = 3
        func access<Member>(keyPath: KeyPath<Logged, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Logged, __macro_local_6MemberfMu_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          []
        }
      }

      extension Logged: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Logged: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  /// An unrelated `access` (other labels) is an overload, not a redeclaration: the
  /// class keeps the fast path and gets its generated `access(keyPath:)`.
  @Test func unrelatedMethodNamedAccessKeepsTheFastPath() {
    assertMacro {
      """
      @Trackable
      final class Vault {
        var level = 0
        func access(_ door: Int) -> Bool { door == level }
      }
      """
    } expansion: {
      """
      final class Vault {
        @TrackedProperty(0)
        var level = 0
        func access(_ door: Int) -> Bool { door == level }

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Vault, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Vault, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["level"]
        }
      }

      extension Vault: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Vault: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  /// Apple's `IsolatedInstance`: the generated methods and the name table are
  /// `nonisolated`, so a main-actor class satisfies `Trackable`'s requirement.
  @Test func mainActorClass() {
    assertMacro {
      """
      @MainActor @Trackable
      final class Screen {
        var title = "hello"
      }
      """
    } expansion: {
      """
      @MainActor
      final class Screen {
        @TrackedProperty(0)
        var title = "hello"

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Screen, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Screen, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["title"]
        }
      }

      extension Screen: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Screen: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }
}

/// Apple's `ImplementsAccessAndMutation`, expanded whole.
@Suite(.macros(trackingMacros, record: .missing))
struct TrackableCustomAccessExpansionTests {
  /// The class's own methods are kept, no copy is generated, and every accessor calls
  /// them (`_modify`: `access(keyPath:)` and the registrar's key-path `willSet`/`didSet`,
  /// as Apple's does).
  @Test func classWithItsOwnAccessAndMutation() {
    assertMacro {
      """
      @Trackable
      final class Logged {
        var field = 3

        func access<Member>(keyPath: KeyPath<Logged, Member>) {
          print("read", keyPath)
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        func withMutation<Member, Result>(
          keyPath: KeyPath<Logged, Member>, _ mutation: () throws -> Result
        ) rethrows -> Result {
          print("write", keyPath)
          return try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }
      """
    } expansion: {
      #"""
      final class Logged {
        var field {
          @storageRestrictions(initializes: _field)
          init(initialValue) {
            _field = initialValue
          }
          get {
            access(keyPath: \.field)
            return _field
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_field, newValue) else {
              _field = newValue
              return
            }
            withMutation(keyPath: \.field) {
              _field = newValue
            }
          }
          _modify {
            access(keyPath: \.field)
            let modification = _$trackingRegistrar._beginModify(&_field)
            _$trackingRegistrar._willModify(self, keyPath: \.field, modification)
            defer {
              _$trackingRegistrar._didModify(self, keyPath: \.field, _$trackingRegistrar._endModify(&_field, modification))
            }
            yield &_field
          }
        }

        private var _field = 3

        func access<Member>(keyPath: KeyPath<Logged, Member>) {
          print("read", keyPath)
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        func withMutation<Member, Result>(
          keyPath: KeyPath<Logged, Member>, _ mutation: () throws -> Result
        ) rethrows -> Result {
          print("write", keyPath)
          return try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          []
        }
      }

      extension Logged: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Logged: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """#
    }
  }
}

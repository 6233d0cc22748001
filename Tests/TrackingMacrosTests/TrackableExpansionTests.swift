import MacroTesting
import SwiftSyntaxMacroExpansion
import Testing
import TrackingMacros

/// The macros under test. `Trackable` declares its conformance, as the compiler would
/// pass it for a class that does not conform yet (a subclass of a tracked class gets
/// none, and then no extension).
let trackingMacros: [String: MacroSpec] = [
  "Trackable": MacroSpec(type: TrackableMacro.self, conformances: ["Trackable"]),
  "TrackedProperty": MacroSpec(type: TrackedPropertyMacro.self),
  "TrackingIgnored": MacroSpec(type: TrackingIgnoredMacro.self),
  "TrackedExternally": MacroSpec(type: TrackedExternallyMacro.self),
]

/// The macros' generated code, checked line by line. Recorded expansions are kept in
/// this file; a change to the macros shows up here as a diff to review.
@Suite(
  .macros(trackingMacros, record: .missing)
)
struct TrackableExpansionTests {
  @Test func storedPropertiesBecomeTrackedOthersAreLeftAlone() {
    assertMacro {
      """
      @Trackable
      final class Model {
        var count = 0
        let id = 1
        static var shared = 2
        var doubled: Int { count * 2 }
        @TrackingIgnored var cache = 3
      }
      """
    } expansion: {
      #"""
      final class Model {
        var count {
          get {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.count)
            return _count
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_count, newValue) else {
              _count = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 0, keyPath: \.count) {
              _count = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.count)
            _$trackingRegistrar.willSet(self, property: 0, keyPath: \.count)
            defer {
              _$trackingRegistrar.didSet(self, property: 0, keyPath: \.count)
            }
            yield &_count
          }
        }

        private var _count = 0
        let id = 1
        static var shared = 2
        var doubled: Int { count * 2 }
        var cache = 3

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<Member>(keyPath: KeyPath<Model, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Model, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }

      extension Model: Tracking.Trackable {
      }
      """#
    }
  }

  @Test func propertyWithoutInitialValueGetsAnInitAccessor() {
    assertMacro {
      """
      @Trackable
      final class Model {
        var name: String
        init(name: String) { self.name = name }
      }
      """
    } expansion: {
      #"""
      final class Model {
        var name: String {
          @storageRestrictions(initializes: _name)
          init(initialValue) {
            _name = initialValue
          }
          get {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.name)
            return _name
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_name, newValue) else {
              _name = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 0, keyPath: \.name) {
              _name = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.name)
            _$trackingRegistrar.willSet(self, property: 0, keyPath: \.name)
            defer {
              _$trackingRegistrar.didSet(self, property: 0, keyPath: \.name)
            }
            yield &_name
          }
        }

        private var _name: String
        init(name: String) { self.name = name }

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<Member>(keyPath: KeyPath<Model, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Model, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }

      extension Model: Tracking.Trackable {
      }
      """#
    }
  }

  @Test func userObserversMoveToTheStorage() {
    assertMacro {
      """
      @Trackable
      final class Model {
        var count = 0 {
          didSet { print(oldValue) }
        }
      }
      """
    } expansion: {
      #"""
      final class Model {
        var count {
          didSet { print(oldValue) }
          get {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.count)
            return _count
          }

          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_count, newValue) else {
              _count = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 0, keyPath: \.count) {
              _count = newValue
            }
          }

          _modify {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.count)
            _$trackingRegistrar.willSet(self, property: 0, keyPath: \.count)
            defer {
              _$trackingRegistrar.didSet(self, property: 0, keyPath: \.count)
            }
            yield &_count
          }
        }

        private var _count = 0 {
            didSet {
              print(oldValue)
            }
          }

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<Member>(keyPath: KeyPath<Model, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Model, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }

      extension Model: Tracking.Trackable {
      }
      """#
    }
  }

  @Test func accessLevelsAndAttributesAreKept() {
    assertMacro {
      """
      @Trackable
      public final class Model {
        public private(set) var count = 0
        @MainActor public var title = ""
      }
      """
    } expansion: {
      #"""
      public final class Model {
        public private(set) var count {
          get {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.count)
            return _count
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_count, newValue) else {
              _count = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 0, keyPath: \.count) {
              _count = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.count)
            _$trackingRegistrar.willSet(self, property: 0, keyPath: \.count)
            defer {
              _$trackingRegistrar.didSet(self, property: 0, keyPath: \.count)
            }
            yield &_count
          }
        }

        private var _count = 0
        @MainActor
        public var title {
          get {
            _$trackingRegistrar.access(self, property: 1, keyPath: \.title)
            return _title
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_title, newValue) else {
              _title = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 1, keyPath: \.title) {
              _title = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 1, keyPath: \.title)
            _$trackingRegistrar.willSet(self, property: 1, keyPath: \.title)
            defer {
              _$trackingRegistrar.didSet(self, property: 1, keyPath: \.title)
            }
            yield &_title
          }
        }

        @MainActor private var _title = ""

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<Member>(keyPath: KeyPath<Model, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Model, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }

      extension Model: Tracking.Trackable {
      }
      """#
    }
  }

  @Test func genericAndNonFinalClasses() {
    assertMacro {
      """
      @Trackable
      class Box<Value> {
        var value: Value
        init(_ value: Value) { self.value = value }
      }
      """
    } expansion: {
      #"""
      class Box<Value> {
        var value: Value {
          @storageRestrictions(initializes: _value)
          init(initialValue) {
            _value = initialValue
          }
          get {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.value)
            return _value
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_value, newValue) else {
              _value = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 0, keyPath: \.value) {
              _value = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.value)
            _$trackingRegistrar.willSet(self, property: 0, keyPath: \.value)
            defer {
              _$trackingRegistrar.didSet(self, property: 0, keyPath: \.value)
            }
            yield &_value
          }
        }

        private var _value: Value
        init(_ value: Value) { self.value = value }

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<Member>(keyPath: KeyPath<Box, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Box, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }

      extension Box: Tracking.Trackable {
      }
      """#
    }
  }

  @Test func codableClassGetsCodingKeysUnderPropertyNames() {
    assertMacro {
      """
      @Trackable
      final class Settings: Codable {
        var query = ""
        @TrackingIgnored var visits = 0
        let version = 1
      }
      """
    } expansion: {
      #"""
      final class Settings: Codable {
        var query {
          get {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.query)
            return _query
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_query, newValue) else {
              _query = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 0, keyPath: \.query) {
              _query = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.query)
            _$trackingRegistrar.willSet(self, property: 0, keyPath: \.query)
            defer {
              _$trackingRegistrar.didSet(self, property: 0, keyPath: \.query)
            }
            yield &_query
          }
        }

        private var _query = ""
        var visits = 0
        let version = 1

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<Member>(keyPath: KeyPath<Settings, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Settings, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        private enum CodingKeys: String, CodingKey {
          case _query = "query"
          case visits
          case version
        }
      }

      extension Settings: Tracking.Trackable {
      }
      """#
    }
  }

  @Test func ownCodingKeysAreRespected() {
    assertMacro {
      """
      @Trackable
      final class Settings: Codable {
        var query = ""
        enum CodingKeys: String, CodingKey { case _query = "q" }
      }
      """
    } expansion: {
      #"""
      final class Settings: Codable {
        var query {
          get {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.query)
            return _query
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_query, newValue) else {
              _query = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 0, keyPath: \.query) {
              _query = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.query)
            _$trackingRegistrar.willSet(self, property: 0, keyPath: \.query)
            defer {
              _$trackingRegistrar.didSet(self, property: 0, keyPath: \.query)
            }
            yield &_query
          }
        }

        private var _query = ""
        enum CodingKeys: String, CodingKey { case _query = "q" 
      }

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<Member>(keyPath: KeyPath<Settings, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Settings, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }

      extension Settings: Tracking.Trackable {
      }
      """#
    }
  }

  @Test func externallyStoredProperty() {
    assertMacro {
      """
      @Trackable
      final class Preferences {
        @TrackedExternally(DefaultsValue(key: "volume", default: 0.5))
        var volume: Double
      }
      """
    } expansion: {
      #"""
      final class Preferences {
        var volume: Double {
          get {
            access(keyPath: \.volume)
            return _volume.load()
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_volume.load(), newValue) else {
              return
            }
            withMutation(keyPath: \.volume) {
              _volume.store(newValue)
            }
          }
        }

        private let _volume = DefaultsValue(key: "volume", default: 0.5)

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<Member>(keyPath: KeyPath<Preferences, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Preferences, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }

      extension Preferences: Tracking.Trackable {
      }
      """#
    }
  }
}

@Suite(
  .macros(trackingMacros, record: .missing)
)
struct TrackableDiagnosticTests {
  @Test func structIsRejected() {
    assertMacro {
      """
      @Trackable
      struct State {
        var count = 0
      }
      """
    } diagnostics: {
      """
      @Trackable
      ┬─────────
      ╰─ 🛑 '@Trackable' can only be applied to a class; 'State' is a struct (value types are copied, so there is no single instance to track)
      struct State {
        var count = 0
      }
      """
    }
  }

  @Test func enumIsRejected() {
    assertMacro {
      """
      @Trackable
      enum Mode { case on, off }
      """
    } diagnostics: {
      """
      @Trackable
      ┬─────────
      ╰─ 🛑 '@Trackable' can only be applied to a class; 'Mode' is an enum (value types are copied, so there is no single instance to track)
      enum Mode { case on, off }
      """
    }
  }

  @Test func actorIsRejected() {
    assertMacro {
      """
      @Trackable
      actor Store {
        var count = 0
      }
      """
    } diagnostics: {
      """
      @Trackable
      ┬─────────
      ╰─ 🛑 '@Trackable' can only be applied to a class; 'Store' is an actor (an actor's isolation does not allow synchronous tracking from outside)
      actor Store {
        var count = 0
      }
      """
    }
  }

  @Test func protocolIsRejected() {
    assertMacro {
      """
      @Trackable
      protocol Model {
        var count: Int { get }
      }
      """
    } diagnostics: {
      """
      @Trackable
      ┬─────────
      ╰─ 🛑 '@Trackable' can only be applied to a class; 'Model' is a protocol
      protocol Model {
        var count: Int { get }
      }
      """
    }
  }

  @Test func lazyPropertyIsRejectedWithAFixIt() {
    assertMacro {
      """
      @Trackable
      final class Model {
        lazy var expensive = compute()
      }
      """
    } diagnostics: {
      """
      @Trackable
      final class Model {
        lazy var expensive = compute()
        ┬─────────────────────────────
        ╰─ 🛑 property 'expensive' cannot be tracked: a 'lazy' property's storage is managed by the compiler; mark it '@TrackingIgnored' to keep it untracked
           ✏️ add '@TrackingIgnored'
      }
      """
    } fixes: {
      """
      @Trackable
      final class Model {
        @TrackingIgnored lazy var expensive = compute()
      }
      """
    } expansion: {
      """
      final class Model {
        lazy var expensive = compute()

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<Member>(keyPath: KeyPath<Model, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Model, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }

      extension Model: Tracking.Trackable {
      }
      """
    }
  }

  @Test func weakPropertyIsRejected() {
    assertMacro {
      """
      @Trackable
      final class Model {
        weak var delegate: AnyObject?
      }
      """
    } diagnostics: {
      """
      @Trackable
      final class Model {
        weak var delegate: AnyObject?
        ┬────────────────────────────
        ╰─ 🛑 property 'delegate' cannot be tracked: 'weak' applies only to stored properties, and a tracked property is computed; mark it '@TrackingIgnored' to keep it untracked
           ✏️ add '@TrackingIgnored'
      }
      """
    } fixes: {
      """
      @Trackable
      final class Model {
        @TrackingIgnored weak var delegate: AnyObject?
      }
      """
    } expansion: {
      """
      final class Model {
        weak var delegate: AnyObject?

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<Member>(keyPath: KeyPath<Model, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Model, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }

      extension Model: Tracking.Trackable {
      }
      """
    }
  }

  @Test func severalBindingsAreRejected() {
    assertMacro {
      """
      @Trackable
      final class Model {
        var x = 0, y = 0
      }
      """
    } diagnostics: {
      """
      @Trackable
      final class Model {
        var x = 0, y = 0
        ┬───────────────
        ╰─ 🛑 property 'x' cannot be tracked: declare each tracked property in its own 'var'; mark it '@TrackingIgnored' to keep it untracked
           ✏️ add '@TrackingIgnored'
      }
      """
    } fixes: {
      """
      @Trackable
      final class Model {
        @TrackingIgnored var x = 0, y = 0
      }
      """
    }
  }

  @Test func tuplePatternIsRejected() {
    assertMacro {
      """
      @Trackable
      final class Model {
        var (x, y) = (0, 0)
      }
      """
    } diagnostics: {
      """
      @Trackable
      final class Model {
        var (x, y) = (0, 0)
        ┬──────────────────
        ╰─ 🛑 property '(x, y)' cannot be tracked: tuple patterns cannot be tracked; declare each element in its own 'var'; mark it '@TrackingIgnored' to keep it untracked
           ✏️ add '@TrackingIgnored'
      }
      """
    } fixes: {
      """
      @Trackable
      final class Model {
        @TrackingIgnored var (x, y) = (0, 0)
      }
      """
    } expansion: {
      """
      final class Model {
        var (x, y) = (0, 0)

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<Member>(keyPath: KeyPath<Model, Member>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<Member, MutationResult>(
          keyPath: KeyPath<Model, Member>,
          _ mutation: () throws -> MutationResult
        ) rethrows -> MutationResult {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }

      extension Model: Tracking.Trackable {
      }
      """
    }
  }

  @Test func externalPropertyWithInitialValueIsRejected() {
    assertMacro {
      """
      @Trackable
      final class Model {
        @TrackedExternally(Storage())
        var volume: Double = 1
      }
      """
    } diagnostics: {
      """
      @Trackable
      final class Model {
        @TrackedExternally(Storage())
        ╰─ 🛑 '@TrackedExternally' property 'volume' takes its value from its storage; remove the initial value
        var volume: Double = 1
      }
      """
    }
  }
}

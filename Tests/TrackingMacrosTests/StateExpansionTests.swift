import MacroTesting
import SwiftSyntaxMacroExpansion
import Testing
import TrackingMacros

/// `@TrackedState`'s generated code, recorded and reviewed; a change shows up as a diff.
@Suite(.macros(stateMacros, record: .missing))
struct StateExpansionTests {
  @Test func structFieldsBecomeTrackedPerValue() {
    assertMacro {
      """
      @TrackedState
      public struct Feature {
        var count = 0
        var child: Child
        let id = 1
        @TrackingIgnored var cache = 0
        var doubled: Int { count * 2 }
      }
      """
    } expansion: {
      """
      public struct Feature {
        var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 0, name: "count")
            return _count
          }
          set {
            guard Tracking.StateRegistrar.shouldNotify(_count, newValue) else {
              _count = newValue
              return
            }
            _$stateRegistrar.withMutation(property: 0) {
              _count = newValue
            }
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 0, name: "count")
            let identity = _$stateRegistrar.willModify(property: 0, _count)
            defer {
              _$stateRegistrar.didModify(property: 0, _count, identity)
            }
            yield &_count
          }
        }

        @TrackingIgnored private var _count = 0
        var child: Child {
          @storageRestrictions(initializes: _child)
          init(initialValue) {
            _child = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 1, name: "child")
            return _child
          }
          set {
            guard Tracking.StateRegistrar.shouldNotify(_child, newValue) else {
              _child = newValue
              return
            }
            _$stateRegistrar.withMutation(property: 1) {
              _child = newValue
            }
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 1, name: "child")
            let identity = _$stateRegistrar.willModify(property: 1, _child)
            defer {
              _$stateRegistrar.didModify(property: 1, _child, identity)
            }
            yield &_child
          }
        }

        @TrackingIgnored private var _child: Child
        let id = 1
        @TrackingIgnored var cache = 0
        var doubled: Int { count * 2 }

        public let _$stateRegistrar = Tracking.StateRegistrar()
      }

      extension Feature: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
        public var _$identity: Tracking.StateIdentity {
          _$stateRegistrar.identity
        }
      }
      """
    }
  }

  @Test func enumsGetACaseAndPayloadIdentity() {
    assertMacro {
      """
      @TrackedState
      enum Destination {
        case detail(Child)
        case pair(Child, Int)
        case empty
      }
      """
    } expansion: {
      """
      enum Destination {
        case detail(Child)
        case pair(Child, Int)
        case empty
      }

      extension Destination: Tracking.StateIdentifiable {
        var _$identity: Tracking.StateIdentity {
          switch self {
          case let .detail(v0):
            return Tracking.StateIdentity.tagged(0, [Tracking.StateIdentity.of(v0)])
          case let .pair(v0, v1):
            return Tracking.StateIdentity.tagged(1, [Tracking.StateIdentity.of(v0), Tracking.StateIdentity.of(v1)])
          case .empty:
            return Tracking.StateIdentity.tagged(2, [])
          }
        }
      }
      """
    }
  }

  @Test func codableStructsCodeUnderTheirPropertiesNames() {
    assertMacro {
      """
      @TrackedState
      struct Saved: Codable {
        var name = ""
      }
      """
    } expansion: {
      """
      struct Saved: Codable {
        var name {
          @storageRestrictions(initializes: _name)
          init(initialValue) {
            _name = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 0, name: "name")
            return _name
          }
          set {
            guard Tracking.StateRegistrar.shouldNotify(_name, newValue) else {
              _name = newValue
              return
            }
            _$stateRegistrar.withMutation(property: 0) {
              _name = newValue
            }
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 0, name: "name")
            let identity = _$stateRegistrar.willModify(property: 0, _name)
            defer {
              _$stateRegistrar.didModify(property: 0, _name, identity)
            }
            yield &_name
          }
        }

        @TrackingIgnored private var _name = ""

        let _$stateRegistrar = Tracking.StateRegistrar()

        private enum CodingKeys: String, CodingKey {
          case _name = "name"
        }
      }

      extension Saved: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
        var _$identity: Tracking.StateIdentity {
          _$stateRegistrar.identity
        }
      }
      """
    }
  }

  @Test func classesAreRejected() {
    assertMacro {
      """
      @TrackedState
      final class Model {
        var count = 0
      }
      """
    } diagnostics: {
      """
      @TrackedState
      ┬────────────
      ╰─ 🛑 '@TrackedState' can only be applied to a struct or an enum, not to class 'Model'; use '@Trackable' for classes
      final class Model {
        var count = 0
      }
      """
    }
  }

  @Test func lazyFieldsAreRejected() {
    assertMacro {
      """
      @TrackedState
      struct Feature {
        lazy var count = 0
      }
      """
    } diagnostics: {
      """
      @TrackedState
      struct Feature {
        lazy var count = 0
        ┬─────────────────
        ╰─ 🛑 property 'count' cannot be tracked: Swift does not allow 'lazy' on a computed property, and tracking makes it computed; mark it '@TrackingIgnored' to keep it untracked
      }
      """
    }
  }

  /// Fields inside `#if` are tracked too, numbered across every clause. (swift-syntax's
  /// expansion, which these tests use, does not give members inside `#if` their
  /// attributes; the compiler does, and `StateConditionalFieldTests` checks the result.)
  @Test func fieldsInsideIfConfigAreTracked() {
    assertMacro {
      """
      @TrackedState
      struct Feature {
        var count = 0
        #if DEBUG
        var log: [String] = []
        #endif
      }
      """
    } expansion: {
      """
      struct Feature {
        var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 0, name: "count")
            return _count
          }
          set {
            guard Tracking.StateRegistrar.shouldNotify(_count, newValue) else {
              _count = newValue
              return
            }
            _$stateRegistrar.withMutation(property: 0) {
              _count = newValue
            }
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 0, name: "count")
            let identity = _$stateRegistrar.willModify(property: 0, _count)
            defer {
              _$stateRegistrar.didModify(property: 0, _count, identity)
            }
            yield &_count
          }
        }

        @TrackingIgnored private var _count = 0
        #if DEBUG
        var log: [String] = []
        #endif

        let _$stateRegistrar = Tracking.StateRegistrar()
      }

      extension Feature: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
        var _$identity: Tracking.StateIdentity {
          _$stateRegistrar.identity
        }
      }
      """
    }
  }

  /// The struct's `@available` attributes are copied onto the conformance.
  @Test func availabilityIsCopiedOntoTheConformance() {
    assertMacro {
      """
      @available(macOS 13, *)
      @TrackedState
      struct Feature {
        var count = 0
      }
      """
    } expansion: {
      """
      @available(macOS 13, *)
      struct Feature {
        var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 0, name: "count")
            return _count
          }
          set {
            guard Tracking.StateRegistrar.shouldNotify(_count, newValue) else {
              _count = newValue
              return
            }
            _$stateRegistrar.withMutation(property: 0) {
              _count = newValue
            }
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 0, name: "count")
            let identity = _$stateRegistrar.willModify(property: 0, _count)
            defer {
              _$stateRegistrar.didModify(property: 0, _count, identity)
            }
            yield &_count
          }
        }

        @TrackingIgnored private var _count = 0

        let _$stateRegistrar = Tracking.StateRegistrar()
      }

      @available(macOS 13, *)
      extension Feature: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
        var _$identity: Tracking.StateIdentity {
          _$stateRegistrar.identity
        }
      }
      """
    }
  }

  @Test func enumAvailabilityIsCopiedOntoTheConformance() {
    assertMacro {
      """
      @available(iOS 16, *)
      @TrackedState
      enum Destination {
        case detail
      }
      """
    } expansion: {
      """
      @available(iOS 16, *)
      enum Destination {
        case detail
      }

      @available(iOS 16, *)
      extension Destination: Tracking.StateIdentifiable {
        var _$identity: Tracking.StateIdentity {
          switch self {
          case .detail:
            return Tracking.StateIdentity.tagged(0, [])
          }
        }
      }
      """
    }
  }

  /// A `weak` field keeps its ownership in the storage.
  @Test func weakFieldKeepsItsOwnership() {
    assertMacro {
      """
      @TrackedState
      struct Feature {
        weak var owner: Owner?
      }
      """
    } expansion: {
      """
      struct Feature {
        weak var owner: Owner? {
          @storageRestrictions(initializes: _owner)
          init(initialValue) {
            _owner = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 0, name: "owner")
            return _owner
          }
          set {
            guard Tracking.StateRegistrar.shouldNotify(_owner, newValue) else {
              _owner = newValue
              return
            }
            _$stateRegistrar.withMutation(property: 0) {
              _owner = newValue
            }
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 0, name: "owner")
            let identity = _$stateRegistrar.willModify(property: 0, _owner)
            defer {
              _$stateRegistrar.didModify(property: 0, _owner, identity)
            }
            yield &_owner
          }
        }

        @TrackingIgnored private weak var _owner: Owner?

        let _$stateRegistrar = Tracking.StateRegistrar()
      }

      extension Feature: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
        var _$identity: Tracking.StateIdentity {
          _$stateRegistrar.identity
        }
      }
      """
    }
  }
}

import MacroTesting
import SwiftSyntaxMacroExpansion
import Testing
import TrackingMacroExpansions

/// `@TrackedState` at the edges: declarations it rejects, `weak` fields, and enum
/// payload labels.
@Suite(.macros(stateMacros, record: .missing))
struct StateEdgeExpansionTests {
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
            _$stateRegistrar.noteWrite(of: _owner, property: 0)
            _owner = newValue
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 0, name: "owner")
            _$stateRegistrar.noteWrite(of: _owner, property: 0)
            yield &_owner
          }
        }

        @TrackingIgnored private weak var _owner: Owner?

        private(set) var _$stateRegistrar = Tracking.StateRegistrar()

        func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          guard let fields = changes.fields(old._$stateRegistrar, _$stateRegistrar) else {
            return true
          }
          changes.field(0, of: fields, old._owner, _owner)
          return false
        }

        func _$claim(for owner: Tracking.StateOwner) -> Bool {
          guard _$stateRegistrar.claim(for: owner) else {
            return false
          }
          return true
        }

        mutating func _$reidentify(for owner: Tracking.StateOwner) {
          _$stateRegistrar.reidentify(for: owner)
        }
      }

      extension Feature: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
      }
      """
    }
  }

  /// Labeled payloads are rebuilt with their labels when a payload gets a new identity.
  @Test func enumPayloadLabelsAreKeptWhenReidentifying() {
    assertMacro {
      """
      @TrackedState
      public enum Route {
        case edit(child: Child, _ note: String)
      }
      """
    } expansion: {
      """
      public enum Route {
        case edit(child: Child, _ note: String)
      }

      extension Route: Tracking.StateIdentifiable {
        public func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          switch (old, self) {
          case let (.edit(o0, o1), .edit(n0, n1)):
            return changes.payload(o0, n0) || changes.payload(o1, n1)
          }
        }

        public func _$claim(for owner: Tracking.StateOwner) -> Bool {
          switch self {
          case let .edit(v0, v1):
            return owner.claim(v0) && owner.claim(v1)
          }
        }

        public mutating func _$reidentify(for owner: Tracking.StateOwner) {
          switch self {
          case .edit(var v0, var v1):
            owner.reidentify(&v0)
            owner.reidentify(&v1)
            self = .edit(child: v0, v1)
          }
        }
      }
      """
    }
  }
}

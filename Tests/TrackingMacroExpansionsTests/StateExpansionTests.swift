import MacroTesting
import SwiftSyntaxMacroExpansion
import Testing
import TrackingMacroExpansions

/// `@TrackedState`'s generated code, recorded and reviewed; a change shows up as a diff.
@Suite(.macros(stateMacros, record: .missing))
struct StateExpansionTests {
  /// An `unowned` field is stamped when written and compared by its stamps, never
  /// loaded (its object may be gone); `weak` and `unowned` fields hold no state to claim.
  @Test func referenceFieldsAreComparedByTheirWrites() {
    assertMacro {
      """
      @TrackedState
      struct Links {
        unowned var owner: Owner
        weak var delegate: Delegate?
        var count = 0
      }
      """
    } expansion: {
      """
      struct Links {
        unowned var owner: Owner {
          @storageRestrictions(initializes: _owner)
          init(initialValue) {
            _owner = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 0, name: "owner")
            return _owner
          }
          set {
            _$stateRegistrar.noteWrite(property: 0)
            _owner = newValue
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 0, name: "owner")
            _$stateRegistrar.noteWrite(property: 0)
            yield &_owner
          }
        }

        @TrackingIgnored private unowned var _owner: Owner
        weak var delegate: Delegate? {
          @storageRestrictions(initializes: _delegate)
          init(initialValue) {
            _delegate = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 1, name: "delegate")
            return _delegate
          }
          set {
            _$stateRegistrar.noteWrite(of: _delegate, property: 1)
            _delegate = newValue
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 1, name: "delegate")
            _$stateRegistrar.noteWrite(of: _delegate, property: 1)
            yield &_delegate
          }
        }

        @TrackingIgnored private weak var _delegate: Delegate?
        var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 2, name: "count")
            return _count
          }
          set {
            _$stateRegistrar.noteWrite(of: _count, property: 2)
            _count = newValue
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 2, name: "count")
            _$stateRegistrar.noteWrite(of: _count, property: 2)
            yield &_count
          }
        }

        @TrackingIgnored private var _count = 0

        private(set) var _$stateRegistrar = Tracking.StateRegistrar()

        func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          guard let fields = changes.fields(old._$stateRegistrar, _$stateRegistrar) else {
            return true
          }
          changes.field(0, of: fields)
          changes.field(1, of: fields, old._delegate, _delegate)
          changes.field(2, of: fields, old._count, _count)
          return false
        }

        func _$claim(for owner: Tracking.StateOwner) -> Bool {
          guard _$stateRegistrar.claim(for: owner) else {
            return false
          }
          if !owner.claim(_count) {
            return false
          }
          return true
        }

        mutating func _$reidentify(for owner: Tracking.StateOwner) {
          _$stateRegistrar.reidentify(for: owner)
          owner.reidentify(&_count)
        }
      }

      extension Links: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
      }
      """
    }
  }

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
            _$stateRegistrar.noteWrite(of: _count, property: 0)
            _count = newValue
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 0, name: "count")
            _$stateRegistrar.noteWrite(of: _count, property: 0)
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
            _$stateRegistrar.noteWrite(of: _child, property: 1)
            _child = newValue
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 1, name: "child")
            _$stateRegistrar.noteWrite(of: _child, property: 1)
            yield &_child
          }
        }

        @TrackingIgnored private var _child: Child
        let id = 1
        @TrackingIgnored var cache = 0
        var doubled: Int { count * 2 }

        public private(set) var _$stateRegistrar = Tracking.StateRegistrar()

        public func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          guard let fields = changes.fields(old._$stateRegistrar, _$stateRegistrar) else {
            return true
          }
          changes.field(0, of: fields, old._count, _count)
          changes.field(1, of: fields, old._child, _child)
          return false
        }

        public func _$claim(for owner: Tracking.StateOwner) -> Bool {
          guard _$stateRegistrar.claim(for: owner) else {
            return false
          }
          if !owner.claim(_count) {
            return false
          }
          if !owner.claim(_child) {
            return false
          }
          return true
        }

        public mutating func _$reidentify(for owner: Tracking.StateOwner) {
          _$stateRegistrar.reidentify(for: owner)
          owner.reidentify(&_count)
          owner.reidentify(&_child)
        }
      }

      extension Feature: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
      }
      """
    }
  }

  @Test func enumsCompareTheirCaseThenTheirPayloads() {
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
        func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          switch (old, self) {
          case let (.detail(o0), .detail(n0)):
            return changes.payload(o0, n0)
          case let (.pair(o0, o1), .pair(n0, n1)):
            return changes.payload(o0, n0) || changes.payload(o1, n1)
          case (.empty, .empty):
            return false
          default:
            return true
          }
        }

        func _$claim(for owner: Tracking.StateOwner) -> Bool {
          switch self {
          case let .detail(v0):
            return owner.claim(v0)
          case let .pair(v0, v1):
            return owner.claim(v0) && owner.claim(v1)
          case .empty:
            return true
          }
        }

        mutating func _$reidentify(for owner: Tracking.StateOwner) {
          switch self {
          case .detail(var v0):
            owner.reidentify(&v0)
            self = .detail(v0)
          case .pair(var v0, var v1):
            owner.reidentify(&v0)
            owner.reidentify(&v1)
            self = .pair(v0, v1)
          case .empty:
            break
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
            _$stateRegistrar.noteWrite(of: _name, property: 0)
            _name = newValue
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 0, name: "name")
            _$stateRegistrar.noteWrite(of: _name, property: 0)
            yield &_name
          }
        }

        @TrackingIgnored private var _name = ""

        private(set) var _$stateRegistrar = Tracking.StateRegistrar()

        func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          guard let fields = changes.fields(old._$stateRegistrar, _$stateRegistrar) else {
            return true
          }
          changes.field(0, of: fields, old._name, _name)
          return false
        }

        func _$claim(for owner: Tracking.StateOwner) -> Bool {
          guard _$stateRegistrar.claim(for: owner) else {
            return false
          }
          if !owner.claim(_name) {
            return false
          }
          return true
        }

        mutating func _$reidentify(for owner: Tracking.StateOwner) {
          _$stateRegistrar.reidentify(for: owner)
          owner.reidentify(&_name)
        }

        private enum CodingKeys: String, CodingKey {
          case _name = "name"
        }
      }

      extension Saved: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
      }
      """
    }
  }
}

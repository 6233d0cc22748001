import MacroTesting
import SwiftSyntaxMacroExpansion
import Testing
import TrackingMacroExpansions

/// `@TrackedState` where `#if` and `@available` shape the struct: conditional fields are
/// numbered across clauses, and availability is copied onto the generated conformance.
@Suite(.macros(stateMacros, record: .missing))
struct StateConditionalExpansionTests {
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
        #if DEBUG
        var log: [String] = []
        #endif

        private(set) var _$stateRegistrar = Tracking.StateRegistrar()

        func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          guard let fields = changes.fields(old._$stateRegistrar, _$stateRegistrar) else {
            return true
          }
          changes.field(0, of: fields, old._count, _count)
          #if DEBUG
          changes.field(1, of: fields, old._log, _log)
          #endif
          return false
        }

        func _$claim(for owner: Tracking.StateOwner) -> Bool {
          guard _$stateRegistrar.claim(for: owner) else {
            return false
          }
          if !owner.claim(_count) {
            return false
          }
          #if DEBUG
          if !owner.claim(_log) {
            return false
          }
          #endif
          return true
        }

        mutating func _$reidentify(for owner: Tracking.StateOwner) {
          _$stateRegistrar.reidentify(for: owner)
          owner.reidentify(&_count)
          #if DEBUG
          owner.reidentify(&_log)
          #endif
        }
      }

      extension Feature: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
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

        private(set) var _$stateRegistrar = Tracking.StateRegistrar()

        func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          guard let fields = changes.fields(old._$stateRegistrar, _$stateRegistrar) else {
            return true
          }
          changes.field(0, of: fields, old._count, _count)
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

      @available(macOS 13, *)
      extension Feature: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
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
        func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          switch (old, self) {
          case (.detail, .detail):
            return false
          }
        }

        func _$claim(for owner: Tracking.StateOwner) -> Bool {
          true
        }

        mutating func _$reidentify(for owner: Tracking.StateOwner) {
        }
      }
      """
    }
  }

  /// A struct whose fields all sit inside the clauses of one `#if` with an `#else` is
  /// compared in every configuration.
  @Test func structWithOnlyConditionalFields() {
    assertMacro {
      """
      @TrackedState
      struct Feature {
        let id = 1
        #if DEBUG
        var log: [String] = []
        #else
        var count = 0
        #endif
      }
      """
    } expansion: {
      """
      struct Feature {
        let id = 1
        #if DEBUG
        var log: [String] = []
        #else
        var count = 0
        #endif

        private(set) var _$stateRegistrar = Tracking.StateRegistrar()

        func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          guard let fields = changes.fields(old._$stateRegistrar, _$stateRegistrar) else {
            return true
          }
          #if DEBUG
          changes.field(0, of: fields, old._log, _log)
          #else
          changes.field(1, of: fields, old._count, _count)
          #endif
          return false
        }

        func _$claim(for owner: Tracking.StateOwner) -> Bool {
          guard _$stateRegistrar.claim(for: owner) else {
            return false
          }
          #if DEBUG
          if !owner.claim(_log) {
            return false
          }
          #else
          if !owner.claim(_count) {
            return false
          }
          #endif
          return true
        }

        mutating func _$reidentify(for owner: Tracking.StateOwner) {
          _$stateRegistrar.reidentify(for: owner)
          #if DEBUG
          owner.reidentify(&_log)
          #else
          owner.reidentify(&_count)
          #endif
        }
      }

      extension Feature: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
      }
      """
    }
  }

  /// A struct with no field in some configuration (or none at all) uses `fields`
  /// anyway, so the expansion compiles without warnings.
  @Test func structWithoutFieldsInSomeConfiguration() {
    assertMacro {
      """
      @TrackedState
      struct Feature {
        let id = 1
        #if DEBUG
        var log: [String] = []
        #endif
      }
      """
    } expansion: {
      """
      struct Feature {
        let id = 1
        #if DEBUG
        var log: [String] = []
        #endif

        private(set) var _$stateRegistrar = Tracking.StateRegistrar()

        func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          guard let fields = changes.fields(old._$stateRegistrar, _$stateRegistrar) else {
            return true
          }
          _ = fields
          #if DEBUG
          changes.field(0, of: fields, old._log, _log)
          #endif
          return false
        }

        func _$claim(for owner: Tracking.StateOwner) -> Bool {
          guard _$stateRegistrar.claim(for: owner) else {
            return false
          }
          #if DEBUG
          if !owner.claim(_log) {
            return false
          }
          #endif
          return true
        }

        mutating func _$reidentify(for owner: Tracking.StateOwner) {
          _$stateRegistrar.reidentify(for: owner)
          #if DEBUG
          owner.reidentify(&_log)
          #endif
        }
      }

      extension Feature: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
      }
      """
    }
  }
}

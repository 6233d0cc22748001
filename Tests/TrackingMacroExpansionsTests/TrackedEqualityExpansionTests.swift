import MacroTesting
import Testing
import SwiftSyntaxMacroExpansion
import TrackingMacroExpansions

/// `@TrackedEquality`: the setter's condition `@TrackedProperty` writes for each rule,
/// and the diagnostic of a rule it cannot write.
@Suite(.macros(equalityMacros, record: .missing))
struct TrackedEqualityExpansionTests {
  @Test func identityComparesReferences() {
    assertMacro {
      """
      final class Editor {
        @TrackedProperty(0) @TrackedEquality(.identity) var document: Document
      }
      """
    } expansion: {
      #"""
      final class Editor {
        var document: Document {
          @storageRestrictions(initializes: _document)
          init(initialValue) {
            _document = initialValue
          }
          get {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.document)
            return _document
          }
          set {
            guard Tracking.TrackingRegistrar._notifiesUnlessIdentical(_document, newValue) else {
              _document = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 0, keyPath: \.document) {
              _document = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.document)
            let modification = _$trackingRegistrar._beginModify(&_document)
            _$trackingRegistrar._willModify(self, property: 0, keyPath: \.document, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 0, keyPath: \.document, _$trackingRegistrar._endModify(&_document, modification))
            }
            yield &_document
          }
        }

        @TrackingIgnored private var _document: Document
      }
      """#
    }
  }

  @Test func alwaysNotifiesEveryWrite() {
    assertMacro {
      """
      final class Editor {
        @TrackedProperty(1) @TrackedEquality(.always) var ping = 0
      }
      """
    } expansion: {
      #"""
      final class Editor {
        var ping {
          @storageRestrictions(initializes: _ping)
          init(initialValue) {
            _ping = initialValue
          }
          get {
            _$trackingRegistrar.access(self, property: 1, keyPath: \.ping)
            return _ping
          }
          set {
            _$trackingRegistrar.withMutation(of: self, property: 1, keyPath: \.ping) {
              _ping = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 1, keyPath: \.ping)
            let modification = _$trackingRegistrar._beginModify(&_ping)
            _$trackingRegistrar._willModify(self, property: 1, keyPath: \.ping, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 1, keyPath: \.ping, _$trackingRegistrar._endModify(&_ping, modification))
            }
            yield &_ping
          }
        }

        @TrackingIgnored private var _ping = 0
      }
      """#
    }
  }

  @Test func aKeyPathOrAFunctionIsTheRule() {
    assertMacro {
      """
      final class Editor {
        @TrackedProperty(2) @TrackedEquality(by: \\Row.revision) var row: Row
        @TrackedProperty(3) @TrackedEquality(using: Path.isSameShape) var path: Path
        @TrackedProperty(4) @TrackedEquality(.equality) var title = ""
      }
      """
    } expansion: {
      #"""
      final class Editor {
        var row: Row {
          @storageRestrictions(initializes: _row)
          init(initialValue) {
            _row = initialValue
          }
          get {
            _$trackingRegistrar.access(self, property: 2, keyPath: \.row)
            return _row
          }
          set {
            guard Tracking.TrackingRegistrar._notifies(_row, newValue, unlessSameAt: \Row.revision) else {
              _row = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 2, keyPath: \.row) {
              _row = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 2, keyPath: \.row)
            let modification = _$trackingRegistrar._beginModify(&_row)
            _$trackingRegistrar._willModify(self, property: 2, keyPath: \.row, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 2, keyPath: \.row, _$trackingRegistrar._endModify(&_row, modification))
            }
            yield &_row
          }
        }

        @TrackingIgnored private var _row: Row
        var path: Path {
          @storageRestrictions(initializes: _path)
          init(initialValue) {
            _path = initialValue
          }
          get {
            _$trackingRegistrar.access(self, property: 3, keyPath: \.path)
            return _path
          }
          set {
            guard Tracking.TrackingRegistrar._notifies(_path, newValue, unlessEqualBy: Path.isSameShape) else {
              _path = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 3, keyPath: \.path) {
              _path = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 3, keyPath: \.path)
            let modification = _$trackingRegistrar._beginModify(&_path)
            _$trackingRegistrar._willModify(self, property: 3, keyPath: \.path, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 3, keyPath: \.path, _$trackingRegistrar._endModify(&_path, modification))
            }
            yield &_path
          }
        }

        @TrackingIgnored private var _path: Path
        var title {
          @storageRestrictions(initializes: _title)
          init(initialValue) {
            _title = initialValue
          }
          get {
            _$trackingRegistrar.access(self, property: 4, keyPath: \.title)
            return _title
          }
          set {
            guard Tracking.TrackingRegistrar._notifiesUnlessEqual(_title, newValue) else {
              _title = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 4, keyPath: \.title) {
              _title = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 4, keyPath: \.title)
            let modification = _$trackingRegistrar._beginModify(&_title)
            _$trackingRegistrar._willModify(self, property: 4, keyPath: \.title, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 4, keyPath: \.title, _$trackingRegistrar._endModify(&_title, modification))
            }
            yield &_title
          }
        }

        @TrackingIgnored private var _title = ""
      }
      """#
    }
  }

  @Test func externalStorageFollowsTheRuleAndStoresWhatItDoesNotCount() {
    assertMacro {
      """
      final class Settings {
        @TrackedExternally(DefaultsValue(key: "row", default: Row())) @TrackedEquality(by: \\Row.revision)
        var row: Row
        @TrackedExternally(DefaultsValue(key: "ping", default: 0)) @TrackedEquality(.always)
        var ping: Int
      }
      """
    } expansion: {
      #"""
      final class Settings {

        var row: Row {
          get {
            access(keyPath: \.row)
            return _row.load()
          }
          set {
            guard Tracking.TrackingRegistrar._notifies(_row.load(), newValue, unlessSameAt: \Row.revision) else {
              _row.store(newValue)
              return
            }
            withMutation(keyPath: \.row) {
              _row.store(newValue)
            }
          }
        }

        @TrackingIgnored private let _row = DefaultsValue(key: "row", default: Row())

        var ping: Int {
          get {
            access(keyPath: \.ping)
            return _ping.load()
          }
          set {
            withMutation(keyPath: \.ping) {
              _ping.store(newValue)
            }
          }
        }

        @TrackingIgnored private let _ping = DefaultsValue(key: "ping", default: 0)
      }
      """#
    }
  }

  @Test func aRuleThatIsNotSpelledOutIsAnError() {
    assertMacro {
      """
      final class Editor {
        @TrackedEquality(someRule) var title = ""
      }
      """
    } diagnostics: {
      """
      final class Editor {
        @TrackedEquality(someRule) var title = ""
        ┬─────────────────────────
        ╰─ 🛑 @TrackedEquality takes .equality, .identity or .always, 'using:' a function that compares two values, or 'by:' a key path
      }
      """
    }
  }
}

let equalityMacros: [String: MacroSpec] = [
  "TrackedProperty": MacroSpec(type: TrackedPropertyMacro.self),
  "TrackedEquality": MacroSpec(type: TrackedEqualityMacro.self),
  "TrackedExternally": MacroSpec(type: TrackedExternallyMacro.self),
]

/// `@TrackedEquality` on `@TrackedState` fields: the write note and the comparison each
/// rule asks for.
@Suite(.macros(stateEqualityMacros, record: .missing))
struct TrackedStateEqualityExpansionTests {
  @Test func eachRuleWritesItsComparison() {
    assertMacro {
      """
      @TrackedState
      struct Editor {
        @TrackedEquality(.always) var ping = 0
        @TrackedEquality(.identity) var document: Document
        @TrackedEquality(by: \\Row.revision) var row: Row
      }
      """
    } expansion: {
      #"""
      struct Editor {
        var ping {
          @storageRestrictions(initializes: _ping)
          init(initialValue) {
            _ping = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 0, name: "ping")
            return _ping
          }
          set {
            _$stateRegistrar.noteWrite(property: 0)
            _ping = newValue
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 0, name: "ping")
            _$stateRegistrar.noteWrite(property: 0)
            yield &_ping
          }
        }

        @TrackingIgnored private var _ping = 0
        var document: Document {
          @storageRestrictions(initializes: _document)
          init(initialValue) {
            _document = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 1, name: "document")
            return _document
          }
          set {
            _$stateRegistrar.noteWrite(of: _document, property: 1)
            _document = newValue
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 1, name: "document")
            _$stateRegistrar.noteWrite(of: _document, property: 1)
            yield &_document
          }
        }

        @TrackingIgnored private var _document: Document
        var row: Row {
          @storageRestrictions(initializes: _row)
          init(initialValue) {
            _row = initialValue
          }
          get {
            _$stateRegistrar.access(Self.self, property: 2, name: "row")
            return _row
          }
          set {
            _$stateRegistrar.noteWrite(of: _row, property: 2)
            _row = newValue
          }
          _modify {
            _$stateRegistrar.access(Self.self, property: 2, name: "row")
            _$stateRegistrar.noteWrite(of: _row, property: 2)
            yield &_row
          }
        }

        @TrackingIgnored private var _row: Row

        private(set) var _$stateRegistrar = Tracking.StateRegistrar()

        func _$reportChanges(from old: Self, into changes: inout Tracking.StateChanges) -> Bool {
          guard let fields = changes.fields(old._$stateRegistrar, _$stateRegistrar) else {
            return true
          }
          changes.field(0, of: fields)
          changes._fieldByIdentity(1, of: fields, old._document, _document)
          changes._field(2, of: fields, old._row, _row, unlessSameAt: \Row.revision)
          return false
        }

        func _$claim(for owner: Tracking.StateOwner) -> Bool {
          guard _$stateRegistrar.claim(for: owner) else {
            return false
          }
          if !owner.claim(_ping) {
            return false
          }
          if !owner.claim(_document) {
            return false
          }
          if !owner.claim(_row) {
            return false
          }
          return true
        }

        mutating func _$reidentify(for owner: Tracking.StateOwner) {
          _$stateRegistrar.reidentify(for: owner)
          owner.reidentify(&_ping)
          owner.reidentify(&_document)
          owner.reidentify(&_row)
        }
      }

      extension Editor: Tracking.StateIdentifiable, Tracking.TrackedStateValue {
      }
      """#
    }
  }
}

let stateEqualityMacros = stateMacros.merging(["TrackedEquality": MacroSpec(type: TrackedEqualityMacro.self)]) { $1 }

import MacroTesting
import Testing
import SwiftSyntaxMacroExpansion
import TrackingMacros

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
]

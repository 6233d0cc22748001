import MacroTesting
import Testing

/// The accessors and storage `@TrackedProperty` generates for one property, applied by
/// hand here (the class macro adds it); the whole class is expanded in
/// `TrackableExpansionTests`.
@Suite(.macros(propertyMacroOnly, record: .missing))
struct TrackedPropertyExpansionTests {
  @Test func propertyWithoutInitialValueIsInitializedInInit() {
    assertMacro {
      """
      final class Model {
        @TrackedProperty(0) var name: String
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
            let modification = _$trackingRegistrar._beginModify(&_name)
            _$trackingRegistrar._willModify(self, property: 0, keyPath: \.name, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 0, keyPath: \.name, _$trackingRegistrar._endModify(&_name, modification))
            }
            yield &_name
          }
        }

        @TrackingIgnored private var _name: String
        init(name: String) { self.name = name }
      }
      """#
    }
  }

  @Test func userObserversMoveToTheStorage() {
    assertMacro {
      """
      final class Model {
        @TrackedProperty(0) var count = 0 {
          didSet { print(oldValue) }
        }
      }
      """
    } expansion: {
      #"""
      final class Model {
        var count {
          didSet { print(oldValue) }
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }

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
            let modification = _$trackingRegistrar._beginModify(&_count)
            _$trackingRegistrar._willModify(self, property: 0, keyPath: \.count, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 0, keyPath: \.count, _$trackingRegistrar._endModify(&_count, modification))
            }
            yield &_count
          }
        }

        @TrackingIgnored private var _count = 0 {
            didSet {
              print(oldValue)
            }
          }
      }
      """#
    }
  }

  /// `title` has an initial value and an attribute that may isolate it: no `init`
  /// accessor (it would be main-actor isolated, and Swift 6 would reject the class's
  /// default initializer), as before Apple's macro added one everywhere.
  @Test func accessLevelsAndAttributesAreKept() {
    assertMacro {
      """
      public final class Model {
        @TrackedProperty(0) public private(set) var count = 0
        @MainActor @TrackedProperty(1) public var title = ""
      }
      """
    } expansion: {
      #"""
      public final class Model {
        public private(set) var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
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
            let modification = _$trackingRegistrar._beginModify(&_count)
            _$trackingRegistrar._willModify(self, property: 0, keyPath: \.count, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 0, keyPath: \.count, _$trackingRegistrar._endModify(&_count, modification))
            }
            yield &_count
          }
        }

        @TrackingIgnored private var _count = 0
        @MainActor public var title {
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
            let modification = _$trackingRegistrar._beginModify(&_title)
            _$trackingRegistrar._willModify(self, property: 1, keyPath: \.title, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 1, keyPath: \.title, _$trackingRegistrar._endModify(&_title, modification))
            }
            yield &_title
          }
        }

        @TrackingIgnored @MainActor private var _title = ""
      }
      """#
    }
  }

  /// The storage keeps the ownership, so tracking holds nothing strongly; the computed
  /// property keeps it too (Swift ignores it there, as with Apple's macro).
  @Test func storageKeepsTheOwnership() {
    assertMacro {
      """
      final class Node {
        @TrackedProperty(0) weak var parent: Node?
        @TrackedProperty(1) unowned(unsafe) var cache: Cache
      }
      """
    } expansion: {
      #"""
      final class Node {
        weak var parent: Node? {
          @storageRestrictions(initializes: _parent)
          init(initialValue) {
            _parent = initialValue
          }
          get {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.parent)
            return _parent
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_parent, newValue) else {
              _parent = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 0, keyPath: \.parent) {
              _parent = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.parent)
            let modification = _$trackingRegistrar._beginModify(&_parent)
            _$trackingRegistrar._willModify(self, property: 0, keyPath: \.parent, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 0, keyPath: \.parent, _$trackingRegistrar._endModify(&_parent, modification))
            }
            yield &_parent
          }
        }

        @TrackingIgnored private weak var _parent: Node?
        unowned(unsafe) var cache: Cache {
          @storageRestrictions(initializes: _cache)
          init(initialValue) {
            _cache = initialValue
          }
          get {
            _$trackingRegistrar.access(self, property: 1, keyPath: \.cache)
            return _cache
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_cache, newValue) else {
              _cache = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 1, keyPath: \.cache) {
              _cache = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 1, keyPath: \.cache)
            let modification = _$trackingRegistrar._beginModify(&_cache)
            _$trackingRegistrar._willModify(self, property: 1, keyPath: \.cache, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 1, keyPath: \.cache, _$trackingRegistrar._endModify(&_cache, modification))
            }
            yield &_cache
          }
        }

        @TrackingIgnored private unowned(unsafe) var _cache: Cache
      }
      """#
    }
  }

  /// Without a number (a class with its own `access`/`withMutation`), the accessors
  /// call the class's methods.
  @Test func unnumberedPropertyGoesThroughTheClassMethods() {
    assertMacro {
      """
      final class Logged {
        @TrackedProperty var field = 3
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

        @TrackingIgnored private var _field = 3
      }
      """#
    }
  }
}

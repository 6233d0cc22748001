import MacroTesting
import Testing

/// `@Trackable`'s generated code for the common shapes of class, checked line by line.
/// Recorded expansions live in this file; a change to the macros shows up as a diff.
@Suite(.macros(trackingMacros, record: .missing))
struct TrackableExpansionTests {
  /// The whole expansion of the simplest class: the numbered fast path, the generated
  /// key-path methods, the property names and both conformances.
  @Test func simpleClass() {
    assertMacro {
      """
      @Trackable
      final class Counter {
        var count = 0
      }
      """
    } expansion: {
      #"""
      final class Counter {
        var count {
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

        private var _count = 0

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Counter, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Counter, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["count"]
        }
      }

      extension Counter: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Counter: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """#
    }
  }

  @Test func genericNonFinalClass() {
    assertMacro {
      """
      @Trackable
      open class Box<Value> {
        open var value: Value
        public init(_ value: Value) { self.value = value }
      }
      """
    } expansion: {
      #"""
      open class Box<Value> {
        open var value: Value {
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
            let modification = _$trackingRegistrar._beginModify(&_value)
            _$trackingRegistrar._willModify(self, property: 0, keyPath: \.value, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 0, keyPath: \.value, _$trackingRegistrar._endModify(&_value, modification))
            }
            yield &_value
          }
        }

        private var _value: Value
        public init(_ value: Value) { self.value = value }

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Box, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Box, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        open nonisolated class var _$trackedPropertyNames: [String] {
          ["value"]
        }
      }

      extension Box: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Box: nonisolated Tracking.TrackingInterop.AppleObservable {
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
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Preferences, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Preferences, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          []
        }
      }

      extension Preferences: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Preferences: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """#
    }
  }
}

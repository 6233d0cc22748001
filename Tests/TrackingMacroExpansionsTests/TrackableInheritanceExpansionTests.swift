import MacroTesting
import Testing

/// The Apple catalogue's inheritance cases: these only change the conformances and the
/// property-name table, so the property macro is left unexpanded.
@Suite(.macros(classMacroOnly, record: .missing))
struct TrackableInheritanceExpansionTests {
  @Test func subclassOfAnUntrackedClass() {
    assertMacro {
      """
      @Trackable
      class Child: NSObject, Identifiable {
        var name = ""
      }
      """
    } expansion: {
      """
      class Child: NSObject, Identifiable {
        @TrackedProperty(0)
        var name = ""

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Child, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Child, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated class var _$trackedPropertyNames: [String] {
          ["name"]
        }
      }

      extension Child: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Child: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  @Test func nestedInAStruct() {
    assertMacro {
      """
      struct Container {
        @Trackable
        final class Contents {
          var field = 3
        }
      }
      """
    } expansion: {
      """
      struct Container {
        final class Contents {
          @TrackedProperty(0)
          var field = 3

          @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

          /// Records a read of the property at `keyPath`, for hand-written tracked properties.
          internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Contents, __macro_local_6MemberfMu_>) {
            _$trackingRegistrar.access(self, keyPath: keyPath)
          }

          /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
          internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
            keyPath: KeyPath<Contents, __macro_local_6MemberfMu0_>,
            _ mutation: () throws -> __macro_local_14MutationResultfMu_
          ) rethrows -> __macro_local_14MutationResultfMu_ {
            try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
          }

          /// The names of this class's numbered tracked properties; a property's number is its index.
          nonisolated static var _$trackedPropertyNames: [String] {
            ["field"]
          }
        }
      }

      extension Container.Contents: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Container.Contents: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }
}

/// A tracked subclass of a tracked class already conforms: no extensions, and its
/// property names override its superclass's.
@Suite(.macros(subclassMacroOnly, record: .missing))
struct TrackableSubclassExpansionTests {
  @Test func trackedSubclassOfATrackedClass() {
    assertMacro {
      """
      @Trackable
      class Manager: Employee {
        var reports: [Employee] = []
      }
      """
    } expansion: {
      """
      class Manager: Employee {
        @TrackedProperty(0)
        var reports: [Employee] = []

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Manager, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Manager, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        override nonisolated class var _$trackedPropertyNames: [String] {
          ["reports"]
        }
      }
      """
    }
  }

  @Test func finalTrackedSubclass() {
    assertMacro {
      """
      @Trackable
      public final class Intern: Employee {
        var mentor = ""
      }
      """
    } expansion: {
      """
      public final class Intern: Employee {
        @TrackedProperty(0)
        var mentor = ""

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Intern, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Intern, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        public override nonisolated static var _$trackedPropertyNames: [String] {
          ["mentor"]
        }
      }
      """
    }
  }
}

/// A class that declares Apple's `Observable` itself is asked for `Trackable` only.
@Suite(.macros(alreadyObservableMacroOnly, record: .missing))
struct TrackableExistingConformanceExpansionTests {
  @Test func classAlreadyObservable() {
    assertMacro {
      """
      @Trackable
      final class Model: Observable {
        var field = 0
      }
      """
    } expansion: {
      """
      final class Model: Observable {
        @TrackedProperty(0)
        var field = 0

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Model, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Model, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["field"]
        }
      }

      extension Model: nonisolated Tracking.Trackable {
      }
      """
    }
  }
}

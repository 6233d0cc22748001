import MacroTesting
import Testing

/// The conformances `@Trackable` adds and the availability it copies onto them, and
/// the shape of `_$trackedPropertyNames` for each kind of class.
@Suite(.macros(classMacroOnly, record: .missing))
struct TrackableConformanceExpansionTests {
  @Test func classAvailabilityIsCopiedOntoBothConformances() {
    assertMacro {
      """
      @available(macOS 12, iOS 15, *)
      @available(tvOS, unavailable)
      @MainActor
      @Trackable
      final class Player {
        var score = 0
      }
      """
    } expansion: {
      """
      @available(macOS 12, iOS 15, *)
      @available(tvOS, unavailable)
      @MainActor
      final class Player {
        @TrackedProperty(0)
        var score = 0

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Player, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Player, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["score"]
        }
      }

      @available(macOS 12, iOS 15, *)
      @available(tvOS, unavailable)
      extension Player: nonisolated Tracking.Trackable {
      }

      @available(macOS 12, iOS 15, *)
      @available(tvOS, unavailable)
      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Player: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  @Test func availabilityInsideIfConfigIsCopiedWithItsCondition() {
    assertMacro {
      """
      @Trackable
      #if DEBUG
      @MainActor
      #elseif os(Linux)
      @available(*, deprecated, message: "use Player2")
      #endif
      final class Player {
        var score = 0
      }
      """
    } expansion: {
      """
      #if DEBUG
      @MainActor
      #elseif os(Linux)
      @available(*, deprecated, message: "use Player2")
      #endif
      final class Player {
        @TrackedProperty(0)
        var score = 0

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Player, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Player, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["score"]
        }
      }

      #if DEBUG
      #elseif os(Linux)
      @available(*, deprecated, message: "use Player2")
      #endif
      extension Player: nonisolated Tracking.Trackable {
      }

      #if DEBUG
      #elseif os(Linux)
      @available(*, deprecated, message: "use Player2")
      #endif
      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Player: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  @Test func publicFinalClassGetsAPublicStaticNameTable() {
    assertMacro {
      """
      @Trackable
      public final class Score {
        public var points = 0
      }
      """
    } expansion: {
      """
      public final class Score {
        @TrackedProperty(0)
        public var points = 0

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Score, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Score, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        public nonisolated static var _$trackedPropertyNames: [String] {
          ["points"]
        }
      }

      extension Score: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Score: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  @Test func packageNonFinalClassGetsAClassVar() {
    assertMacro {
      """
      @Trackable
      package class Score {
        var points = 0
      }
      """
    } expansion: {
      """
      package class Score {
        @TrackedProperty(0)
        var points = 0

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Score, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Score, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        package nonisolated class var _$trackedPropertyNames: [String] {
          ["points"]
        }
      }

      extension Score: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Score: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }
}

import MacroTesting
import Testing

/// The coding keys `@Trackable` generates for a Codable class (the same code serves
/// `@TrackedState`): under the properties' own names, not their `_` storage.
@Suite(.macros(classMacroOnly, record: .missing))
struct TrackableCodableExpansionTests {
  @Test func codableClassGetsCodingKeysUnderPropertyNames() {
    assertMacro {
      """
      @Trackable
      final class Settings: Codable {
        var query = ""
        @TrackingIgnored var visits = 0
        let version = 1
      }
      """
    } expansion: {
      """
      final class Settings: Codable {
        @TrackedProperty(0)
        var query = ""
        @TrackingIgnored var visits = 0
        let version = 1

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Settings, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Settings, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["query"]
        }

        private enum CodingKeys: String, CodingKey {
          case _query = "query"
          case visits
          case version
        }
      }

      extension Settings: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Settings: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  @Test func ownCodingKeysAreRespected() {
    assertMacro {
      """
      @Trackable
      final class Settings: Codable {
        var query = ""
        enum CodingKeys: String, CodingKey { case _query = "q" }
      }
      """
    } expansion: {
      """
      final class Settings: Codable {
        @TrackedProperty(0)
        var query = ""
        enum CodingKeys: String, CodingKey { case _query = "q" 
      }

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Settings, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Settings, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["query"]
        }
      }

      extension Settings: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Settings: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  @Test func codingKeysFollowTheIfConfigClauses() {
    assertMacro {
      """
      @Trackable
      final class Device: Codable {
        var name = ""
        #if os(iOS)
        var orientation = 0
        #else
        let build = 1
        #endif
        #if DEBUG
        func log() {}
        #endif
      }
      """
    } expansion: {
      """
      final class Device: Codable {
        @TrackedProperty(0)
        var name = ""
        #if os(iOS)
        var orientation = 0
        #else
        let build = 1
        #endif
        #if DEBUG
        func log() {}
        #endif

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Device, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Device, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["name", "orientation"]
        }

        private enum CodingKeys: String, CodingKey {
          case _name = "name"
          #if os(iOS)
          case _orientation = "orientation"
          #else
          case build
          #endif
        }
      }

      extension Device: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Device: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }
}

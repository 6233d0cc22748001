import MacroTesting
import Testing

/// What `@Trackable` decides for members other than a plain `var` at the top of the
/// class body: members inside `#if`, members with the library's tracking property
/// wrappers, and the generated members' own names. The property macro is left
/// unexpanded, so the numbering reads at a glance.
@Suite(.macros(classMacroOnly, record: .missing))
struct TrackableMemberKindsExpansionTests {
  @Test func onlyStoredVarsBecomeTracked() {
    assertMacro {
      """
      @Trackable
      final class Model {
        var count = 0
        let id = 1
        static var shared = 2
        var doubled: Int { count * 2 }
        @TrackingIgnored var cache = 3
      }
      """
    } expansion: {
      """
      final class Model {
        @TrackedProperty(0)
        var count = 0
        let id = 1
        static var shared = 2
        var doubled: Int { count * 2 }
        @TrackingIgnored var cache = 3

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
          ["count"]
        }
      }

      extension Model: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Model: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  /// Numbers are unique across every clause (the macro cannot know which one the
  /// compiler keeps); a name declared in two clauses gets one number. (swift-syntax's
  /// expansion, which these tests use, does not give members inside `#if` their
  /// attributes; the compiler does, and the parity and property-name tests check it.)
  @Test func membersInsideIfConfigAreNumberedAcrossClauses() {
    assertMacro {
      """
      @Trackable
      final class Device {
        var name = ""
        #if os(iOS)
        var orientation = 0
        #elseif os(macOS)
        var windowCount = 1
        #if DEBUG
        var inspector = false
        #endif
        #else
        var orientation = 0
        #endif
        var battery = 1.0
      }
      """
    } expansion: {
      """
      final class Device {
        @TrackedProperty(0)
        var name = ""
        #if os(iOS)
        var orientation = 0
        #elseif os(macOS)
        var windowCount = 1
        #if DEBUG
        var inspector = false
        #endif
        #else
        var orientation = 0
        #endif
        @TrackedProperty(4)
        var battery = 1.0

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
          ["name", "orientation", "windowCount", "inspector", "battery"]
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

  /// `@Tracked` and `@TrackedLazy` properties are wrapped by the library's wrappers,
  /// which the compiler expands: the macro leaves them alone (and keeps `@TrackedLazy`
  /// values out of the coding keys).
  @Test func propertiesWithTrackingWrappersAreLeftToThem() {
    assertMacro {
      """
      @Trackable
      final class Mixer: Codable {
        @Tracked @Clamped(0...10) var volume = 5
        @TrackedLazy(Mixer.makeLabel) var label: String
        var name = ""
      }
      """
    } expansion: {
      """
      final class Mixer: Codable {
        @Tracked @Clamped(0...10) var volume = 5
        @TrackedLazy(Mixer.makeLabel) var label: String
        @TrackedProperty(0)
        var name = ""

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Mixer, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Mixer, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["name"]
        }

        private enum CodingKeys: String, CodingKey {
          case volume
          case _name = "name"
        }
      }

      extension Mixer: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Mixer: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  /// The generated methods' generic parameters get unique names, so they cannot
  /// clash with a type of the class's (`Member`, `MutationResult`).
  @Test func genericParametersDoNotClashWithTheClassesTypes() {
    assertMacro {
      """
      @Trackable
      final class Graph<Member> {
        typealias MutationResult = Int
        var members: [Member] = []
      }
      """
    } expansion: {
      """
      final class Graph<Member> {
        typealias MutationResult = Int
        @TrackedProperty(0)
        var members: [Member] = []

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Graph, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Graph, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["members"]
        }
      }

      extension Graph: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Graph: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }

  /// A method of the class's own inside `#if` counts where it is compiled: the
  /// properties go through the key-path methods everywhere, and the generated copy is
  /// compiled only where the class's own is not.
  @Test func customMethodInsideIfConfigIsReplacedWhereItIsLeftOut() {
    assertMacro {
      """
      @Trackable
      final class Logged {
        var field = 0
        #if DEBUG
        func withMutation<M, R>(keyPath: KeyPath<Logged, M>, _ mutation: () throws -> R) rethrows -> R {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
        #endif
        #if os(iOS)
        #elseif VERBOSE || TRACE
        func access<M>(keyPath: KeyPath<Logged, M>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }
        #else
        func access<M>(keyPath: KeyPath<Logged, M>) {}
        #endif
      }
      """
    } expansion: {
      """
      final class Logged {
        @TrackedProperty
        var field = 0
        #if DEBUG
        func withMutation<M, R>(keyPath: KeyPath<Logged, M>, _ mutation: () throws -> R) rethrows -> R {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
        #endif
        #if os(iOS)
        #elseif VERBOSE || TRACE
        func access<M>(keyPath: KeyPath<Logged, M>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }
        #else
        func access<M>(keyPath: KeyPath<Logged, M>) {}
        #endif

        @TrackingIgnored private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        #if !(!os(iOS) && (VERBOSE || TRACE) || !os(iOS) && !(VERBOSE || TRACE))
        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Logged, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }
        #endif

        #if !DEBUG
        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Logged, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
        #endif

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          []
        }
      }

      extension Logged: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Logged: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """
    }
  }
}

import MacroTesting
import Testing

/// `@Trackable`'s and `@TrackedExternally`'s errors and fix-its.
@Suite(.macros(trackingMacros, record: .missing))
struct TrackableDiagnosticTests {
  @Test func structIsRejected() {
    assertMacro {
      """
      @Trackable
      struct State {
        var count = 0
      }
      """
    } diagnostics: {
      """
      @Trackable
      ┬─────────
      ╰─ 🛑 '@Trackable' can only be applied to a class; 'State' is a struct (value types are copied, so there is no single instance to track)
      struct State {
        var count = 0
      }
      """
    }
  }

  @Test func enumIsRejected() {
    assertMacro {
      """
      @Trackable
      enum Mode { case on, off }
      """
    } diagnostics: {
      """
      @Trackable
      ┬─────────
      ╰─ 🛑 '@Trackable' can only be applied to a class; 'Mode' is an enum (value types are copied, so there is no single instance to track)
      enum Mode { case on, off }
      """
    }
  }

  @Test func actorIsRejected() {
    assertMacro {
      """
      @Trackable
      actor Store {
        var count = 0
      }
      """
    } diagnostics: {
      """
      @Trackable
      ┬─────────
      ╰─ 🛑 '@Trackable' can only be applied to a class; 'Store' is an actor (an actor's isolation does not allow synchronous tracking from outside)
      actor Store {
        var count = 0
      }
      """
    }
  }

  @Test func protocolIsRejected() {
    assertMacro {
      """
      @Trackable
      protocol Model {
        var count: Int { get }
      }
      """
    } diagnostics: {
      """
      @Trackable
      ┬─────────
      ╰─ 🛑 '@Trackable' can only be applied to a class; 'Model' is a protocol
      protocol Model {
        var count: Int { get }
      }
      """
    }
  }

  @Test func extensionIsRejected() {
    assertMacro {
      """
      @Trackable
      extension Model {}
      """
    } diagnostics: {
      """
      @Trackable
      ┬─────────
      ╰─ 🛑 '@Trackable' can only be applied to a class; 'Model' is an extension
      extension Model {}
      """
    }
  }

  /// With a type and an initial value, the fix-it can rewrite a `lazy var` into a
  /// `@TrackedLazy` one: the expression moves into a method, where `self` means the
  /// same as in the lazy initializer.
  @Test func lazyPropertyGetsBothFixIts() {
    assertMacro {
      """
      @Trackable
      final class Photo {
        var pixels: [UInt8] = []
        private lazy var thumbnail: Image = render(pixels, scale: 0.1)
      }
      """
    } diagnostics: {
      """
      @Trackable
      final class Photo {
        var pixels: [UInt8] = []
        private lazy var thumbnail: Image = render(pixels, scale: 0.1)
        ┬─────────────────────────────────────────────────────────────
        ╰─ 🛑 property 'thumbnail' cannot be tracked: Swift does not allow 'lazy' on a computed property, and tracking makes it computed; use '@TrackedLazy' for a lazily initialized tracked property; mark it '@TrackingIgnored' to keep it untracked
           ✏️ use '@TrackedLazy' with a method 'initialThumbnail()' that computes the first value
           ✏️ add '@TrackingIgnored'
      }
      """
    } fixes: {
      """
      @Trackable
      final class Photo {
        var pixels: [UInt8] = []
        @TrackedLazy(Photo.initialThumbnail) private var thumbnail: Image
        private func initialThumbnail() -> Image { render(pixels, scale: 0.1) }
      }
      """
    } expansion: {
      #"""
      final class Photo {
        var pixels: [UInt8] {
          @storageRestrictions(initializes: _pixels)
          init(initialValue) {
            _pixels = initialValue
          }
          get {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.pixels)
            return _pixels
          }
          set {
            guard Tracking.TrackingRegistrar.shouldNotify(_pixels, newValue) else {
              _pixels = newValue
              return
            }
            _$trackingRegistrar.withMutation(of: self, property: 0, keyPath: \.pixels) {
              _pixels = newValue
            }
          }
          _modify {
            _$trackingRegistrar.access(self, property: 0, keyPath: \.pixels)
            let modification = _$trackingRegistrar._beginModify(&_pixels)
            _$trackingRegistrar._willModify(self, property: 0, keyPath: \.pixels, modification)
            defer {
              _$trackingRegistrar._didModify(self, property: 0, keyPath: \.pixels, _$trackingRegistrar._endModify(&_pixels, modification))
            }
            yield &_pixels
          }
        }

        private var _pixels: [UInt8] = []
        @TrackedLazy(Photo.initialThumbnail) private var thumbnail: Image
        private func initialThumbnail() -> Image { render(pixels, scale: 0.1) }

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

        /// Records a read of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func access<__macro_local_6MemberfMu_>(keyPath: KeyPath<Photo, __macro_local_6MemberfMu_>) {
          _$trackingRegistrar.access(self, keyPath: keyPath)
        }

        /// Reports a mutation of the property at `keyPath`, for hand-written tracked properties.
        internal nonisolated func withMutation<__macro_local_6MemberfMu0_, __macro_local_14MutationResultfMu_>(
          keyPath: KeyPath<Photo, __macro_local_6MemberfMu0_>,
          _ mutation: () throws -> __macro_local_14MutationResultfMu_
        ) rethrows -> __macro_local_14MutationResultfMu_ {
          try _$trackingRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        /// The names of this class's numbered tracked properties; a property's number is its index.
        nonisolated static var _$trackedPropertyNames: [String] {
          ["pixels"]
        }
      }

      extension Photo: nonisolated Tracking.Trackable {
      }

      @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
      extension Photo: nonisolated Tracking.TrackingInterop.AppleObservable {
      }
      """#
    }
  }

  /// Without a type, the method would have no return type: only `@TrackingIgnored`.
  @Test func lazyPropertyWithoutATypeGetsTheIgnoredFixIt() {
    assertMacro {
      """
      @Trackable
      final class Model {
        lazy var expensive = compute()
      }
      """
    } diagnostics: {
      """
      @Trackable
      final class Model {
        lazy var expensive = compute()
        ┬─────────────────────────────
        ╰─ 🛑 property 'expensive' cannot be tracked: Swift does not allow 'lazy' on a computed property, and tracking makes it computed; use '@TrackedLazy' for a lazily initialized tracked property; mark it '@TrackingIgnored' to keep it untracked
           ✏️ add '@TrackingIgnored'
      }
      """
    } fixes: {
      """
      @Trackable
      final class Model {
        @TrackingIgnored lazy var expensive = compute()
      }
      """
    } expansion: {
      """
      final class Model {
        lazy var expensive = compute()

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

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
          []
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

  @Test func severalBindingsAreRejected() {
    assertMacro {
      """
      @Trackable
      final class Model {
        var x = 0, y = 0
      }
      """
    } diagnostics: {
      """
      @Trackable
      final class Model {
        var x = 0, y = 0
        ┬───────────────
        ╰─ 🛑 property 'x' cannot be tracked: declare each tracked property in its own 'var'; mark it '@TrackingIgnored' to keep it untracked
           ✏️ add '@TrackingIgnored'
      }
      """
    } fixes: {
      """
      @Trackable
      final class Model {
        @TrackingIgnored var x = 0, y = 0
      }
      """
    }
  }

  @Test func tuplePatternIsRejected() {
    assertMacro {
      """
      @Trackable
      final class Model {
        var (x, y) = (0, 0)
      }
      """
    } diagnostics: {
      """
      @Trackable
      final class Model {
        var (x, y) = (0, 0)
        ┬──────────────────
        ╰─ 🛑 property '(x, y)' cannot be tracked: tuple patterns cannot be tracked; declare each element in its own 'var'; mark it '@TrackingIgnored' to keep it untracked
           ✏️ add '@TrackingIgnored'
      }
      """
    } fixes: {
      """
      @Trackable
      final class Model {
        @TrackingIgnored var (x, y) = (0, 0)
      }
      """
    } expansion: {
      """
      final class Model {
        var (x, y) = (0, 0)

        private let _$trackingRegistrar = Tracking.TrackingRegistrar()

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
          []
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

  @Test func externalPropertyWithInitialValueIsRejected() {
    assertMacro {
      """
      @Trackable
      final class Model {
        @TrackedExternally(Storage())
        var volume: Double = 1
      }
      """
    } diagnostics: {
      """
      @Trackable
      final class Model {
        @TrackedExternally(Storage())
        ╰─ 🛑 '@TrackedExternally' property 'volume' takes its value from its storage; remove the initial value
        var volume: Double = 1
      }
      """
    }
  }

  @Test func externalPropertyWithAccessorsIsRejected() {
    assertMacro {
      """
      @Trackable
      final class Model {
        @TrackedExternally(Storage())
        var volume: Double { 1 }
      }
      """
    } diagnostics: {
      """
      @Trackable
         ╰─ 🛑 '@TrackedExternally' property 'volume' gets its accessors from its storage; remove the accessor block
      final class Model {
        @TrackedExternally(Storage())
        var volume: Double { 1 }
      }
      """
    }
  }
}

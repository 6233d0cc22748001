// Not built by this project's CI, which runs on Linux: written against SwiftUI's
// documented API (`View`, `State`, `ViewBuilder`) and the Swift 6 language mode, and
// meant to be checked by `.github/workflows/apple-platforms.yml` on a macOS runner.
#if canImport(SwiftUI)
  import Foundation
  import SwiftUI

  /// A view that tracks what its content reads and updates itself when any of it
  /// changes: SwiftUI for ``Trackable()`` models on every OS version SwiftUI runs on.
  ///
  /// ```swift
  /// struct ScoreView: View {
  ///   let player: Player          // a @Trackable class
  ///
  ///   var body: some View {
  ///     TrackedView {
  ///       Text("\(player.name): \(player.score)")
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// On iOS 17, macOS 14, tvOS 17 and watchOS 10 and later, SwiftUI already sees a
  /// tracked model's changes while ``TrackingInterop/relaysToAppleObservation`` is on
  /// (the default where SwiftUI exists), and `TrackedView` is not needed. Use it on
  /// earlier versions, and on any version with relaying turned off.
  ///
  /// Each evaluation of the content tracks what it reads, with
  /// ``withTracking(_:onChange:)``; the first change to any of it makes SwiftUI evaluate
  /// the view again (which tracks again). As with swift-perception's
  /// `WithPerceptionTracking`, only what this content reads *while it is built* is
  /// tracked: a child view's own `body`, and closures SwiftUI calls later (`List`
  /// rows, `sheet` content, `GeometryReader`), need a `TrackedView` of their own.
  ///
  /// A change made on the main thread invalidates the view at once (inside the change's
  /// transaction, so `withAnimation` animates it); a change made on another thread
  /// invalidates it on the main queue.
  public struct TrackedView<Content: View>: View {
    /// Bumped to make SwiftUI evaluate ``body`` again.
    @State private var version = 0
    private let content: () -> Content

    /// A view whose content is tracked.
    public init(@ViewBuilder content: @escaping () -> Content) {
      self.content = content
    }

    /// The content, built inside ``withTracking(_:onChange:)``.
    public var body: Content {
      // Reading the state makes `body` depend on it.
      let _ = version
      // Unchecked: the `State` handle (on storage SwiftUI keeps for this view) crosses
      // to the thread that makes the change only to be carried back to the main actor,
      // where it is mutated.
      let version = UncheckedSendable(_version)
      return withTracking(content, onChange: {
        TrackedViewInvalidation.onMainActor { version.value.wrappedValue &+= 1 }
      })
    }
  }

  /// Runs a view invalidation on the main actor: now if this is the main thread (so the
  /// change's SwiftUI transaction applies), otherwise soon, on the main queue.
  enum TrackedViewInvalidation {
    static func onMainActor(_ invalidate: @escaping @MainActor @Sendable () -> Void) {
      if Thread.isMainThread {
        MainActor.assumeIsolated(invalidate)
      } else {
        DispatchQueue.main.async { MainActor.assumeIsolated(invalidate) }
      }
    }
  }
#endif

// README's and the TrackingCombine article's Combine examples: a tracked property's
// publisher in a `sink`, and an `ObservableObject` read inside tracking. They compile
// against Apple's Combine, and on Linux against OpenCombine (trait `OpenCombine`).
#if canImport(Combine) || OpenCombine
  #if canImport(Combine)
    import Combine
  #else
    import OpenCombine
  #endif
  import TrackingCombine

  /// `publisher(for:)` in a `sink` (the article's first example, README's too).
  func printScores(of player: Player) -> AnyCancellable {
    player.publisher(for: \.score).sink { print("score is now", $0) }
  }

  /// The article's legacy model.
  final class LegacySettings: ObservableObject {
    @Published var theme = "light"
  }

  /// README's `withTracking` over an `ObservableObject` and a tracked model.
  func layOut(legacy: LegacySettings, cart: Cart, setNeedsLayout: @escaping @Sendable () -> Void) {
    withTracking { render(legacy.tracked.theme, cart.items) } onChange: { setNeedsLayout() }
  }

  /// The article's `observe` over both, from the main actor, as an app calls it (a
  /// nonisolated caller may not capture these non-`Sendable` models in it).
  @MainActor func observeSettings(_ settings: LegacySettings, cart: Cart) -> TrackingToken {
    observe { render(settings.tracked.theme, cart.items) }
  }

  private func render(_ theme: String, _ items: [String]) {}
#endif

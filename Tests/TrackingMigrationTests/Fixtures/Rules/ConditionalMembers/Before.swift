import SwiftUI

/// Player chrome whose state differs per platform.
final class PlayerChrome: ObservableObject {
    @Published var isScrubbing = false

    #if os(iOS)
    @Published var dragOffset: CGFloat = 0
    var lastTouch: CGPoint?
    #elseif os(tvOS)
    @Published
    var isConfirmingExit = false
    #else
    #if DEBUG
    @Published var debugOverlay = true
    #endif
    #endif
}

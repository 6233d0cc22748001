import SwiftUI
import Tracking

/// Player chrome whose state differs per platform.
@Trackable final class PlayerChrome {
    var isScrubbing = false

    #if os(iOS)
    var dragOffset: CGFloat = 0
    @TrackingIgnored var lastTouch: CGPoint?
    #elseif os(tvOS)
    var isConfirmingExit = false
    #else
    #if DEBUG
    var debugOverlay = true
    #endif
    #endif
}

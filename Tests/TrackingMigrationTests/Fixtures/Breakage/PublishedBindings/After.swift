import Combine
import Tracking

/// A rectangle being dragged: both coordinates in one declaration.
@Trackable final class Selection {
    var x = 0.0
    var y = 0.0
    private(set) var width: Double = 0
    private(set) var height: Double // set by resize(to:)
    @TrackingIgnored var scale = 1.0
    @TrackingIgnored var angle = 0.0

    init() {
        height = 0
    }
}

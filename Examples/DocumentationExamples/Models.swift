// The models the documentation's Apple-framework examples use. This target only
// compiles: on Apple systems by `swift build --build-tests` and the iOS job of
// .github/workflows/apple-platforms.yml, on Linux by Scripts/check-apple-platforms.sh
// against the stub SwiftUI and Combine modules (see Package.swift).
import Tracking

/// README and "SwiftUI and Apple's Observation": a profile a form edits.
@Trackable final class Profile {
  var name = ""
  var isPublic = false
}

/// The TrackingCombine article and `TrackedView`'s documentation: a player whose score
/// is shown and published.
@Trackable final class Player {
  var name = ""
  var score = 0
}

/// README's continuous-observation examples: a cart.
@Trackable final class Cart {
  var items: [String] = []
  var coupon: String?
}

/// "Tracked collections": a message of an inbox, a plain value.
struct Message: Identifiable, Equatable {
  let id: Int
  var subject: String
  var isRead = false
}

/// "Tracked collections": an inbox whose messages are tracked one by one.
@Trackable final class Inbox {
  var messages: TrackedList<Message> = []
}

import Combine
import SwiftUI

/// A two-space file: what the tool adds follows its indentation.
@Observable final class Player {
  var volume = 0.5
  var isMuted = false
  @ObservationIgnored @AppStorage("player.rate") private var _rate: Double = 1.0
  var rate: Double {
    get {
      access(keyPath: \.rate)
      return _rate
    }
    set {
      withMutation(keyPath: \.rate) { _rate = newValue }
    }
  }

  func mute(_ muted: Bool, announce: Bool) {
    isMuted = muted
  }
}

@Observable final class Deck {
  let player = Player()

  init() {
  }
}

/// Synthesized coding.
@Observable final class Track: Codable {
  var title = ""
  @ObservationIgnored var length = 0

  func rename(_ text: String) {
    title = text
  }

  enum CodingKeys: String, CodingKey {
    case _title = "title"
    case length
  }
}

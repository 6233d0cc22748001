import Combine
import SwiftUI

/// A two-space file: what the tool adds follows its indentation.
final class Player: ObservableObject {
  @Published var volume = 0.5
  var isMuted = false
  @AppStorage("player.rate") var rate = 1.0

  func mute(_ muted: Bool, announce: Bool) {
    isMuted = muted
    if announce {
      objectWillChange.send()
    }
  }
}

final class Deck: ObservableObject {
  let player = Player()
  private var cancellables = Set<AnyCancellable>()

  init() {
    player.objectWillChange
      .sink { [weak self] _ in self?.objectWillChange.send() }
      .store(in: &cancellables)
  }
}

/// Synthesized coding.
final class Track: ObservableObject, Codable {
  var title = ""
  var length = 0

  func rename(_ text: String) {
    title = text
    objectWillChange.send()
  }
}

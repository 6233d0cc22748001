import SwiftUI

/// Preferences a settings screen edits; the values live in UserDefaults.
final class Preferences: ObservableObject {
  @AppStorage("fontSize") var fontSize: Double = 14
  @AppStorage("theme") public var theme = "dark"
  @AppStorage("lastAccount") var lastAccount: String?
  @Published var draft = ""
}

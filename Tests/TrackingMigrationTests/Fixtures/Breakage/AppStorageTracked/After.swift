import SwiftUI
import Tracking

/// Preferences a settings screen edits; the values live in UserDefaults.
@Trackable final class Preferences {
  @TrackingIgnored @AppStorage("fontSize") private var _fontSize: Double = 14
  var fontSize: Double {
    get {
      access(keyPath: \.fontSize)
      return _fontSize
    }
    set {
      withMutation(keyPath: \.fontSize) { _fontSize = newValue }
    }
  }
  @TrackingIgnored @AppStorage("theme") private var _theme: String = "dark"
  public var theme: String {
    get {
      access(keyPath: \.theme)
      return _theme
    }
    set {
      withMutation(keyPath: \.theme) { _theme = newValue }
    }
  }
  @TrackingIgnored @AppStorage("lastAccount") private var _lastAccount: String?
  var lastAccount: String? {
    get {
      access(keyPath: \.lastAccount)
      return _lastAccount
    }
    set {
      withMutation(keyPath: \.lastAccount) { _lastAccount = newValue }
    }
  }
  var draft = ""
}

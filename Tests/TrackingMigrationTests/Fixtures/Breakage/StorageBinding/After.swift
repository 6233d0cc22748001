import SwiftUI

@Observable final class TranslationSettings {
    @MainActor static let shared = TranslationSettings()
    @ObservationIgnored @AppStorage("alwaysUseDeepL") private var _alwaysUseDeepL: Bool = false
    var alwaysUseDeepL: Bool {
        get {
            access(keyPath: \.alwaysUseDeepL)
            return _alwaysUseDeepL
        }
        set {
            withMutation(keyPath: \.alwaysUseDeepL) { _alwaysUseDeepL = newValue }
        }
    }
    @ObservationIgnored @AppStorage("deepLKey") private var _deepLKey: String = ""
    var deepLKey: String {
        get {
            access(keyPath: \.deepLKey)
            return _deepLKey
        }
        set {
            withMutation(keyPath: \.deepLKey) { _deepLKey = newValue }
        }
    }
}

struct TranslationSettingsView: View {
    @Environment(TranslationSettings.self) private var settings

    var body: some View {
        Form {
            Toggle(isOn: Bindable(settings).alwaysUseDeepL) {
                Text("Always use DeepL")
            }
            TextField("Key", text: Bindable(TranslationSettings.shared).deepLKey)
        }
    }
}

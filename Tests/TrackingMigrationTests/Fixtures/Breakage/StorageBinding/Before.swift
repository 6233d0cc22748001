import SwiftUI

final class TranslationSettings: ObservableObject {
    @MainActor static let shared = TranslationSettings()
    @AppStorage("alwaysUseDeepL") var alwaysUseDeepL = false
    @AppStorage("deepLKey") var deepLKey = ""
}

struct TranslationSettingsView: View {
    @EnvironmentObject private var settings: TranslationSettings

    var body: some View {
        Form {
            Toggle(isOn: settings.$alwaysUseDeepL) {
                Text("Always use DeepL")
            }
            TextField("Key", text: TranslationSettings.shared.$deepLKey)
        }
    }
}

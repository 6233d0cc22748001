import SwiftUI

// The `$admin` binding lives in another file than the property declaration.
extension SessionView {
    var noteEditor: some View {
        TextField("Note", text: $admin.note)
    }
}
